"""The look shared by every figure: the Okabe–Ito palette, a few rc settings applied locally, and new axes.

Nothing here touches matplotlib's global state when imported. Plot functions run inside :func:`styled`, which
applies :data:`RC` through ``matplotlib.rc_context`` for the duration of one call only, so a user's own settings
are untouched before and after. ``matplotlib.pyplot`` (which picks a backend) is imported only when a plot
function has to make a figure for an interactive user; files are written from detached figures that need no
backend at all.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import matplotlib as mpl
import pandas as pd
from cycler import cycler
from matplotlib.figure import Figure

from kemps_sim.errors import ConfigError

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
#: For what should recede: fidgets, grid lines, separators.
GREY = "#8C8C8C"
LIGHT_GREY = "#D9D9D9"
#: Line styles added once the colours run out, so that nine or more groups stay distinguishable.
LINESTYLES = ("-", "--", ":", "-.")
#: Diverging and colour-blind safe (ColorBrewer PuOr): brown below the centre, purple above, white at it.
DIVERGING_CMAP = "PuOr"

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
    """The ``i``-th palette colour (cycling)."""
    return PALETTE[i % len(PALETTE)]


def linestyle(i: int) -> str:
    """Solid for the first round of colours, then dashed, dotted, dash-dotted."""
    return LINESTYLES[(i // len(PALETTE)) % len(LINESTYLES)]


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
        return _text(values[0])
    return ", ".join(f"{_short(c)}={_text(v)}" for c, v in zip(columns, values, strict=True))


def columns_title(columns: Sequence[str]) -> str:
    """The legend title of a grouping: the column names, shortened."""
    return ", ".join(_short(c) for c in columns)


def _short(column: str) -> str:
    """``rules.double_kemps`` reads as ``double_kemps``: the prefix is the same for every knob of a sweep."""
    return str(column).rsplit(".", 1)[-1]


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def groups(frame: pd.DataFrame, columns: Sequence[str]) -> list[tuple[Any, pd.DataFrame]]:
    """The frame split by ``columns`` in sorted order (one group holding everything when there are none)."""
    if not columns:
        return [((), frame)]
    return [(key if isinstance(key, tuple) else (key,), part)
            for key, part in frame.groupby(list(columns), sort=True, dropna=False)]
