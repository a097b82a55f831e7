"""A Krepet game as the data its replay page plays, in the shape of a Kemps match's (:mod:`kemps_sim.replay.data`):
one "round", the game, whose events each point at the position after it (rebuilt from the trace alone by
:func:`kemps_sim.krepet.retrace.positions`) and at the running count of cards left, misses and calls.

The lines name piles as the page labels them (:func:`pile_words`): "its Ablage", "player 0's side stack", "T3",
"ace pile F0", where the trace writes ``discard1``, ``side0``, ``T3``, ``F0``."""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any

from kemps_sim.cards import card_name
from kemps_sim.errors import ConfigError
from kemps_sim.krepet.narrate import describe
from kemps_sim.krepet.result import KrepetResult
from kemps_sim.krepet.retrace import positions
from kemps_sim.krepet.state import State
from kemps_sim.krepet.trace import CallHeard, MoveCut, Moved

#: Two decks, one per player.
CARDS = 104
#: A player's own piles as the page labels them (the trace's pile kinds: discard is the Ablage).
PILE_WORDS = {"hand": "hand", "discard": "Ablage", "side": "side stack", "talon": "talon"}
_PILE = re.compile(r"\b(T|F|hand|discard|side|talon)(\d+)\b")


def page_parts(result: KrepetResult, seat: int | None = None) -> tuple[dict[str, Any], str, str]:
    """What the replay page of a Krepet game shows (the record's ``replay``): its data, its legend and its title.
    A Krepet game is played open, so no page shows one player's view alone."""
    if seat is not None:
        raise ConfigError(f"replay: seat {seat!r}: a Krepet game is played open, so it has no one player's "
                          "view; leave the seat out")
    title = f"kemps-sim replay: Krepet, seed {result.seed}, {result.names[0]} against {result.names[1]}"
    return krepet_replay_data(result), "legend_krepet.html", title


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
        told = dataclasses.replace(event, move=pile_words(event.move, event.player)) if isinstance(
            event, Moved | MoveCut) else event
        events.append({"kind": type(event).__name__, **fields, "text": describe(told, names),
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


def pile_words(move: str, mover: int) -> str:
    """A move as the trace writes it (``3♠' hand1 -> discard0``) in the page's words (``3♠' from its hand to player
    0's Ablage``): the mover's own piles are "its", the other player's named, tableau places and ace piles as
    labelled (T0-T7, F0-F7)."""
    def name(m: re.Match[str]) -> str:
        kind, index = m.group(1), int(m.group(2))
        if kind == "T":
            return f"T{index}"
        if kind == "F":
            return f"ace pile F{index}"
        owner = "its" if index == mover else f"player {index}'s"
        return f"{owner} {PILE_WORDS[kind]}"

    lay = re.fullmatch(r"(.+?) (\S+) -> (\S+)", move)
    if lay:
        return f"{lay.group(1)} from {_PILE.sub(name, lay.group(2))} to {_PILE.sub(name, lay.group(3))}"
    return move.replace("from side", "from its side stack")


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
