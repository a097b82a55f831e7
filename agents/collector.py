"""``collector``: the basic policy of the sources. Pick a rank early (the one held most) and take every card of it;
switch if it has not shown after ``switch_after`` sweeps; throw what nobody seems to collect (004, 001). It
signals four of a kind at once and calls from the shared belief (:mod:`kemps_sim.belief`): Kemps when its partner
probably holds four of a kind, and, defending, Stop Kemps when an opponent does, each when calling is worth more
than waiting under the rules' payoffs. ``collector(stop=False)`` never defends."""

from __future__ import annotations

from dataclasses import dataclass

from kemps_sim_agents.collecting import best_picks, rank_counts
from kemps_sim_agents.composed import ReasoningAgent

__all__ = ["Collector", "best_picks", "rank_counts"]


@dataclass(repr=False, eq=False)
class Collector(ReasoningAgent):
    """Collects a target rank, throws ranks nobody takes, signals four of a kind, calls Kemps and Stop Kemps from the
    shared belief.

    Heuristics: "pick a rank early; switch if it has not shown after two sweeps; throw what nobody seems to
    collect" (004, 001); "check for the partner's signal at least every time the middle is swept" (001) and watch
    the other pairs (004). Its belief weighs what it saw against how rare fours and fidgets are, learns each pair's
    signal and honesty from the calls it hears, and its calls weigh the rules' payoffs against the hazard that
    someone else calls first, and it calls only on something seen ("do not call on a hunch", 004). Parameters:
    ``resignal`` (s between signals), ``switch_after`` (sweeps), ``caution``/``threshold``/``stop``/
    ``knows_fakes``/``watch_span``/``hunches`` (calling, :mod:`agents.calling`), ``signal``/``signal_policy``
    (:mod:`agents.signal_choice`) and ``attention`` (:mod:`agents.attention`).
    """

    name = "collector"
    description = "collects one rank, throws what nobody takes; calls Kemps and Stop Kemps from the shared belief"
    sources = ("004", "001")
