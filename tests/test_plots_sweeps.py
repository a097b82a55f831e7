"""Figures that survive real sweeps: many groups, a continuous second axis, empty series, a 3-axis grid.

Every check is on the matplotlib objects (where the legend sits, whether a colour bar exists, which artists were
drawn, their colours, tick label rotation), on hand-built statistics tables shaped like those of
:mod:`kemps_sim.stats` and on the standard figures of small real sweeps: a 12-lineup round robin, a Latin-hypercube
sweep over two continuous axes and a 3-axis grid.
"""

from __future__ import annotations

import itertools
import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure

from kemps_sim.plots import (
    call_accuracy_facets,
    call_accuracy_plot,
    draw_standard_figures,
    metric_facets,
    metric_vs_param,
    round_length_facets,
    round_length_plot,
    standard_figures,
    style,
)
from kemps_sim.plots.labels import METRIC_LABELS, METRICS
from kemps_sim.plots.params import binned_trend
from kemps_sim.plots.standard import figure_plan

STRATEGIES = ["collector", "watcher", "bluffer", "eager"]
LINEUPS = [f"{a},{b}" for a, b in itertools.permutations(STRATEGIES, 2)]  # 12 seatings, as a round robin has


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# --- helpers -----------------------------------------------------------------------------------------------------


def rendered(fig: Figure) -> Figure:
    """Lay the figure out (constrained layout runs at draw time) so that extents are final."""
    fig.draw_without_rendering()
    return fig


def legend_is_outside(ax) -> bool:
    """The axes' legend lies wholly to the right of its plotting area."""
    rendered(ax.figure)
    legend = ax.get_legend()
    return legend is not None and legend.get_window_extent().x0 >= ax.get_window_extent().x1 - 0.5


def labels_clear(ax) -> bool:
    """No two x tick labels overlap: flat ones by their boxes, rotated ones by the gap between their baselines."""
    fig = rendered(ax.figure)
    labels = [t for t in ax.get_xticklabels() if t.get_text()]
    angle = {t.get_rotation() for t in labels}
    assert len(angle) == 1
    angle = math.radians(angle.pop())
    if angle == 0:
        boxes = [t.get_window_extent() for t in labels]
        return not any(a.overlaps(b) for a, b in itertools.pairwise(boxes))
    xs = [ax.transData.transform((x, 0))[0] for x in ax.get_xticks()]
    spacing = min(b - a for a, b in itertools.pairwise(xs))
    line_height = labels[0].get_fontsize() * fig.dpi / 72 * 1.15
    return spacing * math.sin(angle) > line_height


def colorbars(fig: Figure) -> list:
    return [ax for ax in fig.axes if ax.get_gid() == "colorbar"]


def errorbars(ax) -> list[ErrorbarContainer]:
    return [c for c in ax.containers if isinstance(c, ErrorbarContainer)]


def legend_texts(legend) -> list[str]:
    return [t.get_text() for t in legend.get_texts()] if legend is not None else []


def whisker_count(container: ErrorbarContainer) -> int:
    """Whiskers with finite ends in an error-bar container."""
    count = 0
    for collection in container.lines[2]:
        count += sum(bool(segment.size and np.isfinite(segment).all()) for segment in collection.get_segments())
    return count


def win_row(value: float, n: int = 20, **fields) -> dict:
    wins = round(value * n)
    half = 1.96 * math.sqrt(max(value * (1 - value), 0.01) / n)
    return {**fields, "pair": 0, "agents": "collector", "wins": wins, "n": n, "value": wins / n,
            "ci_low": max(0.0, wins / n - half), "ci_high": min(1.0, wins / n + half), "ci_level": 0.95}


def lhs_frame(cells: int = 50, seed: int = 1) -> pd.DataFrame:
    """Win rates of a Latin-hypercube sweep: two continuous axes, one cell (one point) per sampled pair."""
    rng = np.random.default_rng(seed)
    u = (rng.permutation(cells) + rng.random(cells)) / cells
    v = (rng.permutation(cells) + rng.random(cells)) / cells
    rows = []
    for a, b in zip(0.5 + 2.5 * u, 0.2 + 0.3 * v, strict=True):
        p = float(np.clip(0.3 + 0.1 * a - 0.4 * (b - 0.35) + rng.normal(0, 0.05), 0, 1))
        rows.append(win_row(p, **{"profile.observer.d_fixated": a, "profile.reaction.mu": b}))
    return pd.DataFrame(rows)


