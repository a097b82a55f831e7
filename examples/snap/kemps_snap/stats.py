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
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from kemps_sim.results import FAILED_END_REASONS
from kemps_sim.stats import clustered_share


def snap_summary(tables: Mapping[str, pd.DataFrame], by: Sequence[str] = ("cell",),
                 confidence: float = 0.95) -> pd.DataFrame:
    """The summary table of a Snap sweep's tables, one row per group of ``by`` (see the module docstring).

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
        row: dict = dict(zip(by, key, strict=True))
        n = row["matches"] = len(games)
        for p, seat in players.groupby("pair", sort=True):
            row.update(_wilson(f"player{int(p)}_win_rate", int(seat["won"].astype(bool).sum()), len(seat),
                               confidence))
        stopped = games["end_reason"] == "timeout"
        row["draw_share"] = float((stopped & (games["winner"] < 0)).sum() / n)
        row["timeouts"] = int(stopped.sum())
        verdicts = heard["verdict"].astype(str)
        for verdict in ("right", "late", "false"):
            row[verdict] = float((verdicts == verdict).sum() / n)
        share = clustered_share((verdicts == "right").to_numpy(), heard["seed"].to_numpy(), confidence)
        row.update({"right_share": share.value, "right_share_ci_low": share.ci_low,
                    "right_share_ci_high": share.ci_high})
        latency = heard.loc[verdicts == "right", "latency"].to_numpy(dtype=float)
        row["latency_median"] = float(np.median(latency)) if len(latency) else float("nan")
        row["minutes_median"] = float(games["duration"].median() / 60.0)
        row["ci_level"] = confidence
        rows.append(row)
    table = pd.DataFrame(rows)
    players = sorted((c for c in table.columns if re.fullmatch(r"player\d+_win_rate.*", str(c))), key=_player_order)
    rest = [c for c in table.columns if c not in players and c not in (*by, "matches")]
    return table[[*by, "matches", *players, *rest]] if rows else table


def _player_order(column: str) -> tuple[int, str]:
    """``player10_win_rate`` after ``player2_win_rate``, each estimate before its interval's limits."""
    number, _, rest = column.removeprefix("player").partition("_")
    return int(number), rest


#: The columns that name one match of a sweep.
_MATCH = ["cell", "replicate"]


def _keyed(table: pd.DataFrame, columns: list[str], players: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``table`` whose ``columns`` match a row of ``players`` (``pair`` standing for the player)."""
    wanted = pd.MultiIndex.from_frame(players[columns].drop_duplicates())
    return table[pd.MultiIndex.from_frame(table[columns]).isin(wanted)]


def _wilson(name: str, wins: int, n: int, confidence: float) -> dict[str, float]:
    """``name`` and its Wilson interval (``scipy.stats.binomtest``, as the library's win rates are)."""
    interval = stats.binomtest(wins, n).proportion_ci(confidence_level=confidence, method="wilson")
    return {name: wins / n, f"{name}_ci_low": float(interval.low), f"{name}_ci_high": float(interval.high)}


#: What each column means, for the note under the printed table (the record's ``legend`` hook).
LEGEND = ("matches: matches played; timeouts: of them, matches stopped at max_seconds; playerN_win_rate: share of "
          "matches player N won (Wilson interval); draw_share: stopped with a tie for most cards; right, late, "
          "false: calls per match by verdict; right_share: share of calls that were right (interval clustered by "
          "match); latency_median: seconds from a match showing to the right call heard; minutes_median: "
          "simulated minutes per match")
