"""The summary of a Krepet sweep: per group, who wins, how often misses happen and are caught, what calls cost.

One row per group (the swept parameters, or the cell) from the ``matches``, ``pairs``, ``misses`` and ``calls``
tables of :mod:`kemps_sim.krepet.records`, its columns the registry's Krepet summary metrics in their order
(:mod:`kemps_sim.metrics`: ``games``, ``playerN_win_rate`` with its Wilson interval, ``draw_share``,
``timeouts``, ``playerN_misses``, ``playerN_caught_share`` with an interval whose variance counts games, not
misses, ``false_alarms``, ``too_late``, ``latency_median``, ``moves``, ``minutes_median``), each value made by
the metric's estimator; the legend is the metrics' words.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.metrics import Metric, estimator, every, legend_text
from kemps_sim.results import FAILED_END_REASONS

PLAYERS = (0, 1)
#: The Krepet summary's metrics, in the registry's order.
SUMMARY_METRICS: tuple[Metric, ...] = every("krepet", "summary")
#: The order of the columns: the metrics in order, those about one player that follow each other taken player by
#: player (``player0_misses``, ``player0_caught_share``, ``player1_misses`` ...).
def _column_order() -> tuple[tuple[Metric, int | None], ...]:
    order: list[tuple[Metric, int | None]] = []
    for per_side, run in itertools.groupby(SUMMARY_METRICS, key=lambda m: m.per_side):
        metrics = tuple(run)
        order += [(m, p) for p in PLAYERS for m in metrics] if per_side else [(m, None) for m in metrics]
    return tuple(order)


_COLUMN_ORDER = _column_order()


def krepet_summary(tables: Mapping[str, pd.DataFrame], by: Sequence[str] = ("cell",),
                   confidence: float = 0.95) -> pd.DataFrame:
    """The summary table of a Krepet sweep's tables, one row per group of ``by`` (see the module docstring)."""
    by = list(by)
    matches = tables["matches"]
    for column in by:  # a row is a group of games: a column of one player's rows (agents) does not split games
        if column not in matches.columns:
            raise ConfigError(f"--by {column!r}: a Krepet summary's rows are groups of games; group by the swept "
                              "parameters, cell, or a column of the matches table")
    played = matches[~matches["end_reason"].isin(FAILED_END_REASONS)]
    misses = tables.get("misses", pd.DataFrame(columns=[*by, "player", "caught", "seed"]))
    calls = tables.get("calls", pd.DataFrame(columns=[*by, "verdict", "latency"]))
    rows = []
    for key, games in played.groupby(by, sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        group = _Group(games, _in(misses, by, key), _in(calls, by, key), confidence)
        row: dict[str, Any] = dict(zip(by, key, strict=True))
        for metric, player in _COLUMN_ORDER:
            column = metric.columns_for((player,), unit="player")[0] if metric.per_side else metric.column
            value = _VALUES[metric.name](group, estimator(metric), player)
            if metric.summary_ci:
                row.update({column: value.value, f"{column}_ci_low": value.ci_low, f"{column}_ci_high": value.ci_high})
            else:
                row[column] = value
        row["ci_level"] = confidence
        rows.append(row)
    return pd.DataFrame(rows)


class _Group:
    """One group's games, callable misses and calls, and the confidence level of its intervals."""

    def __init__(self, games: pd.DataFrame, misses: pd.DataFrame, calls: pd.DataFrame, confidence: float) -> None:
        self.games, self.misses, self.calls, self.confidence = games, misses, calls, confidence
        self.n = len(games)

    def verdicts(self, verdict: str) -> pd.Series:
        return self.calls["verdict"] == verdict


def _caught(group: _Group, estimate: Callable[..., Any], player: int | None) -> Any:
    own = group.misses[group.misses["player"] == player]
    return estimate(own["caught"].astype(bool).to_numpy(), own["seed"].to_numpy(), group.confidence)


#: How each Krepet summary metric's value is made from a group (its estimator and, for one player's, the player).
_VALUES: dict[str, Callable[[_Group, Callable[..., Any], int | None], Any]] = {
    "games": lambda g, count, _: count(np.ones(g.n, dtype=bool)),
    "win_rate": lambda g, wilson, p: wilson(int((g.games["winner"] == p).sum()), g.n, g.confidence),
    "draw_share": lambda g, mean, _: mean(((g.games["end_reason"] == "both_stuck")
                                           & (g.games["winner"] < 0)).to_numpy(dtype=float)),
    "timeouts": lambda g, count, _: count((g.games["end_reason"] == "timeout").to_numpy()),
    "misses": lambda g, _, p: len(g.misses[g.misses["player"] == p]) / g.n,
    "caught_share": _caught,
    "false_alarms": lambda g, _, __: float(g.verdicts("false_alarm").sum() / g.n),
    "too_late": lambda g, _, __: float(g.verdicts("too_late").sum() / g.n),
    "latency_median": lambda g, median, _: median(g.calls.loc[g.verdicts("right"), "latency"].to_numpy(dtype=float)),
    "moves": lambda g, mean, _: mean(g.games["moves"].to_numpy(dtype=float)),
    "minutes_median": lambda g, median, _: median(g.games["duration"].to_numpy(dtype=float)) / 60.0,
}


def _in(table: pd.DataFrame, by: Sequence[str], key: tuple) -> pd.DataFrame:
    """The rows of ``table`` in the group ``key`` of the ``by`` columns."""
    mask = np.ones(len(table), dtype=bool)
    for column, value in zip(by, key, strict=True):
        column_values = table[column]
        mask &= (column_values == value).to_numpy() | (column_values.isna().to_numpy() & pd.isna(value))
    return table[mask]


#: What each column means, for the note under the printed table: the registry's words for each metric.
LEGEND = "; ".join(f"{', '.join(m.columns_for(('N',), unit='player'))}: {legend_text(m, 'player', 'games')}"
                   + (" (interval clustered by game)" if m.estimator == "clustered_share" else
                      " (Wilson interval)" if m.summary_ci else "")
                   for m in SUMMARY_METRICS)