# --- style rules ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "text"), [(0.478879, "0.479"), (2.0, "2"), (12345.6, "12300"),
                                             (0.000123456, "0.000123"), (0.30000000004, "0.3"), (7, "7"),
                                             (-1.23456, "-1.23"), (99.96, "100"), (True, "True")])
def test_numbers_in_labels_keep_three_significant_digits(value, text):
    assert style.number(value) == text


def test_labels_keep_more_digits_only_when_three_would_merge_levels():
    assert style.numbers([0.3001, 0.3004, 0.5]) == ["0.3001", "0.3004", "0.5"]
    assert style.numbers([0.123456, 0.5]) == ["0.123", "0.5"]
    assert style.group_label(["rules.mu", "x"], (0.2734567, "a")) == "mu=0.273, x=a"


def test_sampled_values_are_told_from_grids():
    assert not style.is_sampled(np.linspace(0.5, 3.0, 20))
    assert not style.is_sampled(np.geomspace(0.01, 10, 20))
    assert not style.is_sampled([1.0, 2.0, 3.0])
    assert style.is_sampled(lhs_frame()["profile.observer.d_fixated"])


def test_fourteen_groups_get_fourteen_distinct_colours():
    assert len({style.color(i) for i in range(14)}) == 14
    assert style.linestyle(0) == "-" and style.linestyle(8) == "--"


def test_binned_trend_means_and_intervals():
    x = np.arange(12, dtype=float)
    y = np.repeat([0.0, 1.0, 2.0], 4) + np.tile([-0.1, 0.1, -0.1, 0.1], 3)
    table = binned_trend(x, y, bins=3)
    assert table["mean"].tolist() == pytest.approx([0.0, 1.0, 2.0])
    assert table["x"].tolist() == pytest.approx([1.5, 5.5, 9.5])
    assert (table["ci_low"] < table["mean"]).all() and (table["ci_high"] > table["mean"]).all()
    assert binned_trend(x[:5], y[:5]) is None  # too few points for two bins of three


# --- many groups ---------------------------------------------------------------------------------------------------


def test_twelve_groups_get_a_legend_outside_and_distinct_colours():
    frame = pd.DataFrame([win_row(0.3 + 0.04 * i + 0.05 * x, lineup=lineup, swap_delay=x)
                          for i, lineup in enumerate(LINEUPS) for x in (0.1, 0.2, 0.4)])
    ax = metric_vs_param(frame, x="swap_delay", group="lineup")
    assert legend_is_outside(ax)
    lines = [line for line in ax.lines if line.get_label() in LINEUPS]
    assert len(lines) == 12
    assert len({(to_hex(line.get_color()), line.get_linestyle()) for line in lines}) == 12
    assert len({to_hex(line.get_color()) for line in lines}) == 12
    assert legend_texts(ax.get_legend())[:12] == sorted(LINEUPS)
    assert legend_texts(ax.get_legend())[-1] == "shaded: 95% confidence interval"


def test_twelve_lineups_on_the_x_axis_are_rotated_and_do_not_overlap():
    frame = pd.DataFrame([win_row(0.2 + 0.05 * i, lineup=lineup) for i, lineup in enumerate(LINEUPS)])
    fig = plt.figure(figsize=(7.5, 4.5), layout="constrained")
    ax = metric_vs_param(frame, x="lineup", ax=fig.add_subplot())
    labels = ax.get_xticklabels()
    assert [t.get_text() for t in labels] == sorted(LINEUPS)
    assert {t.get_rotation() for t in labels} in ({30.0}, {45.0})
    assert {t.get_horizontalalignment() for t in labels} == {"right"}
    assert labels_clear(ax)
    (bars,) = errorbars(ax)
    assert whisker_count(bars) == 12  # every lineup's interval is drawn


