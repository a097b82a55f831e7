"""What the figures say about what they show: parameter names that tell parameters apart, legends true for every
panel they serve, legends inside the figure, and interval bands that stay apart where they overlap.

Checks are on the matplotlib objects once laid out (texts, legend entries, bounding boxes, artists' colours).
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure

from kemps_sim.plots import metric_facets, metric_vs_param, style
from kemps_sim.plots.standard import estimate_figure, figure_plan


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def win_row(value: float, n: int = 40, **fields) -> dict:
    wins = round(value * n)
    half = 1.96 * math.sqrt(max(value * (1 - value), 0.01) / n)
    return {**fields, "pair": 0, "agents": "collector", "wins": wins, "n": n, "value": wins / n,
            "ci_low": max(0.0, wins / n - half), "ci_high": min(1.0, wins / n + half), "ci_level": 0.95}


# --- parameter names ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("column", "label"), [
    ("rules.double_kemps", "double_kemps"),
    ("profile.observer.d_fixated", "observer.d_fixated"),
    ("profile.reaction.mu", "reaction.mu"),
    ("agent.threshold", "threshold"),
    ("pair1.agent.caution", "pair 1 caution"),
    ("pair0.profile.observer.criterion", "pair 0 observer.criterion"),
    ("player0.profile.reach.median", "player 0 reach.median"),
    ("player1.agent.attention", "player 1 attention"),
    ("players", "players"),
    ("cell", "cell"),
])
def test_a_parameter_reads_with_its_field_and_whose_it_is(column, label):
    assert style.param_label(column) == label


def test_two_pairs_with_the_same_parameter_are_told_apart_on_axes_legends_and_panels():
    levels = [0.5, 1.0, 2.0]
    frame = pd.DataFrame([win_row(0.3 + 0.1 * a - 0.05 * b, **{"pair0.agent.caution": a, "pair1.agent.caution": b})
                          for a in levels for b in levels])
    ax = metric_vs_param(frame, x="pair0.agent.caution", group="pair1.agent.caution")
    assert ax.get_xlabel() == "pair 0 caution"
    assert ax.get_legend().get_title().get_text() == "pair 1 caution"
    assert "by pair 0 caution" in ax.get_title()
    fig = metric_facets(frame, x="pair0.agent.caution", facet="pair1.agent.caution")
    assert [a.get_title() for a in fig.axes] == [f"pair 1 caution = {style.number(v)}" for v in levels]
    assert "one panel per pair 1 caution" in fig.get_suptitle()


def test_names_that_would_read_alike_keep_their_full_keys():
    assert style.param_labels(["profile.caution", "agent.caution", "rules.players"]) == [
        "profile.caution", "agent.caution", "players"]
    assert style.columns_title(["pair0.agent.caution", "pair1.agent.caution"]) == "pair 0 caution, pair 1 caution"
    assert style.group_label(["pair0.agent.caution", "pair1.agent.caution"], (0.5, 2.0)) == \
        "pair 0 caution=0.5, pair 1 caution=2"


# --- a legend shared by panels ----------------------------------------------------------------------------------


def sampled_frame(cells: int = 40, seed: int = 3) -> pd.DataFrame:
    """One win rate per cell of a Latin hypercube over two parameters."""
    rng = np.random.default_rng(seed)
    u = (rng.permutation(cells) + rng.random(cells)) / cells
    v = (rng.permutation(cells) + rng.random(cells)) / cells
    return pd.DataFrame([win_row(float(np.clip(0.3 + 0.2 * a - 0.3 * b, 0, 1)),
                                 **{"profile.observer.d_fixated": 0.5 + 2.5 * a, "pair1.agent.caution": b})
                         for a, b in zip(u, v, strict=True)])


def test_the_legend_under_a_sampled_design_is_true_for_every_panel():
    frame = sampled_frame()
    params = ["profile.observer.d_fixated", "pair1.agent.caution"]
    plan = figure_plan(frame, params)
    assert plan.sampled == tuple(params)
    fig = Figure(layout="constrained")
    estimate_figure(fig, frame, plan, "pair 0 win rate")
    panels = [ax for ax in fig.axes if ax.get_gid() != "colorbar"]
    assert [ax.get_xlabel() for ax in panels] == ["observer.d_fixated", "pair 1 caution"]
    (legend,) = fig.legends
    texts = [t.get_text() for t in legend.get_texts()]
    trend = next(t for t in texts if t.startswith("mean of cells"))
    # the trend of each panel is binned along that panel's own x: the shared text names no one panel's parameter
    assert "each panel's x axis" in trend
    assert not any(ax.get_xlabel() in trend for ax in panels)
    # every panel draws one trend, over as many bins as the shared text says
    bins = int(trend.split(" bins")[0].rsplit(" ", 1)[-1])
    for ax in panels:
        (line,) = [line for line in ax.lines if line.get_gid() == "trend"]
        assert len(line.get_xdata()) == bins


def test_a_single_panel_names_the_parameter_its_trend_is_binned_along():
    ax = metric_vs_param(sampled_frame(), x="pair1.agent.caution", group="profile.observer.d_fixated", trend=True)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("mean of cells in") and "bins of pair 1 caution" in t for t in texts)


# --- the sensitivity figure's legend --------------------------------------------------------------------------------


def sobol_table(parameters: int) -> pd.DataFrame:
    names = [f"pair{i % 2}.profile.observer.criterion_{i}" for i in range(parameters)]
    table = pd.DataFrame({"parameter": names, "S1": 0.1, "S1_conf": 0.05, "ST": 0.3, "ST_conf": 0.1,
                          "confidence": 0.95})
    table.attrs.update(confidence=0.95, metric="pair1_won")
    return table


def morris_table() -> pd.DataFrame:
    return pd.DataFrame({"parameter": ["profile.observer.d_fixated", "profile.reaction.mu"], "mu_star": [0.3, 0.1],
                         "mu_star_conf": [0.05, 0.04], "mu": [0.2, -0.1], "sigma": [0.1, 0.2], "confidence": 0.95})


def legend_fits(ax) -> bool:
    """The axes' legend lies wholly inside its figure and wholly under the x label."""
    fig = ax.figure
    fig.draw_without_rendering()
    legend = ax.get_legend().get_window_extent()
    inside = (legend.x0 >= -0.5 and legend.y0 >= -0.5 and legend.x1 <= fig.bbox.width + 0.5
              and legend.y1 <= fig.bbox.height + 0.5)
    return inside and legend.y1 <= ax.xaxis.label.get_window_extent().y0 + 0.5


