"""``cautious`` and ``eager``: collectors that differ only in the belief threshold for calling Kemps on the
partner's signal (the belief combines the percept's llr, a prior and the partner's stillness: :mod:`agents.calling`).

A cautious caller waits for clear or repeated evidence, so it calls wrongly less often and rightly later; an
eager one calls on the first hint. Source: 004's advice cuts both ways: call the instant you see the signal (the
opponents saw it too), but a fidget "with three of a kind in hand is a letter waiting to happen".
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.collector import Collector


@dataclass(repr=False, eq=False)
class Cautious(Collector):
    """A collector that calls Kemps only when the belief passes 0.9 (004: a fidget is a letter waiting to happen)."""

    threshold: float = 0.9

    name = "cautious"
    description = "a collector that calls Kemps only on strong evidence (belief threshold 0.9)"


@dataclass(repr=False, eq=False)
class Eager(Collector):
    """A collector that calls Kemps once the belief passes 0.3 (004: call the instant you see the signal)."""

    threshold: float = 0.3

    name = "eager"
    description = "a collector that calls Kemps on the slightest evidence (belief threshold 0.3)"
