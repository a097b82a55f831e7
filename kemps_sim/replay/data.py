"""A match as the data its replay page plays: every round's events in order, each with its time, its fields, the
line the play-by-play tells of it, and the table and score it leaves.

The table after each event comes from the trace alone (:class:`kemps_sim.retrace.TableReplay`, inside the
play-by-play's :class:`kemps_sim.narrate.RoundNarrator`), so what the page shows is what the trace says. Cards are
ids (0-51, a second deck 52-103, :data:`~kemps_sim.visibility.HIDDEN_CARD` for one face down) with the names of
those the view shows beside them once, in ``cards``.

A view is every hand (``seat`` None) or one seat's (:mod:`kemps_sim.replay.seat_view`): a seat's view holds only
what that seat knows, so a page made of it cannot show more. The data of every hand also carries each seat's view
(``seat_views``), for the page to switch to.

To keep a page small, distinct tables and scores are stored once and events point at them; a table lists only the
hands that changed since the one before it (:func:`tables_in_full` restores them); and in ``seat_views`` an event
the seat sees exactly as every hand's view has it is written ``[index, table, score]``: the index of that event in
the same round of every hand's view, with the seat's own table and score.
"""

from __future__ import annotations

import math
from typing import Any

from kemps_sim.cards import card_name
from kemps_sim.narrate import RoundNarrator, call_word, score_text, standings_text
from kemps_sim.replay.seat_view import SeatNarrator, seat_signals
from kemps_sim.replay.target import html_seat
from kemps_sim.results import MatchResult, RoundResult
from kemps_sim.scoring import Standings
from kemps_sim.seating import pair_of
from kemps_sim.trace import Dealt, Perceived, Refilled, Swept

CARDS_PER_DECK = 52
#: The fields of trace events that hold card ids (or lists of them).
_CARD_FIELDS = frozenset({"hands", "middle", "shown", "drawn", "gave", "took", "wanted", "cards"})


def replay_data(result: MatchResult, seat: int | None = None) -> dict[str, Any]:
    """The JSON-ready data of a match's replay page: every hand and each seat's view, or (``seat``) that seat's
    view alone (see the module docstring)."""
    rules = result.rules
    html_seat(seat, rules.players, "replay: seat")
    common = {
        "seed": result.seed, "players": rules.players, "pairs": rules.pairs, "scoring": rules.scoring,
        "decks": max(rules.decks, 1), "agents": list(result.agents),
        "pair_of": [pair_of(rules.players, s) for s in range(rules.players)],
        "call_words": {call: call_word(rules, call) for call in ("kemps", "double_kemps", "stop_kemps")},
        "end_reason": result.end_reason, "error": result.error or "", "winners": list(result.winners),
        "final": _standings(result.standings), "final_text": standings_text(rules, result.standings, result.agents),
    }
    if seat is not None:
        view, _ = _view(result, seat)
        return {**common, **view}
    everything, _ = _view(result, None)
    seat_views = []
    for s in range(rules.players):
        view, sources = _view(result, s)
        for shown, full, at in zip(view["rounds"], everything["rounds"], sources, strict=True):
            shown["events"] = [_shared(event, full["events"][i], i) for event, i in zip(shown["events"], at,
                                                                                       strict=True)]
        seat_views.append(view)
    return {**common, **everything, "seat_views": seat_views}


