"""Distributions of times: how long rounds last, and how long a pair takes from four of a kind to a right Kemps.

One group is drawn as a histogram. Several groups are drawn as empirical cumulative distributions (ECDFs), one
line each: overlaid histograms hide each other, while ECDF lines stay readable and show medians and tails directly
(where a line crosses 0.5, how far right it reaches). Each legend entry carries the group's count and median.

Groups with nothing to show are left out (no line, no legend entry, no colour used up). More than six groups put
the legend outside the axes; a grouping column with many numeric values (the cells of a sampled sweep) colours the
lines on a colour scale with a colour bar instead of a legend. :func:`round_length_facets` and
:func:`call_delay_facets` split many groups into small multiples with one shared legend.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from kemps_sim.errors import ConfigError
from kemps_sim.plots import style

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

KINDS = ("auto", "hist", "ecdf")
#: The calls that claim the caller's own pair holds four of a kind.
KEMPS_CALLS = ("kemps", "double_kemps")


@style.styled
def round_length_plot(rounds: pd.DataFrame, by: str | Sequence[str] | None = None, ax: Axes | None = None,
                      kind: str = "auto", *, legend: bool = True) -> Axes:
    """The distribution of round ``duration`` (seconds), per group of ``by`` if given; return the Axes.

    ``kind`` is ``"hist"``, ``"ecdf"`` or ``"auto"`` (a histogram for one group, ECDFs for several). Rounds that
    hit the time cap end at the cap, which shows as a step at the right. ``legend=False`` leaves out the legend
    and colour bar.
    """
    return _distribution(rounds, "duration", by, ax, kind, legend=legend, **ROUND_LENGTH)


@style.styled
def call_delay_plot(calls: pd.DataFrame, by: str | Sequence[str] | None = None, ax: Axes | None = None,
                    kind: str = "auto", *, legend: bool = True) -> Axes:
    """The distribution of ``four_to_call`` (seconds) over right Kemps and Double Kemps calls; return the Axes.

    Only right calls have a four of a kind to measure from; wrong calls and Stop Kemps are left out.
    """
    return _distribution(_right_calls(calls, by), "four_to_call", by, ax, kind, legend=legend, **CALL_DELAY)


@style.styled
def round_length_facets(rounds: pd.DataFrame, by: str | Sequence[str] | None, facet: str | Sequence[str],
                        kind: str = "ecdf", *, figure: Figure | None = None) -> Figure:
    """:func:`round_length_plot` as small multiples, one panel per value of ``facet``; return the Figure.

    Every panel draws the groups of ``by`` in the same colours, explained by one legend (or colour bar).
    """
    return _facets(rounds, "duration", by, facet, kind, figure, ROUND_LENGTH)


@style.styled
def call_delay_facets(calls: pd.DataFrame, by: str | Sequence[str] | None, facet: str | Sequence[str],
                      kind: str = "ecdf", *, figure: Figure | None = None) -> Figure:
    """:func:`call_delay_plot` as small multiples, one panel per value of ``facet``; return the Figure."""
    columns = [*style.as_columns(by), *style.as_columns(facet)]
    return _facets(_right_calls(calls, columns), "four_to_call", by, facet, kind, figure, CALL_DELAY)


ROUND_LENGTH = {"name": "round_length_plot", "xlabel": "round length (s)", "unit": "rounds",
                "title": "How long rounds last"}
CALL_DELAY = {"name": "call_delay_plot", "xlabel": "time from four of a kind to a right Kemps call (s)",
              "unit": "right Kemps calls", "title": "How fast pairs call their fours"}


def _right_calls(calls: pd.DataFrame, by: str | Sequence[str] | None) -> pd.DataFrame:
    style.require(calls, "call_delay_plot", ["call", "right", "four_to_call", *style.as_columns(by)])
    return calls[calls["call"].isin(KEMPS_CALLS) & calls["right"].astype(bool)]


def _distribution(frame: pd.DataFrame, column: str, by: str | Sequence[str] | None, ax: Axes | None, kind: str,
                  *, name: str, xlabel: str, unit: str, title: str, legend: bool = True) -> Axes:
    if kind not in KINDS:
        raise ConfigError(f"kind = {kind!r}: must be one of {', '.join(KINDS)}")
    columns = style.as_columns(by)
    style.require(frame, name, [column, *columns])
    data = frame.dropna(subset=[column])
    ax = style.axes_or_new(ax, (7.0, 4.5))
    enc = style.encoding(data, columns, column)
    drawn = _draw(ax, data, column, columns, enc, kind, xlabel=xlabel, unit=unit, title=title)
    if legend and drawn:
        _legend(ax, enc, drawn)
    return ax


def _draw(ax: Axes, data: pd.DataFrame, column: str, columns: list[str], enc: style.Encoding, kind: str, *,
          xlabel: str, unit: str, title: str, bins: np.ndarray | None = None) -> str | None:
    """Draw the groups of ``data``; return the kind drawn (``hist`` or ``ecdf``), None when there was nothing."""
    parts = [(key, part[column].to_numpy(dtype=float)) for key, part in style.groups(data, columns)]
    parts = [(key, values) for key, values in parts if len(values)]
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    if not parts:
        ax.text(0.5, 0.5, f"no {unit} to show", transform=ax.transAxes, ha="center", va="center", color=style.GREY)
        ax.set_ylabel(f"{unit} (count)")
        return None
    if kind == "auto":
        kind = "hist" if len(enc.keys) == 1 else "ecdf"
    if kind == "hist":
        if bins is None:
            bins = hist_bins(np.concatenate([values for _, values in parts]))
        for key, values in parts:
            ax.hist(values, bins=bins, color=enc.color(key), alpha=0.75 if len(parts) == 1 else 0.45,
                    edgecolor="white", linewidth=0.5, label=_label(enc, key, values))
        ax.set_ylabel(f"{unit} (count)")
        ax.grid(False, axis="x")
    else:
        width = 1.6 if enc.scale is None else 1.1
        for key, values in parts:
            xs = np.sort(values)
            ys = np.arange(1, len(xs) + 1) / len(xs)
            ax.step(xs, ys, where="post", color=enc.color(key), linestyle=enc.linestyle(key), linewidth=width,
                    label=_label(enc, key, values))
        ax.set_ylabel(f"share of {unit} at most this long")
        ax.set_ylim(0, 1.02)
    ax.set_xlim(left=0)
    return kind


def hist_bins(values: np.ndarray) -> np.ndarray:
    """Histogram bin edges for ``values``: numpy's automatic choice, at most 40 bins."""
    bins = np.histogram_bin_edges(values, bins="auto")
    if len(bins) > 41:
        bins = np.linspace(values.min(), values.max(), 41)
    return bins