def test_few_short_categories_stay_flat_and_long_ones_wrap_when_they_fit():
    fig = plt.figure(figsize=(16, 4))
    ax = fig.add_subplot()
    assert style.category_ticks(ax, ["a", "b", "c"]) == "flat"
    assert style.category_ticks(ax, ["collector,watcher", "watcher,collector"]) in ("flat", "wrapped")
    assert style.category_ticks(ax, ["double_kemps=False, mu=0.2"] * 6) == "wrapped"
    assert ax.get_xticklabels()[0].get_text() == "double_kemps=False,\nmu=0.2"
    assert style.category_ticks(ax, LINEUPS * 2) == "rotated"


def test_call_accuracy_of_twelve_lineups_rotates_its_labels():
    rows = [{"lineup": lineup, "metric": metric, "n": 30, "value": 0.5, "ci_low": 0.3, "ci_high": 0.7}
            for lineup in LINEUPS for metric in METRICS]
    ax = call_accuracy_plot(pd.DataFrame(rows), by="lineup")
    assert len(ax.get_xticklabels()) == 12 and labels_clear(ax)
    assert legend_is_outside(ax)


def test_many_distribution_groups_put_the_legend_outside():
    rng = np.random.default_rng(0)
    rounds = pd.DataFrame({"lineup": np.repeat(LINEUPS, 20), "duration": rng.gamma(4, 10, 240)})
    ax = round_length_plot(rounds, by="lineup")
    assert len(ax.lines) == 12 and legend_is_outside(ax)
    assert len({to_hex(line.get_color()) for line in ax.lines}) == 12
    few = round_length_plot(rounds[rounds["lineup"].isin(LINEUPS[:3])], by="lineup")
    assert not legend_is_outside(few)


# --- continuous second axis (Latin hypercube) -----------------------------------------------------------------------


def test_a_continuous_second_axis_is_a_colour_scale_not_a_legend():
    frame = lhs_frame()
    assert frame["profile.reaction.mu"].nunique() == 50
    ax = metric_vs_param(frame, x="profile.observer.d_fixated", group="profile.reaction.mu")
    (bar,) = colorbars(ax.figure)
    assert bar.get_ylabel() == "reaction.mu"
    texts = legend_texts(ax.get_legend())
    assert not any(text[0].isdigit() for text in texts)  # no entry per value of mu
    assert texts[0] == "cells, bars: 95% confidence interval" and texts[1].startswith("mean of cells in")
    points = errorbars(ax)
    assert len(points) == 50 and sum(whisker_count(c) for c in points) == 50  # every cell with its interval
    assert all(c.lines[0].get_linestyle() in ("None", "none") for c in points)  # cells are not joined by lines
    (trend,) = [line for line in ax.lines if line.get_gid() == "trend"]
    assert 3 <= len(trend.get_xdata()) <= 8
    low, high = ax.get_xlim()
    assert low <= frame["profile.observer.d_fixated"].min() and high >= frame["profile.observer.d_fixated"].max()
    colours = {to_hex(c.lines[0].get_color()) for c in points}
    assert len(colours) > 20  # colour follows mu


def test_lines_between_single_points_are_never_drawn_for_a_sampled_axis():
    frame = lhs_frame(30).drop(columns=["profile.reaction.mu"])
    ax = metric_vs_param(frame, x="profile.observer.d_fixated")
    assert [line.get_gid() for line in ax.lines if line.get_linestyle() not in ("None", "none")] == ["trend"]
    lines = metric_vs_param(frame, x="profile.observer.d_fixated", trend=False)
    assert not [line for line in lines.lines if line.get_gid() == "trend"]


def test_a_group_with_a_single_point_still_shows_its_interval():
    frame = pd.DataFrame([win_row(0.4, swap_delay=0.1, preset="a"), win_row(0.5, swap_delay=0.2, preset="a"),
                          win_row(0.6, swap_delay=0.1, preset="b")])
    ax = metric_vs_param(frame, x="swap_delay", group="preset")
    (single,) = errorbars(ax)
    assert single.get_label() == "b" and whisker_count(single) == 1


