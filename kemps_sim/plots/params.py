"""A statistic against a swept parameter: one line per group with its confidence band, or points with a trend.

The input is a long statistics frame (``win_rates``, ``call_accuracy``, ``call_timings`` of :mod:`kemps_sim.stats`,
filtered to one metric or measure) with the swept parameter as a column. How it is drawn follows the design:

- a numeric parameter on a grid gets a line per group with a shaded band from ``ci_low`` to ``ci_high``, because
  the values in between are meaningful (a group with a single point gets a whisker instead, so that its interval
  still shows);
- a categorical one (strings, booleans, identifiers such as ``cell``) gets evenly spaced ticks and error bars,
  because a line between "german" and "kems" would suggest values that do not exist; long or many names are
  wrapped or rotated;
- a numeric parameter sampled at random or by Latin hypercube, where each group (cell) has a single point, gets a
  scatter of the cells with their whiskers and a trend: the mean of the cells in each of a few bins of the
  parameter (equal counts), with a t interval of that mean, so that the eye follows the trend rather than the noise
  of single cells.

Groups are told apart by :class:`kemps_sim.plots.style.Encoding`: distinct colours for the groups that have data
(empty or all-NaN groups are left out entirely), a legend outside the axes, or a colour scale with a colour bar
when the grouping column is numeric with many distinct values. :func:`metric_facets` draws the same as small
multiples, one panel per value of further columns, with one shared legend or colour bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator
from scipy import stats as scipy_stats

from kemps_sim.errors import ConfigError
from kemps_sim.plots import style
from kemps_sim.plots.labels import METRIC_LABELS, METRICS

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: Columns that identify rather than measure: never drawn as a continuous axis even though they are numbers.
CATEGORICAL = style.CATEGORICAL
#: The ways of drawing a statistic against a parameter (see the module's description).
MODES = ("categories", "lines", "scatter")
#: The confidence level stated when neither the caller nor the frame says otherwise (that of :mod:`kemps_sim.stats`).
DEFAULT_LEVEL = 0.95


@style.styled
def metric_vs_param(frame: pd.DataFrame, x: str, y: str = "value", group: str | Sequence[str] | None = None,
                    ax: Axes | None = None, ylabel: str | None = None, xlabel: str | None = None, *,
                    trend: bool | None = None, level: float | None = None, scale: bool | str | None = None,
                    legend: bool | str = True) -> Axes:
    """Draw ``y`` against the swept parameter ``x``, one line (or set of error bars) per ``group``; return the Axes.

    ``group`` names the column(s) telling the lines apart (e.g. ``"pair"`` or ``"rules.double_kemps"``). Each
    (x, group) must occur once: filter a ``call_accuracy`` frame to one ``metric`` first, or group by it. Bands
    and error bars come from ``ci_low``/``ci_high`` when the frame has them. ``ylabel`` defaults to a description
    of the statistic inferred from the frame's columns (win rate, a call-accuracy metric, a timing in seconds).

    ``trend`` draws a numeric ``x`` as a scatter with binned means (True) or as lines (False); by default the
    scatter is chosen when each group has a single point or ``x`` was sampled rather than set on a grid.
    ``level`` is the confidence level the legend states (default: the frame's ``ci_level`` column, else 95%).
    ``scale`` picks the grouping column shown as a colour scale (default: the first numeric one with more than
    six values; False for none): its colour bar is drawn beside the axes. ``legend=False`` leaves out the legend
    (for a shared one); ``legend="figure"`` puts it under the whole figure (for the last of several panels).
    """
    columns = style.as_columns(group)
    style.require(frame, "metric_vs_param", [x, y, *columns])
    data = _checked(frame, x, y, columns, "metric_vs_param")
    ylabel = ylabel or _default_ylabel(frame, y)
    xlabel = xlabel or style.columns_title([x])
    level = _level(frame, level)
    ax = style.axes_or_new(ax, (7.0, 4.5))
    enc = style.encoding(frame, columns, y, scale)
    mode = _mode(data, x, [*columns], trend)
    # A legend under the whole figure serves panels with other x axes: it must not name this panel's.
    along = "each panel's x axis" if legend == "figure" else style.columns_title([x])
    notes = _draw(ax, data, x, y, enc, mode, level, share=_is_share(frame, y), levels=_levels(data, x), along=along)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{_without_unit(ylabel)} by {_without_unit(xlabel)}")
    if _is_share(frame, y):
        ax.set_ylim(-0.02, 1.02)
    _guides(ax, enc, notes, legend, numeric=mode != "categories")
    return ax


@style.styled
def metric_facets(frame: pd.DataFrame, x: str, facet: str | Sequence[str], y: str = "value",
                  group: str | Sequence[str] | None = None, *, ylabel: str | None = None, xlabel: str | None = None,
                  trend: bool | None = None, level: float | None = None, scale: bool | str | None = None,
                  ncols: int | None = None, figure: Figure | None = None, title: str | None = None) -> Figure:
    """Small multiples of :func:`metric_vs_param`: one panel per value of ``facet``; return the Figure.

    Every panel has the same x and y axes, the same colours for the same group and the same way of drawing (chosen
    from the whole frame), so panels compare at a glance; one legend or colour bar serves them all. ``facet`` may
    be ``"metric"`` on a ``call_accuracy`` frame: the panels are then the metrics, named as in every other figure.
    Panels with nothing to draw are left out. ``figure`` (e.g. a detached one) is filled instead of a new one.
    """
    columns = style.as_columns(group)
    facets = style.as_columns(facet)
    if not facets:
        raise ConfigError("metric_facets: facet must name at least one column")
    style.require(frame, "metric_facets", [x, y, *columns, *facets])
    data = _checked(frame, x, y, [*columns, *facets], "metric_facets")
    level = _level(frame, level)
    enc = style.encoding(frame, columns, y, scale)
    mode = _mode(data, x, [*columns, *facets], trend)
    share = _is_share(frame, y)
    panels = _panels(data, facets)
    if not panels:
        raise ConfigError(f"metric_facets: no {y!r} values to draw")
    notes_room = 3.0 if enc.legend or enc.style_handles() else 1.3 if enc.scale else 0.3
    across = style.facet_columns(len(panels), ncols)
    fig, axes = style.facet_axes(len(panels), ncols=across, extra_width=notes_room, figure=figure)
    levels = _levels(data, x)
    notes: list[Any] = []
    along = style.columns_title([x])
    for i, (ax, (key, part)) in enumerate(zip(axes, panels, strict=True)):
        notes = _draw(ax, part, x, y, enc, mode, level, share=share, levels=levels, along=along) or notes
        ax.set_title(_panel_title(facets, key), fontsize=10, fontweight="normal")
        if i % across == 0:  # a panel is short: a long axis label goes on two lines
            ax.set_ylabel(style.wrap(ylabel or _facet_ylabel(frame, y, facets), 32))
        if i >= len(axes) - across:
            ax.set_xlabel(xlabel or style.columns_title([x]))
        if share:
            ax.set_ylim(-0.02, 1.02)
    handles: list[Any] = []
    if enc.legend:  # every group once, in drawing order, whichever panel drew it
        by_label = {h.get_label(): h for ax in reversed(axes) for h in ax.get_legend_handles_labels()[0]}
        handles = sorted(by_label.values(), key=lambda h: _key_order(enc, h.get_label()))
    handles += enc.style_handles()
    if handles:  # one legend on the right: the groups, then what the marks mean
        handles += notes
        fig.legend(handles=handles, loc="outside right upper", title=enc.legend_title,
                   ncols=1 if len(handles) <= 18 else 2)
    elif notes:  # only what the marks mean: under the panels, leaving the right to a colour bar
        fig.legend(handles=notes, loc="outside lower center", ncols=len(notes), fontsize=8)
    enc.colorbar(fig, axes)
    label = ylabel or _facet_ylabel(frame, y, facets)
    style.centred_suptitle(fig, title or f"{_without_unit(label)} by "
                                         f"{_without_unit(xlabel or style.columns_title([x]))}, one panel per "
                                         f"{style.columns_title(facets)}", right=notes_room)
    return fig


def _checked(frame: pd.DataFrame, x: str, y: str, columns: list[str], name: str) -> pd.DataFrame:
    """The rows with a value, refusing a frame with several rows per drawn point."""
    data = frame.dropna(subset=[y])
    repeated = data.duplicated(subset=[x, *columns])
    if repeated.any():
        extra = [c for c in ("metric", "measure", "pair") if c in data.columns and c not in columns]
        hint = f"; filter or group by {', '.join(map(repr, extra))}" if extra else "; pass group="
        raise ConfigError(f"{name}: several rows per ({', '.join([x, *columns])}){hint}")
    return data


def _mode(data: pd.DataFrame, x: str, columns: list[str], trend: bool | None) -> str:
    """How to draw: categories (error bars on even ticks), lines with bands, or a scatter with a binned trend."""
    if data.empty or not style.is_numeric(data[x], x):
        return "categories"
    if trend is not None:
        return "scatter" if trend else "lines"
    if columns:
        sizes = data.groupby(columns, dropna=False, sort=False).size()
        if len(sizes) >= 3 and sizes.max() <= 1:
            return "scatter"
    return "scatter" if style.is_sampled(data[x]) else "lines"


def _levels(data: pd.DataFrame, x: str) -> list[Any]:
    return sorted(data[x].unique(), key=lambda v: (str(type(v)), v))


def _draw(ax: Axes, data: pd.DataFrame, x: str, y: str, enc: style.Encoding, mode: str, level: float | None,
          *, share: bool, levels: list[Any], along: str) -> list[Any]:
    """Draw every group of ``data`` on ``ax`` as ``mode`` says; return the legend entries explaining the marks
    (``along`` names what the trend's bins divide: the x parameter, or each panel's x axis in a shared legend)."""
    has_ci = {"ci_low", "ci_high"} <= set(data.columns) and bool(
        (np.isfinite(_num(data["ci_low"])) & np.isfinite(_num(data["ci_high"]))).any())
    interval = _interval_text(level)
    parts = style.groups(data, list(enc.columns))
    notes: list[Any] = []
    if mode == "categories":
        _error_bars(ax, parts, x, y, enc, has_ci, levels)
        if has_ci:
            notes.append(Line2D([], [], color=style.INK, marker="o", markersize=4, linestyle="none",
                                label=f"bars: {interval}"))
        return notes
    if mode == "lines":
        _lines(ax, parts, x, y, enc, has_ci)
        if has_ci:
            notes.append(Patch(facecolor=to_rgba(style.GREY, 0.25), edgecolor=style.GREY, linestyle=BAND_EDGE_STYLE,
                               linewidth=BAND_EDGE_WIDTH, label=f"shaded: {interval}"))
    else:
        _points(ax, parts, x, y, enc, has_ci)
        if has_ci:
            notes.append(Line2D([], [], color=style.GREY, marker="o", markersize=4, linestyle="none",
                                label=f"cells, bars: {interval}"))
        bins = _trends(ax, data, x, y, enc, level, share)
        if bins:
            notes.append(Line2D([], [], color=style.INK, linewidth=2, marker="s", markersize=4,
                                label=f"mean of cells in {bins} bins of {along},"
                                      f"\nshaded: {_interval_text(level or DEFAULT_LEVEL)} of that mean"))
    if pd.api.types.is_integer_dtype(data[x]):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return notes


def _lines(ax: Axes, parts: list, x: str, y: str, enc: style.Encoding, has_ci: bool) -> None:
    for key, part in parts:
        part = part.sort_values(x)
        colour = enc.color(key)
        xs = _num(part[x])
        ys = _num(part[y])
        label = _label(part, enc, key)
        if len(part) == 1:  # a band of one point has no width: show its interval as a whisker
            err = _yerr(part, ys) if has_ci else None
            ax.errorbar(xs, ys, yerr=err, fmt=enc.marker(key), markersize=5, capsize=3, color=colour, label=label)
            continue
        ax.plot(xs, ys, marker=enc.marker(key), markersize=4, color=colour, linestyle=enc.linestyle(key),
                label=label)
        if has_ci:
            _band(ax, xs, _num(part["ci_low"]), _num(part["ci_high"]), colour)


#: A band's fill is light, so that where bands overlap each still shows through; its dashed outline in the band's
#: colour says which band is which (fills alone blend into one colour).
BAND_FILL_ALPHA = 0.1
BAND_EDGE_ALPHA = 0.85
BAND_EDGE_STYLE = (0, (4, 2))
BAND_EDGE_WIDTH = 0.9


def _band(ax: Axes, xs: np.ndarray, low: np.ndarray, high: np.ndarray, colour: Any, zorder: float = 1.0) -> None:
    """An interval band: a light fill outlined in its own colour (one artist, the fill's polygon)."""
    known = np.isfinite(low) & np.isfinite(high)
    ax.fill_between(xs, low, high, where=known, facecolor=to_rgba(colour, BAND_FILL_ALPHA),
                    edgecolor=to_rgba(colour, BAND_EDGE_ALPHA), linestyle=BAND_EDGE_STYLE,
                    linewidth=BAND_EDGE_WIDTH, zorder=zorder, gid="band")


def _points(ax: Axes, parts: list, x: str, y: str, enc: style.Encoding, has_ci: bool) -> None:
    """One marker per row, with a thin whisker for its interval: the cells of a sampled design."""
    for key, part in parts:
        colour = enc.color(key)
        xs, ys = _num(part[x]), _num(part[y])
        err = _yerr(part, ys) if has_ci else None
        ax.errorbar(xs, ys, yerr=err, fmt=enc.marker(key), markersize=4.5, color=colour, ecolor=colour,
                    elinewidth=0.8, capsize=0, alpha=0.8, label=_label(part, enc, key), zorder=3)


def _trends(ax: Axes, data: pd.DataFrame, x: str, y: str, enc: style.Encoding, level: float | None,
            share: bool) -> int:
    """Binned means over ``x``: per group when groups are few and each has enough points, else pooled."""
    level = level or DEFAULT_LEVEL
    series: list[tuple[pd.DataFrame, Any, str]] = []
    if enc.scale is None and enc.columns and len(enc.keys) <= style.MANY:
        parts = style.groups(data, list(enc.columns))
        if all(len(part) >= 2 * MIN_PER_BIN for _, part in parts):
            series = [(part, enc.color(key), enc.linestyle(key)) for key, part in parts]
    elif enc.scale is not None and len(enc.rest) >= 2:
        index = [enc.columns.index(c) for c in enc.styled]
        by_rest = {rest: [] for rest in enc.rest}
        for key, part in style.groups(data, list(enc.columns)):
            by_rest[tuple(key[i] for i in index)].append(part)
        chunks = [pd.concat(parts) for parts in by_rest.values() if parts]
        if all(len(c) >= 2 * MIN_PER_BIN for c in chunks):
            series = [(chunk, style.INK, style.LINESTYLES[i % len(style.LINESTYLES)])
                      for i, chunk in enumerate(chunks)]
    if not series:
        series = [(data, style.INK, "-")]
    most = 0
    for part, colour, linestyle in series:
        table = binned_trend(_num(part[x]), _num(part[y]), level=level)
        if table is None:
            continue
        most = max(most, len(table))
        low, high = table["ci_low"].to_numpy(), table["ci_high"].to_numpy()
        if share:
            low, high = np.clip(low, 0, 1), np.clip(high, 0, 1)
        _band(ax, table["x"].to_numpy(), low, high, colour, zorder=4)
        ax.plot(table["x"], table["mean"], color=colour, linestyle=linestyle, linewidth=2.2, marker="s",
                markersize=4, zorder=5, gid="trend")
    return most


#: Fewest points a bin of the trend may have (a t interval needs some spread to estimate).
MIN_PER_BIN = 3


def binned_trend(x: np.ndarray, y: np.ndarray, bins: int | None = None,
                 level: float = DEFAULT_LEVEL) -> pd.DataFrame | None:
    """Means of ``y`` in bins of ``x`` holding equal numbers of points, with a Student t interval of each mean.

    The number of bins is about the square root of the number of points, from 3 to 8, and fewer when that would
    leave a bin with fewer than :data:`MIN_PER_BIN` points; None when there are too few points for two bins. Each
    bin's row gives the mean ``x`` of its points (where the mean is drawn), ``mean``, ``ci_low``, ``ci_high`` and
    ``n``. The interval treats the points (cells) as the units: it includes both the noise of each cell's estimate
    and how the cells in a bin differ.
    """
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = np.asarray(x, dtype=float)[keep], np.asarray(y, dtype=float)[keep]
    count = len(x)
    k = bins or int(np.clip(round(np.sqrt(count)), 3, 8))
    k = min(k, count // MIN_PER_BIN)
    if k < 2:
        return None
    order = np.argsort(x, kind="stable")
    rows = []
    for chunk in np.array_split(order, k):
        xs, ys = x[chunk], y[chunk]
        mean = float(ys.mean())
        spread = float(ys.std(ddof=1)) / np.sqrt(len(ys))
        half = float(scipy_stats.t.ppf(0.5 + level / 2, len(ys) - 1)) * spread
        rows.append({"x": float(xs.mean()), "mean": mean, "ci_low": mean - half, "ci_high": mean + half,
                     "n": len(ys)})
    return pd.DataFrame(rows)


def _error_bars(ax: Axes, parts: list, x: str, y: str, enc: style.Encoding, has_ci: bool,
                levels: list[Any]) -> None:
    position = {level: i for i, level in enumerate(levels)}
    half = min(0.32, 0.075 * (len(parts) - 1))
    offsets = np.linspace(-half, half, len(parts)) if len(parts) > 1 else np.zeros(1)
    for i, (key, part) in enumerate(parts):
        xs = part[x].map(position).to_numpy(dtype=float) + offsets[i]
        ys = _num(part[y])
        err = _yerr(part, ys) if has_ci else None
        ax.errorbar(xs, ys, yerr=err, fmt=enc.marker(key), markersize=5, capsize=3, color=enc.color(key),
                    label=_label(part, enc, key))
    labels = style.numbers(levels) if all(isinstance(v, float | np.floating) for v in levels) else [
        style.group_label([x], level) for level in levels]
    style.category_ticks(ax, labels)
    ax.set_xlim(-0.6, len(levels) - 0.4)
    ax.grid(False, axis="x")


def _yerr(part: pd.DataFrame, ys: np.ndarray) -> np.ndarray:
    """Whisker lengths below and above each value; NaN (no whisker at all) where the interval is missing."""
    low = ys - _num(part["ci_low"])
    high = _num(part["ci_high"]) - ys
    return np.vstack([np.clip(low, 0, None), np.clip(high, 0, None)])


def _num(values: pd.Series) -> np.ndarray:
    return pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)


def _guides(ax: Axes, enc: style.Encoding, notes: list[Any], legend: bool | str, numeric: bool) -> None:
    """The legend (groups and what the marks mean), if asked for, and under a colour scale the colour bar."""
    enc.colorbar(ax.figure, ax)
    if not legend:
        return
    groups = list(ax.get_legend_handles_labels()[0]) if enc.legend else []
    styles = enc.style_handles()
    if legend == "figure":
        handles = groups + styles + notes
        if handles:
            ax.figure.legend(handles=handles, loc="outside lower center", title=enc.legend_title,
                             ncols=min(len(handles), 4), fontsize=8)
    elif groups or styles:
        style.legend_outside(ax, groups + styles + notes, title=enc.legend_title)
    elif notes and numeric:  # only what the marks mean: a row under the x label, never over the data
        style.legend_below(ax, notes, fontsize=8)
    elif notes:  # under rotated category names there is no knowing how far down: where it covers least
        ax.legend(handles=notes, loc="best", fontsize=8, frameon=True, framealpha=0.85, edgecolor=style.LIGHT_GREY)


def _panels(data: pd.DataFrame, facets: list[str]) -> list[tuple[tuple, pd.DataFrame]]:
    panels = style.groups(data, facets)
    if facets == ["metric"]:
        rank = {m: i for i, m in enumerate(METRICS)}
        panels.sort(key=lambda item: (rank.get(item[0][0], len(rank)), str(item[0][0])))
    return [(key, part) for key, part in panels if not part.empty]


def _panel_title(facets: list[str], key: tuple) -> str:
    if facets == ["metric"]:
        return METRIC_LABELS.get(key[0], str(key[0]))
    return style.group_label(facets, key) if len(facets) > 1 else f"{style.columns_title(facets)} = " \
        f"{style.group_label(facets, key)}"


def _facet_ylabel(frame: pd.DataFrame, y: str, facets: list[str]) -> str:
    if y == "value" and "metric" in facets:
        return "share"
    return _default_ylabel(frame, y)


def _key_order(enc: style.Encoding, label: str) -> int:
    labels = [enc.label(key) for key in enc.keys]
    return labels.index(label) if label in labels else len(labels)


def _level(frame: pd.DataFrame, level: float | None) -> float | None:
    """The confidence level to state: as given, else the frame's single ``ci_level`` (or ``confidence``) value,
    else the default of :mod:`kemps_sim.stats`."""
    if level is not None:
        return float(level)
    for column in ("ci_level", "confidence"):
        if column in frame.columns and frame[column].nunique() == 1:
            return float(frame[column].iloc[0])
    return DEFAULT_LEVEL


def _interval_text(level: float | None) -> str:
    return f"{style.number(100 * level)}% confidence interval" if level else "confidence interval"


def _without_unit(label: str) -> str:
    """``win rate (share of matches won)`` as ``win rate``: titles name the quantity, axes carry the unit."""
    return label.rsplit(" (", 1)[0] if label.endswith(")") else label


def _label(part: pd.DataFrame, enc: style.Encoding, key: tuple) -> str | None:
    """A group's legend entry; a pair also names its agents when the frame says which they are."""
    if not enc.legend:
        return None
    label = enc.label(key)
    if list(enc.columns) == ["pair"] and "agents" in part.columns and part["agents"].nunique() == 1:
        label = f"pair {label} ({part['agents'].iloc[0]})"
    return label


def _is_share(frame: pd.DataFrame, y: str) -> bool:
    return y == "value" and ("wins" in frame.columns or "metric" in frame.columns)


def _default_ylabel(frame: pd.DataFrame, y: str) -> str:
    """Say what the statistic is from the columns that identify each statistics frame."""
    if y != "value":
        return y
    if "wins" in frame.columns:
        return "win rate (share of matches won)"
    if "metric" in frame.columns and frame["metric"].nunique() == 1:
        metric = frame["metric"].iloc[0]
        return f"{METRIC_LABELS.get(metric, metric)} (share)"
    if "measure" in frame.columns and frame["measure"].nunique() == 1:
        return f"{str(frame['measure'].iloc[0]).replace('_', ' ')} (s)"
    return "value"
