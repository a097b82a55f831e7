"""``watcher``: a Bayesian reader of the other pairs that calls Stop Kemps on the opponent most likely to hold four of
a kind once that belief passes ``threshold`` (004: "call Stop Kemps the instant you see the signal").

For every opponent o the log-odds that o holds four of a kind now are the sum of

- the prior's, ``logit(prior)`` (``prior``: the chance that a given opponent holds four of a kind at a given moment);
- each gesture percept of o in the last ``window`` seconds, weighed by how likely its gesture is o's pair's signal
  (learned from the calls heard, :mod:`agents.reading`);
- what o takes (public): how many cards of the rank it collects it has taken, net of throws, through
  :data:`TAKES_LLR`, weighed by ``take_weight`` ("a player taking every nine is two nines from a signal", 004, 001);
- stillness (public): the seconds since o's last swap (:func:`agents.calling.stillness_llr`), weighed by
  ``stillness``.

Both tables were measured on collector tables, at random moments of 150 matches of four collectors (standard):
a seat that has taken three of a rank holds four of a kind 15 times as often as one that has taken two.

Under ``stop_kemps_reveals = accused_pair`` a pair is caught if either player holds it, so the pair's belief is
1 − (1 − p₁)(1 − p₂) and the accused is the likelier one. Only allowed targets are named
(:func:`kemps_sim.scoring.allowed_stop_targets`), never while barred (003). After a call a pair is not accused again
until a new percept of it arrives. The watcher watches every gesture (``watches`` → None); it collects and calls
Kemps like a collector, with its own ``kemps_threshold`` and ``kemps_prior``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from agents.calling import PartnerBelief, check_probability, logit, stillness_llr
from agents.collector import Collector
from agents.composed import check_non_negative, check_positive
from agents.reading import SignalKnowledge
from agents.tracking import TableReader
from kemps_sim.intents import CallStopKemps
from kemps_sim.observation import Observation
from kemps_sim.perception import Percept
from kemps_sim.scoring import allowed_stop_targets

#: A percept worth less than this log-likelihood ratio does not wake a waiting watcher.
WAKE_LLR = 0.5
#: Log-likelihood ratio (holds four against not) of the net number of cards of its most-taken rank a seat has
#: taken this round: 0, 1, 2, 3, 4 or more. Measured (see the module doc): P(k | holder) / P(k | other), the
#: unobserved ends capped at ±3.
TAKES_LLR: tuple[float, ...] = (-3.0, -2.57, -0.05, 2.67, 3.0)


class StopCalling:
    """The stop-calling part: beliefs about every opponent and the threshold for Stop Kemps."""

    def __init__(self, seat: int, players: int, threshold: float, prior: float, take_weight: float,
                 stillness: float, window: float) -> None:
        self.seat, self.players, self.pairs = seat, players, players // 2
        self.need = logit(threshold)
        self.base = logit(prior)
        self.take_weight, self.stillness, self.window = take_weight, stillness, window
        self.knowledge = SignalKnowledge(self.pairs, seat % self.pairs)
        self._obs: Observation | None = None
        self.targets: tuple[int, ...] = ()

    def _new_round(self, obs: Observation) -> None:
        self._obs, self._percepts, self.read = obs, obs.percepts, 0
        self.evidence: dict[int, list[tuple[float, float]]] = {o: [] for o in obs.opponents}  # (made at, llr)
        self.cooled: set[int] = set()  # pairs already accused on the evidence at hand
        self.targets = allowed_stop_targets(obs.rules, self.seat)

    def log_odds(self, obs: Observation, reader: TableReader, seat: int) -> float:
        """Log-odds that opponent ``seat`` holds four of a kind now."""
        now, window = obs.now, self.window
        odds = self.base + sum(e for made, e in self.evidence[seat] if now - made <= window)
        odds += self.take_weight * TAKES_LLR[min(reader.most_taken(seat), 4)]
        if self.stillness:
            odds += self.stillness * stillness_llr(obs, seat)
        return odds

    def call(self, obs: Observation, reader: TableReader) -> CallStopKemps | None:
        if obs is not self._obs:
            self._new_round(obs)
        knowledge = self.knowledge
        knowledge.update(reader, obs.signals_allowed)
        percepts = self._percepts
        if len(percepts) != self.read:
            pairs = self.pairs
            for p in percepts[self.read:]:
                if p.gesturer in self.evidence:
                    self.evidence[p.gesturer].append((p.time, knowledge.evidence(p.gesturer % pairs, p.gesture, p.llr)))
                    self.cooled.discard(p.gesturer % pairs)
            self.read = len(percepts)
        if obs.barred_from_stop or not self.targets:
            return None
        belief = self._best(obs, reader)
        if belief is None:
            return None
        odds, accused = belief
        if odds < self.need:
            return None
        pair = accused % self.pairs
        self.cooled.add(pair)
        for seat in (pair, pair + self.pairs):
            self.evidence[seat] = []
        return CallStopKemps(accused)

    def _best(self, obs: Observation, reader: TableReader) -> tuple[float, int] | None:
        """The highest belief over the allowed targets (per pair under ``accused_pair``) and whom to accuse."""
        best: tuple[float, int] | None = None
        by_pair = obs.rules.stop_kemps_reveals == "accused_pair"
        pairs = self.pairs
        for pair in sorted({t % pairs for t in self.targets}):
            if pair in self.cooled:
                continue
            members = [s for s in (pair, pair + pairs) if s in self.targets]
            odds = {s: self.log_odds(obs, reader, s) for s in members}
            accused = max(members, key=lambda s: (odds[s], -s))
            value = odds[accused]
            if by_pair and len(members) == 2:
                p_none = math.prod(1.0 / (1.0 + math.exp(min(v, 50.0))) for v in odds.values())
                value = logit(min(max(1.0 - p_none, 1e-12), 1 - 1e-12))
            if best is None or value > best[0]:
                best = (value, accused)
        return best

    def wakes_on(self, percept: Percept, obs: Observation) -> bool:
        """An opponent's percept wakes the watcher if it could be the signal (not a blink of no weight)."""
        return (percept.gesturer in obs.opponents
                and self.knowledge.evidence(percept.gesturer % self.pairs, percept.gesture, percept.llr) > WAKE_LLR)

    def watches(self, obs: Observation) -> None:
        """Every gesture: any could be an opponent's signal."""
        return None


