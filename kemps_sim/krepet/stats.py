"""The summary of a Krepet sweep: per group, who wins, how often misses happen and are caught, what calls cost.

One row per group (the swept parameters, or the cell) from the ``matches``, ``pairs``, ``misses`` and ``calls``
tables of :mod:`kemps_sim.krepet.records`:

- ``playerN_win_rate``: the share of games player N won, with a Wilson interval (a draw is won by neither);
- ``draw_share`` and ``timeouts``: games both players got stuck in with equal cards, and games that hit a cap;
- ``playerN_misses``: player N's callable misses per game;
- ``playerN_caught_share``: the share of player N's callable misses the opponent caught with a right call, with
  an interval whose variance counts games, not misses (misses of one game share its players and its deal;
  :func:`kemps_sim.stats._clusters.clustered_share`);
- ``false_alarms``: wrong calls (nothing was missed) per game, both players together, and ``too_late``: calls
  on a real miss heard after it stopped being callable;
- ``latency_median``: the median seconds from the first miss a right call caught to the call heard;
- ``moves`` per game and ``minutes_median``, the median length of a game in simulated minutes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from kemps_sim.results import FAILED_END_REASONS
from kemps_sim.stats import clustered_share, wilson

PLAYERS = (0, 1)


def krepet_summary(tables: Mapping[str, pd.DataFrame], by: Sequence[str] = ("cell",),
                   confidence: float = 0.95) -> pd.DataFrame:
    """The summary table of a Krepet sweep's tables, one row per group of ``by`` (see the module docstring)."""
    by = list(by)
    matches = tables["matches"]
    played = matches[~matches["end_reason"].isin(FAILED_END_REASONS)]
    misses = tables.get("misses", pd.DataFrame(columns=[*by, "player", "caught", "seed"]))
    calls = tables.get("calls", pd.DataFrame(columns=[*by, "verdict", "latency"]))
    rows = []
    for key, games in played.groupby(by, sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        row: dict = dict(zip(by, key, strict=True))
        n = len(games)
        row["games"] = n
        for p in PLAYERS:
            estimate = wilson(int((games["winner"] == p).sum()), n, confidence)
            row.update({f"player{p}_win_rate": estimate.value, f"player{p}_win_rate_ci_low": estimate.ci_low,
                        f"player{p}_win_rate_ci_high": estimate.ci_high})
        row["draw_share"] = float(((games["end_reason"] == "both_stuck") & (games["winner"] < 0)).sum() / n)
        row["timeouts"] = int((games["end_reason"] == "timeout").sum())
        group_misses = _in(misses, by, key)
        for p in PLAYERS:
            own = group_misses[group_misses["player"] == p]
            row[f"player{p}_misses"] = len(own) / n
            share = clustered_share(own["caught"].astype(bool).to_numpy(), own["seed"].to_numpy(), confidence)
            row.update({f"player{p}_caught_share": share.value, f"player{p}_caught_share_ci_low": share.ci_low,
                        f"player{p}_caught_share_ci_high": share.ci_high})
        group_calls = _in(calls, by, key)
        row["false_alarms"] = float((group_calls["verdict"] == "false_alarm").sum() / n)
        row["too_late"] = float((group_calls["verdict"] == "too_late").sum() / n)
        latency = group_calls.loc[group_calls["verdict"] == "right", "latency"].to_numpy(dtype=float)
        row["latency_median"] = float(np.median(latency)) if len(latency) else float("nan")
        row["moves"] = float(games["moves"].mean())
        row["minutes_median"] = float(games["duration"].median() / 60.0)
        row["ci_level"] = confidence
        rows.append(row)
    return pd.DataFrame(rows)


def _in(table: pd.DataFrame, by: Sequence[str], key: tuple) -> pd.DataFrame:
    """The rows of ``table`` in the group ``key`` of the ``by`` columns."""
    mask = np.ones(len(table), dtype=bool)
    for column, value in zip(by, key, strict=True):
        column_values = table[column]
        mask &= (column_values == value).to_numpy() | (column_values.isna().to_numpy() & pd.isna(value))
    return table[mask]


#: What each column means, for the note under the printed table.
LEGEND = ("games: games played; timeouts: of them, games stopped at the time cap; "
          "playerN_win_rate: share of games player N won (Wilson interval); draw_share: both stuck with equal cards; "
          "playerN_misses: callable misses per game; playerN_caught_share: share of them the opponent caught "
          "(interval clustered by game); false_alarms, too_late: wrong calls per game; latency_median: seconds "
          "from the first miss caught to the call heard; moves: moves per game, both players'; "
          "minutes_median: simulated minutes per game")
