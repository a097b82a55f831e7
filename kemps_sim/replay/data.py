"""A match as the data its replay page plays: every round's events in order, each with its time, its fields, the
line the play-by-play tells of it, and the table and score it leaves.

The table after each event comes from the trace alone (:class:`kemps_sim.retrace.TableReplay`, inside the
play-by-play's :class:`kemps_sim.narrate.RoundNarrator`), so what the page shows is what the trace says; distinct
tables and scores are stored once and events point at them, which keeps a page small. Cards are ids (0-51, a
second deck 52-103) with their names beside them once, in ``cards``.
"""

from __future__ import annotations

import math
from typing import Any

from kemps_sim.cards import card_name
from kemps_sim.narrate import RoundNarrator, call_word, score_text, standings_text
from kemps_sim.results import MatchResult
from kemps_sim.scoring import Standings
from kemps_sim.seating import pair_of
from kemps_sim.trace import Dealt, Perceived, Refilled, Swept

CARDS_PER_DECK = 52


def replay_data(result: MatchResult) -> dict[str, Any]:
    """The JSON-ready data of a match's replay page (see the module docstring)."""
    rules = result.rules
    rounds = []
    before: Standings | None = None
    for rnd in result.rounds:
        rounds.append(_round_data(result, rnd, before))
        before = rnd.standings
    decks = max(rules.decks, 1)
    return {
        "seed": result.seed, "players": rules.players, "pairs": rules.pairs, "scoring": rules.scoring,
        "agents": list(result.agents), "pair_of": [pair_of(rules.players, s) for s in range(rules.players)],
        "call_words": {call: call_word(rules, call) for call in ("kemps", "double_kemps", "stop_kemps")},
        "cards": [card_name(c) for c in range(decks * CARDS_PER_DECK)],
        "end_reason": result.end_reason, "error": result.error or "", "winners": list(result.winners),
        "final": _standings(result.standings), "final_text": standings_text(rules, result.standings, result.agents),
        "rounds": rounds,
    }


def _round_data(result: MatchResult, rnd: Any, before: Standings | None) -> dict[str, Any]:
    rules = result.rules
    narrator = RoundNarrator(rules, rnd, before, fidgets=True)
    tables: list[dict[str, Any]] = []
    scores: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    pack = discard = 0
    for event in rnd.trace:
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
    return {"round": rnd.index + 1, "dealer": rnd.dealer, "signals": list(rnd.signals),
            "outcome": rnd.outcome.value, "end_time": rnd.end_time, "events": events, "tables": tables,
            "scores": scores, "after": {**_standings(rnd.standings), "text": score_text(rules, rnd.standings)}}


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
