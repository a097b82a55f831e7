"""``cautious`` and ``eager``: collectors that differ only in their attitude to risk: how much a wrong call's cost
weighs against a right call's gain (``caution``) when the shared belief decides whether calling now beats waiting
(:mod:`kemps_sim.belief.decision`). Every built-in weighs it like a typical person, 2.25 times (loss aversion,
Tversky & Kahneman 1992); ``cautious`` three times as much again, ``eager`` a third as much.

A cautious caller waits for clear or repeated evidence, so it calls wrongly less often and rightly later; an
eager one calls on the first hint. Source: 004's advice cuts both ways: call the instant you see the signal (the
opponents saw it too), but a fidget "with three of a kind in hand is a letter waiting to happen".
"""

from __future__ import annotations

from dataclasses import dataclass

from kemps_sim_agents.collector import Collector
from kemps_sim_agents.composed import LOSS_AVERSION


@dataclass(repr=False, eq=False)
class Cautious(Collector):
    """A collector three times as loss-averse as the default (004: a fidget is a letter waiting to happen)."""

    caution: float = 3.0 * LOSS_AVERSION

    name = "cautious"
    description = "a collector three times as averse to a wrong call as the default player (caution 6.75)"
    sources = ("004",)


@dataclass(repr=False, eq=False)
class Eager(Collector):
    """A collector a third as loss-averse as the default (004: call the instant you see the signal)."""

    caution: float = LOSS_AVERSION / 3.0

    name = "eager"
    description = "a collector a third as averse to a wrong call as the default player (caution 0.75)"
    sources = ("004",)