@pytest.mark.parametrize("table", [sobol_table(1), sobol_table(4), sobol_table(14), morris_table()],
                         ids=["one parameter", "four", "fourteen", "morris"])
def test_the_sensitivity_legend_fits_in_its_figure(table):
    from kemps_sim.plots import sensitivity_plot

    ax = sensitivity_plot(table)
    assert len(ax.get_legend().get_texts()) == 2 and legend_fits(ax)


def test_the_sensitivity_legends_fit_in_a_grid_of_panels():
    from kemps_sim.plots import sensitivity_plot

    _, axes = plt.subplots(2, 2, figsize=(13, 6.2), layout="constrained")
    for ax in axes.flat:
        sensitivity_plot(sobol_table(4), ax=ax, title="a panel")
    assert all(legend_fits(ax) for ax in axes.flat)


# --- overlapping interval bands -------------------------------------------------------------------------------------


def test_overlapping_bands_are_light_and_outlined_each_in_its_own_colour():
    """Three groups whose intervals overlap almost everywhere: each band is drawn light enough for the others to
    show through it, with an outline in its line's colour, so that every band's extent can be read off."""
    rows = [win_row(0.3 - 0.1 * a + 0.01 * m, n=60, **{"player1.agent.attention": a,
                                                         "player0.profile.reach.median": m})
            for m in (0.3, 0.6, 1.2) for a in (0.1, 0.3, 0.5, 0.7, 0.9)]
    ax = metric_vs_param(pd.DataFrame(rows), x="player1.agent.attention", group="player0.profile.reach.median")
    lines = [line for line in ax.lines if not line.get_label().startswith("_")]
    bands = [c for c in ax.collections if c.get_gid() == "band"]
    assert len(lines) == len(bands) == 3
    for line, band in zip(lines, bands, strict=True):
        (face,), (edge,) = band.get_facecolor(), band.get_edgecolor()
        assert face[3] <= 0.12  # three overlapping fills stay lighter than one opaque band
        assert to_rgb(edge[:3]) == to_rgb(line.get_color()) and edge[3] >= 0.5 and band.get_linewidth()[0] > 0
    legend = ax.get_legend()
    shaded = next(h for h, t in zip(legend.legend_handles, legend.get_texts(), strict=True)
                  if t.get_text().startswith("shaded"))
    assert shaded.get_edgecolor()[3] > 0  # the legend shows the outline too


def test_the_sensitivity_figure_names_parameters_as_every_figure_does():
    from kemps_sim.plots import sensitivity_plot

    table = sobol_table(2).assign(parameter=["pair1.agent.caution", "profile.reaction.mu"])
    ax = sensitivity_plot(table)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["pair 1 caution", "reaction.mu"]
    assert sensitivity_plot(table, legend=False).get_legend() is None
