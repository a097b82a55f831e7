"""Tournament figures: who beats whom (a head-to-head heatmap) and one rating per strategy with its interval.

The inputs are the tables of :mod:`kemps_sim.ratings`: ``head_to_head`` (a square frame of the row strategy's mean
score against the column strategy, NaN on the diagonal) and ``bradley_terry`` (one row per strategy).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.colors import TwoSlopeNorm

from kemps_sim.errors import ConfigError
from kemps_sim.plots import style

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: The two scales of a ``bradley_terry`` table: its columns (estimate, low, high) and the axis label.
SCALES: dict[str, tuple[str, str, str, str]] = {
    "rating": ("rating", "ci_low", "ci_high", "Bradley–Terry rating (log-odds, field mean 0)"),
    "elo": ("elo", "elo_low", "elo_high", "Elo rating (points, field mean 0)"),
}


@style.styled
def head_to_head_plot(matrix: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """A heatmap of the row strategy's mean score against each column strategy, each cell's value written in it.

    The colour scale is diverging and centred on 0.5 (an even contest shows white), from 0 to 1; missing cells
    (the diagonal) are light grey and left blank. Returns the Axes; the colour bar is added to its figure.
    """
    if matrix.shape[0] != matrix.shape[1]:
        raise ConfigError(f"head_to_head_plot: the matrix must be square, got {matrix.shape[0]} x {matrix.shape[1]}")
    values = matrix.to_numpy(dtype=float)
    k = len(matrix)
    ax = style.axes_or_new(ax, (max(5.0, 1.6 + 0.85 * k), max(4.0, 1.2 + 0.75 * k)))
    cmap = _cmap()
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=TwoSlopeNorm(vcenter=0.5, vmin=0.0, vmax=1.0),
                      aspect="auto")
    for i in range(k):
        for j in range(k):
            value = values[i, j]
            if math.isnan(value):
                continue
            dark = abs(value - 0.5) > 0.3
            ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=9,
                    color="white" if dark else "black")
    ax.set_xticks(range(k), [str(c) for c in matrix.columns], rotation=30 if k > 3 else 0,
                  ha="right" if k > 3 else "center")
    ax.set_yticks(range(k), [str(i) for i in matrix.index])
    ax.grid(False)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel("opponent strategy")
    ax.set_ylabel("strategy")
    ax.set_title("Head to head: row's mean score against column")
    bar = ax.figure.colorbar(image, ax=ax, shrink=0.9)
    bar.set_label("row's mean score")
    bar.set_ticks([0.0, 0.25, 0.5, 0.75, 1.0])
    return ax


@style.styled
def ratings_plot(ratings: pd.DataFrame, ax: Axes | None = None, scale: str = "rating") -> Axes:
    """Strategies on the y axis, best at the top, each with its rating and confidence whiskers; return the Axes.

    ``scale`` is ``"rating"`` (log-strength: a difference of 1 is odds of e to 1) or ``"elo"``. Each tick label
    carries the number of matches the rating rests on, because a wide interval usually means few matches.
    """
    if scale not in SCALES:
        raise ConfigError(f"scale = {scale!r}: must be one of {', '.join(SCALES)}")
    value, low, high, label = SCALES[scale]
    style.require(ratings, "ratings_plot", ["strategy", value, low, high])
    table = ratings.sort_values(value, ascending=True, ignore_index=True)  # the y axis grows upward: best on top
    ax = style.axes_or_new(ax, (7.0, max(2.5, 1.3 + 0.45 * len(table))))
    ys = np.arange(len(table))
    est = table[value].to_numpy(dtype=float)
    err = np.clip(np.vstack([est - table[low].to_numpy(dtype=float), table[high].to_numpy(dtype=float) - est]), 0,
                  None)
    ax.errorbar(est, ys, xerr=err, fmt="o", color=style.OKABE_ITO["blue"], ecolor=style.OKABE_ITO["blue"],
                capsize=3, markersize=6, label="estimate with confidence interval")
    ax.axvline(0.0, color=style.GREY, linewidth=0.8, linestyle="--", zorder=0)
    names = [f"{s} (n={int(m)})" if "matches" in table.columns else str(s)
             for s, m in zip(table["strategy"], table.get("matches", table["strategy"]), strict=True)]
    ax.set_yticks(ys, names)
    ax.set_ylim(-0.6, len(table) - 0.4)
    ax.grid(False, axis="y")
    ax.set_xlabel(label)
    ax.set_ylabel("strategy (matches)" if "matches" in table.columns else "strategy")
    ax.set_title("Strategy ratings (dashed: the field average)")
    return ax


def _cmap():
    import matplotlib as mpl

    return mpl.colormaps[style.DIVERGING_CMAP].with_extremes(bad=style.LIGHT_GREY)
