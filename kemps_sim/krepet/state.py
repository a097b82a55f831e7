"""The position of one Krepet game: every pile, whose turn it is, the turn's progress, and the logs of misses.

A :class:`State` is mutable: :func:`kemps_sim.krepet.turns.apply_move` changes it in place (and returns it) after
refusing an illegal move with a one-line :class:`~kemps_sim.errors.IllegalMove`; :meth:`State.copy` gives an
independent copy for search. The move rules live in :mod:`kemps_sim.krepet.legal` (what may be done) and
:mod:`kemps_sim.krepet.turns` (what a move does); this module, below both, holds the facts and checks their
invariants (:meth:`State.check`).

Piles are lists, bottom first. A side stack's first ``side_base`` cards are the dealt ones (the lowest
``side_hidden`` of them face down); cards above were laid on it in play. ``aside`` holds cards a hand-built
position leaves out (:func:`kemps_sim.krepet.position.position`); a dealt game sets none aside.
"""

from __future__ import annotations

import copy as _copy
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from kemps_sim.errors import KempsError
from kemps_sim.krepet.cards import ALL_CARDS, fits_foundation, fits_suit_step, fits_tableau, text, value
from kemps_sim.krepet.moves import Move, Pile
from kemps_sim.krepet.rules import KrepetRules

FOUNDATIONS = 8  # one ace pile per ace of the two decks
EndReason = Literal["out_of_cards", "both_stuck"]


class BrokenInvariant(KempsError):
    """A state breaks one of the game's invariants (a bug in the engine or a bad hand-built position)."""


@dataclass(frozen=True)
class Miss:
    """A move made while an ace-pile move was compulsory: the opponent may call "Krepet!" on it."""

    player: int
    turn: int
    move_number: int  # the game's move count before the missing move
    move: Move
    missed: tuple[Move, ...]  # the compulsory moves open when it was made


@dataclass(frozen=True)
class Call:
    """A "Krepet!" call and whether it was right (a miss was callable)."""

    caller: int
    turn: int
    move_number: int
    right: bool


@dataclass(frozen=True)
class Result:
    """How a game ended: ``winner`` is ``None`` for a draw (both stuck, equal cards)."""

    reason: EndReason
    winner: int | None
    cards_left: tuple[int, int]


def _pair() -> list[list[int]]:
    return [[], []]