@dataclass(repr=False, eq=False)
class Watcher(Collector):
    """A collector that reads the other pairs and calls Stop Kemps (004: call it the instant you see the signal;
    001/004: watch what each opponent takes). Parameters of the reading: ``threshold`` and ``prior`` (for Stop
    Kemps), ``take_weight``, ``window`` and ``stillness``; for its own Kemps calls ``kemps_threshold`` and
    ``kemps_prior``."""

    threshold: float = 0.9
    prior: float = 0.02
    take_weight: float = 1.0
    window: float = 6.0
    kemps_threshold: float = 0.5
    kemps_prior: float = 0.5
    attention: str = "adaptive"

    name = "watcher"
    description = "Bayesian reader of the other pairs: learns their signals from calls and calls Stop Kemps"

    def __post_init__(self) -> None:
        super().__post_init__()
        check_probability(self.name, "kemps_threshold", self.kemps_threshold)
        check_probability(self.name, "kemps_prior", self.kemps_prior)
        check_non_negative(self.name, "take_weight", self.take_weight)
        check_positive(self.name, "window", self.window)

    def kemps_belief(self) -> PartnerBelief:
        return PartnerBelief(self.kemps_threshold, self.kemps_prior, self.stillness, self.knows_fakes)

    def make_stopping(self) -> StopCalling:
        return StopCalling(self.seat, self.players, self.threshold, self.prior, self.take_weight, self.stillness,
                           self.window)
