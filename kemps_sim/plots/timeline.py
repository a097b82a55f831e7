"""One round on a time line: every seat's hand, swaps, gestures and who noticed them, calls, and the end.

Each seat gets a horizontal lane, partners next to each other. A lane has two rows: the lower one is the hand
(a shaded step whose height is the most cards of one rank held, the ranks written out where there is room, swap
and lost-race markers, the moment it became four of a kind); the upper one is the body (gestures: deliberate ones
large, natural fidgets small and faint). A thin line runs from a gesture to every seat that noticed it, ending
when they noticed. Calls are drawn as a bar from the moment the caller began speaking to the moment the table
heard it, with the call and how it was judged written beside it.

The figure keeps the width of a page (:data:`WIDTH_INCHES`) with type large enough to read there, and the legend
under the lanes. A round longer than :data:`ROW_SECONDS` wraps: its time line is cut into rows of equal length,
one under the other, each with every lane.

Hands are rebuilt from the trace alone: the ``Dealt`` hands, then each ``Swapped`` event's ``gave`` and ``took``
card ids, ranked with :data:`kemps_sim.cards.RANK`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from numbers import Integral
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from matplotlib.collections import LineCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from kemps_sim.cards import RANK, RANKS
from kemps_sim.errors import ConfigError
from kemps_sim.plots import style
from kemps_sim.plots.labels import CALL_WORDS, outcome_text
from kemps_sim.seating import NOBODY, pair_of, pair_seats
from kemps_sim.trace import CallCutOff, CallHeard, Dealt, Gestured, HandFour, Perceived, PlayStarted, RaceLost, Swapped

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from kemps_sim.results import MatchResult, RoundResult

#: Offsets from a lane's centre (the y axis points down, so negative is higher on the page).
BODY_ROW = -0.24
HAND_ROW = 0.16
CALL_ROW = 0.0
HAND_BASE = 0.44
HAND_STEP = 0.13
#: Inches of figure per lane, and the figure's width: that of a documentation page or a notebook cell, so that
#: shown at that width its 8 and 9 point type reads at about 10 to 11 pixels.
LANE_INCHES = 0.85
WIDTH_INCHES = 8.0
#: The longest stretch of a round one row shows (about 8 s an inch); a longer round wraps onto more rows.
ROW_SECONDS = 60.0
#: Inches under the lanes for the title, the time axis and the legend.
_FRAME_INCHES = 2.6
#: Type sizes (points): hand and gesture texts, call texts, the legend.
_SMALL, _CALL, _LEGEND = 8, 9, 8.5

_C = style.OKABE_ITO
#: Marker, size and colour per kind of event; ``gid`` names each artist so that tests and tools can find it.
MARKS: dict[str, dict] = {
    "swaps": {"marker": "|", "markersize": 9, "markeredgewidth": 1.6, "color": "#333333", "label": "swap"},
    "races_lost": {"marker": "x", "markersize": 6, "color": _C["vermillion"], "label": "reach too late (lost race)"},
    "fours": {"marker": "D", "markersize": 10, "color": _C["bluish_green"], "label": "hand became four of a kind"},
    "fours_broken": {"marker": "D", "markersize": 10, "color": _C["bluish_green"], "markerfacecolor": "white",
                     "label": "four of a kind broken"},
    "signals": {"marker": "*", "markersize": 13, "color": _C["vermillion"], "label": "signal (gesture holding four)"},
    "decoys": {"marker": "^", "markersize": 7, "color": _C["orange"], "label": "fake or decoy gesture"},
    "fidgets": {"marker": "o", "markersize": 2.5, "color": style.GREY, "alpha": 0.45,
                "label": "natural fidget"},
}


#: Swaps above fours (a swap that made a four shows inside its diamond), fidgets below everything.
_ZORDER = {"swaps": 5, "fours": 4, "fours_broken": 4, "fidgets": 3}


def hand_history(rnd: RoundResult) -> dict[int, list[tuple[float, tuple[int, ...]]]]:
    """Every seat's hand after the deal and after each of its swaps: ``seat -> [(time, card ids), ...]``."""
    hands: dict[int, list[int]] = {}
    history: dict[int, list[tuple[float, tuple[int, ...]]]] = {}
    for event in rnd.trace:
        if type(event) is Dealt:
            hands = {seat: list(hand) for seat, hand in enumerate(event.hands)}
            history = {seat: [(event.time, tuple(hand))] for seat, hand in enumerate(event.hands)}
        elif type(event) is Swapped:
            hand = hands[event.seat]
            for card in event.gave:
                hand.remove(card)
            hand.extend(event.took)
            history[event.seat].append((event.time, tuple(hand)))
    return history


