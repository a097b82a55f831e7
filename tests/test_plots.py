"""The figures of ``kemps_sim.plots`` on real matches and on hand-built tables, and ``kemps-sim play --timeline``.

Checks are on what was drawn (artists per group, markers per event, texts per cell, labelled axes) rather than
on pixels; written files are checked to be PNGs of a plausible size.
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from kemps_sim import ConfigError, load_rules, simulate_match
from kemps_sim.cards import RANK
from kemps_sim.cli import main
from kemps_sim.plots import (
    call_accuracy_plot,
    call_delay_plot,
    hand_history,
    head_to_head_plot,
    metric_vs_param,
    ratings_plot,
    round_length_plot,
    round_timeline,
    save_timeline,
    standard_figures,
    timeline_figure,
)
from kemps_sim.plots.labels import METRICS
from kemps_sim.plots.style import RC
from kemps_sim.plots.timeline import timeline_rows
from kemps_sim.records import tables
from kemps_sim.trace import (
    CallCutOff,
    CallHeard,
    Gestured,
    HandFour,
    Perceived,
    RaceLost,
    Revealed,
    Swapped,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def match():
    return simulate_match("standard", "collector,watcher", seed=3)


@pytest.fixture(scope="module")
def sweep():
    """Tables of 9 matches in 3 cells, as a sweep would stack them."""
    results = [simulate_match("standard", "collector,watcher", seed=s) for s in range(9)]
    stacked = tables(results)
    for frame in stacked.values():
        frame["cell"] = frame["seed"] % 3
        frame["replicate"] = frame["seed"] // 3
        frame["swap_delay"] = 0.1 * (1 + frame["cell"])
    matches = stacked["pairs"].drop_duplicates("seed")[["seed", "cell", "replicate", "swap_delay"]]
    return {**stacked, "matches": matches.reset_index(drop=True)}


def labelled(ax) -> bool:
    return bool(ax.get_xlabel().strip()) and bool(ax.get_ylabel().strip()) and bool(ax.get_title().strip())


def is_png(path, min_bytes: int = 10_000) -> bool:
    data = path.read_bytes()
    return data[:8] == PNG_MAGIC and len(data) > min_bytes


def gid(ax, name: str):
    found = [a for a in (*ax.lines, *ax.collections) if a.get_gid() == name]
    assert len(found) <= 1
    return found[0] if found else None


# --- metric_vs_param ---------------------------------------------------------------------------------------------


def win_frame(xs, pairs=(0, 1)) -> pd.DataFrame:
    rows = []
    for x in xs:
        for pair in pairs:
            value = 0.5 + (0.1 if pair == 0 else -0.1) * x
            rows.append({"swap_delay": x, "pair": pair, "agents": f"agent{pair}", "n": 100, "wins": int(100 * value),
                         "value": value, "ci_low": value - 0.05, "ci_high": value + 0.05})
    return pd.DataFrame(rows)


def test_metric_vs_param_numeric_draws_a_line_and_a_band_per_group():
    frame = win_frame([0.1, 0.2, 0.4])
    ax = metric_vs_param(frame, x="swap_delay", group="pair", xlabel="swap delay (s)")
    assert len(ax.lines) == 2 and len(ax.collections) == 2  # one line and one band per pair
    assert [len(line.get_xdata()) for line in ax.lines] == [3, 3]
    assert list(ax.lines[0].get_xdata()) == [0.1, 0.2, 0.4]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "pair 0 (agent0)", "pair 1 (agent1)", "shaded: 95% confidence interval"]
    assert ax.get_ylabel() == "win rate (share of matches won)" and ax.get_xlabel() == "swap delay (s)"
    assert labelled(ax)


def test_metric_vs_param_categorical_uses_even_ticks_and_error_bars():
    rows = [{"rules.double_kemps": flag, "preset": preset, "metric": "stop_precision", "successes": 3, "n": 10,
             "value": 0.3, "ci_low": 0.1, "ci_high": 0.6}
            for flag in (False, True) for preset in ("german", "kems", "standard")]
    ax = metric_vs_param(pd.DataFrame(rows), x="rules.double_kemps", group="preset")
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 3
    assert [t.get_text() for t in ax.get_xticklabels()] == ["False", "True"]
    assert list(ax.get_xticks()) == [0, 1]
    assert ax.get_ylabel() == "Stop Kemps calls that were right (share)" and ax.get_xlabel() == "double_kemps"


def test_metric_vs_param_without_groups_and_with_two_group_columns():
    frame = win_frame([1, 2, 3], pairs=(0,)).assign(extra="a")
    ax = metric_vs_param(frame, x="swap_delay")
    assert len(ax.lines) == 1
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["shaded: 95% confidence interval"]
    bare = metric_vs_param(frame.drop(columns=["ci_low", "ci_high"]), x="swap_delay")
    assert bare.get_legend() is None and not bare.collections  # no interval: no band and nothing to explain
    both = pd.concat([frame, frame.assign(extra="b")])
    ax = metric_vs_param(both, x="swap_delay", group=["pair", "extra"])
    assert len(ax.lines) == 2
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "pair=0, extra=a", "pair=0, extra=b", "shaded: 95% confidence interval"]


def test_metric_vs_param_refuses_ambiguous_and_incomplete_frames():
    with pytest.raises(ConfigError, match="several rows per \\(swap_delay\\); filter or group by 'pair'"):
        metric_vs_param(win_frame([1, 2]), x="swap_delay")
    with pytest.raises(ConfigError, match="column\\(s\\) 'nope' missing"):
        metric_vs_param(win_frame([1, 2]), x="nope")


# --- call_accuracy_plot -------------------------------------------------------------------------------------------


def accuracy_frame(variants=("standard", "kems")) -> pd.DataFrame:
    rows = []
    for i, variant in enumerate(variants):
        for j, metric in enumerate(METRICS):
            value = (i + j + 1) / 10
            rows.append({"preset": variant, "metric": metric, "successes": 1, "n": 10, "value": value,
                         "ci_low": value - 0.05, "ci_high": value + 0.05})
    return pd.DataFrame(rows)


def test_call_accuracy_plot_draws_a_bar_per_variant_and_metric():
    frame = accuracy_frame(("standard", "kems", "german"))
    ax = call_accuracy_plot(frame, by="preset")
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert len(bars) == 3 * len(METRICS)
    heights = sorted(round(b.get_height(), 6) for b in bars)
    assert heights == sorted(round(v, 6) for v in frame["value"])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["german", "kems", "standard"]
    assert len(ax.get_legend().get_texts()) == len(METRICS)
    assert ax.get_ylabel() == "share" and ax.get_ylim() == (0.0, 1.05) and labelled(ax)


def test_call_accuracy_plot_leaves_out_metrics_without_a_value():
    frame = accuracy_frame()
    frame.loc[frame["metric"] == "stop_precision", ["value", "ci_low", "ci_high"]] = math.nan
    ax = call_accuracy_plot(frame, by=["preset"])
    assert len(ax.patches) == 2 * (len(METRICS) - 1)


def test_call_accuracy_plot_on_real_tables(sweep):
    stats = pytest.importorskip("kemps_sim.stats")
    frame = stats.call_accuracy(sweep["calls"], sweep["fours"], ["cell"])
    ax = call_accuracy_plot(frame, by="cell")
    assert len(ax.patches) == int(frame["value"].notna().sum())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2"]


# --- round_timeline -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("round_index", [0, 1])
def test_timeline_draws_one_marker_per_event_of_the_round(match, round_index):
    ax = round_timeline(match, round_index)
    rnd = match.rounds[round_index]
    kinds = Counter(type(e) for e in rnd.trace)
    assert len(gid(ax, "swaps").get_xdata()) == kinds[Swapped]
    assert sorted(gid(ax, "swaps").get_xdata()) == sorted(e.time for e in rnd.trace if type(e) is Swapped)
    fours = [e for e in rnd.trace if type(e) is HandFour and e.rank >= 0]
    assert len(gid(ax, "fours").get_xdata()) == len(fours)
    gestures = [e for e in rnd.trace if type(e) is Gestured]
    drawn = sum(len(gid(ax, k).get_xdata()) for k in ("signals", "decoys", "fidgets") if gid(ax, k) is not None)
    assert drawn == len(gestures)
    assert len(gid(ax, "fidgets").get_xdata()) == sum(not e.deliberate for e in gestures)
    percepts = [e for e in rnd.trace if type(e) is Perceived]
    segments = sum(len(c.get_segments()) for c in ax.collections if isinstance(c, LineCollection))
    assert segments == len(percepts)
    calls = [e for e in rnd.trace if type(e) in (CallHeard, CallCutOff)]
    assert len([line for line in ax.lines if line.get_gid() == "calls"]) == len(calls)
    assert gid(ax, "round_end").get_xdata()[0] == pytest.approx(rnd.end_time)
    assert len(ax.get_yticklabels()) == match.rules.players
    assert labelled(ax) and ax.get_xlabel() == "time in round (s)"
    assert {"swap", "natural fidget", "hand became four of a kind"} <= {
        t.get_text() for t in ax.get_legend().get_texts()}


def test_timeline_lane_labels_name_seat_pair_and_agent(match):
    ax = round_timeline(match, 0)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["seat 0\npair 0, collector", "seat 2\npair 0, collector", "seat 1\npair 1, watcher",
                      "seat 3\npair 1, watcher"]


def test_timeline_handles_the_busiest_round_of_an_eight_player_match():
    result = simulate_match(load_rules("kems", players=8), "eager,bluffer,watcher,camouflage", seed=5)
    index = max(range(len(result.rounds)), key=lambda i: len(result.rounds[i].trace))
    rnd = result.rounds[index]
    ax = round_timeline(result, index)
    assert len(gid(ax, "swaps").get_xdata()) == sum(type(e) is Swapped for e in rnd.trace)
    races = sum(type(e) is RaceLost for e in rnd.trace)
    assert (len(gid(ax, "races_lost").get_xdata()) if races else gid(ax, "races_lost")) == (races or None)
    call_texts = [t.get_text() for t in ax.texts if t.get_gid() == "call_text"]
    calls = [e for e in rnd.trace if type(e) in (CallHeard, CallCutOff)]
    assert len(call_texts) == len(calls) >= 1
    assert all(t.endswith(("right", "wrong", "cut off", "ineffective against a double")) for t in call_texts)
    assert len(ax.get_yticklabels()) == 8


def test_hand_history_rebuilds_the_hands_shown_at_the_end(match):
    fours = 0
    for rnd in match.rounds:
        history = hand_history(rnd)
        shown = next(e for e in rnd.trace if type(e) is Revealed)
        for seat, hand in zip(shown.seats, shown.hands, strict=True):
            assert sorted(history[seat][-1][1]) == sorted(hand)
        four = next((e for e in rnd.trace if type(e) is HandFour and e.rank >= 0), None)
        if four is None:  # a wrong call ended the round before anyone held four of a kind
            continue
        fours += 1
        at_four = [h for t, h in history[four.seat] if t <= four.time][-1]
        assert {RANK[c] for c in at_four} == {four.rank}
    assert fours > 0


def test_timeline_figure_and_save_timeline(match, tmp_path):
    fig = timeline_figure(match, np.int64(1))
    assert isinstance(fig, Figure) and fig.get_figheight() >= 4
    assert len(fig.axes) == len(timeline_rows(match.rounds[1]))
    assert fig.axes[0].get_title() and fig.axes[-1].get_xlabel() == "time in round (s)"
    before = plt.get_fignums()
    path = save_timeline(match, tmp_path / "round.png", round_index=2)
    assert path == tmp_path / "round.png" and is_png(path, 50_000)
    assert plt.get_fignums() == before  # the saved figure is not left open in pyplot


@pytest.mark.parametrize("bad", [-1, 99, 1.5, True])
def test_timeline_refuses_a_round_that_does_not_exist(match, bad):
    with pytest.raises(ConfigError, match="the match has"):
        round_timeline(match, bad)


# --- head to head and ratings ------------------------------------------------------------------------------------


def h2h_matrix() -> pd.DataFrame:
    names = ["collector", "watcher", "bluffer"]
    values = np.array([[np.nan, 0.625, 0.9], [0.375, np.nan, 0.5], [0.1, 0.5, np.nan]])
    return pd.DataFrame(values, index=names, columns=names)


def test_head_to_head_plot_writes_every_value_in_its_cell():
    matrix = h2h_matrix()
    ax = head_to_head_plot(matrix)
    written = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts}
    expected = {(i, j): f"{matrix.iloc[i, j]:.2f}" for i in range(3) for j in range(3)
                if not math.isnan(matrix.iloc[i, j])}
    assert written == expected
    image = ax.images[0]
    assert image.norm.vmin == 0.0 and image.norm.vmax == 1.0 and image.norm(0.5) == pytest.approx(0.5)
    colorbar = image.colorbar
    assert colorbar.ax.get_ylabel() == "row's mean score"
    assert [t.get_text() for t in ax.get_yticklabels()] == list(matrix.index)
    assert labelled(ax)


def test_head_to_head_plot_refuses_a_non_square_matrix():
    with pytest.raises(ConfigError, match="must be square"):
        head_to_head_plot(h2h_matrix().iloc[:2])


def ratings_frame() -> pd.DataFrame:
    frame = pd.DataFrame({"strategy": ["b", "a", "c"], "rating": [0.2, 0.9, -1.1], "se": 0.3,
                          "matches": [20, 20, 10], "score": [0.5, 0.7, 0.3]})
    frame["ci_low"], frame["ci_high"] = frame["rating"] - 0.5, frame["rating"] + 0.5
    frame["elo"] = frame["rating"] * 173.7
    frame["elo_low"], frame["elo_high"] = frame["ci_low"] * 173.7, frame["ci_high"] * 173.7
    return frame


@pytest.mark.parametrize("scale", ["rating", "elo"])
def test_ratings_plot_sorts_strategies_best_on_top(scale):
    ax = ratings_plot(ratings_frame(), scale=scale)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["c (n=10)", "b (n=20)", "a (n=20)"]  # the y axis grows upward: best last, drawn on top
    (bars,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    xs = list(bars.lines[0].get_xdata())
    assert xs == sorted(xs) and len(xs) == 3
    assert ("Elo" in ax.get_xlabel()) == (scale == "elo") and labelled(ax)


def test_ratings_plot_refuses_an_unknown_scale():
    with pytest.raises(ConfigError, match="scale = 'glicko'"):
        ratings_plot(ratings_frame(), scale="glicko")


# --- distributions -----------------------------------------------------------------------------------------------


def test_round_length_plot_histogram_for_one_group_and_ecdf_lines_for_several(sweep):
    rounds = sweep["rounds"]
    ax = round_length_plot(rounds)
    assert sum(p.get_height() for p in ax.patches) == len(rounds)
    assert ax.get_xlabel() == "round length (s)" and labelled(ax)
    ax = round_length_plot(rounds, by="cell")
    assert len(ax.lines) == 3
    assert [len(line.get_xdata()) for line in ax.lines] == [int((rounds["cell"] == c).sum()) for c in range(3)]
    assert ax.get_ylabel().startswith("share of rounds")
    ax = round_length_plot(rounds, by="cell", kind="hist")
    assert sum(p.get_height() for p in ax.patches) == len(rounds)


def test_call_delay_plot_counts_only_right_kemps_calls():
    calls = pd.DataFrame({
        "call": ["kemps", "kemps", "double_kemps", "stop_kemps", "kemps"],
        "right": [True, False, True, True, True],
        "four_to_call": [1.0, math.nan, 2.5, 0.7, 4.0],
        "cell": [0, 0, 1, 1, 1],
    })
    ax = call_delay_plot(calls, by="cell")
    assert [len(line.get_xdata()) for line in ax.lines] == [1, 2]
    assert sorted(np.concatenate([line.get_xdata() for line in ax.lines])) == [1.0, 2.5, 4.0]
    assert "(s)" in ax.get_xlabel() and labelled(ax)
    ax = call_delay_plot(calls)
    assert sum(p.get_height() for p in ax.patches) == 3


def test_call_delay_plot_with_nothing_to_show_says_so():
    calls = pd.DataFrame({"call": ["stop_kemps"], "right": [True], "four_to_call": [1.0]})
    ax = call_delay_plot(calls)
    assert [t.get_text() for t in ax.texts] == ["no right Kemps calls to show"] and labelled(ax)


def test_call_delay_plot_on_real_calls(sweep):
    calls = sweep["calls"]
    ax = call_delay_plot(calls)
    right = calls[calls["call"].isin(["kemps", "double_kemps"]) & calls["right"]]["four_to_call"].dropna()
    assert sum(p.get_height() for p in ax.patches) == len(right) > 0


# --- standard_figures --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("params", [[], ["swap_delay"]])
def test_standard_figures_writes_the_pngs(sweep, tmp_path, params):
    pytest.importorskip("kemps_sim.stats")
    before = plt.get_fignums()
    folder = tmp_path / "figures"
    paths = standard_figures(sweep, folder, params)
    assert [p.name for p in paths] == ["win_rate.png", "call_accuracy.png", "round_length.png", "call_delay.png"]
    assert all(p.parent == folder and is_png(p) for p in paths)
    assert plt.get_fignums() == before


def test_standard_figures_names_missing_tables(sweep, tmp_path):
    pytest.importorskip("kemps_sim.stats")
    with pytest.raises(ConfigError, match="table\\(s\\) fours missing"):
        standard_figures({k: v for k, v in sweep.items() if k != "fours"}, tmp_path, [])


# --- style -------------------------------------------------------------------------------------------------------


def test_plots_leave_global_rc_settings_alone(match):
    before = dict(matplotlib.rcParams)
    round_timeline(match, 0)
    round_length_plot(pd.DataFrame({"duration": [1.0, 2.0]}))
    after = dict(matplotlib.rcParams)
    assert {key for key in before if before[key] != after[key]} == set()
    assert matplotlib.rcParams["axes.spines.top"] is True and RC["axes.spines.top"] is False


def test_importing_plots_does_not_import_pyplot():
    code = "import sys, kemps_sim.plots; print('matplotlib.pyplot' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


# --- kemps-sim play --timeline -----------------------------------------------------------------------------------


def test_play_timeline_writes_the_file_and_says_where(tmp_path, capsys):
    target = tmp_path / "round1.png"
    assert main(["play", "--seed", "3", "--timeline", str(target), "--round", "1"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == f"timeline of round 1 written to {target}"
    assert "Winner: pair" in out[-2]
    assert is_png(target, 50_000)


def test_play_timeline_under_json_keeps_stdout_pure_json(tmp_path, capsys):
    import json

    target = tmp_path / "round0.png"
    assert main(["play", "--seed", "3", "--json", "--timeline", str(target)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["seed"] == 3
    assert captured.err.strip() == f"timeline of round 1 written to {target}" and is_png(target)


@pytest.mark.parametrize(("extra", "fragment"), [
    (["--round", "99"], "--round 99: the match had {rounds} round(s), numbered from 1 to {rounds}"),
    (["--round", "-1"], "--round -1: rounds are numbered from 1, as in the play-by-play"),
])
def test_play_timeline_bad_round_exits_2_before_any_output(tmp_path, capsys, extra, fragment):
    rounds = len(simulate_match("standard", "collector", seed=3).rounds)  # what `play --seed 3` plays
    fragment = fragment.format(rounds=rounds, last=rounds - 1)
    target = tmp_path / "r.png"
    assert main(["play", "--seed", "3", "--timeline", str(target), *extra]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and not target.exists()
    assert fragment in captured.err and len(captured.err.strip().splitlines()) == 1


@pytest.mark.parametrize(("name", "fragment"), [
    ("missing/r.png", "does not exist"),
    ("r.pdf", "must end in .png"),
])
def test_play_timeline_bad_path_exits_2_with_one_line(tmp_path, capsys, name, fragment):
    assert main(["play", "--seed", "3", "--timeline", str(tmp_path / name)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and fragment in captured.err and len(captured.err.strip().splitlines()) == 1


def test_play_round_without_timeline_exits_2(capsys):
    assert main(["play", "--round", "1"]) == 2
    assert "only used with --timeline" in capsys.readouterr().err
