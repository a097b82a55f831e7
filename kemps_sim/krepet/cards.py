"""What Krepet needs of a card beyond :mod:`kemps_sim.cards`: ace-low values, colours and the three ways to fit.

Krepet reuses Kemps' card ids (``range(104)`` for two decks; the second deck's copies are marked ``'`` in text) and
their text, but counts the ace low (A-2-...-K on the ace piles) and builds by colour and by suit, which Kemps never
does. Player 0 plays the first deck (ids 0-51), player 1 the second (52-103).
"""

from __future__ import annotations

from collections.abc import Iterable

from kemps_sim.cards import CARDS_PER_DECK, card_name, cards, rank_of, suit_of

ALL_CARDS = 2 * CARDS_PER_DECK  # one full deck per player
ACE, KING = 1, 13


def value(card: int) -> int:
    """The card's value with the ace low: ace 1, two 2, ..., king 13."""
    return (rank_of(card) + 1) % 13 + 1


def is_red(card: int) -> bool:
    """Whether the card is a diamond or a heart."""
    return suit_of(card) in (1, 2)


def fits_tableau(card: int, onto: int) -> bool:
    """Whether ``card`` may go on ``onto`` in the tableau: one lower and of the other colour."""
    return value(onto) == value(card) + 1 and is_red(card) != is_red(onto)


def fits_foundation(card: int, top: int | None) -> bool:
    """Whether ``card`` may go on an ace pile whose top is ``top`` (``None``: an empty place, which takes an ace)."""
    if top is None:
        return value(card) == ACE
    return suit_of(card) == suit_of(top) and value(card) == value(top) + 1


def fits_suit_step(card: int, onto: int) -> bool:
    """Whether ``card`` may go on ``onto`` on a side stack or Ablage: the same suit, one higher or one lower."""
    return suit_of(card) == suit_of(onto) and abs(value(card) - value(onto)) == 1


def owner_deck(card: int) -> int:
    """Which player's deck the card comes from (0 or 1)."""
    return card // CARDS_PER_DECK


def parse(text: str) -> list[int]:
    """Card ids from space-separated names such as ``"AS 2S 7H'"`` (empty text: no cards)."""
    return cards(text) if text.strip() else []


def text(pile: Iterable[int]) -> str:
    """Cards as text, bottom first, e.g. ``8♥ 7♠``."""
    return " ".join(card_name(c) for c in pile)