def ranks_text(hand: Iterable[int]) -> str:
    """A hand by rank only, biggest set first: ``K K K 7``."""
    counts = Counter(RANK[card] for card in hand)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], -item[0]))
    return " ".join(" ".join([RANKS[rank]] * count) for rank, count in ordered)


def pick_round(result: MatchResult, round_index: int) -> RoundResult:
    """The round asked for, or a one-line ``ConfigError`` saying which rounds there are."""
    count = len(result.rounds)
    if isinstance(round_index, bool) or not isinstance(round_index, Integral) or not 0 <= round_index < count:
        allowed = f"0 to {count - 1}" if count else "none: the match has no rounds"
        raise ConfigError(f"round {round_index!r}: the match has {count} round(s); allowed {allowed}")
    return result.rounds[int(round_index)]


@style.styled
def round_timeline(result: MatchResult, round_index: int = 0, ax: Axes | None = None, *,
                   window: tuple[float, float] | None = None, legend: bool = True, title: bool = True) -> Axes:
    """Draw one round of ``result`` (``round_index`` counts from 0) as lanes on a time axis; return the Axes.

    Without ``ax`` a figure sized by :func:`timeline_size` is made. ``window`` shows only that stretch of the
    round, in seconds (one row of a wrapped time line). Every kind of marker is explained in a legend under the
    plot, so that it never covers an event (``legend=False`` leaves it out, as ``title=False`` does the title).
    """
    rnd = pick_round(result, round_index)
    rules = result.rules
    n = rules.players
    ax = style.axes_or_new(ax, timeline_size(n))
    order = [seat for pair in range(rules.pairs) for seat in pair_seats(n, pair)]  # partners side by side
    lane = {seat: i for i, seat in enumerate(order)}
    span = _span(rnd)
    low, high = window if window is not None else (0.0, span)

    pad = 0.012 * (high - low)
    ax.set_xlim(low - pad, high + pad)  # first: where the texts go depends on it
    _lanes(ax, result, order)
    _hands(ax, rnd, lane, n, high - low)
    _events(ax, rnd, lane)
    _percepts(ax, rnd, lane)
    call_handles = _calls(ax, rnd, lane)
    start = next((e.time for e in rnd.trace if type(e) is PlayStarted), 0.0)
    if start > 0:
        ax.axvspan(0, start, color=style.LIGHT_GREY, alpha=0.5, lw=0, label="dealing (before play starts)")
    ax.axvline(rnd.end_time, color="black", linestyle="--", linewidth=1.2,
               label=f"round ends ({outcome_text(rnd.outcome.value)})", gid="round_end")

    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlabel("time in round (s)")
    ax.set_ylabel("seat (pair, agent)")
    if title:
        signals = ", ".join(f"pair {p} {s}" for p, s in enumerate(rnd.signals))
        ax.set_title(f"Seed {result.seed}, Round {rnd.index + 1}: "
                     f"{outcome_text(rnd.outcome.value)} at {rnd.end_time:.1f} s\n"
                     f"dealer seat {rnd.dealer}; signals: {signals}")
    if legend:
        hand = Patch(color=style.GREY, alpha=0.35, label="hand: height = most cards of one rank (1-4)")
        handles = [h for h in ax.get_legend_handles_labels()[0]]
        style.legend_below(ax, [hand, *handles, *call_handles], ncols=2, fontsize=_LEGEND, handlelength=1.6,
                           labelspacing=0.6, columnspacing=1.2)
    return ax


def _span(rnd: RoundResult) -> float:
    return max([rnd.end_time, *(e.time for e in rnd.trace)]) or 1.0


def timeline_rows(rnd: RoundResult) -> list[tuple[float, float]]:
    """The stretches of a round its figure shows one under the other: one row up to :data:`ROW_SECONDS`, else
    as many rows of equal length as it takes."""
    span = _span(rnd)
    rows = max(1, math.ceil(span / ROW_SECONDS))
    return [(span * i / rows, span * (i + 1) / rows) for i in range(rows)]


def timeline_size(players: int, rows: int = 1) -> tuple[float, float]:
    """Figure size in inches for a table of ``players`` on ``rows`` rows: a page's width, a height per lane."""
    return (WIDTH_INCHES, _FRAME_INCHES + rows * (0.35 + LANE_INCHES * players))


def _draw_rows(fig: Figure, result: MatchResult, round_index: int) -> None:
    """The round on ``fig``: one axes per row of :func:`timeline_rows`, the title over the first, the legend
    under the last."""
    windows = timeline_rows(pick_round(result, round_index))
    fig.set_size_inches(*timeline_size(result.rules.players, len(windows)))
    axes = fig.subplots(len(windows), 1, squeeze=False)[:, 0]
    for i, (ax, window) in enumerate(zip(axes, windows, strict=True)):
        round_timeline(result, round_index, ax=ax, window=window if len(windows) > 1 else None,
                       legend=i == len(windows) - 1, title=i == 0)
        if i < len(windows) - 1:
            ax.set_xlabel("")


