"""Distributions of times: how long rounds last, and how long a pair takes from four of a kind to a right Kemps.

One group is drawn as a histogram. Several groups are drawn as empirical cumulative distributions (ECDFs), one
line each: overlaid histograms hide each other, while ECDF lines stay readable and show medians and tails directly
(where a line crosses 0.5, how far right it reaches). Each legend entry carries the group's count and median.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.plots import style

if TYPE_CHECKING:
    from matplotlib.axes import Axes

KINDS = ("auto", "hist", "ecdf")
#: The calls that claim the caller's own pair holds four of a kind.
KEMPS_CALLS = ("kemps", "double_kemps")


@style.styled
def round_length_plot(rounds: pd.DataFrame, by: str | Sequence[str] | None = None, ax: Axes | None = None,
                      kind: str = "auto") -> Axes:
    """The distribution of round ``duration`` (seconds), per group of ``by`` if given; return the Axes.

    ``kind`` is ``"hist"``, ``"ecdf"`` or ``"auto"`` (a histogram for one group, ECDFs for several). Rounds that
    hit the time cap end at the cap, which shows as a step at the right.
    """
    return _distribution(rounds, "duration", by, ax, kind, name="round_length_plot",
                         xlabel="round length (s)", unit="rounds", title="How long rounds last")


@style.styled
def call_delay_plot(calls: pd.DataFrame, by: str | Sequence[str] | None = None, ax: Axes | None = None,
                    kind: str = "auto") -> Axes:
    """The distribution of ``four_to_call`` (seconds) over right Kemps and Double Kemps calls; return the Axes.

    Only right calls have a four of a kind to measure from; wrong calls and Stop Kemps are left out.
    """
    style.require(calls, "call_delay_plot", ["call", "right", "four_to_call", *style.as_columns(by)])
    right = calls[calls["call"].isin(KEMPS_CALLS) & calls["right"].astype(bool)]
    return _distribution(right, "four_to_call", by, ax, kind, name="call_delay_plot",
                         xlabel="time from four of a kind to a right Kemps call (s)", unit="right Kemps calls",
                         title="How fast pairs call their fours")


def _distribution(frame: pd.DataFrame, column: str, by: str | Sequence[str] | None, ax: Axes | None, kind: str,
                  *, name: str, xlabel: str, unit: str, title: str) -> Axes:
    if kind not in KINDS:
        raise ConfigError(f"kind = {kind!r}: must be one of {', '.join(KINDS)}")
    columns = style.as_columns(by)
    style.require(frame, name, [column, *columns])
    data = frame.dropna(subset=[column])
    parts = [(key, part[column].to_numpy(dtype=float)) for key, part in style.groups(data, columns)]
    parts = [(key, values) for key, values in parts if len(values)]
    ax = style.axes_or_new(ax, (7.0, 4.5))
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    if not parts:
        ax.text(0.5, 0.5, f"no {unit} to show", transform=ax.transAxes, ha="center", va="center", color=style.GREY)
        ax.set_ylabel(f"{unit} (count)")
        return ax
    if kind == "auto":
        kind = "hist" if len(parts) == 1 else "ecdf"
    if kind == "hist":
        every = np.concatenate([values for _, values in parts])
        bins = np.histogram_bin_edges(every, bins="auto")
        if len(bins) > 41:
            bins = np.linspace(every.min(), every.max(), 41)
        for i, (key, values) in enumerate(parts):
            ax.hist(values, bins=bins, color=style.color(i), alpha=0.75 if len(parts) == 1 else 0.45,
                    edgecolor="white", linewidth=0.5, label=_label(columns, key, values))
        ax.set_ylabel(f"{unit} (count)")
        ax.grid(False, axis="x")
    else:
        for i, (key, values) in enumerate(parts):
            xs = np.sort(values)
            ys = np.arange(1, len(xs) + 1) / len(xs)
            ax.step(xs, ys, where="post", color=style.color(i), linestyle=style.linestyle(i), linewidth=1.6,
                    label=_label(columns, key, values))
        ax.set_ylabel(f"share of {unit} at most this long")
        ax.set_ylim(0, 1.02)
    ax.set_xlim(left=0)
    ax.legend(title=style.columns_title(columns) or None, loc="lower right" if kind == "ecdf" else "upper right")
    return ax


def _label(columns: list[str], key: tuple, values: np.ndarray) -> str:
    stats = f"n={len(values)}, median {np.median(values):.1f} s"
    return f"{style.group_label(columns, key)} ({stats})" if columns else stats
