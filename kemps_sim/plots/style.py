"""The look shared by every figure: the Okabe–Ito palette, a few rc settings applied locally, and new axes.

Nothing here touches matplotlib's global state when imported. Plot functions run inside :func:`styled`, which
applies :data:`RC` through ``matplotlib.rc_context`` for the duration of one call only, so a user's own settings
are untouched before and after. ``matplotlib.pyplot`` (which picks a backend) is imported only when a plot
function has to make a figure for an interactive user; files are written from detached figures that need no
backend at all.

The rules that keep figures readable on real sweeps live here too, so that every figure follows them:

- groups are told apart by an :class:`Encoding` built once from the whole table: groups with nothing to draw get
  no colour, no artist and no legend entry, so the colours of the drawn groups stay distinct; a numeric grouping
  column with many distinct values (:func:`is_continuous`) becomes a colour scale with a colour bar instead;
- more than :data:`MANY` groups put the legend outside the axes (:func:`legend_outside`);
- long or many category names are wrapped or rotated (:func:`category_ticks`);
- numbers in labels keep three significant digits (:func:`number`);
- small multiples share one layout (:func:`facet_axes`).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import matplotlib as mpl
import numpy as np
import pandas as pd
from cycler import cycler
from matplotlib.colors import ListedColormap, Normalize
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from kemps_sim.errors import ConfigError
from kemps_sim.plots.labels import number, numbers, param_label, param_labels, value_text  # noqa: F401 (style.*)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: Okabe & Ito (2008), "Color Universal Design": eight colours told apart under every common colour-vision
#: deficiency. Lines, bars and markers take their colours from here, in this order.
OKABE_ITO: dict[str, str] = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "bluish_green": "#009E73",
    "vermillion": "#D55E00",
    "sky_blue": "#56B4E9",
    "reddish_purple": "#CC79A7",
    "yellow": "#F0E442",
    "black": "#000000",
}
#: The palette as a cycle (yellow last-but-one: it is hard to see as a thin line on white).
PALETTE: tuple[str, ...] = tuple(OKABE_ITO.values())
#: Colours for groups beyond the eighth (from Paul Tol's "muted" scheme, those least like Okabe–Ito's): with them
#: up to 14 groups get distinct colours; from the ninth group on the line style changes too (:func:`linestyle`).
EXTRA_COLORS: tuple[str, ...] = ("#332288", "#882255", "#999933", "#117733", "#AA4499", "#661100")
#: Every categorical colour, in the order groups get them.
COLORS: tuple[str, ...] = PALETTE + EXTRA_COLORS
#: For what should recede: fidgets, grid lines, separators.
GREY = "#8C8C8C"
LIGHT_GREY = "#D9D9D9"
#: Line styles added once the colours run out, so that nine or more groups stay distinguishable.
LINESTYLES = ("-", "--", ":", "-.")
#: Marker shapes, for groups that are points rather than lines.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<")
#: Diverging and colour-blind safe (ColorBrewer PuOr): brown below the centre, purple above, white at it.
DIVERGING_CMAP = "PuOr"
#: Sequential scale for a continuous grouping column: viridis (perceptually even, colour-blind safe), stopped short
#: of its palest yellow so that every line and point stays visible on white.
SEQUENTIAL_CMAP = ListedColormap(mpl.colormaps["viridis"](np.linspace(0.0, 0.88, 256)), name="viridis_dark")
#: More groups than this and the legend goes outside the axes (or the figure is split into small multiples).
MANY = 6
#: Columns that identify rather than measure: never a continuous axis or colour scale, even though numbers.
CATEGORICAL = frozenset({"cell", "replicate", "seed", "pair"})
#: Dark grey for summaries drawn over data (trend lines), and for legend entries that explain a mark.
INK = "#333333"

#: rc settings applied while a plot function runs (never globally).
RC: dict[str, Any] = {
    "axes.prop_cycle": cycler(color=PALETTE),
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": LIGHT_GREY,
    "grid.linewidth": 0.6,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.title_fontsize": 9,
    "legend.frameon": False,
    "font.size": 10,
}
#: Resolution of written PNG files (dots per inch).
DPI = 150

P = ParamSpec("P")
R = TypeVar("R")


def styled(func: Callable[P, R]) -> Callable[P, R]:
    """Run a plot function with :data:`RC` in effect, restoring the caller's rc settings afterwards."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with mpl.rc_context(RC):
            return func(*args, **kwargs)

    return wrapper


