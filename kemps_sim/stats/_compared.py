"""The metrics :func:`kemps_sim.stats.compare` tests, as it reads them: each one's table, columns, rows, values,
estimate and scoring rule. Everything but which rows count and the value of each comes from the metric's record in
:mod:`kemps_sim.metrics`; those two need pandas, so they are written here, by the registry's names (a test checks
that they cover exactly the registry's ``compare`` metrics).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import pandas as pd

from kemps_sim.metrics import estimator, every
from kemps_sim.results import FATES
from kemps_sim.stats._groups import truthy
from kemps_sim.stats.rates import KEMPS_CALLS


class _Metric(NamedTuple):
    """What a metric reads: its table and columns, which rows count and the value of each, how the rows make one
    estimate, and the scoring rule it needs (None: any). All but the rows and their values come from the metric's
    record in :mod:`kemps_sim.metrics`."""

    table: str
    kind: str  # "match_share" (one 0/1 per match), "share" (0/1 rows clustered in matches), "mean", "median"
    select: Callable[[pd.DataFrame], pd.Series]
    value: Callable[[pd.DataFrame], pd.Series]
    columns: tuple[str, ...]
    unit: str
    scoring: str | None = None


def _right(rows: pd.DataFrame) -> pd.Series:
    return truthy(rows["right"])


def _every(rows: pd.DataFrame) -> pd.Series:
    return pd.Series(True, index=rows.index)


def _rows(pair: int) -> dict[str, tuple[Callable[[pd.DataFrame], pd.Series], Callable[[pd.DataFrame], pd.Series]]]:
    """Which rows each compared metric counts and the value of each row, for pair ``pair`` where a metric is about
    one pair: the one part of a metric that needs pandas, so it is written here, by the registry's names."""
    of_pair = (lambda rows: rows["pair"] == pair)  # noqa: E731
    rows = {
        "win_rate": (of_pair, lambda rows: truthy(rows["won"])),
        "kemps_precision": (lambda rows: rows["call"].isin(KEMPS_CALLS), _right),
        "stop_precision": (lambda rows: rows["call"] == "stop_kemps", _right),
        "four_to_call_median": (
            lambda rows: rows["call"].isin(KEMPS_CALLS) & truthy(rows["right"]) & rows["four_to_call"].notna(),
            lambda rows: rows["four_to_call"]),
    }
    for fate in FATES:
        rows[f"conversion_{fate}"] = (_every, lambda rows, fate=fate: rows["fate"].astype(str) == fate)
    for score in ("letters", "points", "rounds_won"):
        rows[score] = (of_pair, lambda rows, score=score: rows[score])
    return rows


def _metrics(pair: int) -> dict[str, _Metric]:
    """The metrics ``compare`` knows (the registry's ``compare`` role), for pair ``pair`` where a metric is about
    one pair."""
    rows = _rows(pair)
    return {metric.name: _Metric(metric.tables[0], estimator(metric).compared_as, *rows[metric.name],
                                 metric.columns, metric.counts, metric.scoring)
            for metric in every(role="compare")}


#: The metrics ``compare`` knows, in the order its error message lists them.
METRICS = tuple(_metrics(0))


def metrics_under(scoring: str | None) -> tuple[str, ...]:
    """The metrics that exist under a scoring rule (all of them when the rule is unknown)."""
    return tuple(metric.name for metric in every(role="compare") if metric.exists_under(scoring))
