"""``naive``: the baseline caller. It collects like ``collector`` but calls Kemps on every percept of its partner
making the pair's signal, whatever it knows of how rare fours and fidgets are, and never calls Stop Kemps or
learns anything. It is the yardstick of the belief-based callers ("calling on every percept") and keeps the
behaviour of the first built-ins for comparison. No source plays this way on purpose; 004 warns against it: a
partner "who coughs by accident with three of a kind in hand is a letter waiting to happen".
"""

from __future__ import annotations

from dataclasses import dataclass

from kemps_sim_agents.composed import PartsAgent

from kemps_sim.belief import TableReader
from kemps_sim.intents import CallDoubleKemps, CallKemps, Intent
from kemps_sim.observation import Observation
from kemps_sim.perception import Percept


class EveryPercept:
    """Calls Kemps (Double Kemps when holding four and allowed) on each new percept of the partner's signal."""

    def __init__(self) -> None:
        self._percepts = None
        self.read = 0

    def call(self, obs: Observation, reader: TableReader, holding_four: bool) -> Intent | None:
        percepts = obs.percepts
        if percepts is not self._percepts:  # a new round: a new live view
            self._percepts, self.read = percepts, 0
        if len(percepts) == self.read:
            return None
        partner, signal = obs.partner, obs.signal
        seen = any(p.gesturer == partner and p.gesture == signal for p in percepts[self.read:])
        self.read = len(percepts)
        if not seen:
            return None
        return CallDoubleKemps() if holding_four and obs.rules.double_kemps else CallKemps()

    def wakes_on(self, percept: Percept, obs: Observation) -> bool:
        return percept.gesturer == obs.partner and percept.gesture == obs.signal

    def watches(self, obs: Observation) -> frozenset[str]:
        return frozenset((obs.signal,))


@dataclass(repr=False, eq=False)
class Naive(PartsAgent):
    """A collector that calls Kemps on every percept of its partner's signal and never defends (the baseline)."""

    name = "naive"
    description = "collects; calls Kemps on every percept of the partner's signal, never Stop Kemps (baseline)"
    sources = ("004",)

    def make_calling(self) -> EveryPercept:
        return EveryPercept()
