"""``collector``: the basic policy of the sources. Pick a rank early (the one held most) and take every card of it;
switch if it has not shown after ``switch_after`` sweeps; throw what nobody seems to collect (004, 001). It signals
four of a kind at once and calls Kemps when its belief that the partner holds four passes ``threshold``."""

from __future__ import annotations

from dataclasses import dataclass

from agents.collecting import best_picks, rank_counts
from agents.composed import KempsCaller

__all__ = ["Collector", "best_picks", "rank_counts"]


@dataclass(repr=False, eq=False)
class Collector(KempsCaller):
    """Collects a target rank, throws ranks nobody takes, signals four of a kind, calls on the partner's signal.

    Heuristics: "pick a rank early; switch if it has not shown after two sweeps; throw what nobody seems to
    collect" (004, 001). Parameters: ``patience`` (s before saying "stalled"), ``resignal`` (s between signals),
    ``switch_after`` (sweeps), ``threshold``/``prior``/``stillness``/``knows_fakes`` (the Kemps belief,
    :mod:`agents.calling`), ``signal``/``signal_policy`` (:mod:`agents.signal_choice`) and ``attention``
    (:mod:`agents.attention`).
    """

    name = "collector"
    description = "collects one rank (switching after unseen sweeps), throws what nobody takes, calls on the signal"