def test_a_continuous_colour_with_a_few_other_levels_uses_line_styles():
    frame = pd.concat([lhs_frame(20, seed=s).assign(double_kemps=flag) for s, flag in ((1, False), (2, True))])
    ax = metric_vs_param(frame, x="profile.observer.d_fixated", group=["profile.reaction.mu", "double_kemps"])
    assert len(colorbars(ax.figure)) == 1
    assert {"False", "True"} <= set(legend_texts(ax.get_legend()))
    assert len([line for line in ax.lines if line.get_gid() == "trend"]) == 2  # one trend per level


# --- empty series --------------------------------------------------------------------------------------------------


def test_empty_series_leave_no_artists_no_legend_entries_and_no_gaps_in_colours():
    rows = []
    for i in range(8):
        for x in (1, 2, 3):
            row = win_row(0.2 + 0.05 * i, preset=f"p{i}", players=x)
            if i in (1, 4):  # two groups with nothing: all values missing
                row.update(value=math.nan, ci_low=math.nan, ci_high=math.nan)
            rows.append(row)
    frame = pd.DataFrame(rows)
    ax = metric_vs_param(frame, x="players", group="preset")
    drawn = [f"p{i}" for i in range(8) if i not in (1, 4)]
    assert [line.get_label() for line in ax.lines] == drawn
    assert len(ax.collections) == len(drawn)  # one band each, none for the empty groups
    assert legend_texts(ax.get_legend())[:-1] == drawn
    assert [to_hex(line.get_color()) for line in ax.lines] == [to_hex(style.color(i)) for i in range(6)]

    categorical = metric_vs_param(frame.assign(players=frame["players"].astype(str)), x="players", group="preset")
    bars = errorbars(categorical)
    assert [c.get_label() for c in bars] == drawn
    assert len({to_hex(c.lines[0].get_color()) for c in bars}) == 6


def test_a_missing_interval_draws_no_whisker():
    frame = pd.DataFrame([win_row(0.4, preset="a"), win_row(0.6, preset="b")])
    frame.loc[1, ["ci_low", "ci_high"]] = math.nan
    ax = metric_vs_param(frame, x="preset")
    (bars,) = errorbars(ax)
    assert whisker_count(bars) == 1


def test_call_accuracy_leaves_out_empty_metrics_and_variants():
    rows = [{"preset": preset, "metric": metric, "n": 10, "value": 0.5, "ci_low": 0.3, "ci_high": 0.7}
            for preset in ("german", "kems", "standard") for metric in METRICS]
    frame = pd.DataFrame(rows)
    frame.loc[frame["metric"] == "stop_precision", ["value", "ci_low", "ci_high"]] = math.nan
    frame.loc[frame["preset"] == "kems", ["value", "ci_low", "ci_high"]] = math.nan
    ax = call_accuracy_plot(frame, by="preset")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["german", "standard"]
    assert METRIC_LABELS["stop_precision"] not in legend_texts(ax.get_legend())
    assert len(ax.patches) == 2 * (len(METRICS) - 1)
    assert len(errorbars(ax)) == len(METRICS) - 1 and all(whisker_count(c) == 2 for c in errorbars(ax))


def test_a_zero_share_bar_is_marked_so_its_whisker_is_anchored():
    rows = [{"preset": "standard", "metric": metric, "n": 10, "value": 0.0 if metric == "conversion_broken" else 0.5,
             "ci_low": 0.0, "ci_high": 0.3} for metric in METRICS]
    ax = call_accuracy_plot(pd.DataFrame(rows), by="preset")
    (zeros,) = [line for line in ax.lines if line.get_gid() == "zero_bars"]
    assert len(zeros.get_xdata()) == 1


def test_distributions_leave_out_empty_groups():
    rounds = pd.DataFrame({"cell": [0, 0, 2, 2, 3], "duration": [10.0, 20.0, 30.0, 40.0, math.nan]})
    ax = round_length_plot(rounds, by="cell")
    assert [len(line.get_xdata()) for line in ax.lines] == [2, 2]
    assert [t.split(" ")[0] for t in legend_texts(ax.get_legend())] == ["0", "2"]
    assert [to_hex(line.get_color()) for line in ax.lines] == [to_hex(style.color(0)), to_hex(style.color(1))]


# --- 3-axis grid ---------------------------------------------------------------------------------------------------


