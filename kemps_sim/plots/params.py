"""A statistic against a swept parameter: one line per group with its confidence band.

The input is a long statistics frame (``win_rates``, ``call_accuracy``, ``call_timings`` of :mod:`kemps_sim.stats`,
filtered to one metric or measure) with the swept parameter as a column. A numeric parameter gets a line with a
shaded band from ``ci_low`` to ``ci_high``, because the values in between are meaningful; a categorical one
(strings, booleans, identifiers such as ``cell``) gets evenly spaced ticks and error bars, because a line between
"german" and "kems" would suggest values that do not exist.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from kemps_sim.errors import ConfigError
from kemps_sim.plots import style
from kemps_sim.plots.labels import METRIC_LABELS

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: Columns that identify rather than measure: never drawn as a continuous axis even though they are numbers.
CATEGORICAL = frozenset({"cell", "replicate", "seed", "pair"})


@style.styled
def metric_vs_param(frame: pd.DataFrame, x: str, y: str = "value", group: str | Sequence[str] | None = None,
                    ax: Axes | None = None, ylabel: str | None = None, xlabel: str | None = None) -> Axes:
    """Draw ``y`` against the swept parameter ``x``, one line (or set of error bars) per ``group``; return the Axes.

    ``group`` names the column(s) telling the lines apart (e.g. ``"pair"`` or ``"rules.double_kemps"``). Each
    (x, group) must occur once: filter a ``call_accuracy`` frame to one ``metric`` first, or group by it. Bands
    and error bars come from ``ci_low``/``ci_high`` when the frame has them. ``ylabel`` defaults to a description
    of the statistic inferred from the frame's columns (win rate, a call-accuracy metric, a timing in seconds).
    """
    columns = style.as_columns(group)
    style.require(frame, "metric_vs_param", [x, y, *columns])
    data = frame.dropna(subset=[y])
    repeated = data.duplicated(subset=[x, *columns])
    if repeated.any():
        extra = [c for c in ("metric", "measure", "pair") if c in data.columns and c not in columns]
        hint = f"; filter or group by {', '.join(map(repr, extra))}" if extra else "; pass group="
        raise ConfigError(f"metric_vs_param: several rows per ({', '.join([x, *columns])}){hint}")
    has_ci = {"ci_low", "ci_high"} <= set(data.columns)
    ylabel = ylabel or _default_ylabel(frame, y)
    xlabel = xlabel or style.columns_title([x])
    ax = style.axes_or_new(ax, (7.0, 4.5))
    numeric = (pd.api.types.is_numeric_dtype(data[x]) and not pd.api.types.is_bool_dtype(data[x])
               and x not in CATEGORICAL)
    parts = style.groups(data, columns)
    if numeric:
        _lines(ax, parts, x, y, columns, has_ci)
        if pd.api.types.is_integer_dtype(data[x]):
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:
        _error_bars(ax, data, parts, x, y, columns, has_ci)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{_without_unit(ylabel)} by {_without_unit(xlabel)}")
    if _is_share(frame, y):
        ax.set_ylim(-0.02, 1.02)
    if columns:
        ax.legend(title=style.columns_title(columns), loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return ax


def _lines(ax: Axes, parts: list, x: str, y: str, columns: list[str], has_ci: bool) -> None:
    for i, (key, part) in enumerate(parts):
        part = part.sort_values(x)
        colour = style.color(i)
        xs = part[x].to_numpy(dtype=float)
        ax.plot(xs, part[y].to_numpy(dtype=float), marker="o", markersize=4, color=colour,
                linestyle=style.linestyle(i), label=_label(part, columns, key) if columns else None)
        if has_ci:
            ax.fill_between(xs, part["ci_low"].to_numpy(dtype=float), part["ci_high"].to_numpy(dtype=float),
                            color=colour, alpha=0.18, linewidth=0)


def _error_bars(ax: Axes, data: pd.DataFrame, parts: list, x: str, y: str, columns: list[str],
                has_ci: bool) -> None:
    levels = sorted(data[x].unique(), key=lambda v: (str(type(v)), v))
    position = {level: i for i, level in enumerate(levels)}
    offsets = np.linspace(-0.15, 0.15, len(parts)) if len(parts) > 1 else np.zeros(1)
    for i, (key, part) in enumerate(parts):
        xs = part[x].map(position).to_numpy(dtype=float) + offsets[i]
        ys = part[y].to_numpy(dtype=float)
        err = None
        if has_ci:
            low = np.clip(ys - part["ci_low"].to_numpy(dtype=float), 0, None)
            high = np.clip(part["ci_high"].to_numpy(dtype=float) - ys, 0, None)
            err = np.vstack([low, high])
        ax.errorbar(xs, ys, yerr=err, fmt="o", markersize=5, capsize=3, color=style.color(i),
                    label=_label(part, columns, key) if columns else None)
    ax.set_xticks(range(len(levels)), [style.group_label([x], level) for level in levels])
    ax.set_xlim(-0.6, len(levels) - 0.4)
    ax.grid(False, axis="x")


def _without_unit(label: str) -> str:
    """``win rate (share of matches won)`` as ``win rate``: titles name the quantity, axes carry the unit."""
    return label.rsplit(" (", 1)[0] if label.endswith(")") else label


def _label(part: pd.DataFrame, columns: list[str], key: tuple) -> str:
    """A group's legend entry; a pair also names its agents when the frame says which they are."""
    label = style.group_label(columns, key)
    if columns == ["pair"] and "agents" in part.columns and part["agents"].nunique() == 1:
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
