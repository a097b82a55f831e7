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

from kemps_sim.plots import style
from kemps_sim.plots.labels import METRIC_LABELS, METRICS

if TYPE_CHECKING:
    from matplotlib.axes import Axes

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
def call_accuracy_plot(frame: pd.DataFrame, by: str | Sequence[str], ax: Axes | None = None) -> Axes:
    """Grouped bars of every call-accuracy metric per value of ``by``, with confidence whiskers; return the Axes.

    ``frame`` is a ``call_accuracy`` table (``by`` columns, ``metric``, ``value``, optionally ``ci_low`` and
    ``ci_high``). Bars with no value (a group with no calls of that kind) are left out rather than drawn as zero.
    """
    columns = style.as_columns(by)
    style.require(frame, "call_accuracy_plot", [*columns, "metric", "value"])
    present = list(frame["metric"].unique())
    metrics = [m for m in METRICS if m in present] + [m for m in present if m not in METRICS]
    variants = style.groups(frame, columns)
    ax = style.axes_or_new(ax, accuracy_size(len(variants)))
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
            lows.append(value - float(row["ci_low"].iloc[0]) if has_ci else 0.0)
            highs.append(float(row["ci_high"].iloc[0]) - value if has_ci else 0.0)
        colour = METRIC_COLORS.get(metric, style.color(j))
        ax.bar(xs, ys, width=_WIDTH, color=colour, label=METRIC_LABELS.get(metric, metric), zorder=2)
        if has_ci and xs:
            ax.errorbar(xs, ys, yerr=np.clip(np.vstack([lows, highs]), 0, None), fmt="none", ecolor="#333333",
                        elinewidth=0.9, capsize=2, zorder=3)
    labels = [style.group_label(columns, key) for key, _ in variants]
    rotate = len(variants) > 6 or max((len(t) for t in labels), default=0) > 12
    ax.set_xticks(range(len(variants)), labels, rotation=30 if rotate else 0, ha="right" if rotate else "center")
    ax.set_xlim(-0.6, len(variants) - 0.4)
    ax.set_ylim(0, 1.05)
    ax.grid(False, axis="x")
    ax.set_xlabel(style.columns_title(columns))
    ax.set_ylabel("share")
    ax.set_title("Call accuracy and the fate of fours of a kind")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), title="precision (per call) / conversion (per four)")
    return ax


_WIDTH = 0.12


def accuracy_size(variants: int) -> tuple[float, float]:
    """Figure size in inches for ``variants`` clusters, with room on the right for the legend (about 3.5 in)."""
    return (max(9.0, 5.0 + 1.1 * variants), 4.8)


def _offsets(metrics: list[str]) -> list[float]:
    """Bar centres within a cluster: precisions, a gap, then conversions, the whole cluster centred on 0."""
    positions, x, previous = [], 0.0, None
    for metric in metrics:
        kind = "precision" if metric.endswith("_precision") else "conversion"
        if previous is not None:
            x += _WIDTH + (0.06 if kind != previous else 0.0)
        positions.append(x)
        previous = kind
    middle = (positions[0] + positions[-1]) / 2 if positions else 0.0
    return [p - middle for p in positions]
