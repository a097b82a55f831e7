"""A Krepet game as the data its replay page plays, in the shape of a Kemps match's (:mod:`kemps_sim.replay.data`):
one "round", the game, whose events each point at the position after it (rebuilt from the trace alone by
:func:`kemps_sim.krepet.retrace.positions`) and at the running count of cards left, misses and calls."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from kemps_sim.cards import card_name
from kemps_sim.krepet.narrate import describe
from kemps_sim.krepet.result import KrepetResult
from kemps_sim.krepet.retrace import positions
from kemps_sim.krepet.state import State
from kemps_sim.krepet.trace import CallHeard, Moved

#: Two decks, one per player.
CARDS = 104


def krepet_replay_data(result: KrepetResult) -> dict[str, Any]:
    """The JSON-ready data of a Krepet game's replay page."""
    names = result.names
    tables: list[dict[str, Any]] = []
    scores: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    misses, caught = [0, 0], [0, 0]
    for event, state in positions(result):
        if isinstance(event, Moved) and event.missed and event.callable:
            misses[event.player] += 1
        if isinstance(event, CallHeard) and event.right:
            caught[1 - event.caller] += event.caught
        table = _position(state)
        if not tables or tables[-1] != table:
            tables.append(table)
        held = [state.cards_of(0), state.cards_of(1)]
        score = {"cards_left": held, "misses": list(misses), "caught": list(caught),
                 "text": f"cards left: player 0 {held[0]}, player 1 {held[1]}; misses (caught): player 0 {misses[0]} "
                         f"({caught[0]}), player 1 {misses[1]} ({caught[1]})"}
        if not scores or scores[-1] != score:
            scores.append(score)
        fields = _fields(event)
        if "kind" in fields:  # a move's own kind (lay, draw, ...) is kept as move_kind: kind names the event
            fields["move_kind"] = fields.pop("kind")
        events.append({"kind": type(event).__name__, **fields, "text": describe(event, names),
                       "table": len(tables) - 1, "score": len(scores) - 1})
    final = {"cards_left": list(result.cards_left), "misses": misses, "caught": caught,
             "text": scores[-1]["text"] if scores else ""}
    winner = "a draw" if result.winner is None else f"player {result.winner} ({names[result.winner]}) wins"
    return {"game": "krepet", "seed": result.seed, "players": 2, "agents": list(names), "pair_of": [0, 1],
            "cards": [card_name(c) for c in range(CARDS)], "end_reason": result.reason, "error": result.error,
            "winners": [] if result.winner is None else [result.winner], "final": final,
            "final_text": [f"game over ({result.reason}): {winner}"],
            "rounds": [{"round": 1, "dealer": -1, "signals": [], "outcome": result.reason, "end_time": result.duration,
                        "events": events, "tables": tables, "scores": scores, "after": final}]}


def _position(s: State) -> dict[str, Any]:
    """What the page draws of a position: every tableau stack, the ace piles' tops, and each player's piles."""
    def top(pile: list[int]) -> int:
        return pile[-1] if pile else -1

    return {"tableau": [list(t) for t in s.tableau], "foundations": [top(f) for f in s.foundations],
            "talon": [len(t) for t in s.talon], "discard": [top(d) for d in s.discard],
            "discard_n": [len(d) for d in s.discard], "side": [top(p) for p in s.side],
            "side_n": [len(p) for p in s.side], "hand": [list(h) for h in s.hand], "to_move": s.to_move}


def _fields(event: Any) -> dict[str, Any]:
    """An event's fields as JSON values (tuples as lists, NaN as None)."""
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else list(v) if isinstance(v, tuple) else v)
            for k, v in dataclasses.asdict(event).items()}
