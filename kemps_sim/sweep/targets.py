"""Precision-targeted sweeps (``until_ci``): add replicates to each cell in rounds until the chosen metric's
interval is narrow enough or the cell reaches its cap.

Every cell starts with the spec's ``matches`` replicates. After each round, a cell whose interval half-width
(``(ci_high - ci_low) / 2`` at :data:`CONFIDENCE`) is still above the target gets more replicates: as many as the
current width suggests, ``n x (halfwidth / target)^2``, at least a quarter more and at most four times as many, and
never beyond ``max_matches``. Replicate numbers simply continue (``matches``, ``matches + 1``, ...), so every match
has the seed a plain sweep with that many replicates would give it, and common random numbers keep pairing cells.

How many replicates a cell needs is decided from its stored rows alone, replaying the rounds from ``matches``
upward and looking at each step only at the replicates below that step's count. A sweep killed mid-round therefore
resumes into the same rounds, and the finished folder holds the same rows however often it was interrupted.

An adaptive round robin (``until_metric = "sign"``, :mod:`kemps_sim.sweep.adaptive`) settles pairings of cells
instead of cells, by who wins them; it reuses the rounds, the growth rule and the records of this module.

Metrics: the registry's ``target`` metrics (:mod:`kemps_sim.metrics`) that apply to the sweep's game: ``win_rate``
(pair 0's win rate, Wilson interval over matches), ``pairN.win_rate`` (pair N's), and, in a Kemps sweep, the
call-accuracy shares of :func:`kemps_sim.stats.call_accuracy` (``kemps_precision``, ``stop_precision``,
``conversion_<fate>``; intervals clustered by match). A cell without anything to count (no Kemps calls, say) has no
interval and keeps doubling until it has one or reaches the cap.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kemps_sim.games import game as game_record
from kemps_sim.metrics import every, get, names, side_target, target_names
from kemps_sim.suggest import did_you_mean

if TYPE_CHECKING:  # pandas and the statistics load where a metric is measured, not with the constants below
    import pandas as pd

#: The confidence level of the intervals a targeted sweep narrows.
CONFIDENCE = 0.95
#: The per-cell cap when a spec gives ``until_ci`` without ``max_matches``.
DEFAULT_MAX_MATCHES = 2000
#: Bounds on the growth of a cell from one round to the next (the width's suggestion is clamped to them).
MIN_GROWTH, MAX_GROWTH = 1.25, 4.0
#: The target of an adaptive round robin (:mod:`kemps_sim.sweep.adaptive`): who wins each pairing, not a cell's metric.
SIGN = "sign"
#: The metrics a targeted sweep may narrow, as written in a spec (``pairN.win_rate`` for any pair N): the metric
#: registry's ``target`` role, and the sign of each pairing in a round robin.
TARGET_METRICS = (*target_names(), SIGN)


def metric_problem(metric: object, pairs: int | None = None, game: str | None = None) -> str | None:
    """Why ``metric`` is not a metric a targeted sweep (of ``game``, when given) can narrow (None if it is)."""
    allowed = "one of " + ", ".join(TARGET_METRICS)
    if not isinstance(metric, str):
        return f"must be {allowed}"
    if metric == SIGN:
        return None
    side = side_target(metric)
    named = side[0] if side else get(metric) if metric in names(role="target") else None
    if named is None:
        pair = re.match(r"pair(\d+)", metric)
        hint = did_you_mean(metric, [*TARGET_METRICS, f"pair{pair.group(1) if pair else 0}.win_rate"])
        return f"not a target metric{hint}; must be {allowed}" if hint else f"must be {allowed}"
    if game is not None and named not in every(game, "target"):
        return (f"{named.name} is not measured in a {game_record(game).title} sweep; its target metrics: "
                f"{', '.join(target_names(game))}")
    if side is not None and pairs is not None and side[1] >= pairs:
        return f"the table has {pairs} pairs, numbered 0 to {pairs - 1}"
    return None


def canonical_metric(metric: str) -> str:
    """The metric's one spelling in a spec identity: a metric about one side is spelled with it (``win_rate`` is
    ``pair0.win_rate``)."""
    return f"pair0.{metric}" if metric != SIGN and metric in names(role="target") and get(metric).per_side else metric


def _metric_of(metric: str) -> tuple[str, int | None]:
    """The registry name of a target as spelled, and its pair (None for a metric of everyone's rows)."""
    side = side_target(canonical_metric(metric))
    return (side[0].name, side[1]) if side else (metric, None)


def metric_tables(metric: str) -> tuple[str, ...]:
    """The result tables the metric is computed from: its own, or for a call-accuracy share every table
    :func:`kemps_sim.stats.call_accuracy` reads (calls and fours); the sign of a pairing reads the pairs table."""
    if metric == SIGN:
        return ("pairs",)
    found = get(_metric_of(metric)[0])
    if "accuracy" in found.roles:
        return tuple(dict.fromkeys(table for each in every(role="accuracy") for table in each.tables))
    return found.tables


@dataclass(frozen=True)
class CellTarget:
    """Where one cell of a targeted sweep stands: the replicates it needs now and, once settled, its interval."""

    cell: str
    matches: int  # replicates 0 .. matches - 1 are (to be) stored
    settled: bool  # the interval over those replicates meets the target, or matches is the cap
    value: float = math.nan
    ci_low: float = math.nan
    ci_high: float = math.nan
    rounds: int = 1
    #: Why a settled cell stopped, when its target says more than the half-width does (an adaptive round robin's
    #: ``sign``, ``tie`` or ``cap``); empty: from the half-width and the cap.
    why: str = ""

    @property
    def halfwidth(self) -> float:
        """Half the interval's width (NaN when there is nothing to count)."""
        return (self.ci_high - self.ci_low) / 2

    def reached(self, target: float) -> bool:
        """Whether the interval is at or within the target half-width."""
        return bool(self.halfwidth <= target + 1e-12)

    def as_record(self, target: float) -> dict:
        """The manifest's record of the cell."""
        status = self.why or ("target" if self.reached(target) else ("cap" if self.settled else "running"))
        return {"matches": self.matches, "rounds": self.rounds, "status": status, "value": _plain(self.value),
                "ci_low": _plain(self.ci_low), "ci_high": _plain(self.ci_high), "halfwidth": _plain(self.halfwidth)}


def next_matches(n: int, halfwidth: float, target: float, cap: int) -> int:
    """The replicates a cell with ``n`` and this half-width gets next (see the module text)."""
    if math.isnan(halfwidth):
        wanted = 2 * n
    else:
        suggested = math.ceil(n * (halfwidth / target) ** 2)
        wanted = min(max(suggested, math.ceil(n * MIN_GROWTH)), math.floor(n * MAX_GROWTH))
    return min(cap, max(wanted, n + 1))


def measure(metric: str, tables: Mapping[str, pd.DataFrame], cell: str, below: int) -> tuple[float, float, float]:
    """The metric's value and interval in one cell over its replicates below ``below``."""
    from kemps_sim.stats.rates import call_accuracy, win_rates

    parts = {}
    for name in metric_tables(metric):
        table = tables[name]
        parts[name] = table[(table["cell"] == cell) & (table["replicate"] < below)] if len(table) else table
    name, pair = _metric_of(metric)
    if pair is not None:
        if parts["pairs"].empty:
            return math.nan, math.nan, math.nan
        rates = win_rates(parts["pairs"], by=("cell",), confidence=CONFIDENCE)
        row = rates[rates["pair"] == pair]
    else:
        if parts["calls"].empty and parts["fours"].empty:
            return math.nan, math.nan, math.nan
        accuracy = call_accuracy(parts["calls"], parts["fours"], by=("cell",), confidence=CONFIDENCE)
        row = accuracy[accuracy["metric"] == name]
    if row.empty:
        return math.nan, math.nan, math.nan
    first = row.iloc[0]
    return float(first["value"]), float(first["ci_low"]), float(first["ci_high"])


def settle(cells: list[str], start: int, target: float, metric: str, cap: int, done: Set[tuple[str, int]],
           tables: Mapping[str, pd.DataFrame]) -> dict[str, CellTarget]:
    """Each cell's standing, replayed from what is stored: the rounds whose replicates are all stored are looked
    at in turn; the first one missing replicates (or the last, settled) is where the cell stands."""
    by_cell = {name: dict(iter(table.groupby("cell", sort=False))) if len(table) else {}
               for name, table in tables.items()}
    standing = {}
    for cell in cells:
        own = {name: groups.get(cell, tables[name].iloc[:0]) for name, groups in by_cell.items()}
        n, rounds = min(start, cap), 1
        while True:
            if any((cell, r) not in done for r in range(n)):
                standing[cell] = CellTarget(cell, n, False, rounds=rounds)
                break
            value, low, high = measure(metric, own, cell, n)
            halfwidth = (high - low) / 2
            if (not math.isnan(halfwidth) and halfwidth <= target + 1e-12) or n >= cap:
                standing[cell] = CellTarget(cell, n, True, value, low, high, rounds)
                break
            n, rounds = next_matches(n, halfwidth, target, cap), rounds + 1
    return standing


def _plain(value: float) -> float | None:
    return None if math.isnan(value) else round(float(value), 6)
