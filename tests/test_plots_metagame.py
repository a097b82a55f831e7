"""Meta-game figures (kemps_sim.plots.metagame): one arrow per beaten pairing pointing at the winner, dashed when
its interval holds 0; the payoff heatmap blank on the diagonal and centred on 0; the simplex's corners and points;
bad input refused in one line."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

from kemps_sim.errors import ConfigError
from kemps_sim.plots.metagame import (
    CORNERS,
    alpha_sweep_plot,
    metagame_figures,
    payoff_matrix_plot,
    response_graph_plot,
    simplex_plot,
    simplex_point,
)

NAMES = ["a", "b", "c"]
MATRIX = pd.DataFrame([[0.0, 0.3, -0.05], [-0.3, 0.0, 0.2], [0.05, -0.2, 0.0]], index=NAMES, columns=NAMES)


def test_the_response_graph_points_from_loser_to_winner_and_dashes_the_unsure():
    errors = pd.DataFrame(0.1, index=NAMES, columns=NAMES)  # |0.05| < 1.96 x 0.1: a vs c is unsure
    ax = response_graph_plot(MATRIX, errors=errors)
    arrows = [child for child in ax.texts if child.arrow_patch is not None]
    assert len(arrows) == 3  # one per pairing
    points = {name: tuple(np.round(p, 6)) for name, p in zip(
        NAMES, np.column_stack([np.cos(np.pi / 2 - 2 * np.pi * np.arange(3) / 3),
                                np.sin(np.pi / 2 - 2 * np.pi * np.arange(3) / 3)]), strict=True)}
    drawn = {(tuple(np.round(a.xyann, 6)), tuple(np.round(a.xy, 6))): a.arrow_patch.get_linestyle() for a in arrows}
    assert drawn[(points["b"], points["a"])] == "-"  # a beats b
    assert drawn[(points["c"], points["b"])] == "-"  # b beats c
    assert drawn[(points["a"], points["c"])] == "--"  # c edges a, within its interval


def test_the_payoff_heatmap_is_centred_on_zero_with_a_blank_diagonal():
    ax = payoff_matrix_plot(MATRIX, order=["b", "a", "c"])
    image = ax.images[0]
    assert image.norm.vcenter == 0.0 and image.norm.vmax == pytest.approx(0.3) and image.norm.vmin == -0.3
    shown = image.get_array()
    assert np.all(shown.mask.diagonal())
    assert shown[0, 1] == pytest.approx(-0.3)  # b (first row) against a (second column)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["b", "a", "c"]


def test_simplex_points_and_plot():
    assert np.allclose(simplex_point(np.eye(3)), CORNERS)
    assert np.allclose(simplex_point([1 / 3, 1 / 3, 1 / 3]), [[0.5, math.sqrt(3) / 6]])
    path = np.array([[0.6, 0.2, 0.2], [0.4, 0.3, 0.3]])
    ax = simplex_plot([path], NAMES, matrix=MATRIX.to_numpy())
    assert len(ax.collections) == 1  # the field's arrows
    with pytest.raises(ConfigError, match="names = \\['a', 'b'\\]: must name exactly three strategies"):
        simplex_plot([path], NAMES[:2])
    with pytest.raises(ConfigError, match="mixtures must have 3 columns"):
        simplex_point(np.ones((2, 4)) / 4)


def test_alpha_sweep_plot_draws_one_line_per_strategy():
    masses = pd.DataFrame({"a": [0.4, 0.9], "b": [0.3, 0.1], "c": [0.3, 0.0]}, index=[0.01, 10.0])
    ax = alpha_sweep_plot(masses)
    assert len(ax.lines) == 3 and ax.get_xscale() == "log"
    with pytest.raises(ConfigError, match="masses is empty"):
        alpha_sweep_plot(masses.iloc[:0])


def test_metagame_figures_writes_every_file(tmp_path):
    masses = pd.DataFrame({"a": [0.4, 0.9], "b": [0.3, 0.1], "c": [0.3, 0.0]}, index=[0.01, 10.0])
    paths = metagame_figures(MATRIX, pd.Series([0.1, -0.2, 0.0], index=NAMES), tmp_path, masses=masses,
                             trajectories=(NAMES, [np.array([[1 / 3] * 3, [0.5, 0.25, 0.25]])]), prefix="v0_")
    assert [p.name for p in paths] == ["v0_payoffs.png", "v0_response_graph.png", "v0_alpha_rank.png",
                                       "v0_simplex.png"]
    assert all(p.stat().st_size > 1000 for p in paths)
