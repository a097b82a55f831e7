"""Playing a Krepet game to its end with a simple deterministic policy, for tests and as a baseline.

The policy makes compulsory ace-pile moves first, then prefers cards leaving the player (side stack and hand to
the tableau, hand onto the opponent's piles, hand onto its own piles), then tableau moves that empty a place by joining
its whole stack to another (each leaves fewer stacks, so they cannot cycle), then other moves reaching a position not
seen this turn, then a draw, then the end of the turn. It never takes cards back. A move cap stops games the
policy cannot finish (``reason = "cap"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from kemps_sim.krepet.legal import compulsory_moves, legal_moves
from kemps_sim.krepet.moves import Draw, EndTurn, Lay, Move
from kemps_sim.krepet.state import State
from kemps_sim.krepet.turns import apply_move

OutcomeReason = Literal["out_of_cards", "both_stuck", "cap"]
DEFAULT_CAP = 20_000


@dataclass(frozen=True)
class Outcome:
    """How a played-out game ended, with its size."""

    reason: OutcomeReason
    winner: int | None
    moves: int
    turns: int
    cards_left: tuple[int, int]
    misses: int


def first_move(s: State, seen: set[tuple]) -> Move:
    """The deterministic policy's move (see the module docstring); ``seen`` holds this turn's positions."""
    compulsory = compulsory_moves(s)
    if compulsory:
        return compulsory[0]
    legal = legal_moves(s)
    p = s.to_move

    def rank(m: Move) -> int:
        if isinstance(m, Lay):
            if m.src.kind == "side" and m.dst.kind == "tableau":
                return 0
            if m.src.kind == "hand" and m.dst.kind == "tableau":
                return 1
            if m.src.kind == "hand" and m.dst.owned and m.dst.index != p:
                return 2
            if m.src.kind == "hand":
                return 3
            if m.src.kind == "tableau" and m.dst.kind == "tableau":
                empties = m.count == len(s.tableau[m.src.index]) and bool(s.tableau[m.dst.index])
                return 4 if empties else 8
            return 5
        return 6 if isinstance(m, Draw) else 7 if isinstance(m, EndTurn) else 8

    for m in sorted(legal, key=rank):
        if rank(m) == 8:
            continue
        if rank(m) in (4, 5):
            twin = apply_move(s.copy(), m)
            if twin.key() in seen:
                continue
        return m
    raise AssertionError(f"no move for player {p} though the game is not over:\n{s.describe()}")


def play_to_end(s: State, cap: int = DEFAULT_CAP, check: bool = False) -> Outcome:
    """Play the state on with :func:`first_move` until the game ends or ``cap`` moves were made (in place)."""
    seen: set[tuple] = set()
    turn = s.turn
    while s.result is None and s.moves_made < cap:
        if s.turn != turn:
            seen, turn = set(), s.turn
        seen.add(s.key())
        apply_move(s, first_move(s, seen))
        if check:
            s.check()
    return _outcome(s)


def play_randomly(s: State, rng: np.random.Generator, cap: int = DEFAULT_CAP, skip_compulsory: float = 0.0,
                  check: bool = False) -> Outcome:
    """Play on with uniformly random legal moves; compulsory ones are made first except with probability
    ``skip_compulsory``, which makes misses. Ends at the game's end or after ``cap`` moves."""
    while s.result is None and s.moves_made < cap:
        compulsory = compulsory_moves(s)
        pool = compulsory if compulsory and rng.random() >= skip_compulsory else legal_moves(s)
        apply_move(s, pool[int(rng.integers(len(pool)))])
        if check:
            s.check()
    return _outcome(s)


def _outcome(s: State) -> Outcome:
    held = (s.cards_of(0), s.cards_of(1))
    if s.result is None:
        return Outcome("cap", None, s.moves_made, s.turn, held, len(s.misses))
    return Outcome(s.result.reason, s.result.winner, s.moves_made, s.turn, held, len(s.misses))
