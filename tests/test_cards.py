"""Card ids, ranks and suits, names and their parsing, and four of a kind with one and two decks."""

from __future__ import annotations

import pytest

from kemps_sim import cards as cards_module
from kemps_sim.cards import (
    CARDS_PER_DECK,
    RANK,
    RANKS,
    SUITS,
    card_name,
    cards,
    deck,
    hand_text,
    is_four_of_a_kind,
    most_of_a_kind,
    parse_card,
    rank_counts,
    rank_of,
    suit_of,
)

ALL_IDS = range(2 * CARDS_PER_DECK)


def test_deck_has_52_or_104_ids_in_order_and_refuses_other_counts():
    assert deck() == list(range(52))
    assert deck(1) == list(range(52))
    assert deck(2) == list(range(104))
    for bad in (0, 3):
        with pytest.raises(ValueError, match=rf"decks = {bad}: must be 1 or 2"):
            deck(bad)


def test_rank_and_suit_follow_the_id_layout_for_all_104_ids():
    for card in ALL_IDS:
        assert rank_of(card) == (card % 52) // 4
        assert suit_of(card) == card % 4
        assert RANK[card] == rank_of(card)
    assert len(RANK) == 104
    # Every (rank, suit) appears exactly once per deck.
    for first in (range(52), range(52, 104)):
        pairs = sorted((rank_of(c), suit_of(c)) for c in first)
        assert pairs == [(r, s) for r in range(13) for s in range(4)]


def test_a_second_deck_copy_has_the_rank_and_suit_of_its_first_deck_card():
    for card in range(52):
        assert rank_of(card + 52) == rank_of(card)
        assert suit_of(card + 52) == suit_of(card)


def test_known_ids_have_the_documented_ranks_suits_and_names():
    assert (rank_of(0), suit_of(0), card_name(0)) == (0, 0, "2♣")
    assert (rank_of(51), suit_of(51), card_name(51)) == (12, 3, "A♠")
    assert card_name(5 * 4 + 3) == "7♠"
    assert card_name(52 + 5 * 4 + 3) == "7♠'"
    assert card_name(8 * 4 + 2) == "10♥"
    assert card_name(10 * 4 + 1) == "Q♦"


def test_names_are_distinct_and_parse_back_to_the_same_id_for_all_104_ids():
    names = [card_name(c) for c in ALL_IDS]
    assert len(set(names)) == 104
    for card, name in zip(ALL_IDS, names, strict=True):
        assert name.endswith("'") == (card >= 52)
        assert parse_card(name) == card


def test_ascii_lowercase_and_ten_spellings_parse_for_all_104_ids():
    for card in ALL_IDS:
        rank, suit = RANKS[rank_of(card)], "CDHS"[suit_of(card)]
        mark = "'" if card >= 52 else ""
        assert parse_card(f"{rank}{suit}{mark}") == card
        assert parse_card(f" {rank.lower()}{suit.lower()}{mark} ") == card
        if rank == "10":
            assert parse_card(f"T{suit}{mark}") == card


@pytest.mark.parametrize("text", ["", "7", "S", "1S", "11H", "7X", "KK", "7S7", "ZZ'"])
def test_parse_card_refuses_text_that_is_not_a_card_name(text):
    with pytest.raises(ValueError, match="not a card name"):
        parse_card(text)


def test_cards_and_hand_text_round_trip():
    hand = cards("7S 7S' 7H 10D QC")
    assert hand == [23, 75, 22, 33, 40]
    assert hand_text(hand) == "7♠ 7♠' 7♥ 10♦ Q♣"
    assert cards(hand_text(hand)) == hand
    assert cards("") == []


def test_four_of_a_kind_holds_for_the_four_suits_of_every_rank():
    for rank in range(13):
        hand = [rank * 4 + suit for suit in range(4)]
        assert is_four_of_a_kind(hand)
        assert is_four_of_a_kind(list(reversed(hand)))


def test_four_of_a_kind_with_two_decks_counts_duplicate_copies():
    assert is_four_of_a_kind(cards("7S 7S' 7H 7D"))
    assert is_four_of_a_kind(cards("7S 7S' 7H' 7H"))
    assert is_four_of_a_kind(cards("AC' AD' AH' AS'"))
    assert not is_four_of_a_kind(cards("7S 7S' 7H 8D"))


def test_four_of_a_kind_needs_exactly_four_cards_of_one_rank():
    assert not is_four_of_a_kind(cards("7S 7H 7D 8C"))
    assert not is_four_of_a_kind(cards("8C 7S 7H 7D"))
    assert not is_four_of_a_kind(cards("7S 7H 7D"))
    assert not is_four_of_a_kind(cards("7S 7H 7D 7C 7S'"))
    assert not is_four_of_a_kind([])


def test_most_of_a_kind_counts_the_largest_rank_group():
    assert most_of_a_kind([]) == 0
    assert most_of_a_kind(cards("2C")) == 1
    assert most_of_a_kind(cards("2C 3D 4H 5S")) == 1
    assert most_of_a_kind(cards("2C 2D 4H 5S")) == 2
    assert most_of_a_kind(cards("2C 2D 4H 4S")) == 2
    assert most_of_a_kind(cards("KC KD KH 5S")) == 3
    assert most_of_a_kind(cards("KC KD KH KS")) == 4
    assert most_of_a_kind(cards("7S 7S' 7H 9C")) == 3
    assert most_of_a_kind(cards("7S 7S' 7H 7H' 7D")) == 5


def test_rank_counts_groups_cards_by_rank_index():
    assert rank_counts(cards("7S 7S' 7H 10D")) == {5: 3, 8: 1}
    assert rank_counts([]) == {}


def test_module_constants_describe_the_names():
    assert len(RANKS) == 13 and len(SUITS) == 4
    assert cards_module.CARDS_PER_DECK == 52