@dataclass(eq=False)
class State:
    """Every fact of a Krepet game in progress (see the module docstring for the pile conventions)."""

    rules: KrepetRules
    tableau: list[list[int]]
    foundations: list[list[int]] = field(default_factory=lambda: [[] for _ in range(FOUNDATIONS)])
    talon: list[list[int]] = field(default_factory=_pair)
    discard: list[list[int]] = field(default_factory=_pair)
    side: list[list[int]] = field(default_factory=_pair)
    hand: list[list[int]] = field(default_factory=_pair)
    side_base: list[int] = field(default_factory=lambda: [0, 0])
    side_hidden: list[int] = field(default_factory=lambda: [0, 0])
    aside: list[int] = field(default_factory=list)
    to_move: int = 0
    turn: int = 0
    moves_made: int = 0
    passes: list[int] = field(default_factory=lambda: [0, 0])  # times each talon was turned over
    drawn_this_turn: bool = False
    rid_this_cycle: int = 0  # cards got rid of since the last draw (another draw needs at least one)
    progress_in_turn: bool = False
    last_drawn: tuple[int, ...] = ()  # shown to the opponent
    idle_drawn: list[int] = field(default_factory=lambda: [0, 0])  # cards drawn at the last count since progress
    stuck: list[bool] = field(default_factory=lambda: [False, False])
    best_progress: int = 0
    skip_next: list[bool] = field(default_factory=lambda: [False, False])
    misses: list[Miss] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    pending: list[int] = field(default_factory=list)  # indices of misses that a call would catch now
    snapshot: State | None = None  # the state before the first pending miss (interrupted_move = "undone")
    result: Result | None = None

    # Looking things up ------------------------------------------------------------------------------------------
    def pile(self, pile: Pile) -> list[int]:
        """The list behind a pile reference (the state's own list)."""
        lists = {"tableau": self.tableau, "foundation": self.foundations, "side": self.side,
                 "discard": self.discard, "talon": self.talon, "hand": self.hand}[pile.kind]
        return lists[pile.index]

    def cards_of(self, player: int) -> int:
        """How many cards the player still holds: talon, Ablage, side stack and hand."""
        return (len(self.talon[player]) + len(self.discard[player]) + len(self.side[player])
                + len(self.hand[player]))

    def reservoir(self, player: int) -> int:
        """Cards the player can still draw: talon and Ablage (and leftover hand cards laid aside before a draw)."""
        extra = len(self.hand[player]) if self.rules.drawn_leftovers == "to_discard" else 0
        return len(self.talon[player]) + len(self.discard[player]) + extra

    def progress(self) -> int:
        """A measure that grows when cards leave the players for good: ace piles first, then the tableau."""
        found = sum(len(f) for f in self.foundations)
        return found * (ALL_CARDS + 1) + found + sum(len(t) for t in self.tableau)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    def key(self) -> tuple:
        """A hashable summary of the position (piles and whose turn), to spot repeated positions."""
        return (self.to_move, tuple(map(tuple, self.tableau)), tuple(map(tuple, self.foundations)),
                tuple(map(tuple, self.talon)), tuple(map(tuple, self.discard)), tuple(map(tuple, self.side)),
                tuple(map(tuple, self.hand)), tuple(self.side_base), tuple(self.side_hidden))

    def copy(self) -> State:
        """An independent copy (the snapshot kept for ``interrupted_move = "undone"`` is shared, not copied)."""
        snap, self.snapshot = self.snapshot, None
        try:
            twin = _copy.deepcopy(self)
        finally:
            self.snapshot = snap
        twin.snapshot = snap
        return twin

    # Invariants --------------------------------------------------------------------------------------------------
    def check(self) -> None:
        """Raise :class:`BrokenInvariant` (one line) if the position breaks an invariant of the game."""
        everything = [c for group in (self.tableau, self.foundations, self.talon, self.discard, self.side, self.hand)
                      for pile in group for c in pile] + self.aside
        if sorted(everything) != list(range(ALL_CARDS)):
            missing = sorted(set(range(ALL_CARDS)) - set(everything))
            extra = len(everything) - len(set(everything))
            raise BrokenInvariant(f"cards not conserved: {len(everything)} cards, {extra} duplicated, "
                                  f"missing {text(missing) or 'none'}")
        if len(self.tableau) != self.rules.tableau_places or len(self.foundations) != FOUNDATIONS:
            raise BrokenInvariant(f"{len(self.tableau)} tableau places and {len(self.foundations)} ace piles; "
                                  f"expected {self.rules.tableau_places} and {FOUNDATIONS}")
        for i, pile in enumerate(self.foundations):
            for below, card in zip([None, *pile], pile, strict=False):
                if not fits_foundation(card, below):
                    raise BrokenInvariant(f"ace pile F{i} = {text(pile)}: not an ace built up in one suit")
        for i, pile in enumerate(self.tableau):
            for below, card in pairwise(pile):
                if not fits_tableau(card, below):
                    raise BrokenInvariant(f"tableau T{i} = {text(pile)}: not descending in alternating colour")
        for p in (0, 1):
            pile, base, hidden = self.side[p], self.side_base[p], self.side_hidden[p]
            if not (0 <= base <= len(pile) and 0 <= hidden <= max(base - 1, 0) and hidden < max(len(pile), 1)):
                raise BrokenInvariant(f"side{p}: {len(pile)} cards, base {base}, {hidden} face down: inconsistent")
            loaded = pile[max(base - 1, 0):]
            for below, card in pairwise(loaded):
                if not fits_suit_step(card, below):
                    raise BrokenInvariant(f"side{p} = {text(pile)}: a laid card is not one up or down in suit")
        if self.to_move not in (0, 1):
            raise BrokenInvariant(f"to_move = {self.to_move}: must be 0 or 1")

    def describe(self) -> str:
        """The position as a few lines of text, for people and error reports."""
        lines = [f"turn {self.turn}, player {self.to_move} to move, {self.moves_made} moves made"]
        lines.append("ace piles: " + " | ".join(text(f[-1:]) or "-" for f in self.foundations))
        lines.append("tableau:   " + " | ".join(text(t) or "-" for t in self.tableau))
        for p in (0, 1):
            lines.append(f"player {p}: side {text(self.side[p][-1:]) or '-'} ({len(self.side[p])}), "
                         f"Ablage {text(self.discard[p][-1:]) or '-'} ({len(self.discard[p])}), "
                         f"talon {len(self.talon[p])}, hand {text(self.hand[p]) or '-'}")
        return "\n".join(lines)


def start_value(card: int, ace: str) -> int:
    """A card's value when the side-stack tops decide who starts (ace low 1 or high 14)."""
    v = value(card)
    return 14 if ace == "high" and v == 1 else v
