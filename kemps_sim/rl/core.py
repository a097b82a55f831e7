"""The Kemps match behind every learning environment: seats, seeds, rewards, observations and the global state.

:class:`KempsSession` holds one environment's settings and plays one match at a time through a
:class:`~kemps_sim.rl.driver.MatchDriver`; the PettingZoo AEC and Parallel views (:mod:`kemps_sim.rl.kemps_v0`) and
the single-seat Gymnasium environment (:mod:`kemps_sim.rl.seat`) are thin layers over it.

**Rewards** come from the scoring rule. With ``reward="round"`` (the default) a seat's reward is the change in its
pair's *relative score*: its score (minus its letters under ``letters``, its points, or its rounds won) less the
mean score of the other pairs; it changes when a call is scored, and is paid to every learner at its next step. The
rewards of a match add up to its final relative score. With ``reward="match"`` the only reward comes at the end:
+1 for a pair ranked first alone, -1 for a pair ranked last alone, 0 otherwise (a tie for first or last).

**An action the mask forbids** (a learner that ignores the mask, or a sampler that does) is, with
``illegal="wait"`` (the default), played as the seat's fallback: ``Wait()`` or, for a seat that owes cards and may
not wait, its first legal action; the step's ``info["illegal_action"]`` says so. With ``illegal="raise"`` it is a
:class:`~kemps_sim.errors.ConfigError` naming the action.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from kemps_sim.cards import HAND_SIZE, RANK
from kemps_sim.engine.config import EngineConfig
from kemps_sim.engine.live import Live
from kemps_sim.engine.match import ProfilesLike, resolve_profiles, simulate_match
from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE, Repertoire
from kemps_sim.lineup import LineupLike, resolve_lineup
from kemps_sim.observation import Observation
from kemps_sim.presets import load_rules
from kemps_sim.results import EndReason, MatchResult
from kemps_sim.retrace import TableReplay
from kemps_sim.rl.actions import KempsActions
from kemps_sim.rl.driver import LearnerSeat, MatchDriver
from kemps_sim.rl.encoding import RANKS, ObservationEncoder
from kemps_sim.rl.session import SteppedMatch
from kemps_sim.rules import Rules
from kemps_sim.scoring import Standings, ranking
from kemps_sim.seating import pair_of
from kemps_sim.trace import Dealt, RoundEnded, TraceEvent

REWARDS = ("round", "match")
#: What an action whose mask is 0 does: play the seat's fallback instead (``"wait"``), or raise (``"raise"``).
ILLEGAL = ("wait", "raise")


def relative_score(rules: Rules, standings: Standings, pair: int) -> float:
    """The pair's score less the mean of the other pairs' (minus letters, points, or rounds won)."""
    if rules.scoring == "letters":
        scores = [-x for x in standings.letters]
    elif rules.scoring == "points":
        scores = list(standings.points)
    else:
        scores = list(standings.rounds_won)
    others = [s for p, s in enumerate(scores) if p != pair]
    return float(scores[pair] - sum(others) / len(others))


def match_reward(rules: Rules, standings: Standings, pair: int) -> float:
    """+1 for a pair ranked first alone, -1 for one ranked last alone, else 0."""
    ranks = ranking(rules, standings)
    mine = ranks[pair]
    if mine == 1 and ranks.count(1) == 1:
        return 1.0
    if mine == max(ranks) and ranks.count(mine) == 1 and mine != 1:
        return -1.0
    return 0.0


class KempsSession(SteppedMatch):
    """One environment's match: who learns, who else sits at the table, and what each learner is told."""

    def __init__(self, rules: Any = None, *, players: int | None = None, lineup: LineupLike = "collector",
                 learners: Sequence[int] = (0,), profiles: ProfilesLike = None, reward: str = "round",
                 illegal: str = "wait", config: EngineConfig | Mapping[str, Any] | None = None,
                 repertoire: Repertoire = DEFAULT_REPERTOIRE) -> None:
        overrides = {} if players is None else {"players": players}
        self.rules = rules if isinstance(rules, Rules) and not overrides else load_rules(rules, **overrides)
        n = self.rules.players
        learners = tuple(learners)
        if not learners or any(isinstance(s, bool) or not isinstance(s, int | np.integer) or not 0 <= s < n
                               for s in learners) or len(set(learners)) != len(learners):
            raise ConfigError(f"learners = {learners!r}: give one or more different seats from 0 to {n - 1}")
        self.learners = tuple(int(s) for s in learners)
        if reward not in REWARDS:
            raise ConfigError(f"reward = {reward!r}: must be one of {', '.join(REWARDS)}")
        self.reward = reward
        if illegal not in ILLEGAL:
            raise ConfigError(f"illegal = {illegal!r}: must be one of {', '.join(ILLEGAL)}")
        self.illegal = illegal
        self.illegal_played = False
        if isinstance(config, Mapping):
            config = EngineConfig.from_mapping(dict(config))
        self.config = config or EngineConfig()
        self.seats = resolve_lineup(lineup, n)
        self.profiles = resolve_profiles(profiles, n)  # checked now, not at the first reset
        self.repertoire = repertoire
        self.actions = KempsActions(self.rules, repertoire)
        self.encoder = ObservationEncoder(self.rules, repertoire.names)
        self.state_size = n * (HAND_SIZE * RANKS + RANKS) + self.actions.places * RANKS + self.rules.pairs + 2
        self.driver: MatchDriver | None = None
        self.views: dict[int, Observation] = {}
        self.latest: Observation | None = None
        self.seed = 0
        self.result: MatchResult | None = None

    # Playing ---------------------------------------------------------------------------------------------------
    def reset(self, seed: int) -> tuple[int, Observation] | None:
        """Start the match of ``seed`` (ending any match still running); return the first learner decision."""
        self.close()
        self.seed = int(seed)
        self.result = None
        driver = self.driver = MatchDriver(lambda: None)
        lineup: list[Any] = []
        for seat, (label, factory) in enumerate(self.seats):
            if seat in self.learners:
                factory = functools.partial(LearnerSeat, driver)
                label = "learner"
            entry = functools.partial(factory)
            entry.name = label  # type: ignore[attr-defined]  (the seat's display name in the result)
            lineup.append(entry)
        self.views = {}
        self.latest = None
        self.decided_at = dict.fromkeys(self.learners, 0.0)
        self.credited = dict.fromkeys(self.learners, 0.0)
        self.elapsed = 0.0
        self.events: list[TraceEvent] = []
        live = Live(listener=self._heard)
        driver._play = functools.partial(simulate_match, self.rules, lineup, self.profiles, self.seed,
                                         config=self.config, repertoire=self.repertoire, live=live, contained=False)
        return self._next(driver.start())

    def act(self, action: int) -> tuple[int, Observation] | None:
        """Play the pending decision's action; return the next learner decision (None: the match is over)."""
        driver = self.driver
        if driver is None or driver.pending is None:
            raise ConfigError("step: the match is over or was never started; call reset() first")
        seat, view = driver.pending
        mask = self.actions.mask(view)
        self.illegal_played = not 0 <= action < len(mask) or not mask[action]
        if self.illegal_played:
            if self.illegal == "raise":
                what = self.actions.describe(action) if 0 <= action < len(mask) else f"not 0 to {len(mask) - 1}"
                raise ConfigError(f"action {action} ({what}): not allowed for seat {seat} now (its action_mask is "
                                  "0); allowed: the actions whose mask is 1")
            action = int(mask.argmax())  # Wait() (action 0) when allowed, else the first legal action
        self.decided_at[seat] = self.clock(view)
        return self._next(driver.answer(self.actions.intent(action, view)))

    def _next(self, pending: tuple[int, Observation] | None) -> tuple[int, Observation] | None:
        if pending is None:
            self.result = self.driver.result if self.driver is not None else None
        else:
            self.views[pending[0]] = self.latest = pending[1]
        return pending

    def _heard(self, round_index: int, event: TraceEvent) -> None:
        """Every event of the match as it happens: the round's events (for the global state) and its clock."""
        kind = type(event)
        if kind is Dealt:
            self.events = []
        self.events.append(event)
        if kind is RoundEnded:
            self.elapsed += event.time


    # What learners are told ------------------------------------------------------------------------------------


    @property
    def truncated(self) -> bool:
        """Whether the match ended at the round cap (``EngineConfig.max_rounds``) rather than by its scoring."""
        return self.result is not None and self.result.end_reason == EndReason.ROUND_CAP.value

    def clock(self, view: Observation) -> float:
        """Simulated seconds since the match began, as of ``view`` (a view of the round being played)."""
        return self.elapsed + view.now

    def standings(self) -> Standings:
        """The standings now: the final ones once the match is over, else those of the round being played."""
        if self.result is not None:
            return self.result.standings
        view = self.latest
        if view is None:
            return Standings.start(self.rules)
        return Standings(view.letters, view.points, view.rounds_won)

    def potential(self, seat: int) -> float:
        """What the seat's rewards so far add up to (see the module's docstring)."""
        pair = pair_of(self.rules.players, seat)
        if self.reward == "match":
            return match_reward(self.rules, self.result.standings, pair) if self.result is not None else 0.0
        return relative_score(self.rules, self.standings(), pair)


    def since_decision(self, seat: int) -> float:
        """Simulated seconds from the seat's last decision to now (to its pending one, or to the match's end)."""
        view = self.views.get(seat)
        if self.result is not None:
            return self.elapsed - self.decided_at[seat]
        return 0.0 if view is None else self.clock(view) - self.decided_at[seat]

    def observe(self, seat: int) -> np.ndarray:
        """The seat's ``kemps-obs-v0`` vector as of its latest view (zeros before its first decision)."""
        view = self.views.get(seat)
        if view is None:
            return np.zeros(self.encoder.size, dtype=np.float32)
        return self.encoder.encode(view, self.since_decision(seat))

    def mask(self, seat: int) -> np.ndarray:
        """The seat's legal actions if its decision is due now; else only the no-op (the Parallel view's). A new
        array each time: a learner may keep it."""
        pending = self.pending
        if pending is not None and pending[0] == seat:
            return self.actions.mask(pending[1]).copy()
        return self.actions.noop_mask.copy()

    def state(self) -> np.ndarray:
        """The global state (float32 in [0, 1]): every seat's hand (places one-hot, then rank counts / 4), the
        middle's places one-hot, each pair's relative standing (as in the observation, pair 0 first), the round's
        time and index (as in the observation). For a centralised critic only: no seat may see it."""
        replay = TableReplay(self.rules.players)
        for event in self.events:
            replay.apply(event)
        out = np.zeros(self.state_size, dtype=np.float32)
        at = 0
        for hand in replay.hands:
            for place, card in enumerate(hand[:HAND_SIZE]):
                out[at + place * RANKS + RANK[card]] = 1.0
                out[at + HAND_SIZE * RANKS + RANK[card]] += 0.25
            at += HAND_SIZE * RANKS + RANKS
        for place, card in enumerate(replay.middle[:self.actions.places]):
            out[at + place * RANKS + RANK[card]] = 1.0
        at += self.actions.places * RANKS
        standings = self.standings()
        scores = (standings.letters if self.rules.scoring == "letters" else standings.points
                  if self.rules.scoring == "points" else standings.rounds_won)
        for pair, score in enumerate(scores):
            out[at + pair] = min(max(score / self.encoder.full_score, 0.0), 1.0)
        at += self.rules.pairs
        if self.events and type(self.events[-1]) is not RoundEnded:
            view = self.latest
            if view is not None:
                out[at] = min(view.now / 60.0, 1.0)
                out[at + 1] = min(view.round_index / 50.0, 1.0)
        return out
