"""Evaluating a trained seat: its pair's win rate against opponent pairs under paired seeds, intervals across
training seeds, and what it learnt to do, read from the match traces.

**The pair evaluated** is the one it trained in: the model at one seat, its training partner at the other (the
policy learnt to play beside that partner, not beside itself). Each match seed is played once with that pair at
each pair's place in turn (at four players: with the seating swapped), on the same deals. The same matches with the
partner at both seats (``reference``) say what the model's seat adds to the pair.

**Intervals** follow rliable (Agarwal et al., 2021): a run's score against an opponent is its pair's win rate (ties
count by share), the aggregate over training seeds is the interquartile mean (``scipy.stats.trim_mean`` cutting a
quarter each side), and its interval a percentile bootstrap over seeds, stratified by opponent for the aggregate
over opponents (``scipy.stats.bootstrap`` resampling each opponent's seeds on their own). The reference, a single
policy, gets a bootstrap interval over match seeds instead.

**Behaviour** per match, of the model's seat: its deliberate gestures while holding four of a kind and while not
(of the pair's signal form, and in all), its Kemps, Double Kemps and Stop Kemps calls and how many were right, its
swaps and lost races.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from kemps_sim.engine.match import simulate_match
from kemps_sim.presets import load_rules
from kemps_sim.records import calls_rows
from kemps_sim.results import MatchResult
from kemps_sim.rules import Rules
from kemps_sim.seating import pair_of
from kemps_sim.trace import Gestured, RaceLost, Swapped

OPPONENTS = ("random", "naive", "collector", "watcher")
#: The behaviour counted per match (columns of a match row), and the calls they come from.
CALLS = {"kemps": "kemps", "double_kemps": "double", "stop_kemps": "stop"}
BEHAVIOUR = ("gestures_four", "gestures_no_four", "signals_four", "signals_no_four",
             *(f"{short}_{what}" for short in CALLS.values() for what in ("calls", "right")), "swaps", "races_lost")


@dataclass(frozen=True)
class Task:
    """Matches to play: a pair (the evaluated seat's entry, then its partner's) against one opponent on some
    seeds, each seed once per place of the pair. ``label`` and ``run`` name the pair in the rows."""

    label: str
    run: int  # the training seed (-1 for the reference)
    ours: tuple[str, str]
    opponent: str
    rules: dict[str, Any]
    seeds: tuple[int, ...]


def seating(players: int, ours: tuple[str, str], opponent: str, place: int) -> list[str]:
    """The lineup with our pair at pair ``place`` (its seat ``place`` the evaluated one, its partner opposite)."""
    half = players // 2
    lineup = [opponent] * players
    lineup[place], lineup[place + half] = ours
    return lineup


def behaviour(result: MatchResult, seat: int) -> dict[str, int]:
    """What the seat did in the match: the :data:`BEHAVIOUR` counts."""
    counts = dict.fromkeys(BEHAVIOUR, 0)
    pair = pair_of(result.rules.players, seat)
    for rnd in result.rounds:
        signal = rnd.signals[pair]
        for event in rnd.trace:
            kind = type(event)
            if kind is Gestured and event.seat == seat and event.deliberate:
                held = "four" if event.holds_four else "no_four"
                counts[f"gestures_{held}"] += 1
                if event.gesture == signal:
                    counts[f"signals_{held}"] += 1
            elif kind is Swapped and event.seat == seat:
                counts["swaps"] += 1
            elif kind is RaceLost and event.seat == seat:
                counts["races_lost"] += 1
    for call in calls_rows(result):
        if call["caller"] == seat:
            short = CALLS[call["call"]]
            counts[f"{short}_calls"] += 1
            counts[f"{short}_right"] += bool(call["right"])
    return counts


def play(task: Task) -> list[dict[str, Any]]:
    """Every match of the task, one row each: who, where, the match seed, the pair's result and the seat's
    behaviour."""
    rules = load_rules(task.rules)
    rows = []
    for seed in task.seeds:
        for place in range(rules.pairs):
            result = simulate_match(rules, seating(rules.players, task.ours, task.opponent, place), seed=seed)
            share = 1.0 / len(result.winners) if place in result.winners else 0.0
            rows.append({"label": task.label, "run": task.run, "opponent": task.opponent, "seed": seed,
                         "place": place, "seat": place, "won": share, "rank": result.ranking[place],
                         "rounds": len(result.rounds), "end_reason": result.end_reason,
                         **behaviour(result, place)})
    return rows


def tasks(models: Sequence[tuple[int, str]], partner: str, rules: Rules, opponents: Sequence[str],
          seeds: Sequence[int], chunk: int = 25, reference: bool = True) -> list[Task]:
    """The tasks of an evaluation: each model (training seed, lineup entry) beside ``partner`` against each
    opponent on ``seeds`` (in chunks), and with ``reference`` the partner in the model's seat too."""
    pairs = [(f"seed {run}", run, (entry, partner)) for run, entry in models]
    if reference:
        pairs.append(("reference", -1, (partner, partner)))
    knobs = rules.as_dict()
    seeds = tuple(seeds)
    return [Task(label, run, ours, opponent, knobs, seeds[start:start + chunk])
            for label, run, ours in pairs for opponent in opponents for start in range(0, len(seeds), chunk)]


