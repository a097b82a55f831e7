"""A small third-party agent package, as a plugin author would write it, for the registry tests.

The tests make it look installed by writing a ``kemps_test_plugin-0.1.dist-info`` whose ``entry_points.txt``
declares these objects in the ``kemps_sim.agents`` group, and putting this folder on ``sys.path``. It uses only
the public agent boundary (``kemps_sim.agent``, ``intents``, ``cards``), never the built-in ``agents`` package.
"""

from __future__ import annotations

import numpy as np

from kemps_sim.agent import BaseAgent
from kemps_sim.cards import RANK, is_four_of_a_kind, rank_counts
from kemps_sim.intents import CallKemps, Gesture, Intent, SayStalled, Swap, Wait
from kemps_sim.observation import Observation


class TesterAgent(BaseAgent):
    """Takes middle cards of the rank it holds most of, signals four of a kind, calls on its partner's signal."""

    name = "tester"
    description = "test plugin: collects its most-held rank one card at a time and calls on the partner's signal"

    def __init__(self, patience: float = 1.5, resignal: float = 3.0):
        self.patience = patience
        self.resignal = resignal

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        super().start_match(seat, players, rng)
        self._round = -1

    def decide(self, obs: Observation) -> Intent:
        if obs.round_index != self._round:  # a new round: forget the last one
            self._round, self._read, self._version, self._since = obs.round_index, 0, -1, 0.0
            self._said_on, self._signalled = -1, float("-inf")
        if obs.middle_version != self._version:
            self._version, self._since = obs.middle_version, obs.now
        hand, middle = obs.hand, obs.middle
        counts = rank_counts(hand)
        if obs.owed:  # drop-first: pick up the most useful middle cards
            return Swap((), tuple(sorted(middle, key=lambda c: (-counts.get(RANK[c], 0), c))[:obs.owed]))
        fresh = obs.percepts[self._read:]
        self._read = len(obs.percepts)
        if any(p.gesturer == obs.partner and p.gesture == obs.signal for p in fresh):
            return CallKemps()
        if is_four_of_a_kind(hand):
            if obs.now - self._signalled >= self.resignal:
                self._signalled = obs.now
                return Gesture(obs.signal)
            return Wait(timeout=self.resignal - (obs.now - self._signalled))
        most = max(counts.values())
        wanted = [c for c in middle if counts.get(RANK[c], 0) == most]
        if wanted and not obs.sweep_due:
            take = min(wanted)
            give = min((c for c in hand if RANK[c] != RANK[take]), key=lambda c: (counts[RANK[c]], c))
            return Swap((give,), (take,))
        return self._idle(obs)

    def _idle(self, obs: Observation) -> Intent:
        """Pass on the middle; say "stalled" once it has sat unchanged for ``patience`` seconds when allowed."""
        mode = obs.rules.fresh_middle
        if mode == "nobody_wants" or (mode == "dealer_decides" and obs.seat != obs.dealer):
            return Wait()
        if obs.refilling or obs.stall_pending_until is not None or self._said_on == obs.middle_version:
            return Wait()
        waited = obs.now - self._since
        if waited >= self.patience:
            self._said_on = obs.middle_version
            return SayStalled()
        return Wait(timeout=self.patience - waited)


def make_tester(patience: float = 1.5) -> TesterAgent:
    """Factory entry point: a tester that says "stalled" sooner (plugins may register factories, not classes)."""
    return TesterAgent(patience=patience)


NOT_AN_AGENT = 42
