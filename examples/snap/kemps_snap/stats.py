"""The summary of a Snap sweep: per group, who wins, how matches end, and how good the calls are.

One row per group (the swept parameters, or the cell) from the ``matches``, ``pairs`` and ``calls`` tables of
:mod:`kemps_snap.records`, with the intervals the library's statistics use (Wilson's for a share of matches,
:func:`kemps_sim.stats.clustered_share` for a share of calls):

- ``playerN_win_rate``: the share of matches player N won, with a Wilson interval (a draw is won by nobody);
- ``draw_share`` and ``timeouts``: matches that stopped at ``max_seconds`` with a tie for most cards, and matches
  that stopped at ``max_seconds`` at all;
- ``right``, ``late``, ``false``: calls per match by verdict, every player's together;
- ``right_share``: the share of calls heard that were right, with an interval whose variance counts matches, not
  calls (the calls of one match share its players and its deal);
- ``latency_median``: the median seconds from a match showing to the right call heard;
- ``minutes_median``: the median length of a match in simulated minutes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from kemps_sim.metrics import Metric, estimator, every, legend_text
from kemps_sim.results import FAILED_END_REASONS

#: The summary's metrics, from kemps-sim's registry, in their order (:mod:`kemps_snap.metrics`).
SUMMARY_METRICS: tuple[Metric, ...] = every("snap", "summary")


def snap_summary(tables: Mapping[str, pd.DataFrame], by: Sequence[str] = ("cell",),
                 confidence: float = 0.95) -> pd.DataFrame:
    """The summary table of a Snap sweep's tables, one row per group of ``by`` (see the module docstring), each
    value what its metric's estimator makes of the group's rows.

    ``by`` names columns of the pairs table: the swept parameters and the cell, which every table has, or a
    player's own (``agents``, ``pair``), when a group is the players of that kind with their matches and calls."""
    by = list(by)
    failed = tables["matches"]["end_reason"].isin(FAILED_END_REASONS)
    matches = tables["matches"][~failed]
    pairs = tables["pairs"][~tables["pairs"]["end_reason"].isin(FAILED_END_REASONS)]
    calls = tables.get("calls", pd.DataFrame(columns=[*by, *_MATCH, "caller", "verdict", "latency"]))
    rows = []
    for key, players in pairs.groupby(by, sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        games = _keyed(matches, _MATCH, players)
        heard = _keyed(calls.rename(columns={"caller": "pair"}), [*_MATCH, "pair"], players)
        group = _Group(games, heard, players, confidence)
        row: dict[str, Any] = dict(zip(by, key, strict=True))
        for metric in SUMMARY_METRICS:
            found = _VALUES[metric.name](group, estimator(metric))
            for column, value in (found.items() if metric.per_side else [(metric.column, found)]):
                if metric.summary_ci:
                    row.update({column: value.value, f"{column}_ci_low": value.ci_low,
                                f"{column}_ci_high": value.ci_high})
                else:
                    row[column] = value
        row["ci_level"] = confidence
        rows.append(row)
    table = pd.DataFrame(rows)
    players = sorted((c for c in table.columns if re.fullmatch(r"player\d+_win_rate.*", str(c))), key=_player_order)
    rest = [c for c in table.columns if c not in players and c not in (*by, "matches")]
    return table[[*by, "matches", *players, *rest]] if rows else table


class _Group:
    """One group's matches, calls heard and player rows, and the confidence level of its intervals."""

    def __init__(self, games: pd.DataFrame, heard: pd.DataFrame, players: pd.DataFrame, confidence: float) -> None:
        self.games, self.heard, self.players, self.confidence = games, heard, players, confidence
        self.n = len(games)
        self.verdicts = heard["verdict"].astype(str)

    def per_match(self, verdict: str) -> float:
        return float((self.verdicts == verdict).sum() / self.n)


def _win_rates(group: _Group, wilson: Callable[..., Any]) -> dict[str, Any]:
    return {f"player{int(p)}_win_rate": wilson(int(seat["won"].astype(bool).sum()), len(seat), group.confidence)
            for p, seat in group.players.groupby("pair", sort=True)}


def _stopped(group: _Group) -> pd.Series:
    return group.games["end_reason"] == "timeout"


#: How each metric's value is made from a group with its estimator (a dict of columns for the win rate, one per
#: player).
_VALUES: dict[str, Callable[[_Group, Callable[..., Any]], Any]] = {
    "win_rate": _win_rates,
    "played": lambda g, count: count([True] * g.n),
    "draw_share": lambda g, mean: mean((_stopped(g) & (g.games["winner"] < 0)).to_numpy(dtype=float)),
    "timeouts": lambda g, count: count(_stopped(g).to_numpy()),
    "right": lambda g, _: g.per_match("right"),
    "late": lambda g, _: g.per_match("late"),
    "false": lambda g, _: g.per_match("false"),
    "right_share": lambda g, share: share((g.verdicts == "right").to_numpy(), g.heard["seed"].to_numpy(),
                                          g.confidence),
    "latency_median": lambda g, median: median(g.heard.loc[g.verdicts == "right", "latency"].to_numpy(dtype=float)),
    "minutes_median": lambda g, median: median(g.games["duration"].to_numpy(dtype=float)) / 60.0,
}


def _player_order(column: str) -> tuple[int, int]:
    """``player10_win_rate`` after ``player2_win_rate``, each estimate before its interval's low and high limits."""
    number, _, rest = column.removeprefix("player").partition("_")
    return int(number), 2 if rest.endswith("_ci_high") else 1 if rest.endswith("_ci_low") else 0


#: The columns that name one match of a sweep.
_MATCH = ["cell", "replicate"]


def _keyed(table: pd.DataFrame, columns: list[str], players: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``table`` whose ``columns`` match a row of ``players`` (``pair`` standing for the player)."""
    wanted = pd.MultiIndex.from_frame(players[columns].drop_duplicates())
    return table[pd.MultiIndex.from_frame(table[columns]).isin(wanted)]


#: What each column means, for the note under the printed table (the record's ``legend`` hook): the registry's
#: words for each metric.
LEGEND = "; ".join(f"{m.column.replace('pairN_', 'playerN_')}: {legend_text(m, 'player', 'matches')}"
                   for m in SUMMARY_METRICS)
