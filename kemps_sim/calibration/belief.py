"""Regenerating :mod:`kemps_sim.belief.fitted`: the prior model and the rates of the signalling game, measured on
simulated play of the built-in reasoning agents (run by ``scripts/fit_belief.py``).

**The prior.** Every seat of every match is wrapped in a :class:`Recorder` that passes everything through to the
agent and, at each of the seat's decisions, notes the prior's features of every other player as that seat sees
them (:mod:`kemps_sim.belief.prior`). The trace says afterwards whether each player held four of a kind at that
moment. For each swap rule, a logistic regression of that label on the main effects of the features (maximum
likelihood with penalties, by ``scipy.optimize``) is fitted, then each cell of the features' table is moved
towards its own observed share as far as its rows allow (:func:`prior_coefficients`); rows the card logic settles
(impossible or certain) are left out.
Sampling at decisions rather than at random moments weighs the data as the belief is used.

**The rates**, per holding of four of a kind that was signalled, from its first signal to its end (a call, the
four broken, the round over): the rate of signals while holding (one over the mean gap between a holder's
signals); the median lag from four of a kind to the first signal; the rate at which the partner calls a right
Kemps; and the rate at which one opposing pair steals it by a right Stop Kemps, apart for pairs whose signal had
been seen called in an earlier round and pairs whose had not.

The agents use the constants they measure, so the script iterates: play with the current constants, fit, play
again with the new ones. Same arguments, same file.
"""

from __future__ import annotations

import math
import pprint
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit

from kemps_sim.agent import Agent
from kemps_sim.belief import fitted
from kemps_sim.belief.model import Belief
from kemps_sim.belief.prior import (
    ELAPSED_BOUNDS,
    HAND_SIZE,
    KNOWN_LEVELS,
    STILL_BOUNDS,
    elapsed_bin,
    known_cards,
    still_bin,
)
from kemps_sim.engine import EngineConfig, MatchResult, simulate_match
from kemps_sim.lineup import resolve_lineup, split_lineup
from kemps_sim.observation import Observation
from kemps_sim.presets import load_rules
from kemps_sim.rules import Rules
from kemps_sim.seating import NOBODY, pair_of, partner
from kemps_sim.trace import CallHeard, Gestured, HandFour, RoundEnded

TABLE_SIZES = ("4", "6", "8")
SWAP_RULES = ("one_for_one", "multi", "multi_drop_first")
#: Penalties: a small ridge on every main effect (keeps sparse levels finite), a heavier one on the interactions of
#: known cards and stillness (sparse cells lean on the main effects), and smoothness between neighbouring bins of
#: stillness and of time (an empty bin takes its neighbour's value).
RIDGE, INTERACTION_RIDGE, SMOOTH = 1e-2, 1e3, 2.0
#: How many rows a cell of the prior's table needs before its own share of holders counts as much as the model's
#: (rows come in runs: every seat notes every other player at every decision, so they are far from independent).
CELL_WEIGHT = 100.0


# Recording the prior's features at every decision -------------------------------------------------------------
@dataclass
class Samples:
    """Feature rows (round, time, observer, target, k, still bin, bin of seconds since play opened) of one match."""

    rows: list[tuple[int, float, int, int, int, int, int]] = field(default_factory=list)


class Recorder:
    """An agent that plays exactly as the agent it wraps and notes, at each decision, the prior's features as the
    wrapped agent's belief sees them (agents without a :class:`Belief` are not recorded)."""

    def __init__(self, inner: Agent, samples: Samples) -> None:
        self.inner = inner
        self.samples = samples
        self.name = getattr(inner, "name", "recorded")

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        self.seat, self.players = seat, players
        self.inner.start_match(seat, players, rng)
        calling = getattr(self.inner, "calling", None)
        self.belief: Belief | None = getattr(calling, "belief", None)

    def choose_signal(self, obs: Observation) -> str:
        return self.inner.choose_signal(obs)

    def decide(self, obs: Observation):
        self._note(obs)
        return self.inner.decide(obs)

    def wakes_on(self, percept, obs):
        return self.inner.wakes_on(percept, obs)

    def wakes_on_middle(self, obs, arrived):
        return self.inner.wakes_on_middle(obs, arrived)

    def wakes_on_stall(self, obs):
        return getattr(self.inner, "wakes_on_stall", lambda _: True)(obs)

    def watches(self, obs):
        return self.inner.watches(obs)

    @property
    def gaze(self):
        return getattr(self.inner, "gaze", None)

    def _note(self, obs: Observation) -> None:
        """The prior's features of every other player as this seat's belief sees them (its noticed swaps)."""
        belief = self.belief
        if belief is None or not obs.playing:
            return
        belief.refresh(obs)  # the belief draws which swaps it noticed from its own stream: play is unchanged
        reader = belief.reader
        copies = 4 * obs.rules.decks
        now, hand, middle = obs.now, obs.hand, obs.middle
        elapsed = elapsed_bin(now - reader.started_at)
        for target in range(self.players):
            if target != self.seat:
                k = known_cards(reader, target, hand, middle, copies)
                self.samples.rows.append((obs.round_index, now, self.seat, target, k,
                                          still_bin(now - reader.still_since(target)), elapsed))