def tables_in_full(tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A round's ``tables`` with every hand written out (the data lists only the hands that changed)."""
    full: list[dict[str, Any]] = []
    for table in tables:
        hands = list(full[-1]["hands"]) if full else []
        for seat, hand in table["hands"].items():
            seat = int(seat)
            hands.extend([] for _ in range(seat + 1 - len(hands)))
            hands[seat] = hand
        full.append({**table, "hands": hands})
    return full


def _shared(event: dict[str, Any], full: dict[str, Any], index: int) -> dict[str, Any] | list[int]:
    """A seat's event as a reference to every hand's (at ``index``), when the two say the same."""
    def said(e: dict[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in e.items() if key not in ("table", "score")}

    return [index, event["table"], event["score"]] if said(event) == said(full) else event


def _view(result: MatchResult, seat: int | None) -> tuple[dict[str, Any], list[list[int]]]:
    """Every round as every hand (``seat`` None) or one seat sees it, and the names of the cards it shows; and,
    per round, the index in the trace of each event it holds."""
    rounds, sources = [], []
    before: Standings | None = None
    for rnd in result.rounds:
        data, at = _round_data(result, rnd, before, seat)
        rounds.append(data)
        sources.append(at)
        before = rnd.standings
    shown: set[int] = set()
    for rnd in rounds:
        hands = [table["hands"] for table in rnd["tables"]]
        for i, table in enumerate(rnd["tables"]):
            shown.update(*table["hands"], table["middle"])
            table["hands"] = {str(s): hand for s, hand in enumerate(hands[i]) if i == 0 or hands[i - 1][s] != hand}
        for event in rnd["events"]:
            for name in _CARD_FIELDS.intersection(event):
                shown.update(_ids(event[name]))
    view = {"view": -1 if seat is None else seat, "rounds": rounds,
            "cards": {str(card): card_name(card) for card in sorted(shown) if card >= 0}}
    return view, sources


def _round_data(result: MatchResult, rnd: RoundResult, before: Standings | None,
                seat: int | None) -> tuple[dict[str, Any], list[int]]:
    rules = result.rules
    if seat is None:
        narrator: RoundNarrator = RoundNarrator(rules, rnd, before, fidgets=True)
        signals, trace = list(rnd.signals), list(enumerate(rnd.trace))
    else:
        narrator = SeatNarrator(rules, rnd, before, seat)
        signals, trace = seat_signals(rules, rnd.signals, seat), narrator.seen
    tables: list[dict[str, Any]] = []
    scores: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    pack = discard = 0
    for _, event in trace:
        lines = narrator.event(event)
        kind = type(event)
        if kind is Dealt:
            pack = rules.decks * CARDS_PER_DECK - sum(map(len, event.hands)) - len(event.middle)
        elif kind is Swept:
            discard += len(event.cards)
        elif kind is Refilled:
            if event.reshuffled:
                pack, discard = pack + discard, 0
            pack = max(pack - len(event.cards), 0)
        table = {"hands": [list(h) for h in narrator.table.hands], "middle": list(narrator.table.middle),
                 "pack": pack, "discard": discard}
        if not tables or tables[-1] != table:
            tables.append(table)
        score = {**_standings(narrator.standings), "text": score_text(rules, narrator.standings)}
        if not scores or scores[-1] != score:
            scores.append(score)
        events.append({"kind": kind.__name__, **_fields(event), "text": " / ".join(lines) or _text(event),
                       "table": len(tables) - 1, "score": len(scores) - 1})
    data = {"round": rnd.index + 1, "dealer": rnd.dealer, "signals": signals,
            "outcome": rnd.outcome.value, "end_time": rnd.end_time, "events": events, "tables": tables,
            "scores": scores, "after": {**_standings(rnd.standings), "text": score_text(rules, rnd.standings)}}
    return data, [i for i, _ in trace]


def _text(event: Any) -> str:
    """A line for an event the play-by-play tells as part of another (a percept, told with its gesture)."""
    if type(event) is Perceived:
        how = {"fixated": "eyes on it", "peripheral": "out of the corner of an eye", "heard": "heard"}
        return (f"seat {event.seat} notices seat {event.gesturer}'s {event.gesture} "
                f"({how.get(event.gaze, event.gaze)}, evidence {event.evidence:.2f})")
    return type(event).__name__


def _standings(standings: Standings) -> dict[str, list[int]]:
    return {"letters": list(standings.letters), "points": list(standings.points),
            "rounds_won": list(standings.rounds_won)}


def _fields(event: Any) -> dict[str, Any]:
    """An event's fields as JSON values: tuples as lists, NaN as None."""
    return {name: _plain(value) for name, value in event._asdict().items()}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _ids(value: Any) -> list[int]:
    """The card ids in a field: an id, or lists of them nested."""
    if isinstance(value, list):
        return [card for item in value for card in _ids(item)]
    return [value] if isinstance(value, int) else []