def run_tasks(work: Sequence[Task], workers: int = 1,
              progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Play every task (in ``workers`` fresh processes if more than one); the rows in the tasks' order."""
    done: list[list[dict[str, Any]] | None] = [None] * len(work)
    if workers <= 1:
        for index, task in enumerate(work):
            done[index] = play(task)
            if progress:
                progress(index + 1, len(work))
    else:
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
            futures = {pool.submit(play, task): index for index, task in enumerate(work)}
            for count, future in enumerate(concurrent.futures.as_completed(futures), 1):
                done[futures[future]] = future.result()
                if progress:
                    progress(count, len(work))
    return [row for rows in done if rows is not None for row in rows]


def iqm(values: np.ndarray, axis: int = -1) -> np.ndarray:
    """The interquartile mean: the mean of the middle half (a quarter cut each side)."""
    return stats.trim_mean(values, 0.25, axis=axis)


def _interval(samples: Sequence[np.ndarray], statistic: Callable[..., np.ndarray], confidence: float,
              resamples: int, seed: int) -> tuple[float, float, float]:
    point = float(statistic(*samples))
    if all(len(s) < 2 or np.all(s == s[0]) for s in samples):
        return point, point, point  # nothing to resample: every score equal (or only one)
    found = stats.bootstrap(tuple(samples), statistic, n_resamples=resamples, confidence_level=confidence,
                            method="percentile", paired=False, vectorized=True, rng=np.random.default_rng(seed))
    return point, float(found.confidence_interval.low), float(found.confidence_interval.high)


def _pooled_iqm(*samples: np.ndarray, axis: int = -1) -> np.ndarray:
    return iqm(np.concatenate(samples, axis=axis), axis=axis)


def _mean(sample: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(sample, axis=axis)


def win_rates(rows: Sequence[dict[str, Any]], confidence: float = 0.95, resamples: int = 10_000, seed: int = 0
              ) -> list[dict[str, Any]]:
    """Per opponent and over all of them: the runs' IQM win rate with its stratified bootstrap interval, each
    run's rate, and the reference's rate with its interval over match seeds (both places of a seed resampled
    together); ``seed`` seeds the bootstrap."""
    runs: dict[str, dict[int, list[float]]] = {}
    reference: dict[str, dict[int, list[float]]] = {}
    for row in rows:
        into = reference if row["run"] < 0 else runs
        into.setdefault(row["opponent"], {}).setdefault(row["run"] if row["run"] >= 0 else row["seed"], []).append(
            row["won"])
    out = []
    per_opponent: list[np.ndarray] = []
    for opponent, by_run in runs.items():
        scores = np.array([np.mean(v) for _, v in sorted(by_run.items())])
        per_opponent.append(scores)
        point, low, high = _interval([scores], iqm, confidence, resamples, seed)
        out.append({"opponent": opponent, "runs": len(scores), "iqm": point, "low": low, "high": high,
                    "per_run": " ".join(f"{s:.3f}" for s in scores), **_reference(reference.get(opponent), confidence,
                                                                                   resamples, seed)})
    if len(per_opponent) > 1:
        point, low, high = _interval(per_opponent, _pooled_iqm, confidence, resamples, seed)
        out.append({"opponent": "all", "runs": len(per_opponent[0]), "iqm": point, "low": low, "high": high,
                    "per_run": "", **_reference(None, confidence, resamples, seed)})
    return out


def _reference(by_seed: dict[int, list[float]] | None, confidence: float, resamples: int, seed: int
               ) -> dict[str, float]:
    if not by_seed:
        return {"reference": np.nan, "reference_low": np.nan, "reference_high": np.nan}
    scores = np.array([np.mean(v) for _, v in sorted(by_seed.items())])
    point, low, high = _interval([scores], _mean, confidence, resamples, seed)
    return {"reference": point, "reference_low": low, "reference_high": high}


def behaviour_summary(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per pair label and opponent: matches, the mean per match of each behaviour count, and the share of each
    kind of call that was right (NaN when it never called)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["label"], row["opponent"]), []).append(row)
    out = []
    for (label, opponent), members in groups.items():
        line: dict[str, Any] = {"label": label, "opponent": opponent, "matches": len(members)}
        for name in BEHAVIOUR:
            line[name] = float(np.mean([m[name] for m in members]))
        for short in CALLS.values():
            calls = sum(m[f"{short}_calls"] for m in members)
            line[f"{short}_accuracy"] = sum(m[f"{short}_right"] for m in members) / calls if calls else np.nan
        out.append(line)
    return out
