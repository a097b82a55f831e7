"""Adaptive round robins (``until_metric = "sign"``): add matches only to the pairings whose winner is still in doubt.

A tournament's response graph says, for every two strategies, which one beats the other. A full round robin gives
every pairing the same number of matches, so the clear pairings (a strong strategy against a weak one) get as many
as the close ones. Like ResponseGraphUCB (Rowland et al. 2019), an adaptive round robin plays rounds: each pairing
starts with the spec's ``matches`` per seating, and after each round a pairing gets more matches (both seatings
together, replicate by replicate, so they stay paired on the same deals) only while its confidence interval still
holds 0, the even contest, and its interval is wider than the resolution ``until_ci``.

The unit is the paired unit of :func:`kemps_sim.metagame.payoffs.payoff_table` (replicate r of both seatings), whose
payoff lies in [-1/2, 1/2]. Because it is bounded, Hoeffding's inequality gives an interval that needs no
assumption about its distribution and stays valid at every sample size, also with a handful of matches whose
outcomes were all the same: half-width ``sqrt(log(2 / delta) / (2 n))`` over ``n`` units. The confidence is for
the whole graph and every look: ``delta = (1 - CONFIDENCE) / (pairings x looks)``, Bonferroni over the pairings and
over the most rounds a pairing can play between ``matches`` and ``max_matches``, so the response graph an adaptive
run reports is right with at least :data:`~kemps_sim.sweep.targets.CONFIDENCE` however often it looked.

A pairing settles when its interval excludes 0 (its sign is known), when the interval is within ``until_ci`` of
its middle (the two are even to within that resolution: a tie that no number of matches would break), or at the
cap; the folder's manifest records which (``sign``, ``tie`` or ``cap``). How many replicates each pairing needs is
replayed from the stored rows as a targeted sweep's cells are, so an interrupted run resumes into the same rounds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Set
from typing import TYPE_CHECKING, Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import game as game_record
from kemps_sim.lineup import entry_text, parse_entry, split_lineup
from kemps_sim.sweep.targets import CONFIDENCE, MIN_GROWTH, SIGN, CellTarget, next_matches

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["HOEFFDING", "SIGN", "hoeffding_halfwidth", "looks", "matches_saved", "pairings", "recorded_savings",
           "round_robin_problem", "settle_pairings", "sides_of"]

#: How the manifest of an adaptive round robin describes its intervals.
HOEFFDING = "Hoeffding, Bonferroni over the pairings and the rounds a pairing can play"
#: The range of one paired unit's payoff (the win measure: from -1/2 to 1/2).
UNIT_RANGE = 1.0


def looks(start: int, cap: int) -> int:
    """The most rounds a pairing can play from ``start`` replicates to the ``cap``: each round grows it by at least
    :data:`~kemps_sim.sweep.targets.MIN_GROWTH` (and by one), so this bounds the looks the Bonferroni counts."""
    n, count = min(start, cap), 1
    while n < cap:
        n, count = min(cap, max(math.ceil(n * MIN_GROWTH), n + 1)), count + 1
    return count


def hoeffding_halfwidth(units: int, delta: float) -> float:
    """The half-width of a two-sided Hoeffding interval at error ``delta`` for the mean of ``units`` paired units
    whose payoff spans :data:`UNIT_RANGE` (infinite with no unit)."""
    if units <= 0:
        return math.inf
    return UNIT_RANGE * math.sqrt(math.log(2.0 / delta) / (2.0 * units))


def sides_of(lineup: str, players: int, sides: int) -> tuple[str, ...]:
    """Each side's agents in a lineup, as the pairs table's ``agents`` column names them: one entry per side, or
    the side's distinct seat entries joined by ``" + "`` when the lineup names every seat (partners that differ)."""
    entries = [entry_text(*parse_entry(entry)) for entry in split_lineup(lineup)]
    if len(entries) == sides:
        return tuple(entries)
    if len(entries) == players:  # as the pairs table's ``agents`` names a side: its distinct agents in seat order
        return tuple(" + ".join(dict.fromkeys(entries[s] for s in range(players) if s % sides == side))
                     for side in range(sides))
    if len(entries) == 1:
        return (entries[0],) * sides
    raise ConfigError(f"lineup {lineup!r}: an adaptive round robin needs one entry per side or one per seat")