def _legend(ax: Axes, enc: style.Encoding, kind: str) -> None:
    """Inside (at the empty corner) for a few groups, outside for many; a colour bar for a colour scale."""
    handles = [h for h in ax.get_legend_handles_labels()[0]] + enc.style_handles()
    if enc.scale is not None or len(handles) > style.MANY:
        style.legend_outside(ax, handles, title=enc.legend_title)
    elif handles:
        ax.legend(handles=handles, title=enc.legend_title, loc="lower right" if kind == "ecdf" else "upper right")
    enc.colorbar(ax.figure, ax)


def _facets(frame: pd.DataFrame, column: str, by: str | Sequence[str] | None, facet: str | Sequence[str],
            kind: str, figure: Figure | None, words: dict[str, str]) -> Figure:
    if kind not in KINDS:
        raise ConfigError(f"kind = {kind!r}: must be one of {', '.join(KINDS)}")
    columns, facets = style.as_columns(by), style.as_columns(facet)
    style.require(frame, words["name"], [column, *columns, *facets])
    data = frame.dropna(subset=[column])
    enc = style.encoding(data, columns, column)
    panels = [(key, part) for key, part in style.groups(data, facets) if len(part)]
    if not panels:
        raise ConfigError(f"{words['name']}: no {words['unit']} to show")
    kind = "ecdf" if kind == "auto" and len(enc.keys) > 1 else ("hist" if kind == "auto" else kind)
    bins = hist_bins(data[column].to_numpy(dtype=float)) if kind == "hist" else None
    room = 3.4 if enc.legend else 1.3
    fig, axes = style.facet_axes(len(panels), extra_width=room, figure=figure, sharex=True)
    across = style.facet_columns(len(panels))
    for i, (ax, (key, part)) in enumerate(zip(axes, panels, strict=True)):
        _draw(ax, part, column, columns, enc, kind, bins=bins, xlabel=words["xlabel"], unit=words["unit"],
              title=f"{style.columns_title(facets)} = {style.group_label(facets, key)}" if len(facets) == 1
              else style.group_label(facets, key))
        ax.title.set(fontsize=10, fontweight="normal")
        if i % across:
            ax.set_ylabel("")
        else:  # a panel is short: the long axis label goes on two lines
            ax.set_ylabel(style.wrap(ax.get_ylabel(), 26))
        if i < len(axes) - across:
            ax.set_xlabel("")
    if enc.legend:
        handles = [Line2D([], [], color=enc.color(key), linestyle=enc.linestyle(key), linewidth=1.6,
                          label=enc.label(key)) for key in enc.keys]
        fig.legend(handles=handles + enc.style_handles(), loc="outside right upper", title=enc.legend_title,
                   ncols=1 if len(handles) <= 18 else 2)
    elif enc.style_handles():
        fig.legend(handles=enc.style_handles(), loc="outside right upper", title=enc.legend_title)
    enc.colorbar(fig, axes)
    style.centred_suptitle(fig, f"{words['title']}, one panel per {style.columns_title(facets)}", right=room)
    return fig


def _label(enc: style.Encoding, key: tuple, values: np.ndarray) -> str | None:
    stats = f"n={len(values)}, median {style.number(float(np.median(values)))} s"
    if enc.scale is not None:
        return None
    return f"{enc.label(key)} ({stats})" if enc.columns else stats
