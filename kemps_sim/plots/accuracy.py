"""Call accuracy per rule variant or sweep cell: how often calls are right, and what becomes of fours of a kind.

One cluster of bars per variant; inside it the two precisions (share of calls that were right) and, after a gap,
the four conversions (share of fours of a kind called, stolen, left uncalled, broken; they add up to one). The
colours are fixed per metric, so the legend is the same in every figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.metrics import get
from kemps_sim.plots import style
from kemps_sim.plots.labels import METRIC_LABELS, METRICS

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: One Okabe–Ito colour per metric: blues for precision, the others for the fates of a four.
METRIC_COLORS: dict[str, str] = {
    "kemps_precision": style.OKABE_ITO["blue"],
    "stop_precision": style.OKABE_ITO["sky_blue"],
    "conversion_kemps": style.OKABE_ITO["bluish_green"],
    "conversion_stolen": style.OKABE_ITO["vermillion"],
    "conversion_uncalled": style.OKABE_ITO["reddish_purple"],
    "conversion_broken": style.OKABE_ITO["orange"],
}


@style.styled
def call_accuracy_plot(frame: pd.DataFrame, by: str | Sequence[str], ax: Axes | None = None, *,
                       legend: bool = True) -> Axes:
    """Grouped bars of every call-accuracy metric per value of ``by``, with confidence whiskers; return the Axes.

    ``frame`` is a ``call_accuracy`` table (``by`` columns, ``metric``, ``value``, optionally ``ci_low`` and
    ``ci_high``). Bars with no value (a group with no calls of that kind) are left out rather than drawn as zero,
    with no whisker; a metric with no value anywhere gets no legend entry either. Long or many variant names are
    wrapped or rotated. ``legend=False`` leaves the legend out (for a shared one).
    """
    columns = style.as_columns(by)
    style.require(frame, "call_accuracy_plot", [*columns, "metric", "value"])
    variants = _variants(frame, columns)
    ax = style.axes_or_new(ax, accuracy_size(len(variants)))
    _draw(ax, frame, columns, variants)
    ax.set_title("Call accuracy and the fate of fours of a kind")
    if legend:
        style.legend_outside(ax, title=LEGEND_TITLE)
    return ax


@style.styled
def call_accuracy_facets(frame: pd.DataFrame, by: str | Sequence[str], facet: str | Sequence[str], *,
                         figure: Figure | None = None) -> Figure:
    """:func:`call_accuracy_plot` as small multiples: one row of bars per value of ``facet``; return the Figure.

    For a grid with many cells: instead of one very wide row of clusters, each panel holds the variants of ``by``
    at one value of ``facet``, in the same order and with the same colours, and one legend serves every panel.
    """
    columns, facets = style.as_columns(by), style.as_columns(facet)
    style.require(frame, "call_accuracy_facets", [*columns, *facets, "metric", "value"])
    panels = [(key, part) for key, part in style.groups(frame, facets) if part["value"].notna().any()]
    if not panels:
        raise ConfigError("call_accuracy_facets: no call-accuracy values to draw")
    variants = max(len(_variants(part, columns)) for _, part in panels)
    width = accuracy_size(variants)[0]
    fig, axes = style.facet_axes(len(panels), panel=(width - 3.3, 2.9), ncols=1, extra_width=3.3, figure=figure,
                                 sharey=True)
    for i, (ax, (key, part)) in enumerate(zip(axes, panels, strict=True)):
        _draw(ax, part, columns, _variants(part, columns), metrics=_metrics(frame))
        ax.set_title(f"{style.group_label(facets, key)}" if len(facets) > 1
                     else f"{style.columns_title(facets)} = {style.group_label(facets, key)}",
                     fontsize=10, fontweight="normal")
        if i < len(axes) - 1:
            ax.set_xlabel("")
    handles = list({h.get_label(): h for ax in axes for h in ax.get_legend_handles_labels()[0]}.values())
    order = [METRIC_LABELS.get(m, m) for m in _metrics(frame)]
    handles.sort(key=lambda h: order.index(h.get_label()) if h.get_label() in order else len(order))
    fig.legend(handles=handles, loc="outside right upper", title=LEGEND_TITLE)
    style.centred_suptitle(fig, "Call accuracy and the fate of fours of a kind", right=3.3)
    return fig


#: What the legend explains: precisions are shares of calls, conversions shares of fours of a kind.
LEGEND_TITLE = "precision (per call) / conversion (per four)"


def _draw(ax: Axes, frame: pd.DataFrame, columns: list[str], variants: list,
          metrics: list[str] | None = None) -> None:
    """The bars and whiskers of every metric with a value, the variant ticks and the axis labels."""
    metrics = _metrics(frame) if metrics is None else metrics
    offsets = _offsets(metrics)
    has_ci = {"ci_low", "ci_high"} <= set(frame.columns)
    for j, metric in enumerate(metrics):
        xs, ys, lows, highs = [], [], [], []
        for i, (_, part) in enumerate(variants):
            row = part[part["metric"] == metric]
            if row.empty or pd.isna(row["value"].iloc[0]):
                continue
            value = float(row["value"].iloc[0])
            xs.append(i + offsets[j])
            ys.append(value)
            lows.append(value - float(row["ci_low"].iloc[0]) if has_ci else np.nan)
            highs.append(float(row["ci_high"].iloc[0]) - value if has_ci else np.nan)
        if not xs:
            continue
        colour = METRIC_COLORS.get(metric, style.color(j))
        ax.bar(xs, ys, width=_WIDTH, color=colour, label=METRIC_LABELS.get(metric, metric), zorder=2)
        zeros = [x for x, y in zip(xs, ys, strict=True) if y == 0]
        if zeros:  # a share of zero has no bar to see: a flat mark in its colour anchors its whisker
            ax.plot(zeros, [0.0] * len(zeros), linestyle="none", marker="_", markersize=8, markeredgewidth=2.5,
                    color=colour, zorder=3, clip_on=False, gid="zero_bars")
        err = np.vstack([lows, highs])
        finite = np.isfinite(err).all(axis=0)
        if has_ci and finite.any():
            ax.errorbar(np.asarray(xs)[finite], np.asarray(ys)[finite], yerr=np.clip(err[:, finite], 0, None),
                        fmt="none", ecolor="#333333", elinewidth=0.9, capsize=2, zorder=3)
    labels = [style.group_label(columns, key) for key, _ in variants]
    style.category_ticks(ax, labels)
    ax.set_xlim(-0.6, len(variants) - 0.4)
    ax.set_ylim(0, 1.05)
    ax.grid(False, axis="x")
    ax.set_xlabel(style.columns_title(columns))
    ax.set_ylabel("share")


_WIDTH = 0.12


def _variants(frame: pd.DataFrame, columns: list[str]) -> list:
    """The groups of ``frame`` by ``columns`` that have at least one value: an empty variant gets no slot."""
    return [(key, part) for key, part in style.groups(frame, columns) if part["value"].notna().any()]


def _metrics(frame: pd.DataFrame) -> list[str]:
    """The metrics with a value somewhere in ``frame``, in drawing order (known ones first)."""
    shown = [m for m in frame["metric"].unique() if frame.loc[frame["metric"] == m, "value"].notna().any()]
    return [m for m in METRICS if m in shown] + [m for m in shown if m not in METRICS]


def accuracy_size(variants: int) -> tuple[float, float]:
    """Figure size in inches for ``variants`` clusters, with room on the right for the legend (about 3.5 in)."""
    return (max(9.0, 5.0 + 1.1 * variants), 4.8)


def _kind(metric: str) -> str:
    """What a metric's share is of: its table in the metric registry (calls for precisions, fours for
    conversions), or, for a metric the registry does not know, the end of its name."""
    try:
        return get(metric).tables[0]
    except ConfigError:
        return "calls" if metric.endswith("_precision") else "fours"


def _offsets(metrics: list[str]) -> list[float]:
    """Bar centres within a cluster: precisions, a gap, then conversions, the whole cluster centred on 0."""
    positions, x, previous = [], 0.0, None
    for metric in metrics:
        kind = _kind(metric)
        if previous is not None:
            x += _WIDTH + (0.06 if kind != previous else 0.0)
        positions.append(x)
        previous = kind
    middle = (positions[0] + positions[-1]) / 2 if positions else 0.0
    return [p - middle for p in positions]
