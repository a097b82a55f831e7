"""Krepet's moves as small frozen values, and the piles they name.

A move is always the move of the player whose turn it is (:attr:`State.to_move`), so it names no player. A
:class:`Lay` carries its card, so a move read from a log says what happened without the position it was made in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kemps_sim.cards import card_name

PileKind = Literal["tableau", "foundation", "side", "discard", "talon", "hand"]
OWNED: tuple[PileKind, ...] = ("side", "discard", "talon", "hand")  # piles that belong to a player (index: owner)
_SHORT = {"tableau": "T", "foundation": "F"}


@dataclass(frozen=True)
class Pile:
    """One pile on the table: a tableau place or an ace pile (by index), or a player's own pile (by owner).

    ``discard`` is the player's Ablage, the face-up pile beside the talon.
    """

    kind: PileKind
    index: int

    def __str__(self) -> str:
        return f"{_SHORT.get(self.kind, self.kind)}{self.index}"

    @classmethod
    def parse(cls, text: str) -> Pile:
        """The pile a trace names, e.g. ``T3``, ``F0``, ``hand1``: the inverse of ``str(pile)``."""
        kinds = {short: kind for kind, short in _SHORT.items()}
        head = text.rstrip("0123456789")
        kind = kinds.get(head, head)
        if kind not in (*_SHORT, *OWNED) or head == text:
            raise ValueError(f"pile {text!r}: not a pile name such as T3, F0 or hand1")
        return cls(kind, int(text[len(head):]))

    @property
    def owned(self) -> bool:
        """Whether the pile belongs to a player (then ``index`` is the owner)."""
        return self.kind in OWNED


@dataclass(frozen=True)
class Lay:
    """Move ``card`` (with the ``count - 1`` cards on it, for a run in the tableau) from ``src`` onto ``dst``."""

    card: int
    src: Pile
    dst: Pile
    count: int = 1

    def __str__(self) -> str:
        run = f" (+{self.count - 1} on it)" if self.count > 1 else ""
        return f"{card_name(self.card)}{run} {self.src} -> {self.dst}"


@dataclass(frozen=True)
class Draw:
    """Lay any leftover hand cards aside (per the rules), turn the talon over if it is empty, and draw."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class TakeBack:
    """Take the top ``count`` cards of the own side stack back into the hand (a same-suit run up or down)."""

    count: int

    def __str__(self) -> str:
        return f"take back {self.count} from side"


@dataclass(frozen=True)
class EndTurn:
    """End the turn: the player cannot, or chooses not to, get rid of more cards."""

    def __str__(self) -> str:
        return "end turn"


Move = Lay | Draw | TakeBack | EndTurn


def tableau(i: int) -> Pile:
    """Tableau place ``i`` (player 0's row first)."""
    return Pile("tableau", i)


def foundation(i: int) -> Pile:
    """Ace pile ``i`` in the middle."""
    return Pile("foundation", i)


def side(player: int) -> Pile:
    """The player's side stack."""
    return Pile("side", player)


def discard(player: int) -> Pile:
    """The player's Ablage (face-up pile beside the talon)."""
    return Pile("discard", player)


def talon(player: int) -> Pile:
    """The player's talon (face down, drawn from)."""
    return Pile("talon", player)


def hand(player: int) -> Pile:
    """The player's hand (drawn and taken-back cards, face up and shown to the opponent)."""
    return Pile("hand", player)


def to_foundation(move: Move) -> bool:
    """Whether the move lays a card on an ace pile."""
    return isinstance(move, Lay) and move.dst.kind == "foundation"
