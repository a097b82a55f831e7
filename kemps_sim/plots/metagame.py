"""Meta-game figures: the payoff matrix ordered by Nash rating, the response graph, α-Rank's masses over α, and
replicator trajectories on the simplex of three strategies.

The inputs are plain: a square frame of the row strategy's payoff against the column strategy (antisymmetric, from
:mod:`kemps_sim.metagame.payoffs`), its standard errors, one rating per strategy, a frame of α-Rank masses per α,
and trajectories as arrays of mixtures. :func:`metagame_figures` writes them all as PNG files.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from kemps_sim.errors import ConfigError
from kemps_sim.plots import style
from kemps_sim.plots.ratings import head_to_head_plot

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: The corners of the simplex of three strategies in the plane (an equilateral triangle of side 1).
CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, math.sqrt(3.0) / 2.0]])


def payoff_matrix_plot(matrix: pd.DataFrame, ax: Axes | None = None, order: Sequence[str] | None = None,
                       counts: pd.DataFrame | None = None, label: str = "row's mean payoff") -> Axes:
    """A heatmap of the payoff matrix, centred on 0 (an even contest is white), its colour scale symmetric about 0
    and reaching the largest payoff, the diagonal blank; ``order`` lists the strategies (say, by Nash rating, best
    first)."""
    values = matrix.to_numpy(dtype=float).copy()
    np.fill_diagonal(values, np.nan)  # a strategy does not meet itself in a round robin: no cell to show
    finite = np.abs(values[np.isfinite(values)])
    reach = float(finite.max()) if finite.size and finite.max() > 0 else 0.5
    matrix = pd.DataFrame(values, index=matrix.index, columns=matrix.columns)
    return head_to_head_plot(matrix, ax=ax, counts=counts, order=order, centre=0.0, limits=(-reach, reach),
                             title="Meta-game payoff: row against column", colour_label=label)


@style.styled
def response_graph_plot(matrix: pd.DataFrame, ax: Axes | None = None, errors: pd.DataFrame | None = None,
                        order: Sequence[str] | None = None, z: float = 1.96) -> Axes:
    """The response graph: the strategies on a circle (in ``order``, the first at the top, clockwise), an arrow
    from each strategy to every strategy that beats it, thick where the payoff is large. With ``errors`` (standard
    errors of the payoffs) an arrow whose interval ``payoff ± z x error`` holds 0 is dashed and grey: its direction
    is not yet known. A circle of arrows is a cycle no single rating can express."""
    names = [str(name) for name in (order if order is not None else matrix.index)]
    if sorted(names) != sorted(map(str, matrix.index)) or matrix.shape[0] != matrix.shape[1]:
        raise ConfigError(f"response_graph_plot: order {names} must list the square matrix's strategies once each")
    frame = matrix.rename(index=str, columns=str).reindex(index=names, columns=names)
    values = frame.to_numpy(dtype=float)
    spread = None
    if errors is not None:
        spread = errors.rename(index=str, columns=str).reindex(index=names, columns=names).to_numpy(dtype=float)
    k = len(names)
    ax = style.axes_or_new(ax, (6.0, 6.0))
    angles = np.pi / 2 - 2 * np.pi * np.arange(k) / k
    points = np.column_stack([np.cos(angles), np.sin(angles)])
    reach = np.nanmax(np.abs(values)) if np.isfinite(values).any() else 1.0
    for i in range(k):
        for j in range(k):
            value = values[i, j]
            if i == j or not math.isfinite(value) or value >= 0:
                continue  # j beats i: the arrow runs i -> j, drawn once from the loser's row
            unsure = spread is not None and math.isfinite(spread[i, j]) and abs(value) <= z * spread[i, j]
            arrow = ax.annotate("", xy=points[j], xytext=points[i], arrowprops={
                "arrowstyle": "-|>", "shrinkA": 18, "shrinkB": 18, "linestyle": "--" if unsure else "-",
                "color": style.GREY if unsure else style.OKABE_ITO["blue"],
                "linewidth": 0.8 + 2.4 * abs(value) / (reach or 1.0), "mutation_scale": 14})
            arrow.set_in_layout(False)  # inside the axes: the layout need not make room for it
    ax.scatter(points[:, 0], points[:, 1], s=260, color="white", edgecolor=style.OKABE_ITO["vermillion"], zorder=3,
               linewidth=1.6)
    for (x, y), name in zip(points, names, strict=True):
        ax.annotate(style.wrap(name, 24), (x, y), xytext=(0, 16 if y >= -0.01 else -16), textcoords="offset points",
                    ha="center", va="bottom" if y >= -0.01 else "top", fontsize=9)
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-1.65, 1.35)
    ax.set_aspect("equal")
    ax.axis("off")
    handles = [Line2D([], [], color=style.OKABE_ITO["blue"], linewidth=2, label="loser → winner (width: payoff)")]
    if spread is not None:
        handles.append(Line2D([], [], color=style.GREY, linestyle="--", label="direction not known (interval "
                                                                              "holds 0)"))
    ax.legend(handles=handles, loc="lower center", fontsize=8, ncols=len(handles))  # inside: below the circle
    ax.set_title("Response graph: who beats whom")
    return ax


@style.styled
def alpha_sweep_plot(masses: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """α-Rank's stationary mass of each strategy against α (log scale): ``masses`` has one row per α (its index)
    and one column per strategy. As α grows selection is stricter and the mass settles on the strategies that
    survive."""
    if masses.empty:
        raise ConfigError("alpha_sweep_plot: masses is empty; give one row per alpha and one column per strategy")
    ax = style.axes_or_new(ax, (7.0, 4.2))
    alphas = masses.index.to_numpy(dtype=float)
    for i, name in enumerate(masses.columns):
        ax.plot(alphas, masses[name].to_numpy(dtype=float), color=style.color(i), linestyle=style.linestyle(i),
                marker=style.marker(i), markersize=4, label=str(name))
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("α (selection intensity)")
    ax.set_ylabel("stationary mass")
    ax.set_title("α-Rank: where the population spends its time")
    style.legend_outside(ax, title="strategy")
    return ax


def simplex_point(mixtures: np.ndarray) -> np.ndarray:
    """Mixtures of three strategies (rows summing to 1) as points in the plane of :data:`CORNERS`."""
    mixtures = np.atleast_2d(np.asarray(mixtures, dtype=float))
    if mixtures.shape[1] != 3:
        raise ConfigError(f"simplex_point: mixtures must have 3 columns (three strategies), got {mixtures.shape[1]}")
    return mixtures @ CORNERS


@style.styled
def simplex_plot(trajectories: Sequence[np.ndarray], names: Sequence[str], ax: Axes | None = None,
                 matrix: np.ndarray | None = None) -> Axes:
    """Replicator trajectories of three strategies on their simplex: each an array of mixtures (time by 3), its
    start a circle and its end a filled dot. With the 3 x 3 payoff ``matrix`` the replicator field's directions are
    drawn underneath, so the flow between the trajectories shows too."""
    if len(names) != 3:
        raise ConfigError(f"simplex_plot: names = {list(names)}: must name exactly three strategies")
    ax = style.axes_or_new(ax, (6.0, 5.6))
    ax.plot(*np.vstack([CORNERS, CORNERS[:1]]).T, color="black", linewidth=1.0)
    if matrix is not None:
        sub = np.asarray(matrix, dtype=float)
        if sub.shape != (3, 3):
            raise ConfigError(f"simplex_plot: matrix must be 3 x 3 (the three strategies' payoffs), got {sub.shape}")
        grid = [(a, b, 1 - a - b) for a in np.linspace(0.05, 0.95, 13) for b in np.linspace(0.05, 0.95, 13)
                if 1 - a - b >= 0.03]
        x = np.array(grid)
        fitness = x @ sub.T
        velocity = x * (fitness - np.sum(x * fitness, axis=1, keepdims=True))
        start, step = simplex_point(x), simplex_point(x + velocity) - simplex_point(x)
        length = np.hypot(step[:, 0], step[:, 1])
        scale = np.where(length > 0, 0.035 / np.maximum(length, 1e-12), 0.0)
        ax.quiver(start[:, 0], start[:, 1], step[:, 0] * scale, step[:, 1] * scale, angles="xy", scale_units="xy",
                  scale=1, color=style.LIGHT_GREY, width=0.004)
    for i, path in enumerate(trajectories):
        points = simplex_point(path)
        ax.plot(points[:, 0], points[:, 1], color=style.color(i), linewidth=1.6)
        ax.plot(*points[0], marker="o", markerfacecolor="white", markeredgecolor=style.color(i), markersize=7)
        ax.plot(*points[-1], marker="o", color=style.color(i), markersize=7)
    for corner, name, (dx, dy, ha) in zip(CORNERS, names, [(-6, -10, "right"), (6, -10, "left"), (0, 8, "center")],
                                          strict=True):
        ax.annotate(style.wrap(str(name), 20), corner, xytext=(dx, dy), textcoords="offset points", ha=ha,
                    va="top" if dy < 0 else "bottom", fontsize=9)
    ax.set_xlim(-0.25, 1.25)
    ax.set_ylim(-0.18, 1.0)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("Replicator dynamics (open circle: start, dot: end)")
    return ax


def metagame_figures(matrix: pd.DataFrame, ratings: pd.Series, folder: str | PathLike[str], *,
                     errors: pd.DataFrame | None = None, counts: pd.DataFrame | None = None,
                     masses: pd.DataFrame | None = None,
                     trajectories: tuple[Sequence[str], Sequence[np.ndarray]] | None = None,
                     prefix: str = "") -> list[Path]:
    """Write the meta-game figures into ``folder`` (made if missing) and return their paths: ``payoffs.png``
    ordered by ``ratings`` (one per strategy, best first), ``response_graph.png``, and when given ``alpha_rank.png``
    (``masses``) and ``simplex.png`` (``trajectories``: the three strategies' names and their trajectories).
    ``prefix`` starts every file name (one variant's figures beside another's)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    order = [str(name) for name in ratings.sort_values(ascending=False, kind="stable").index]
    written = []
    k = len(order)
    fig = style.new_figure((max(5.0, 3.2 + 0.9 * k), max(4.0, 2.2 + 0.75 * k)), detached=True)
    payoff_matrix_plot(matrix, ax=fig.add_subplot(), order=order, counts=counts)
    written.append(_save(fig, folder / f"{prefix}payoffs.png"))
    fig = style.new_figure((6.4, 6.4), detached=True)
    response_graph_plot(matrix, ax=fig.add_subplot(), errors=errors, order=order)
    written.append(_save(fig, folder / f"{prefix}response_graph.png"))
    if masses is not None:
        fig = style.new_figure((8.0, 4.4), detached=True)
        alpha_sweep_plot(masses, ax=fig.add_subplot())
        written.append(_save(fig, folder / f"{prefix}alpha_rank.png"))
    if trajectories is not None:
        names, paths = trajectories
        sub = matrix.rename(index=str, columns=str).loc[list(map(str, names)), list(map(str, names))]
        fig = style.new_figure((6.2, 5.8), detached=True)
        simplex_plot(paths, names, ax=fig.add_subplot(), matrix=sub.to_numpy(dtype=float))
        written.append(_save(fig, folder / f"{prefix}simplex.png"))
    return written


def _save(fig: object, path: Path) -> Path:
    style.save(fig, path)
    return path