def recorded_lineup(rules: Rules, lineup: str, samples: Samples) -> list[Callable[[], Agent]]:
    """Factories that wrap every seat's agent of ``lineup`` in a :class:`Recorder` writing to ``samples``; the
    lineup's entries are repeated over the pairs (``"collector,watcher"`` at six players is collector, watcher,
    collector)."""
    entries = split_lineup(lineup)
    per_pair = [entries[pair % len(entries)] for pair in range(rules.pairs)]  # a pattern repeated over the pairs
    seats = resolve_lineup(per_pair, rules.players)
    return [_wrapped(factory, samples) for _, factory in seats]


def _wrapped(factory: Callable[[], Agent], samples: Samples) -> Callable[[], Agent]:
    return lambda: Recorder(factory(), samples)


def _labels(result: MatchResult, rows: Sequence[tuple]) -> np.ndarray:
    """1 where the target held four of a kind at the row's moment (episodes from HandFour events)."""
    episodes: dict[tuple[int, int], list[tuple[float, bool]]] = {}
    for rnd in result.rounds:
        for event in rnd.trace:
            if type(event) is HandFour:
                episodes.setdefault((rnd.index, event.seat), []).append((event.time, event.rank >= 0))
    out = np.zeros(len(rows), dtype=np.int8)
    for i, (rnd, time, _, target, *_rest) in enumerate(rows):
        state = False
        for at, holds in episodes.get((rnd, target), ()):
            if at > time:
                break
            state = holds
        out[i] = state
    return out


# The logistic fit ---------------------------------------------------------------------------------------------
def _difference_penalty(levels: int, weight: float) -> np.ndarray:
    """Penalty on the differences between neighbouring levels 1..levels-1 of a factor whose level 0 is the
    reference (0): sparse levels lean on their neighbours instead of falling to the reference."""
    d = np.zeros((levels - 1, levels - 1))
    for i in range(levels - 1):
        d[i, i] += 1.0
        if i:
            d[i, i - 1] -= 1.0
    return weight * d.T @ d