def grid_frame() -> pd.DataFrame:
    rows = []
    for d, flag, mu in itertools.product((0.5, 1.0, 2.0, 3.0), (False, True), (0.2, 0.3, 0.45)):
        rows.append(win_row(0.3 + 0.05 * d + (0.1 if flag else 0) - mu / 3,
                            **{"profile.observer.d_fixated": d, "rules.double_kemps": flag,
                               "profile.reaction.mu": mu}))
    return pd.DataFrame(rows)


def test_a_three_axis_grid_is_drawn_as_small_multiples_with_one_legend():
    fig = metric_facets(grid_frame(), x="profile.observer.d_fixated", group="rules.double_kemps",
                        facet="profile.reaction.mu")
    panels = [ax for ax in fig.axes if ax.get_gid() != "colorbar"]
    assert [ax.get_title() for ax in panels] == ["reaction.mu = 0.2", "reaction.mu = 0.3", "reaction.mu = 0.45"]
    assert all(ax.get_legend() is None for ax in panels)
    assert len(fig.legends) == 1
    assert legend_texts(fig.legends[0]) == ["False", "True", "shaded: 95% confidence interval"]
    colours = [[to_hex(line.get_color()) for line in ax.lines] for ax in panels]
    # the same level in the same colour in every panel
    assert colours == [[to_hex(style.color(0)), to_hex(style.color(1))]] * 3
    assert all(ax.get_ylim() == (-0.02, 1.02) for ax in panels)
    assert "one panel per reaction.mu" in fig.get_suptitle()


def test_facets_keep_colours_when_a_group_is_missing_from_one_panel():
    frame = grid_frame()
    frame = frame[~((frame["profile.reaction.mu"] == 0.3) & ~frame["rules.double_kemps"])]
    fig = metric_facets(frame, x="profile.observer.d_fixated", group="rules.double_kemps",
                        facet="profile.reaction.mu")
    middle = fig.axes[1]
    assert [to_hex(line.get_color()) for line in middle.lines] == [to_hex(style.color(1))]


def test_call_accuracy_and_distributions_as_small_multiples():
    rows = [{"d": d, "flag": flag, "mu": mu, "metric": metric, "n": 10, "value": 0.5, "ci_low": 0.3, "ci_high": 0.7}
            for d, flag, mu in itertools.product((0.5, 1.0, 2.0, 3.0), (False, True), (0.2, 0.3, 0.45))
            for metric in METRICS]
    fig = call_accuracy_facets(pd.DataFrame(rows), by=["flag", "mu"], facet="d")
    assert [ax.get_title() for ax in fig.axes] == ["d = 0.5", "d = 1", "d = 2", "d = 3"]
    assert all(len(ax.get_xticklabels()) == 6 for ax in fig.axes) and len(fig.legends) == 1
    rng = np.random.default_rng(2)
    rounds = pd.DataFrame([{"d": d, "flag": flag, "duration": float(v)}
                           for d, flag in itertools.product((0.5, 1.0, 2.0, 3.0), (False, True))
                           for v in rng.gamma(4, 10, 15)])
    fig = round_length_facets(rounds, by="flag", facet="d")
    assert len(fig.axes) == 4 and len(fig.legends) == 1
    assert legend_texts(fig.legends[0]) == ["False", "True"]
    assert all(ax.xaxis.get_tick_params()["labelbottom"] is not False for ax in fig.axes[2:])


def test_metric_facets_by_metric_name_panels_as_every_figure_does():
    frame = lhs_frame(30)
    rows = [{**row, "metric": metric} for row in frame.drop(columns=["wins", "pair", "agents"]).to_dict("records")
            for metric in METRICS[:3]]
    fig = metric_facets(pd.DataFrame(rows), x="profile.observer.d_fixated", facet="metric",
                        group="profile.reaction.mu")
    panels = [ax for ax in fig.axes if ax.get_gid() != "colorbar"]
    assert [ax.get_title() for ax in panels] == [METRIC_LABELS[m] for m in METRICS[:3]]
    assert len(colorbars(fig)) == 1 and all(ax.get_legend() is None for ax in panels)


# --- the standard figures of small real sweeps --------------------------------------------------------------------


