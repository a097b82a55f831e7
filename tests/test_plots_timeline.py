"""The round time line at the width it is shown at: a documentation page or a notebook cell.

Its type must read there (each text's size in pixels once the figure is scaled to the page's content width), a
long round wraps onto rows that together show every moment of it, and no call's words cover a seat's label.
"""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import pytest
from matplotlib.figure import Figure

from kemps_sim.engine.match import simulate_match
from kemps_sim.plots import save_timeline, timeline_figure
from kemps_sim.plots.timeline import ROW_SECONDS, timeline_rows
from kemps_sim.presets import load_rules
from kemps_sim.trace import CallCutOff, CallHeard, Gestured, Swapped

#: The width, in CSS pixels, the documentation site gives a figure (Material's content column, measured in
#: Chromium at a 1280-pixel window: 688; wider windows give up to 757).
PAGE_PIXELS = 688
#: The smallest text a reader reads without zooming, in CSS pixels.
READABLE_PIXELS = 9.5


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def texts(fig: Figure) -> list:
    """Every visible text of a figure with something written in it (tick labels, titles, legend, annotations)."""
    fig.draw_without_rendering()
    found = [t for t in fig.findobj(lambda a: hasattr(a, "get_text") and hasattr(a, "get_fontsize"))
             if t.get_visible() and t.get_text().strip()]
    return found


def test_every_text_of_the_time_line_reads_at_page_width():
    result = simulate_match("standard", "collector", seed=1)
    fig = timeline_figure(result, 0)
    scale = PAGE_PIXELS / (fig.get_figwidth() * 72)  # CSS pixels per point once the figure fits the page
    smallest = min(texts(fig), key=lambda t: t.get_fontsize())
    assert smallest.get_fontsize() * scale >= READABLE_PIXELS, smallest.get_text()


def long_round() -> tuple:
    for seed in range(40):
        result = simulate_match("standard", "collector,watcher", seed=seed)
        for index, rnd in enumerate(result.rounds):
            if rnd.end_time > 1.5 * ROW_SECONDS:
                return result, index
    pytest.fail("no round longer than 1.5 rows in 40 matches")


def test_a_long_round_wraps_onto_rows_that_show_every_moment_once():
    result, index = long_round()
    rnd = result.rounds[index]
    rows = timeline_rows(rnd)
    assert len(rows) >= 2 and all(high - low <= ROW_SECONDS for low, high in rows)
    assert rows[0][0] == 0 and rows[-1][1] >= rnd.end_time
    assert all(a[1] == b[0] for a, b in itertools.pairwise(rows))
    fig = timeline_figure(result, index)
    assert len(fig.axes) == len(rows)
    assert fig.axes[0].get_title().startswith(f"Seed {result.seed}, Round {index + 1}")
    assert [ax.get_legend() is not None for ax in fig.axes] == [False] * (len(rows) - 1) + [True]
    # every swap and gesture falls inside the shown stretch of exactly one row (the rows only touch at their ends)
    for event in rnd.trace:
        if type(event) in (Swapped, Gestured):
            inside = [low <= event.time <= high for low, high in rows]
            assert sum(inside) >= 1
            (ax,) = [ax for ax, yes in zip(fig.axes, inside, strict=True) if yes][:1]
            left, right = ax.get_xlim()
            assert left <= event.time <= right


def test_no_call_covers_a_seat_label():
    result = simulate_match(load_rules("kems", players=8), "eager,bluffer,watcher,camouflage", seed=5)
    index = max(range(len(result.rounds)), key=lambda i: len(result.rounds[i].trace))
    fig = timeline_figure(result, index)
    fig.draw_without_rendering()
    calls = [e for e in result.rounds[index].trace if type(e) in (CallHeard, CallCutOff)]
    for ax in fig.axes:
        words = [t for t in ax.texts if t.get_gid() == "call_text"]
        plot_left = ax.get_window_extent().x0
        assert all(t.get_window_extent().x0 >= plot_left - 0.5 for t in words)
    assert sum(len([t for t in ax.texts if t.get_gid() == "call_text"]) for ax in fig.axes) == len(calls) >= 1


def test_the_written_file_is_the_figure_drawn(tmp_path):
    result, index = long_round()
    path = save_timeline(result, tmp_path / "round.png", index)
    assert path.read_bytes()[:4] == b"\x89PNG"