def _design(k: np.ndarray, still: np.ndarray, elapsed: np.ndarray,
            players: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The design matrix and its penalty matrix: intercept; main effects of ``k`` (ridge); stillness bins and bins
    of the seconds since play opened (each smooth: neighbouring bins are pulled together); the interactions of ``k``
    and stillness (shrunk harder, so that sparse cells lean on the main effects); table size (4 the reference)."""
    n_still, n_elapsed = len(STILL_BOUNDS) + 1, len(ELAPSED_BOUNDS) + 1
    cols: list[np.ndarray] = [np.ones(len(k))]
    blocks: list[np.ndarray] = [np.zeros((1, 1))]
    cols += [(k == kk).astype(float) for kk in range(1, KNOWN_LEVELS)]
    blocks.append(RIDGE * np.eye(KNOWN_LEVELS - 1))
    cols += [(still == b).astype(float) for b in range(1, n_still)]
    blocks.append(_difference_penalty(n_still, SMOOTH) + RIDGE * np.eye(n_still - 1))
    cols += [((k == kk) & (still == b)).astype(float) for kk in range(1, KNOWN_LEVELS) for b in range(1, n_still)]
    blocks.append(INTERACTION_RIDGE * np.eye((KNOWN_LEVELS - 1) * (n_still - 1)))
    cols += [(elapsed == b).astype(float) for b in range(1, n_elapsed)]
    blocks.append(_difference_penalty(n_elapsed, SMOOTH) + RIDGE * np.eye(n_elapsed - 1))
    cols += [(players == p).astype(float) for p in range(1, len(TABLE_SIZES))]
    blocks.append(RIDGE * np.eye(len(TABLE_SIZES) - 1))
    size = sum(b.shape[0] for b in blocks)
    penalty, at = np.zeros((size, size)), 0
    for block in blocks:
        n = block.shape[0]
        penalty[at:at + n, at:at + n] = block
        at += n
    return np.column_stack(cols), penalty


def fit_logistic(x: np.ndarray, y: np.ndarray, penalty: np.ndarray) -> np.ndarray:
    """Maximum-likelihood logistic coefficients with the quadratic penalty ½·βᵀ·penalty·β."""

    def loss(beta: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ beta
        p = expit(z)
        pb = penalty @ beta
        value = np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * float(beta @ pb)
        return float(value), x.T @ (p - y) + pb

    start = np.zeros(x.shape[1])
    start[0] = math.log(max(y.mean(), 1e-6) / max(1 - y.mean(), 1e-6))
    result = minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": 5000})
    return result.x


def prior_coefficients(beta: np.ndarray, k: np.ndarray, still: np.ndarray, elapsed: np.ndarray,
                       players: np.ndarray, x: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """The fitted model as the tables :class:`~kemps_sim.belief.prior.HoldPrior` reads: for each table size, one
    log-odds per cell of (known cards, stillness bin, elapsed bin).

    Each cell starts from the main-effects model and is moved towards the share of holders actually seen in it,
    as far as its rows allow: rate = (holders + CELL_WEIGHT·predicted) / (rows + CELL_WEIGHT). The main effects
    alone miss how the signs combine (a player who just swapped late in a round, say), and cells with few rows
    keep the model's value."""
    n_still, n_elapsed, n_sizes = len(STILL_BOUNDS) + 1, len(ELAPSED_BOUNDS) + 1, len(TABLE_SIZES)
    values = iter(beta[1:].tolist())
    k_main = [0.0] + [next(values) for _ in range(1, KNOWN_LEVELS)]
    s_main = [0.0] + [next(values) for _ in range(1, n_still)]
    both = [[0.0] * n_still] + [[0.0] + [next(values) for _ in range(1, n_still)] for _ in range(1, KNOWN_LEVELS)]
    e_main = [0.0] + [next(values) for _ in range(1, n_elapsed)]
    p_main = [0.0] + [next(values) for _ in range(1, n_sizes)]
    predicted = expit(x @ beta)
    table = np.array([[[[float(beta[0]) + p_main[n] + k_main[kk] + s_main[b] + both[kk][b] + e_main[e]
                         for e in range(n_elapsed)] for b in range(n_still)] for kk in range(KNOWN_LEVELS)]
                      for n in range(n_sizes)])
    cell = np.ravel_multi_index((players, k, still, elapsed), table.shape)
    rows = np.bincount(cell, minlength=table.size)
    held = np.bincount(cell, weights=y, minlength=table.size)
    expected = np.bincount(cell, weights=predicted, minlength=table.size)
    flat = table.reshape(-1)
    for index in np.flatnonzero(rows):
        model = expected[index] / rows[index]
        rate = (held[index] + CELL_WEIGHT * model) / (rows[index] + CELL_WEIGHT)
        flat[index] += _logit(rate) - _logit(model)
    return {size: [[[round(float(v), 3) for v in row] for row in block] for block in table[n]]
            for n, size in enumerate(TABLE_SIZES)}


def _logit(p: float) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return math.log(p / (1 - p))


# Rates of the signalling game ----------------------------------------------------------------------------------
@dataclass
class RateTally:
    """Counts and exposures (seconds) from first signal to the end of each signalled holding."""

    exposure: float = 0.0
    gaps: list[float] = field(default_factory=list)
    kemps: int = 0
    lags: list[float] = field(default_factory=list)
    steal: dict[bool, list[float]] = field(default_factory=lambda: {True: [0.0, 0.0], False: [0.0, 0.0]})

    def add(self, result: MatchResult) -> None:
        rules = result.rules
        n, pairs = rules.players, rules.pairs
        seen: set[tuple[int, str]] = set()  # (pair, gesture) cued in a call about the pair in an earlier round
        for rnd in result.rounds:
            self._round(rnd, n, pairs, seen, rules)
            for event in rnd.trace:
                if type(event) is CallHeard and event.cue:
                    about = event.seat if event.accused == NOBODY else event.accused
                    seen.add((pair_of(n, about), event.cue))

    def _round(self, rnd, n: int, pairs: int, seen: set[tuple[int, str]], rules: Rules) -> None:
        four_at: dict[int, float] = {}
        first: dict[int, float] = {}
        last: dict[int, float] = {}
        end_time = next((e.time for e in rnd.trace if type(e) is RoundEnded), rnd.end_time)

        def close(seat: int, at: float, how: str) -> None:
            if seat in first:
                exposure = max(at - first[seat], 0.0)
                self.exposure += exposure
                pair = pair_of(n, seat)
                known = (pair, rnd.signals[pair]) in seen
                stealers = sum(1 for p in range(pairs) if p != pair)
                tally = self.steal[known]
                tally[1] += exposure * stealers
                self.kemps += how == "kemps"
                tally[0] += how == "stolen"
            four_at.pop(seat, None)
            first.pop(seat, None)
            last.pop(seat, None)

        for event in rnd.trace:
            kind = type(event)
            if kind is HandFour:
                if event.rank >= 0:
                    four_at[event.seat] = event.time
                else:
                    close(event.seat, event.time, "broken")
            elif kind is Gestured and event.deliberate and event.holds_four and event.seat in four_at \
                    and event.gesture == rnd.signals[pair_of(n, event.seat)]:
                if event.seat in first:
                    self.gaps.append(event.time - last[event.seat])
                else:
                    first[event.seat] = event.time
                    self.lags.append(event.time - four_at[event.seat])
                last[event.seat] = event.time
            elif kind is CallHeard and event.right and event.ends_round:
                if event.accused == NOBODY:
                    holder = partner(n, event.seat)
                    close(holder, event.time, "kemps")
                else:
                    for seat in (event.accused, partner(n, event.accused)):
                        close(seat, event.time, "stolen")
        for seat in list(first):
            close(seat, end_time, "open")

    def rates(self) -> dict[str, float]:
        r = 4
        known, unknown = self.steal[True], self.steal[False]
        return {"signal": round(1.0 / float(np.mean(self.gaps)), r) if self.gaps else fitted.RATES["signal"],
                "signal_lag": round(float(np.median(self.lags)), r) if self.lags else fitted.RATES["signal_lag"],
                "kemps_after_signal": round(self.kemps / self.exposure, r) if self.exposure
                else fitted.RATES["kemps_after_signal"],
                "steal_known": round(known[0] / known[1], r) if known[1] else fitted.RATES["steal_known"],
                "steal_unknown": round(unknown[0] / unknown[1], r) if unknown[1] else fitted.RATES["steal_unknown"]}


# One pass and the whole script ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class FitPlan:
    """What to play: lineups, presets and table sizes, matches of each, the master seed, rounds per match."""

    lineups: tuple[str, ...] = ("collector", "collector,watcher", "watcher,collector")
    presets: tuple[str, ...] = ("standard", "german", "party", "kems", "peanut_butter")
    players: tuple[int, ...] = (4, 6, 8)
    matches: int = 20
    seed: int = 2026
    max_rounds: int = 8

    def tables(self) -> Iterable[tuple[str, int, str, int]]:
        """(preset, players, lineup, seed) of every match; each table's seeds come from its own child of one
        SeedSequence, so adding a table leaves the others' matches as they were."""
        index = 0
        for preset in self.presets:
            for n in self.players:
                for lineup in self.lineups:
                    child = np.random.SeedSequence(self.seed, spawn_key=(index,))
                    index += 1
                    for seed in child.generate_state(self.matches, dtype=np.uint32):
                        yield preset, n, lineup, int(seed)


@dataclass
class FitData:
    """Feature arrays and labels of the prior, and the rate tallies, of one pass."""

    k: list[np.ndarray] = field(default_factory=list)
    still: list[np.ndarray] = field(default_factory=list)
    elapsed: list[np.ndarray] = field(default_factory=list)
    players: list[np.ndarray] = field(default_factory=list)
    swap: list[np.ndarray] = field(default_factory=list)
    label: list[np.ndarray] = field(default_factory=list)
    rates: RateTally = field(default_factory=RateTally)
    matches: int = 0
    rounds: int = 0


def play(plan: FitPlan, progress: Callable[[int, int], None] | None = None) -> FitData:
    """Play every match of the plan with recorders and collect the data."""
    data = FitData()
    config = EngineConfig(max_rounds=plan.max_rounds)
    tables = list(plan.tables())
    for i, (preset, n, lineup, seed) in enumerate(tables):
        rules = load_rules(preset, players=n)
        samples = Samples()
        result = simulate_match(rules, recorded_lineup(rules, lineup, samples), seed=seed, config=config)
        rows = samples.rows
        if rows:
            arr = np.array([r[4:] for r in rows], dtype=np.int16)
            data.k.append(arr[:, 0])
            data.still.append(arr[:, 1])
            data.elapsed.append(arr[:, 2])
            data.players.append(np.full(len(rows), TABLE_SIZES.index(str(n)), dtype=np.int16))
            data.swap.append(np.full(len(rows), SWAP_RULES.index(rules.swap), dtype=np.int16))
            data.label.append(_labels(result, rows))
        data.rates.add(result)
        data.matches += 1
        data.rounds += len(result.rounds)
        if progress is not None:
            progress(i + 1, len(tables))
    return data


def fit(data: FitData) -> tuple[dict[str, Any], dict[str, float], dict[str, Any]]:
    """Prior coefficients (one model per swap rule: the rule changes how fours are made and how still a holder
    sits), rates and a summary (sample sizes, calibration by decile per swap rule) from one pass's data."""
    k, still, elapsed = (np.concatenate(a) for a in (data.k, data.still, data.elapsed))
    players, swap, label = (np.concatenate(a) for a in (data.players, data.swap, data.label))
    modelled = (k >= 0) & (k < HAND_SIZE)
    prior: dict[str, Any] = {}
    calibration: dict[str, list] = {}
    for index, rule in enumerate(SWAP_RULES):
        rows = modelled & (swap == index)
        if not rows.any():
            prior[rule] = fitted.PRIOR[rule]
            continue
        x, penalty = _design(k[rows], still[rows], elapsed[rows], players[rows])
        y = label[rows].astype(float)
        beta = fit_logistic(x, y, penalty)
        prior[rule] = coefficients = prior_coefficients(beta, k[rows], still[rows], elapsed[rows], players[rows], x, y)
        tables = np.array([coefficients[size] for size in TABLE_SIZES])
        p = expit(tables[players[rows], k[rows], still[rows], elapsed[rows]])
        order = np.argsort(p)
        calibration[rule] = [(round(float(p[i].mean()), 4), round(float(y[i].mean()), 4), len(i))
                             for i in np.array_split(order, 10)]
    summary = {
        "matches": data.matches, "rounds": data.rounds, "decisions_x_players": len(k),
        "modelled": int(modelled.sum()), "impossible": int((k < 0).sum()),
        "impossible_but_held": int(label[k < 0].sum()), "certain": int((k >= HAND_SIZE).sum()),
        "certain_and_held": int(label[k >= HAND_SIZE].sum()), "held_share": round(float(label[modelled].mean()), 5),
        "calibration_deciles": calibration,
    }
    return prior, data.rates.rates(), summary


def write_module(path: str, prior: dict[str, Any], rates: dict[str, float], provenance: dict[str, Any]) -> None:
    """Write :mod:`kemps_sim.belief.fitted` with the given constants."""
    text = f'''"""Constants measured on simulated play by ``scripts/fit_belief.py``: do not edit; run the script.

See :mod:`kemps_sim.calibration.belief` for how each is measured.
"""

#: How the constants were made: the script's arguments, the sample sizes and the prior's calibration by decile
#: (mean predicted, share observed, rows) on the data it was fitted to.
PROVENANCE = {pprint.pformat(provenance, width=112, sort_dicts=False, compact=True)}

#: The prior model of :mod:`kemps_sim.belief.prior`, one per swap rule: logit P(holds four of a kind) by lookups.
PRIOR = {pprint.pformat(prior, width=112, sort_dicts=False, compact=True)}

#: Rates of the signalling game, per second, and the lag (s) from four of a kind to the first signal.
RATES = {pprint.pformat(rates, width=112, sort_dicts=False)}
'''
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def run(plan: FitPlan, iterations: int, path: str | None,
        progress: Callable[[int, int], None] | None = None) -> tuple[dict[str, Any], dict[str, float], dict[str, Any]]:
    """Play and fit ``iterations`` times, the agents using each pass's constants in the next; write the module.

    The constants in use are restored afterwards: writing the module changes what the next process loads, not
    this one."""
    prior = rates = summary = None
    before = fitted.PRIOR, fitted.RATES
    try:
        for _ in range(iterations):
            data = play(plan, progress)
            prior, rates, summary = fit(data)
            fitted.PRIOR, fitted.RATES = prior, rates  # the next pass's agents read these
    finally:
        fitted.PRIOR, fitted.RATES = before
    assert prior is not None and rates is not None and summary is not None
    provenance = {"script": "scripts/fit_belief.py", "lineups": list(plan.lineups), "presets": list(plan.presets),
                  "players": list(plan.players), "matches_per_table": plan.matches, "seed": plan.seed,
                  "max_rounds": plan.max_rounds, "iterations": iterations, **summary}
    if path is not None:
        write_module(path, prior, rates, provenance)
    return prior, rates, provenance
