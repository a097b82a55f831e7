"""The cards on a Snap table: each player's face-down and face-up pile, and the few things that move them.

A pile is a list whose last item is its top. Cards are the library's card ids (:mod:`kemps_sim.cards`: the rank of
card ``c`` is ``RANK[c]``). The table knows nothing of time or agents: :mod:`kemps_snap.realtime` decides when
each move happens; here they only keep the count of cards whole (:meth:`Table.check`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from kemps_sim.cards import RANK
from kemps_snap.rules import SnapRules


@dataclass
class Table:
    """Both piles of every player, and the card each player has in hand on its way to the face-up pile."""

    down: list[list[int]]
    up: list[list[int]]
    in_hand: list[int] = field(default_factory=list)  # -1: none
    total: int = 0

    def __post_init__(self) -> None:
        self.in_hand = self.in_hand or [-1] * len(self.down)
        self.total = self.total or sum(map(len, self.down)) + sum(map(len, self.up))

    # What players see ----------------------------------------------------------------------------------------------
    def top(self, player: int) -> int:
        """The top card of the player's face-up pile (-1: the pile is empty)."""
        pile = self.up[player]
        return pile[-1] if pile else -1

    def tops(self) -> tuple[int, ...]:
        """Every player's face-up top card (-1 for an empty pile)."""
        return tuple(self.top(p) for p in range(len(self.up)))

    def matched(self) -> list[int]:
        """The players whose face-up top shares its rank with another face-up top (empty: no match shows)."""
        ranks = [RANK[c] if c >= 0 else -1 for c in self.tops()]
        return [p for p, r in enumerate(ranks) if r >= 0 and ranks.count(r) > 1]

    def near(self) -> bool:
        """Whether two face-up tops are one rank apart: a near match, the lure a hasty eye takes for a match."""
        ranks = sorted({RANK[c] for c in self.tops() if c >= 0})
        return any(b - a == 1 for a, b in itertools.pairwise(ranks))

    def held(self, player: int) -> int:
        """Every card the player holds: both piles and the card in its hand."""
        return len(self.down[player]) + len(self.up[player]) + (self.in_hand[player] >= 0)

    def holding(self) -> list[int]:
        """The players who still hold a card."""
        return [p for p in range(len(self.down)) if self.held(p)]

    # Moves ---------------------------------------------------------------------------------------------------------
    def lift(self, player: int) -> int:
        """Take the top face-down card into the hand (-1 when the face-down pile is empty)."""
        card = self.down[player].pop() if self.down[player] else -1
        self.in_hand[player] = card
        return card

    def land(self, player: int) -> int:
        """Lay the card in hand on the player's face-up pile; return it."""
        card, self.in_hand[player] = self.in_hand[player], -1
        self.up[player].append(card)
        return card

    def turn_over(self, player: int) -> int:
        """The face-up pile, turned over, becomes the face-down pile (its first card on top); return its size."""
        pile = self.up[player]
        self.down[player] = pile[::-1] + self.down[player]
        self.up[player] = []
        return len(pile)

    def take(self, taker: int, players: list[int]) -> int:
        """Put the face-up piles of ``players`` under the taker's face-down pile; return how many cards moved."""
        moved = 0
        for p in players:
            pile, self.up[p] = self.up[p], []
            self.down[taker] = pile + self.down[taker]
            moved += len(pile)
        return moved

    def pay(self, payer: int, receivers: list[int], cards_each: int) -> int:
        """The payer gives up to ``cards_each`` cards to each receiver in turn (from its face-down pile, then the
        bottom of its face-up pile), each under the receiver's face-down pile; return how many cards moved."""
        moved = 0
        for receiver in receivers:
            for _ in range(cards_each):
                source = self.down[payer] or self.up[payer]
                if not source:
                    return moved
                card = source.pop() if source is self.down[payer] else source.pop(0)
                self.down[receiver].insert(0, card)
                moved += 1
        return moved

    def check(self) -> None:
        """Every card is somewhere, once."""
        cards = [c for pile in (*self.down, *self.up) for c in pile] + [c for c in self.in_hand if c >= 0]
        if len(cards) != self.total or len(set(cards)) != self.total:
            raise AssertionError(f"the table holds {len(cards)} cards ({len(set(cards))} different) of {self.total}")


def deal(rules: SnapRules, rng: np.random.Generator) -> Table:
    """Shuffle the pack(s) and deal one card at a time round the table, player 0 first, face down."""
    pack = rng.permutation(rules.cards).tolist()
    down: list[list[int]] = [[] for _ in range(rules.players)]
    for i, card in enumerate(pack):
        down[i % rules.players].insert(0, card)  # the first card dealt ends at the bottom
    return Table(down, [[] for _ in range(rules.players)])
