"""Tournament figures: who beats whom (a head-to-head heatmap) and one rating per strategy with its interval.

The inputs are the tables of :mod:`kemps_sim.ratings`: ``head_to_head`` (a square frame of the row strategy's mean
score against the column strategy, NaN on the diagonal), ``head_to_head_counts`` (the matches behind each cell) and
``bradley_terry`` (one row per strategy; a strategy that won or lost every match has an infinite rating and an
interval open on one side). :func:`tournament_figures` writes both as PNG files, the heatmap ordered by rating.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.colors import TwoSlopeNorm
from matplotlib.lines import Line2D
from matplotlib.transforms import offset_copy

from kemps_sim.errors import ConfigError
from kemps_sim.plots import style

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: The two scales of a ``bradley_terry`` table: its columns (estimate, low, high) and the axis label.
SCALES: dict[str, tuple[str, str, str, str]] = {
    "rating": ("rating", "ci_low", "ci_high", "Bradley–Terry rating (log-odds, {zero} 0)"),
    "elo": ("elo", "elo_low", "elo_high", "Elo rating (points, {zero} 0)"),
}
#: Roughly how wide one character of a 9-point label is, in inches (for sizing figures to their labels).
_CHAR_INCHES = 0.068
#: Names longer than this are wrapped onto more lines in tick labels.
_WRAP = 24


@style.styled
def head_to_head_plot(matrix: pd.DataFrame, ax: Axes | None = None, counts: pd.DataFrame | None = None,
                      order: Sequence[str] | None = None, *, centre: float = 0.5,
                      limits: tuple[float, float] = (0.0, 1.0), title: str | None = None,
                      colour_label: str = "row's mean score") -> Axes:
    """A heatmap of the row strategy's mean score against each column strategy, each cell's value written in it.

    The colour scale is diverging and centred on 0.5 (an even contest shows white), from 0 to 1; missing cells
    (the diagonal, pairs that never met) are light grey and left blank. ``counts`` (a square frame with the same
    names, e.g. ``head_to_head_counts``) adds the number of matches under each value; ``order`` lists the
    strategies in the order to draw them (say, best rating first), rows from the top and columns from the left.
    The figure a new Axes gets grows with the number of strategies and the length of their names; long names are
    wrapped and the column names rotated. Returns the Axes; the colour bar is added to its figure.

    Another payoff (a meta-game's, from -1/2 to 1/2, say) is drawn on its own scale: ``centre`` is the even
    contest, ``limits`` the ends of the colour bar, ``title`` and ``colour_label`` name what the values are.
    """
    if matrix.shape[0] != matrix.shape[1]:
        raise ConfigError(f"head_to_head_plot: the matrix must be square, got {matrix.shape[0]} x {matrix.shape[1]}")
    if order is not None:
        order = [str(name) for name in order]
        if sorted(order) != sorted(map(str, matrix.index)):
            raise ConfigError(f"head_to_head_plot: order {order} must list the matrix's strategies "
                              f"{[str(i) for i in matrix.index]} once each")
        matrix = matrix.rename(index=str, columns=str).reindex(index=order, columns=order)
    if counts is not None:
        counts = counts.rename(index=str, columns=str)
        missing = sorted(set(map(str, matrix.index)) - set(counts.index) | set(map(str, matrix.index))
                         - set(counts.columns))
        if missing:
            raise ConfigError(f"head_to_head_plot: counts lack strategies {missing}")
        counts = counts.reindex(index=[str(i) for i in matrix.index], columns=[str(c) for c in matrix.columns])
    values = matrix.to_numpy(dtype=float)
    k = len(matrix)
    row_names = [_wrap(str(i)) for i in matrix.index]
    column_names = [_wrap(str(c)) for c in matrix.columns]
    label_inches = _CHAR_INCHES * max((len(line) for t in row_names for line in t.split("\n")), default=0)
    cell = 0.7 if counts is None else 0.8
    ax = style.axes_or_new(ax, (max(5.0, 2.2 + cell * k + label_inches), max(4.0, 1.6 + 0.8 * cell * k
                                                                               + 0.7 * label_inches)))
    low, high = limits
    if not low < centre < high:
        raise ConfigError(f"head_to_head_plot: limits {limits} must hold the centre {centre} strictly inside")
    image = ax.imshow(np.ma.masked_invalid(values), cmap=_cmap(), norm=TwoSlopeNorm(vcenter=centre, vmin=low,
                                                                                   vmax=high), aspect="auto")
    fontsize = 9 if k <= 12 else 8 if k <= 16 else 7
    for i in range(k):
        for j in range(k):
            value = values[i, j]
            if math.isnan(value):
                continue
            dark = abs(value - centre) > 0.6 * (high - centre if value > centre else centre - low)
            text = f"{value:.2f}" if counts is None else f"{value:.2f}\nn={int(counts.iloc[i, j])}"
            ax.text(j, i, text, ha="center", va="center", fontsize=fontsize, linespacing=1.1,
                    color="white" if dark else "black")
    if k > 3:
        ax.set_xticks(range(k), column_names, rotation=45, ha="right", rotation_mode="anchor")
    else:
        ax.set_xticks(range(k), column_names)
    ax.set_yticks(range(k), row_names)
    ax.grid(False)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel("opponent strategy")
    ax.set_ylabel("strategy")
    ax.set_title((title or "Head to head: row's mean score against column")
                 + ("" if counts is None else " (n: matches)"))
    bar = ax.figure.colorbar(image, ax=ax, shrink=0.9 if k > 3 else 1.0)
    bar.set_label(colour_label)
    bar.set_ticks([low, (low + centre) / 2, centre, (centre + high) / 2, high])
    return ax


@style.styled
def ratings_plot(ratings: pd.DataFrame, ax: Axes | None = None, scale: str = "rating") -> Axes:
    """Strategies on the y axis, best at the top, each with its rating and confidence whiskers; return the Axes.

    ``scale`` is ``"rating"`` (log-strength: a difference of 1 is odds of e to 1) or ``"elo"``. Each tick label
    carries the number of matches the rating rests on, because a wide interval usually means few matches.

    A strategy that lost (won) every match is rated ``-inf`` (``+inf``) and its interval has only an upper (a
    lower) end: it is drawn as a bar at that end with an arrow running to the edge of the axes, labelled with
    the bound; no point is drawn for the estimate, which lies beyond the edge. An interval open on both sides
    (the strategy never linked to the others) is a dashed line across. The title states the confidence level and
    the interval method when the table's ``attrs`` carry them (as :func:`kemps_sim.ratings.bradley_terry` sets).
    """
    if scale not in SCALES:
        raise ConfigError(f"scale = {scale!r}: must be one of {', '.join(SCALES)}")
    value, low, high, label = SCALES[scale]
    style.require(ratings, "ratings_plot", ["strategy", value, low, high])
    best_first = sorted(range(len(ratings)), key=lambda i: _best_first(ratings.iloc[i], value, low, high))
    table = ratings.iloc[best_first[::-1]].reset_index(drop=True)  # the y axis grows upward: best last, on top
    k = len(table)
    ax = style.axes_or_new(ax, (7.5, max(3.0, 1.9 + 0.45 * k)))
    est, lo, hi = (table[c].to_numpy(dtype=float) for c in (value, low, high))
    digits = 0 if scale == "elo" else 2
    finite = np.concatenate([v[np.isfinite(v)] for v in (est, lo, hi)])
    left, right = (float(finite.min()), float(finite.max())) if finite.size else (-1.0, 1.0)
    left, right = min(left, 0.0), max(right, 0.0)
    span = (right - left) or (100.0 if scale == "elo" else 1.0)
    upper_only = np.isinf(lo) & np.isfinite(hi)
    lower_only = np.isfinite(lo) & np.isinf(hi)
    # Each arrow to an open side spans at least 15 % of the axes, so that it reads as an arrow.
    low_limit, high_limit = left - 0.06 * span, right + 0.06 * span
    for _ in range(3):
        low_limit = min([low_limit, *((hi[upper_only] - 0.15 * high_limit) / 0.85)])
        high_limit = max([high_limit, *((lo[lower_only] - 0.15 * low_limit) / 0.85)])
    ax.set_xlim(low_limit, high_limit)
    ys = np.arange(k)

    handles = []
    level = ratings.attrs.get("confidence")
    level_text = f"{level:.0%} " if isinstance(level, float) else ""
    two_sided = np.isfinite(est) & np.isfinite(lo) & np.isfinite(hi)
    if two_sided.any():
        err = np.clip(np.vstack([est[two_sided] - lo[two_sided], hi[two_sided] - est[two_sided]]), 0, None)
        bars = ax.errorbar(est[two_sided], ys[two_sided], xerr=err, fmt="o", color=style.OKABE_ITO["blue"],
                           ecolor=style.OKABE_ITO["blue"], capsize=3, markersize=6,
                           label=f"estimate with {level_text}confidence interval")
        handles.append(bars)
    colour = style.OKABE_ITO["vermillion"]
    for y in ys[upper_only | lower_only]:
        upper = bool(upper_only[y])
        bound = hi[y] if upper else lo[y]
        ax.plot([bound], [y], marker="|", markersize=12, markeredgewidth=2, color=colour, linestyle="none")
        ax.annotate("", xy=(0.0 if upper else 1.0, y), xycoords=("axes fraction", "data"), xytext=(bound, y),
                    textcoords="data", arrowprops={"arrowstyle": "-|>", "color": colour, "linewidth": 1.6,
                                                   "shrinkA": 0, "shrinkB": 0})
        text = f"≤ {bound:+.{digits}f}, no lower bound" if upper else f"≥ {bound:+.{digits}f}, no upper bound"
        # The label sits just above the row, over the arrow when that is long enough, else on the other side.
        room = (bound - low_limit if upper else high_limit - bound) / (high_limit - low_limit)
        over_arrow = room >= 0.4
        ax.annotate(text, xy=(bound, y), xytext=(-4 if upper == over_arrow else 4, 4), textcoords="offset points",
                    ha="right" if upper == over_arrow else "left", va="bottom", fontsize=8, color=colour,
                    bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 0.5})
    if (upper_only | lower_only).any():
        handles.append(Line2D([], [], color=colour, marker=">", markersize=6, linewidth=1.6,
                              label=f"one-sided {level_text}interval (rating ±∞: won or lost every match)"))
    for y in ys[np.isinf(lo) & np.isinf(hi)]:
        ax.axhline(y, color=style.GREY, linestyle=":", linewidth=1.2)
        ax.annotate("no bound either way (never linked to the reference)", xy=(0.5, y), xycoords=("axes fraction",
                    "data"), xytext=(0, 4), textcoords="offset points", ha="center", va="bottom", fontsize=8,
                    color=style.GREY)
    reference = table["bound"].eq("reference").to_numpy() if "bound" in table.columns else np.zeros(k, bool)
    for y in ys[reference]:
        right_half = est[y] > sum(ax.get_xlim()) / 2
        ax.annotate("reference (0 by definition)", xy=(est[y], y), xytext=(-6 if right_half else 6, 6),
                    textcoords="offset points", ha="right" if right_half else "left", fontsize=8,
                    color=style.OKABE_ITO["blue"])

    reference_names = ratings.attrs.get("reference")
    whole_field = reference_names is None or len(reference_names) == len(ratings)
    zero = "field mean" if whole_field else "reference-group mean"
    ax.axvline(0.0, color=style.GREY, linewidth=0.8, linestyle="--", zorder=0)
    handles.append(Line2D([], [], color=style.GREY, linewidth=0.8, linestyle="--",
                          label="0: the field's average" if whole_field else "0: the reference group's average"))
    names = [_wrap(str(s)) + (f" (n={int(m)})" if "matches" in table.columns else "")
             for s, m in zip(table["strategy"], table.get("matches", table["strategy"]), strict=True)]
    ax.set_yticks(ys, names)
    ax.set_ylim(-0.6, k - 0.4)
    ax.grid(False, axis="y")
    ax.set_xlabel(label.format(zero=zero))
    ax.set_ylabel("strategy (matches)" if "matches" in table.columns else "strategy")
    method = str(ratings.attrs.get("interval_method", "")).replace("profile likelihood", "profile-likelihood")
    ax.set_title("Strategy ratings" + (f", {level_text}{method} intervals" if method else
                                       f" with {level_text}confidence intervals"))
    below_label = offset_copy(ax.transAxes, fig=ax.figure, y=-34, units="points")  # under the x label
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below_label,
              fontsize=8)
    return ax


def tournament_figures(ratings: pd.DataFrame, matrix: pd.DataFrame, folder: str | PathLike[str],
                       counts: pd.DataFrame | None = None, scale: str = "rating") -> list[Path]:
    """Write ``ratings.png`` (:func:`ratings_plot`) and ``head_to_head.png`` into ``folder``; return the paths.

    The heatmap lists the strategies in the order of ``ratings`` (a :func:`kemps_sim.ratings.bradley_terry`
    table, best first), with the match counts under each value when ``counts`` is given. ``folder`` is made if
    missing; the figures are detached, so no GUI backend is needed.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    k = len(ratings)
    written = []
    fig = style.new_figure((7.5, max(3.4, 2.4 + 0.45 * k)), detached=True)
    ratings_plot(ratings, ax=fig.add_subplot(), scale=scale)
    style.save(fig, folder / "ratings.png")
    written.append(folder / "ratings.png")
    order = [str(s) for s in ratings["strategy"]]
    longest = max((len(line) for s in order for line in _wrap(s).split("\n")), default=0)
    cell = 0.8 if counts is not None else 0.7
    size = (max(5.0, 2.4 + cell * k + _CHAR_INCHES * longest), max(4.0, 1.8 + 0.8 * cell * k
                                                                   + 0.75 * _CHAR_INCHES * longest))
    fig = style.new_figure(size, detached=True)
    ax = head_to_head_plot(matrix, ax=fig.add_subplot(), counts=counts, order=order)
    ax.set_title(ax.get_title() + "\nstrategies ordered by rating, best first")
    style.save(fig, folder / "head_to_head.png")
    written.append(folder / "head_to_head.png")
    return written


def _best_first(row: pd.Series, value: str, low: str, high: str) -> tuple[int, float, float, str]:
    """The order of a ``bradley_terry`` table: by value, equal infinite values by their finite bound, NaN last."""
    estimate = float(row[value])
    if math.isnan(estimate):
        return (1, 0.0, 0.0, str(row["strategy"]))
    tie = float(row[low]) if estimate == math.inf else float(row[high]) if estimate == -math.inf else 0.0
    return (0, -estimate, -tie if math.isfinite(tie) else 0.0, str(row["strategy"]))


def _wrap(name: str, width: int = _WRAP) -> str:
    """A long agent spec on several lines, broken after its commas, at spaces and before its parenthesis."""
    return name if len(name) <= width else style.wrap(name, width)


def _cmap():
    import matplotlib as mpl

    return mpl.colormaps[style.DIVERGING_CMAP].with_extremes(bad=style.LIGHT_GREY)