@style.styled
def timeline_figure(result: MatchResult, round_index: int = 0) -> Figure:
    """A (pyplot) figure holding the time line of one round, sized for the number of seats and wrapped onto
    rows when the round is long."""
    pick_round(result, round_index)  # refuse a bad round before a figure exists
    fig = style.new_figure(timeline_size(result.rules.players))
    _draw_rows(fig, result, round_index)
    return fig


@style.styled
def save_timeline(result: MatchResult, path: str | PathLike[str], round_index: int = 0) -> Path:
    """Write the time line of one round (as :func:`timeline_figure` draws it) as a PNG file at ``path`` and return
    the path.

    The figure is detached from pyplot: this works without a display and leaves no open figure behind.
    """
    pick_round(result, round_index)
    path = Path(path)
    fig = style.new_figure(timeline_size(result.rules.players), detached=True)
    _draw_rows(fig, result, round_index)
    style.save(fig, path)
    return path


def _lanes(ax: Axes, result: MatchResult, order: list[int]) -> None:
    """Lane labels coloured by pair, light separators, a darker one between pairs; only the x grid."""
    n = result.rules.players
    labels = [f"seat {s}\n" + style.wrap(f"pair {pair_of(n, s)}, {result.agents[s]}", 20) for s in order]
    ax.set_yticks(range(len(order)), labels)
    for tick, seat in zip(ax.get_yticklabels(), order, strict=True):
        tick.set_color(style.color(pair_of(n, seat)))
    ax.tick_params(axis="y", length=0)
    ax.grid(False, axis="y")
    ax.grid(True, axis="x", color=style.LIGHT_GREY, linewidth=0.6)
    for i in range(1, len(order)):
        between_pairs = pair_of(n, order[i]) != pair_of(n, order[i - 1])
        ax.axhline(i - 0.5, color=style.GREY if between_pairs else style.LIGHT_GREY, linewidth=0.8, zorder=0)


def _hands(ax: Axes, rnd: RoundResult, lane: dict[int, int], players: int, span: float) -> None:
    """A step per seat, as high as the most cards of one rank held, and the ranks where the step has room."""
    seconds_per_inch = span / _axes_inches(ax)
    for seat, history in hand_history(rnd).items():
        y0 = lane[seat] + HAND_BASE
        times = [t for t, _ in history] + [rnd.end_time]
        heights = [max(Counter(RANK[c] for c in hand).values(), default=0) for _, hand in history]
        tops = [y0 - HAND_STEP * h for h in heights]
        ax.fill_between(times, y0, [*tops, tops[-1]], step="post", color=style.color(pair_of(players, seat)),
                        alpha=0.22, linewidth=0, zorder=1, label="_hand")
        for (start, hand), end in zip(history, times[1:], strict=True):
            text = ranks_text(hand)
            if (end - start) / seconds_per_inch >= _TEXT_PAD_INCHES + _CHAR_INCHES * len(text):
                ax.text(start + 0.05 * seconds_per_inch, y0 - 0.02, text, fontsize=_SMALL, va="bottom", ha="left",
                        color="#333333", zorder=2, gid="hand_text", clip_on=True)


#: Rough width of one character of the hands' text, and the room kept around a hand's text, in inches.
_CHAR_INCHES = 0.063
_TEXT_PAD_INCHES = 0.15


def _axes_inches(ax: Axes) -> float:
    """The plotting area's width in inches, a little under what the layout says before the legend takes room."""
    return max(1.0, ax.figure.get_figwidth() * ax.get_position().width * 0.8)


def _events(ax: Axes, rnd: RoundResult, lane: dict[int, int]) -> None:
    """Swaps, lost races and fours on the hand row; gestures on the body row; one artist per kind."""
    points: dict[str, tuple[list[float], list[float]]] = {kind: ([], []) for kind in MARKS}
    named: list[tuple[float, float, str]] = []
    for event in rnd.trace:
        kind = type(event)
        if kind is Swapped:
            _add(points["swaps"], event.time, lane[event.seat] + HAND_ROW)
        elif kind is RaceLost:
            _add(points["races_lost"], event.time, lane[event.seat] + HAND_ROW)
        elif kind is HandFour:
            _add(points["fours" if event.rank >= 0 else "fours_broken"], event.time, lane[event.seat] + HAND_ROW)
        elif kind is Gestured:
            which = "fidgets" if not event.deliberate else "signals" if event.holds_four else "decoys"
            _add(points[which], event.time, lane[event.seat] + BODY_ROW)
            if event.deliberate:
                named.append((event.time, lane[event.seat] + BODY_ROW, event.gesture))
    for kind, (xs, ys) in points.items():
        if xs:
            mark = dict(MARKS[kind])
            ax.plot(xs, ys, linestyle="none", zorder=_ZORDER.get(kind, 4), gid=kind, **mark)
    for x, y, gesture in named:
        ax.annotate(gesture, (x, y), xytext=(5, 3), textcoords="offset points", fontsize=_SMALL, color="#333333",
                    va="bottom", zorder=5, annotation_clip=True)


