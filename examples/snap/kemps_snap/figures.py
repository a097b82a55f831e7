"""The standard figure of a Snap sweep (``kemps-sim report --plots``): player 0's win rate with its interval
against the swept parameters, laid out for the design as the library's own win-rate figure is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path

import pandas as pd

from kemps_sim.plots import style
from kemps_sim.plots.standard import estimate_figure, figure_plan


@style.styled
def snap_figures(tables: Mapping[str, pd.DataFrame], folder: str | PathLike[str],
                 params: Sequence[str]) -> list[Path]:
    """Write ``win_rate.png`` of a Snap sweep into ``folder``; return the files written."""
    from kemps_snap.stats import snap_summary

    by = list(params) or ["cell"]
    summary = snap_summary(tables, by)
    column = "player0_win_rate"
    estimates = summary[[*by, column, f"{column}_ci_low", f"{column}_ci_high"]].rename(
        columns={column: "value", f"{column}_ci_low": "ci_low", f"{column}_ci_high": "ci_high"})
    fig = style.new_figure((7.5, 4.5), detached=True)
    estimate_figure(fig, estimates, figure_plan(summary, by), "win rate (player 0)")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "win_rate.png"
    style.save(fig, path)
    return [path]
