"""The standard figures of a Krepet sweep: player 0's win rate, and the share of player 0's misses the opponent
caught, each against the swept parameters with its interval, laid out for the design as Kemps' win-rate figure is
(:func:`kemps_sim.plots.standard.estimate_figure`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path

import pandas as pd

from kemps_sim.plots import style
from kemps_sim.plots.standard import estimate_figure, figure_plan


@style.styled
def krepet_figures(tables: Mapping[str, pd.DataFrame], folder: str | PathLike[str],
                   params: Sequence[str]) -> list[Path]:
    """Write ``win_rate.png`` and ``misses_caught.png`` of a Krepet sweep into ``folder``; return the files."""
    from kemps_sim.krepet.stats import krepet_summary  # deferred, as the Kemps statistics are

    by = list(params) or ["cell"]
    summary = krepet_summary(tables, by)
    agents = tables["pairs"].loc[tables["pairs"]["pair"] == 0, "agents"].unique()
    who = f"{agents[0]}, player 0" if len(agents) == 1 and len(agents[0]) <= 20 else "player 0"
    plan = figure_plan(summary, by)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, column, ylabel in (
            ("win_rate.png", "player0_win_rate", f"win rate ({who})"),
            ("misses_caught.png", "player0_caught_share", f"misses caught ({who})")):
        estimates = summary[[*by, column, f"{column}_ci_low", f"{column}_ci_high"]].rename(
            columns={column: "value", f"{column}_ci_low": "ci_low", f"{column}_ci_high": "ci_high"})
        fig = style.new_figure((7.5, 4.5), detached=True)
        estimate_figure(fig, estimates, plan, ylabel)
        path = folder / name
        style.save(fig, path)
        written.append(path)
    return written
