"""The standard figures of a sweep, written as PNG files: win rate, call accuracy, round lengths, call delays.

A sweep's tables are the records tables of all its matches stacked, each row carrying its ``cell``, the swept
parameters' values, ``replicate`` and ``seed``. The statistics come from :mod:`kemps_sim.stats`, imported only when
the figures are made.

The layout follows the design, so that the figures stay readable however big the sweep (:func:`figure_plan`):

- a sampled design (random or Latin hypercube: numeric parameters at many uneven values, one cell each) draws
  each statistic against each sampled parameter as a scatter of cells with a binned trend, coloured by the next
  sampled parameter on a colour scale; call accuracy gets one panel per metric;
- a grid picks as x the numeric parameter with the most levels (else the first), tells the next parameter apart
  by colour and splits the rest into small multiples; call accuracy and the distributions are split by x into
  small multiples once there are more than a dozen (accuracy) or eight (distributions) cells;
- one parameter with many levels (a tournament's lineups) gets rotated labels and a legend outside.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.plots import style
from kemps_sim.plots.accuracy import accuracy_size, call_accuracy_facets, call_accuracy_plot
from kemps_sim.plots.distributions import call_delay_facets, call_delay_plot, round_length_facets, round_length_plot
from kemps_sim.plots.params import metric_facets, metric_vs_param
from kemps_sim.results import MATCH_TABLES

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The tables a sweep hands over.
TABLES = ("matches", *MATCH_TABLES)
#: More cells than this and call accuracy (bars) or the distributions (lines) are split into small multiples.
MANY_ACCURACY_CELLS = 12
MANY_DISTRIBUTION_CELLS = 8
#: At most this many sampled parameters get a panel of their own.
MAX_PANELS = 4


@dataclass(frozen=True)
class FigurePlan:
    """Which parameter goes where in the standard figures of one sweep."""

    by: tuple[str, ...]  # every swept parameter (or ``cell``)
    x: str  # the x axis of the win-rate figure of a grid, and what splits the crowded figures of a grid
    sampled: tuple[str, ...] = ()  # numeric parameters of a random or Latin-hypercube design
    cells: int = 1

    @property
    def rest(self) -> list[str]:
        return [c for c in self.by if c != self.x]

    def colour_by(self, p: str) -> list[str]:
        """For a sampled design's panel of ``p``: the other parameters, the next sampled one first (its colour)."""
        others = [c for c in self.by if c != p]
        following = [c for c in self.sampled[self.sampled.index(p) + 1:] + self.sampled[:self.sampled.index(p)]]
        first = [c for c in following if c in others][:1]
        return first + [c for c in others if c not in first]


def figure_plan(table: pd.DataFrame, params: Sequence[str]) -> FigurePlan:
    """The :class:`FigurePlan` of a sweep from one row per cell (any statistics table) and its parameters."""
    by = tuple(params) or ("cell",)
    cells = len(table[list(by)].drop_duplicates())
    sampled = tuple(c for c in by if style.is_numeric(table[c], c) and style.is_sampled(table[c]))
    numeric = [c for c in by if style.is_numeric(table[c], c)]
    levels = {c: table[c].nunique() for c in by}
    x = max(numeric, key=lambda c: levels[c]) if numeric else by[0]
    return FigurePlan(by, x, sampled, cells)


@style.styled
def standard_figures(tables: Mapping[str, pd.DataFrame], folder: str | PathLike[str],
                     params: Sequence[str]) -> list[Path]:
    """Write the standard figures of a sweep into ``folder`` (made if missing) and return the files written.

    ``params`` are the swept parameter columns; with none, the sweep's ``cell`` index stands in for them.
    The figures: ``win_rate.png`` (pair 0's win rate against the parameters), ``call_accuracy.png`` (every
    call-accuracy metric per cell), ``round_length.png`` and ``call_delay.png`` (their distributions per cell),
    each laid out for the sweep's design as the module describes.
    """
    figures = draw_standard_figures(tables, params)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, fig in figures.items():
        path = folder / name
        style.save(fig, path)
        written.append(path)
    return written