#: Rough width of one character of the calls' bold text, in inches.
_BOLD_CHAR_INCHES = 0.08


def _room_left(ax: Axes, x: float) -> float:
    """Inches of plotting area left of time ``x`` (as the axes' limits and layout stand so far)."""
    low, high = ax.get_xlim()
    return (x - low) / ((high - low) or 1.0) * _axes_inches(ax)


def _add(points: tuple[list[float], list[float]], x: float, y: float) -> None:
    points[0].append(x)
    points[1].append(y)


def _percepts(ax: Axes, rnd: RoundResult, lane: dict[int, int]) -> None:
    """A thin line from each gesture to each seat that noticed it, with a dot where and when they noticed."""
    for deliberate, colour, width, alpha, label in (
            (True, style.OKABE_ITO["blue"], 1.1, 0.85, "noticed a deliberate gesture (line to who noticed)"),
            (False, style.GREY, 0.7, 0.5, "noticed a fidget as a possible signal")):
        seen = [e for e in rnd.trace if type(e) is Perceived and e.deliberate is deliberate]
        if not seen:
            continue
        segments = [[(e.made_at, lane[e.gesturer] + BODY_ROW), (e.time, lane[e.seat] + BODY_ROW)] for e in seen]
        ax.add_collection(LineCollection(segments, colors=colour, linewidths=width, alpha=alpha, zorder=3,
                                         label=label, gid="percepts" if deliberate else "percepts_fidget"))
        ax.plot([e.time for e in seen], [lane[e.seat] + BODY_ROW for e in seen], linestyle="none", marker="o",
                markersize=3, color=colour, alpha=alpha, zorder=3, label="_noticed")


def _calls(ax: Axes, rnd: RoundResult, lane: dict[int, int]) -> list[Artist]:
    """Calls as speech bars ending in a marker, right ones green and wrong ones vermillion, with their words."""
    right, wrong, cut = style.OKABE_ITO["bluish_green"], style.OKABE_ITO["vermillion"], style.GREY
    used: set[str] = set()
    for event in rnd.trace:
        if type(event) is CallHeard:
            colour = right if event.right else wrong
            key = "call heard: right" if event.right else "call heard: wrong"
            target = f" on seat {event.accused}" if event.accused != NOBODY else ""
            verdict = "right" if event.right else "wrong"
            if event.outcome == "stop_ineffective":
                verdict = "ineffective against a double"
            text = f"\u201c{CALL_WORDS.get(event.call, event.call)}\u201d{target} {verdict}"
            face = colour
        elif type(event) is CallCutOff:
            colour, key, face = cut, "call cut off (still being said at the end)", "white"
            text = f"\u201c{CALL_WORDS.get(event.call, event.call)}\u201d cut off"
        else:
            continue
        y = lane[event.seat] + CALL_ROW
        ax.plot([event.started, event.time], [y, y], color=colour, linewidth=3, solid_capstyle="butt", zorder=5,
                label="_speech")
        ax.plot([event.time], [y], linestyle="none", marker="P", markersize=10, color=colour,
                markerfacecolor=face, zorder=6, gid="calls", label="_call")
        # The words go left of the speech bar, or right of the marker where the lane has no room on the left
        # (they would cover the seat's label).
        left = _room_left(ax, event.started) >= _BOLD_CHAR_INCHES * len(text) + 0.1
        ax.annotate(text, (event.started, y) if left else (event.time, y), xytext=(-4, 0) if left else (9, 0),
                    textcoords="offset points", ha="right" if left else "left", va="center", fontsize=_CALL,
                    color=colour, fontweight="bold", zorder=7, gid="call_text", annotation_clip=True,
                    bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})
        used.add(key)
    return [Line2D([], [], color=colour, linewidth=3, marker="P", markersize=9, markerfacecolor=face,
                   label=f"{key} (bar: first word to heard)")
            for key, colour, face in (("call heard: right", right, right), ("call heard: wrong", wrong, wrong),
                                      ("call cut off (still being said at the end)", cut, "white"))
            if key in used]
