"""Cards as small integers, decks of 52 (or two decks), and four of a kind by rank.

A card is an ``int`` in ``range(52 * decks)``: ``deck = card // 52``, ``rank = card % 52 // 4`` (0 is a two,
12 an ace) and ``suit = card % 4``. Integers keep the engine's hot path free of objects; the helpers here turn
them into text for people. With two decks, any four cards of one rank are four of a kind, duplicates included.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

CARDS_PER_DECK = 52
HAND_SIZE = 4  # cards in every hand (four of a kind needs all of them)
MIDDLE_SIZE = 4  # face-up cards in the middle
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("♣", "♦", "♥", "♠")
_SUIT_LETTERS = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}
_RANK_OF_NAME = {name: i for i, name in enumerate(RANKS)} | {"T": 8}

#: Rank of every card id of up to two decks, for fast lookup in the engine.
RANK: tuple[int, ...] = tuple((c % CARDS_PER_DECK) // 4 for c in range(2 * CARDS_PER_DECK))


def deck(decks: int = 1) -> list[int]:
    """Every card id of ``decks`` 52-card decks, in order."""
    if decks not in (1, 2):
        raise ValueError(f"decks = {decks!r}: must be 1 or 2")
    return list(range(CARDS_PER_DECK * decks))


def rank_of(card: int) -> int:
    """Rank index 0-12 (two to ace) of a card id."""
    return (card % CARDS_PER_DECK) // 4


def suit_of(card: int) -> int:
    """Suit index 0-3 (clubs, diamonds, hearts, spades) of a card id."""
    return card % 4


def card_name(card: object) -> str:
    """A card as people write it, e.g. ``7♠``; a second deck's copy is marked ``7♠'``. Anything that is not a card
    id of two decks (0-103) reads as itself in angle brackets (``<999>``), never as some other card."""
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 2 * CARDS_PER_DECK:
        return f"<{card!r}>"
    mark = "'" if card >= CARDS_PER_DECK else ""
    return f"{RANKS[rank_of(card)]}{SUITS[suit_of(card)]}{mark}"


def parse_card(text: str) -> int:
    """The card id of a name such as ``7S``, ``10♥``, ``QD`` or ``7S'`` (second deck)."""
    raw = text.strip()
    second = raw.endswith("'")
    body = raw.rstrip("'")
    rank_name, suit_name = body[:-1].upper(), body[-1:].upper()
    if rank_name not in _RANK_OF_NAME or suit_name not in _SUIT_LETTERS:
        raise ValueError(f"card {text!r}: not a card name like 7S, 10H, QD or 7S' (second deck)")
    card = _RANK_OF_NAME[rank_name] * 4 + _SUIT_LETTERS[suit_name]
    return card + CARDS_PER_DECK if second else card


def cards(text: str) -> list[int]:
    """Card ids from a space-separated list of names, e.g. ``cards("7S 7H 7D 7C")``."""
    return [parse_card(t) for t in text.split()]


def hand_text(hand: Iterable[object]) -> str:
    """A hand as text, e.g. ``7♠ 7♥ 9♣ K♦``."""
    return " ".join(card_name(c) for c in hand)


def is_four_of_a_kind(hand: Sequence[int]) -> bool:
    """Whether a hand is four cards of one rank (with two decks, any four of that rank)."""
    if len(hand) != 4:
        return False
    r = RANK[hand[0]]
    return RANK[hand[1]] == r and RANK[hand[2]] == r and RANK[hand[3]] == r


def most_of_a_kind(hand: Iterable[int]) -> int:
    """The largest number of cards of one rank in a hand (0 for an empty hand)."""
    counts = Counter(RANK[c] for c in hand)
    return max(counts.values(), default=0)


def rank_counts(hand: Iterable[int]) -> dict[int, int]:
    """How many cards of each rank a hand holds, by rank index."""
    return dict(Counter(RANK[c] for c in hand))
