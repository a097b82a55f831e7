"""``cautious`` and ``eager``: collectors that differ only in their attitude to risk: how much a wrong call's cost
weighs against a right call's gain (``caution``) when the shared belief decides whether calling now beats waiting
(:mod:`kemps_sim.belief.decision`). Every built-in weighs it as the calibration fitted a table of people to weigh it
(:data:`~agents.composed.CAUTION`), lightly, since it races the other side to speak; ``cautious`` weighs it as a
choice made at leisure (:data:`~agents.composed.LOSS_AVERSION`: a player the race does not hurry), ``eager`` a
third as much as the default.

A cautious caller waits for clear or repeated evidence, so it calls wrongly less often and rightly later; an
eager one calls on the first hint. Source: 004's advice cuts both ways: call the instant you see the signal (the
opponents saw it too), but a fidget "with three of a kind in hand is a letter waiting to happen".
"""

from __future__ import annotations

from dataclasses import dataclass

from kemps_sim_agents.collector import Collector
from kemps_sim_agents.composed import CAUTION, LOSS_AVERSION


@dataclass(repr=False, eq=False)
class Cautious(Collector):
    """A collector as loss-averse as a person choosing at leisure, unhurried by the race to speak (004: a fidget is
    a letter waiting to happen)."""

    caution: float = LOSS_AVERSION

    name = "cautious"
    description = (f"a collector that weighs a wrong call as a choice made at leisure ({LOSS_AVERSION:.3g}), "
                   "unhurried by the race to speak")
    sources = ("004",)


@dataclass(repr=False, eq=False)
class Eager(Collector):
    """A collector a third as loss-averse as the default (004: call the instant you see the signal)."""

    caution: float = CAUTION / 3.0

    name = "eager"
    description = f"a collector a third as averse to a wrong call as the default player ({CAUTION / 3.0:.3g})"
    sources = ("004",)
