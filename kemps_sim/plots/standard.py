"""The standard figures of a sweep, written as PNG files: win rate, call accuracy, round lengths, call delays.

A sweep's tables are the records tables of all its matches stacked, each row carrying its ``cell``, the swept
parameters' values, ``replicate`` and ``seed``. The statistics come from :mod:`kemps_sim.stats`, imported only when
the figures are made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.plots import style
from kemps_sim.plots.accuracy import accuracy_size, call_accuracy_plot
from kemps_sim.plots.distributions import call_delay_plot, round_length_plot
from kemps_sim.plots.params import metric_vs_param
from kemps_sim.results import MATCH_TABLES

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: The tables a sweep hands over.
TABLES = ("matches", *MATCH_TABLES)


@style.styled
def standard_figures(tables: Mapping[str, pd.DataFrame], folder: str | PathLike[str],
                     params: Sequence[str]) -> list[Path]:
    """Write the standard figures of a sweep into ``folder`` (made if missing) and return the files written.

    ``params`` are the swept parameter columns; with none, the sweep's ``cell`` index stands in for them.
    The figures: ``win_rate.png`` (pair 0's win rate against the first parameter, the other parameters as
    lines), ``call_accuracy.png`` (every call-accuracy metric per cell), ``round_length.png`` and
    ``call_delay.png`` (their distributions per cell).
    """
    from kemps_sim import stats  # deferred: only this function needs it

    missing = [name for name in TABLES if name not in tables]
    if missing:
        raise ConfigError(f"standard_figures: table(s) {', '.join(missing)} missing; given: {', '.join(tables)}")
    params = list(params)
    by = params or ["cell"]
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    pairs, rounds, calls, fours = (tables[name] for name in ("pairs", "rounds", "calls", "fours"))

    wins = stats.win_rates(pairs, by)
    first = wins[wins["pair"] == 0]
    agents = first["agents"].unique()
    who = f"pair 0 ({agents[0]})" if len(agents) == 1 else "pair 0"
    accuracy = stats.call_accuracy(calls, fours, by)
    cells = by  # one distribution per cell, labelled by its parameters

    drawings: list[tuple[str, tuple[float, float], Callable[[Axes], object]]] = [
        ("win_rate.png", (7.5, 4.5), lambda ax: metric_vs_param(
            first, x=by[0], group=by[1:] or None, ax=ax, ylabel=f"{who} win rate (share of matches won)")),
        ("call_accuracy.png", accuracy_size(len(accuracy[by].drop_duplicates())),
         lambda ax: call_accuracy_plot(accuracy, by=by, ax=ax)),
        ("round_length.png", (7.5, 4.5), lambda ax: round_length_plot(rounds, by=cells, ax=ax)),
        ("call_delay.png", (7.5, 4.5), lambda ax: call_delay_plot(calls, by=cells, ax=ax)),
    ]
    written = []
    for name, size, draw in drawings:
        fig = style.new_figure(size, detached=True)
        draw(fig.add_subplot())
        path = folder / name
        style.save(fig, path)
        written.append(path)
    return written