def pairings(plans: Mapping[str, Any]) -> dict[tuple, tuple[str, str]]:
    """The cells of each pairing: (its other parameters, the two sides) -> (the cell with the first side in pair 0,
    the cell with the seats swapped). A ConfigError when the cells are not a round robin in both seatings."""
    found: dict[tuple, dict[tuple[str, str], str]] = {}
    for cell_id, plan in plans.items():
        played = game_record(plan.game)
        players = played.seats(plan.rules)
        sides = sides_of(plan.lineup, players, played.sides(plan.rules))
        if len(sides) != 2 or sides[0] == sides[1]:
            raise ConfigError(f"lineup {plan.lineup!r}: an adaptive round robin seats two different strategies "
                              "a match (a tournament's lineups)")
        others = tuple((name, value) for name, value in plan.cell.params if name != "lineup")
        key = (others, tuple(sorted(sides)))
        found.setdefault(key, {})[(sides[0], sides[1])] = cell_id
    grouped = {}
    for key, seatings in found.items():
        low, high = key[1]
        if set(seatings) != {(low, high), (high, low)}:
            raise ConfigError(f"lineups of {low} and {high}: an adaptive round robin plays every pairing in both "
                              "seatings (a tournament's lineups), so that the seat advantage cancels")
        grouped[key] = (seatings[(low, high)], seatings[(high, low)])
    return grouped


def settle_pairings(plans: Mapping[str, Any], start: int, resolution: float, cap: int,
                    done: Set[tuple[str, int]], pairs: pd.DataFrame) -> dict[str, CellTarget]:
    """Each cell's standing in an adaptive round robin, replayed from the stored ``pairs`` rows: both cells of a
    pairing share its replicates and its interval (the first side's mean payoff, from -1/2 to 1/2; the cell with
    the other side first carries it negated)."""
    from kemps_sim.metagame.payoffs import payoff_table  # deferred: the meta-game loads pandas and SciPy

    groups = pairings(plans)
    delta = (1.0 - CONFIDENCE) / (len(groups) * looks(start, cap))
    by_cell = dict(iter(pairs.groupby("cell", sort=False))) if len(pairs) else {}
    standing: dict[str, CellTarget] = {}
    for (_, (low, _high)), (first, second) in groups.items():
        n, rounds = min(start, cap), 1
        while True:
            if any((cell, r) not in done for cell in (first, second) for r in range(n)):
                standing[first] = CellTarget(first, n, False, rounds=rounds)
                standing[second] = CellTarget(second, n, False, rounds=rounds)
                break
            rows = [by_cell[cell][by_cell[cell]["replicate"] < n] for cell in (first, second) if cell in by_cell]
            value, units = _first_side_payoff(payoff_table, rows, low)
            halfwidth = hoeffding_halfwidth(units, delta)
            why = "sign" if halfwidth < abs(value) else "tie" if halfwidth <= resolution + 1e-12 else \
                "cap" if n >= cap else ""
            if why:
                standing[first] = CellTarget(first, n, True, value, value - halfwidth, value + halfwidth, rounds,
                                             why)
                standing[second] = CellTarget(second, n, True, -value, -value - halfwidth, -value + halfwidth,
                                              rounds, why)
                break
            n = next_matches(n, halfwidth if math.isfinite(halfwidth) else math.nan, max(abs(value), resolution),
                             cap)  # no unit yet (every match without a winner): twice as many
            rounds += 1
    return standing


def _first_side_payoff(payoff_table: Any, rows: list[pd.DataFrame], first: str) -> tuple[float, int]:
    """The mean paired-unit payoff of side ``first`` against the other, and the number of units (0 and 0 when
    there is none yet)."""
    import pandas as pd

    if not rows:
        return 0.0, 0
    table = payoff_table(pd.concat(rows, ignore_index=True), measure="win")
    names = list(table.strategies)
    if len(names) != 2 or first not in names:
        return 0.0, 0
    i, j = names.index(first), 1 - names.index(first)
    units = int(table.counts[i, j])
    return (float(table.matrix[i, j]) if units else 0.0), units


def round_robin_problem(spec: Any) -> str | None:
    """Why the cells of ``spec`` are not a round robin an adaptive run can settle pairing by pairing (None if they
    are)."""
    from kemps_sim.sweep.cells import plan_cells  # deferred: planning loads the rules of every cell

    try:
        pairings({plan.cell.id: plan for plan in plan_cells(spec)})
    except ConfigError as exc:
        return str(exc)
    return None


def matches_saved(matches: Mapping[str, int]) -> tuple[int, int]:
    """The matches an adaptive round robin played (``matches``: each cell's replicates) and the matches a full round
    robin needs for the same confidence in every pairing: every seating as many as the most-sampled pairing's (at
    that size every interval is at least as narrow as the adaptive run's narrowest, so it settles at least the same
    pairings)."""
    return sum(matches.values()), len(matches) * max(matches.values(), default=0)


def recorded_savings(manifest: Mapping[str, Any]) -> tuple[int, int] | None:
    """:func:`matches_saved` of the adaptive round robin a results folder's manifest records (None when the folder
    is not one)."""
    record = manifest.get("until_ci") or {}
    if record.get("metric") != SIGN or not record.get("cells"):
        return None
    return matches_saved({cell: int(entry["matches"]) for cell, entry in record["cells"].items()})