@style.styled
def draw_standard_figures(tables: Mapping[str, pd.DataFrame], params: Sequence[str]) -> dict[str, Figure]:
    """The figures :func:`standard_figures` writes, by file name, as detached figures (nothing is written).

    Detached figures need no GUI backend and are not registered with pyplot; save one with ``fig.savefig``.
    """
    from kemps_sim import stats  # deferred: only this function needs it

    missing = [name for name in TABLES if name not in tables]
    if missing:
        raise ConfigError(f"standard_figures: table(s) {', '.join(missing)} missing; given: {', '.join(tables)}")
    by = list(params) or ["cell"]
    pairs, rounds, calls, fours = (tables[name] for name in ("pairs", "rounds", "calls", "fours"))

    wins = stats.win_rates(pairs, by)
    first = wins[wins["pair"] == 0]
    agents = first["agents"].unique()
    who = f"pair 0 ({agents[0]})" if len(agents) == 1 else "pair 0"
    ylabel = f"{who} win rate (share of matches won)"
    accuracy = stats.call_accuracy(calls, fours, by)
    plan = figure_plan(first, by)

    drawings: list[tuple[str, Callable[[Figure], object]]] = [
        ("win_rate.png", lambda fig: estimate_figure(fig, first, plan, ylabel)),
        ("call_accuracy.png", lambda fig: _accuracy(fig, accuracy, plan)),
        ("round_length.png", lambda fig: _distribution(fig, rounds, plan, round_length_plot, round_length_facets)),
        ("call_delay.png", lambda fig: _distribution(fig, calls, plan, call_delay_plot, call_delay_facets)),
    ]
    figures = {}
    for name, draw in drawings:
        fig = style.new_figure((7.5, 4.5), detached=True)
        draw(fig)
        figures[name] = fig
    return figures


def estimate_figure(fig: Figure, first: pd.DataFrame, plan: FigurePlan, ylabel: str) -> None:
    """Draw one estimate per cell (``value``, ``ci_low``, ``ci_high`` beside the parameters) against the
    parameters on ``fig``, laid out for the sweep's design as the module describes (the win-rate figure)."""
    if plan.sampled:
        panels = list(plan.sampled[:MAX_PANELS])
        _, axes = style.facet_axes(len(panels), panel=(6.2, 4.3), ncols=2, extra_width=0.5, figure=fig,
                                   sharey=True)
        for i, (ax, p) in enumerate(zip(axes, panels, strict=True)):
            metric_vs_param(first, x=p, group=plan.colour_by(p) or None, ax=ax, ylabel=ylabel, trend=True,
                            legend="figure" if i == len(panels) - 1 else False)
        return
    if len(plan.by) >= 3:
        metric_facets(first, x=plan.x, group=plan.rest[0], facet=plan.rest[1:], ylabel=ylabel, figure=fig)
        return
    levels = first[plan.x].nunique()
    fig.set_size_inches(max(7.5, 3.5 + 0.55 * levels), 4.8)
    metric_vs_param(first, x=plan.x, group=plan.rest or None, ax=fig.add_subplot(), ylabel=ylabel)


def _accuracy(fig: Figure, accuracy: pd.DataFrame, plan: FigurePlan) -> None:
    if plan.sampled:
        p = plan.sampled[0]
        metric_facets(accuracy, x=p, facet="metric", group=plan.colour_by(p) or None, figure=fig, trend=True,
                      title="Call accuracy and the fate of fours of a kind, one panel per metric")
        return
    if plan.cells > MANY_ACCURACY_CELLS and len(plan.by) >= 2:
        call_accuracy_facets(accuracy, by=plan.rest, facet=plan.x, figure=fig)
        return
    fig.set_size_inches(*accuracy_size(plan.cells))
    call_accuracy_plot(accuracy, by=list(plan.by), ax=fig.add_subplot())


def _distribution(fig: Figure, table: pd.DataFrame, plan: FigurePlan, single: Callable,
                  facets: Callable) -> None:
    by = list(plan.by)
    if plan.sampled:
        fig.set_size_inches(8.5, 4.8)
        single(table, by=[plan.sampled[0], *[c for c in by if c != plan.sampled[0]]], ax=fig.add_subplot())
        return
    if plan.cells > MANY_DISTRIBUTION_CELLS and len(by) >= 2:
        facets(table, by=plan.rest, facet=plan.x, figure=fig)
        return
    if plan.cells > style.MANY:
        fig.set_size_inches(10.5, 4.8)
    single(table, by=by, ax=fig.add_subplot())