def color(i: int) -> str:
    """The ``i``-th group colour: Okabe–Ito's eight, then :data:`EXTRA_COLORS` (cycling after 14)."""
    return COLORS[i % len(COLORS)]


def linestyle(i: int) -> str:
    """Solid for the first eight groups (Okabe–Ito's colours), then dashed, dotted, dash-dotted."""
    return LINESTYLES[(i // len(PALETTE)) % len(LINESTYLES)]


def marker(i: int) -> str:
    """Circles for the first eight groups, then other shapes, as :func:`linestyle` does for lines."""
    return MARKERS[(i // len(PALETTE)) % len(MARKERS)]


def new_figure(figsize: tuple[float, float], detached: bool = False) -> Figure:
    """A figure with constrained layout; ``detached`` ones are not registered with pyplot.

    Interactive users get a pyplot figure (it shows in notebooks and in ``plt.show()``); code that only writes
    files asks for a detached one, which needs no GUI backend and is freed as soon as it is dropped.
    """
    if detached:
        return Figure(figsize=figsize, layout="constrained")
    import matplotlib.pyplot as plt  # deferred: importing pyplot is what commits to a backend

    return plt.figure(figsize=figsize, layout="constrained")


def axes_or_new(ax: Axes | None, figsize: tuple[float, float]) -> Axes:
    """``ax`` itself, or the single axes of a new (pyplot) figure of ``figsize`` inches."""
    if ax is not None:
        return ax
    return new_figure(figsize).add_subplot()


def save(fig: Figure, path: Any) -> None:
    """Write ``fig`` as a PNG at :data:`DPI` (whatever the file's suffix says)."""
    fig.savefig(path, format="png", dpi=DPI)


def require(frame: pd.DataFrame, name: str, columns: Iterable[str]) -> None:
    """Refuse a table without the columns a plot needs, in one line naming what is missing and what is there."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        have = ", ".join(map(str, frame.columns)) or "none"
        raise ConfigError(f"{name}: column(s) {', '.join(map(repr, missing))} missing; columns: {have}")


def as_columns(by: str | Sequence[str] | None) -> list[str]:
    """Grouping columns as a list: ``None`` is no grouping, a string is one column."""
    if by is None:
        return []
    if isinstance(by, str):
        return [by]
    return list(by)


def group_label(columns: Sequence[str], key: Any) -> str:
    """How a group reads in a legend or on a tick: ``value`` for one column, ``col=value, ...`` for several."""
    values = key if isinstance(key, tuple) else (key,)
    if len(columns) == 1:
        return value_text(values[0])
    return ", ".join(f"{name}={value_text(v)}" for name, v in zip(param_labels(columns), values, strict=True))


def columns_title(columns: Sequence[str]) -> str:
    """The legend title or axis label of a grouping: the parameters' names as :func:`param_label` gives them."""
    return ", ".join(param_labels(columns))


def groups(frame: pd.DataFrame, columns: Sequence[str]) -> list[tuple[Any, pd.DataFrame]]:
    """The frame split by ``columns`` in sorted order (one group holding everything when there are none)."""
    if not columns:
        return [((), frame)]
    return [(key if isinstance(key, tuple) else (key,), part)
            for key, part in frame.groupby(list(columns), sort=True, dropna=False)]


def is_numeric(series: pd.Series, column: str | None = None) -> bool:
    """A measured number: numeric but not boolean, and not an identifier column (:data:`CATEGORICAL`)."""
    name = column if column is not None else series.name
    return (pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)
            and name not in CATEGORICAL)


def is_continuous(series: pd.Series, column: str | None = None) -> bool:
    """A numeric column with more than :data:`MANY` distinct values: drawn on a colour scale, not as a legend."""
    return is_numeric(series, column) and series.nunique(dropna=True) > MANY


def is_sampled(values: Iterable[float]) -> bool:
    """Values drawn at random or by Latin hypercube rather than set on a grid: many, and not evenly spaced.

    A grid (linear or log) spaces its points evenly; sampled points are many distinct values at uneven gaps. One
    value per group at such points cannot be joined by lines: they are drawn as a scatter with a trend.
    """
    points = np.unique(np.asarray(list(values), dtype=float))
    points = points[np.isfinite(points)]
    if len(points) <= 12:
        return False
    return not (_even(points) or (points[0] > 0 and _even(np.log(points))))


def _even(points: np.ndarray) -> bool:
    gaps = np.diff(points)
    return bool(np.allclose(gaps, gaps.mean(), rtol=0.02, atol=0.0))


@dataclass(frozen=True)
class Encoding:
    """How the groups of one figure are told apart, decided once from the whole table.

    ``keys`` are the groups that have something to draw, in drawing order; only they get a colour, so colours stay
    distinct however many groups are empty. When ``scale`` names a continuous column, colour follows that column's
    value on :data:`SEQUENTIAL_CMAP` (explained by a colour bar), and the other grouping columns (``styled``), when
    their values make few combinations (``rest``), are told apart by line style and marker (a grey legend).
    """

    columns: tuple[str, ...]
    keys: tuple[tuple, ...]
    scale: str | None = None
    low: float = 0.0
    high: float = 1.0
    styled: tuple[str, ...] = ()
    rest: tuple[tuple, ...] = ()

    @property
    def norm(self) -> Normalize:
        """The colour scale's range: the scale column's smallest to largest drawn value."""
        low, high = (self.low, self.high) if self.high > self.low else (self.low - 0.5, self.low + 0.5)
        return Normalize(low, high)

    def _style_index(self, key: tuple) -> int:
        if self.scale is not None:
            if not self.rest:
                return 0
            return self.rest.index(tuple(key[self.columns.index(c)] for c in self.styled))
        return self.keys.index(key) if key in self.keys else 0

    def color(self, key: tuple) -> Any:
        """The group's colour: its own palette colour, or its place on the colour scale."""
        if self.scale is not None:
            return SEQUENTIAL_CMAP(self.norm(float(key[self.columns.index(self.scale)])))
        return color(self.keys.index(key)) if key in self.keys else INK

    def linestyle(self, key: tuple) -> str:
        """The group's line style."""
        if self.scale is not None:
            return LINESTYLES[self._style_index(key) % len(LINESTYLES)]
        return linestyle(self._style_index(key))

    def marker(self, key: tuple) -> str:
        """The group's marker shape."""
        if self.scale is not None:
            return MARKERS[self._style_index(key) % len(MARKERS)]
        return marker(self._style_index(key))

    def label(self, key: tuple) -> str:
        """The group's legend entry (empty without grouping columns)."""
        return group_label(self.columns, key) if self.columns else ""

    @property
    def legend_title(self) -> str | None:
        """The legend's title: the grouping columns it explains."""
        return columns_title(self.styled if self.scale is not None else self.columns) or None

    @property
    def legend(self) -> bool:
        """Whether the groups need legend entries of their own (not under a colour scale)."""
        return bool(self.columns) and self.scale is None

    def style_handles(self) -> list[Line2D]:
        """Under a colour scale: one grey legend entry per line style (the other grouping columns' values)."""
        if self.scale is None or len(self.rest) < 2:
            return []
        return [Line2D([], [], color=INK, linestyle=LINESTYLES[i % len(LINESTYLES)],
                       marker=MARKERS[i % len(MARKERS)], markersize=5, label=group_label(self.styled, rest))
                for i, rest in enumerate(self.rest)]

    def colorbar(self, fig: Any, ax: Any) -> Any:
        """Add the colour bar of :attr:`scale` beside ``ax`` (one Axes or several) and return it (or None)."""
        if self.scale is None:
            return None
        mappable = mpl.cm.ScalarMappable(norm=self.norm, cmap=SEQUENTIAL_CMAP)
        bar = fig.colorbar(mappable, ax=ax, shrink=0.9, pad=0.02, aspect=30)
        bar.set_label(columns_title([self.scale]))
        bar.ax.set_gid("colorbar")
        return bar


#: Under a colour scale, the other grouping columns get line styles only when their values make this few combinations.
MAX_STYLES = 4


def encoding(frame: pd.DataFrame, columns: Sequence[str], values: str | Sequence[str] | None = None,
             scale: bool | str | None = None) -> Encoding:
    """The :class:`Encoding` of ``frame`` grouped by ``columns``, leaving out groups whose ``values`` are all missing.

    ``scale`` picks the colour-scale column: ``None`` (auto) takes the first continuous grouping column, if any;
    ``False`` never uses one; a column name forces it.
    """
    columns = tuple(columns)
    value_columns = as_columns(values)
    data = frame.dropna(subset=value_columns, how="all") if value_columns else frame
    keys = tuple(key for key, _ in groups(data, columns)) if columns else ((),)
    if scale is None:
        scale = next((c for c in columns if is_continuous(frame[c], c)), None)
    if not scale:
        return Encoding(columns, keys)
    if scale not in columns:
        raise ConfigError(f"colour scale {scale!r}: not a grouping column; grouping by {', '.join(columns)}")
    scaled = pd.to_numeric(data[scale], errors="coerce")
    styled = tuple(c for c in columns if c != scale and not is_continuous(frame[c], c))
    rest = tuple(dict.fromkeys(tuple(k[columns.index(c)] for c in styled) for k in keys)) if styled else ()
    if len(rest) > MAX_STYLES:
        styled, rest = (), ()
    low, high = (float(scaled.min()), float(scaled.max())) if scaled.notna().any() else (0.0, 1.0)
    return Encoding(columns, keys, str(scale), low, high, styled, rest)


def legend_outside(ax: Axes, handles: Sequence[Any] | None = None, title: str | None = None, **kwargs: Any) -> Any:
    """A legend to the right of ``ax``, outside it, in two columns past 18 entries; None when there is nothing."""
    if handles is None:
        handles, _ = ax.get_legend_handles_labels()
    handles = [h for h in handles if not str(h.get_label()).startswith("_")]
    if not handles:
        return None
    return ax.legend(handles=handles, title=title, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                     ncols=1 if len(handles) <= 18 else 2, **kwargs)


def legend_below(ax: Axes, handles: Sequence[Any], ncols: int | None = None, **kwargs: Any) -> Any:
    """A legend in a row under ``ax``, below its x label (which must be one line of flat tick labels and a label).

    For legends that only explain the marks, when the right-hand side holds a colour bar: they never cover data.
    ``ncols`` defaults to a row of up to three entries. Under constrained layout the figure makes room for it.
    """
    rc = mpl.rcParams
    below = (_points(rc["xtick.labelsize"]) * 1.2 + rc["xtick.major.pad"] + rc["xtick.major.size"]
             + _points(rc["axes.labelsize"]) * 1.2 + rc["axes.labelpad"] + 6)
    shift = mpl.transforms.ScaledTranslation(0, -below / 72, ax.figure.dpi_scale_trans)
    return ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0),
                     bbox_transform=ax.transAxes + shift, ncols=ncols or min(len(handles), 3), **kwargs)


def _points(size: Any) -> float:
    """A font size in points (named sizes such as ``"large"`` resolved against ``font.size``)."""
    if isinstance(size, str):
        return mpl.font_manager.FontProperties(size=size).get_size_in_points()
    return float(size)


def centred_suptitle(fig: Figure, text: str, right: float) -> None:
    """A bold figure title centred over the panels, leaving the ``right`` inches of legend or colour bar aside,
    wrapped onto a second line when longer than the panels are wide."""
    width = fig.get_figwidth()
    chars = max(int((width - right) / 0.105), 20)  # about 0.1 in per character at 11 points, bold
    fig.suptitle(wrap(text, chars), x=(width - right) / 2 / width, fontweight="bold", fontsize=11)


#: How wide one character of a 9-point tick label is, in inches, erring wide (DejaVu Sans averages about 0.075).
CHAR_INCHES = 0.08


def category_ticks(ax: Axes, labels: Sequence[str], positions: Sequence[float] | None = None) -> str:
    """Text labels on x ticks that never overlap: as they are, wrapped onto lines, or rotated; say which.

    The room per tick is the axes' width (as laid out so far) over the number of ticks. Labels that fit are left
    alone; labels that fit once wrapped at commas and spaces (at most three lines) are wrapped; the rest are
    rotated by 30 degrees (45 when there are more than 12), anchored at their right end under their tick.
    Returns ``"flat"``, ``"wrapped"`` or ``"rotated"``.
    """
    labels = [str(t) for t in labels]
    positions = list(range(len(labels))) if positions is None else list(positions)
    width = ax.get_position().width * ax.figure.get_figwidth()
    room = 0.8 * width / max(len(labels), 1) / CHAR_INCHES  # characters per tick, leaving a gap between labels
    longest = max((len(t) for t in labels), default=0)
    if longest <= room:
        ax.set_xticks(positions, labels)
        return "flat"
    wrapped = [wrap(t, max(int(room), 6)) for t in labels]
    lines = [line for t in wrapped for line in t.split("\n")]
    if max(len(line) for line in lines) <= room and max(t.count("\n") for t in wrapped) <= 2:
        ax.set_xticks(positions, wrapped)
        return "wrapped"
    ax.set_xticks(positions, labels, rotation=45 if len(labels) > 12 else 30, ha="right", rotation_mode="anchor")
    return "rotated"


def wrap(text: str, width: int) -> str:
    """Break ``text`` after commas, at spaces and before an opening parenthesis (an agent spec's parameters) into
    lines of at most ``width`` characters (where it can)."""
    pieces = [piece for piece in re.findall(r"[^,\s(]*\(|[^,\s(]*(?:,\s*|\s+|$)", text) if piece]
    lines, line = [], ""
    for piece in pieces:
        if line and len((line + piece).rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += piece
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


def facet_columns(count: int, ncols: int | None = None) -> int:
    """Panels across: as asked (at most ``count``), else all of up to three, two for four, three beyond."""
    if ncols:
        return max(1, min(ncols, count))
    return max(1, count if count <= 3 else 2 if count == 4 else 3)


def facet_axes(count: int, panel: tuple[float, float] = (3.8, 3.0), ncols: int | None = None,
               extra_width: float = 0.0, figure: Figure | None = None, sharey: bool = True,
               sharex: bool = False) -> tuple[Figure, list[Axes]]:
    """A figure of ``count`` small multiples on a grid (:func:`facet_columns` across), and its panels in order.

    ``extra_width`` inches are added on the right for a shared legend or colour bar. With ``figure`` given (for
    example a detached one) the panels are made in it and its size is set to fit. Panels left without one below
    them show their own x tick labels.
    """
    ncols = facet_columns(count, ncols)
    nrows = max(1, math.ceil(count / ncols))
    size = (panel[0] * ncols + extra_width, panel[1] * nrows + 0.5)
    fig = figure if figure is not None else new_figure(size)
    fig.set_size_inches(*size)
    grid = fig.subplots(nrows, ncols, squeeze=False, sharey=sharey, sharex=sharex)
    axes = [grid[i // ncols][i % ncols] for i in range(nrows * ncols)]
    for ax in axes[count:]:
        ax.remove()
    for i, ax in enumerate(axes[:count]):
        if i + ncols >= count:  # nothing below it any more: it shows its own x tick labels
            ax.xaxis.set_tick_params(labelbottom=True)
    return fig, axes[:count]