def run(spec_data: dict, folder) -> tuple[dict, tuple]:
    from kemps_sim.sweep import load_results, run_sweep, spec_from_mapping

    spec_data["sweep"]["output"] = str(folder)
    run_sweep(spec_from_mapping(spec_data), workers=1, progress=False)
    results = load_results(folder)
    return dict(results.tables), tuple(results.params)


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    from kemps_sim.sweep.tournament import tournament_data

    return run(tournament_data(STRATEGIES, matches=1), tmp_path_factory.mktemp("tournament"))


@pytest.fixture(scope="module")
def hypercube(tmp_path_factory):
    return run({"sweep": {"name": "lhs", "seed": 7, "matches": 1, "design": "lhs", "samples": 16},
                "base": {"rules": "standard", "lineup": "collector,watcher"},
                "axes": {"profile.observer.d_fixated": {"low": 0.5, "high": 3.0},
                         "profile.reaction.mu": {"low": 0.2, "high": 0.5}}}, tmp_path_factory.mktemp("lhs"))


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    return run({"sweep": {"name": "grid", "seed": 1, "matches": 1},
                "base": {"rules": "standard", "lineup": "collector,watcher"},
                "axes": {"profile.observer.d_fixated": [0.5, 1.5, 3.0], "rules.double_kemps": [False, True],
                         "profile.reaction.mu": [0.2, 0.4]}}, tmp_path_factory.mktemp("grid"))


def test_standard_figures_of_a_twelve_lineup_round_robin(tournament):
    tables, params = tournament
    figures = draw_standard_figures(tables, params)
    (ax,) = rendered(figures["win_rate.png"]).axes
    labels = ax.get_xticklabels()
    assert len(labels) == 12 and {t.get_rotation() for t in labels} != {0.0} and labels_clear(ax)
    (distribution,) = figures["round_length.png"].axes
    assert len(distribution.lines) == 12 and legend_is_outside(distribution)


def test_standard_figures_of_a_latin_hypercube_sweep(hypercube):
    tables, params = hypercube
    plan = figure_plan(tables["matches"], params)
    assert plan.sampled == params
    figures = draw_standard_figures(tables, params)
    win = figures["win_rate.png"]
    panels = [ax for ax in win.axes if ax.get_gid() != "colorbar"]
    assert [ax.get_xlabel() for ax in panels] == ["observer.d_fixated", "reaction.mu"]
    # each coloured by the other
    assert [bar.get_ylabel() for bar in colorbars(win)] == ["reaction.mu", "observer.d_fixated"]
    for ax in panels:
        assert len(errorbars(ax)) == 16 and len([line for line in ax.lines if line.get_gid() == "trend"]) == 1
        joined = [line for line in ax.lines if line.get_linestyle() not in ("None", "none")]
        assert [line.get_gid() for line in joined] == ["trend"]  # no line joins single cells
        assert ax.get_legend() is None
    assert len(win.legends) == 1
    accuracy = figures["call_accuracy.png"]
    assert len([ax for ax in accuracy.axes if ax.get_gid() != "colorbar"]) >= 4 and len(colorbars(accuracy)) == 1
    (lengths,) = [ax for ax in figures["round_length.png"].axes if ax.get_gid() != "colorbar"]
    assert len(lengths.lines) == 16 and len(colorbars(figures["round_length.png"])) == 1
    assert lengths.get_legend() is None


def test_standard_figures_of_a_three_axis_grid(grid, tmp_path):
    tables, params = grid
    figures = draw_standard_figures(tables, params)
    win = figures["win_rate.png"]
    assert [ax.get_title() for ax in win.axes] == ["reaction.mu = 0.2", "reaction.mu = 0.4"]
    assert len(win.legends) == 1 and legend_texts(win.legends[0])[:2] == ["False", "True"]
    lengths = figures["round_length.png"]
    assert [ax.get_title() for ax in lengths.axes] == [f"observer.d_fixated = {v}" for v in ("0.5", "1.5", "3")]
    assert all(len(ax.lines) == 4 for ax in lengths.axes)
    written = standard_figures(tables, tmp_path, params)
    assert [p.name for p in written] == ["win_rate.png", "call_accuracy.png", "round_length.png", "call_delay.png"]
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in written)
