"""Deal probabilities against closed forms, the redeal rule, two decks, and deal determinism.

Every hand's first four cards are a uniform 4-subset of the deck, so four of a kind has probability
13 / C(52,4) and at least three of a kind (13·C(4,3)·48 + 13) / C(52,4). Exact values are checked by
exhaustive enumeration; dealt hands are checked by sampling with fixed seeds, within 4.5 standard errors
(binomial, or of the sample of per-deal counts where hands of one deal are dependent).
"""

from __future__ import annotations

import dataclasses
from functools import cache
from itertools import chain, combinations
from math import comb, sqrt

import numpy as np
import pytest

from kemps_sim.cards import RANK, deck, is_four_of_a_kind, most_of_a_kind
from kemps_sim.presets import load_rules
from kemps_sim.table import TableState

RANK_NP = np.asarray(RANK)
Z = 4.5  # standard errors allowed between a sampled statistic and its closed form

P_FOUR_1 = 13 / comb(52, 4)
P_THREE_PLUS_1 = (13 * comb(4, 3) * 48 + 13) / comb(52, 4)
P_FOUR_2 = 13 * comb(8, 4) / comb(104, 4)
P_THREE_PLUS_2 = 13 * (comb(8, 3) * 96 + comb(8, 4)) / comb(104, 4)


@cache
def _all_hands(decks: int) -> np.ndarray:
    """Every 4-subset a < b < c < d of the deck, one per row: pairs (a, b) joined to pairs (c, d), c > b."""
    size = 52 * decks
    pairs = np.array(list(combinations(range(size), 2)), dtype=np.int16)
    parts = []
    for b in range(1, size - 2):
        first, second = pairs[pairs[:, 1] == b], pairs[pairs[:, 0] > b]
        parts.append(np.hstack([np.repeat(first, len(second), axis=0), np.tile(second, (len(first), 1))]))
    return np.concatenate(parts)


def _four(hands: np.ndarray) -> np.ndarray:
    r0, r1, r2, r3 = np.moveaxis(RANK_NP[hands], -1, 0)
    return (r0 == r1) & (r1 == r2) & (r2 == r3)


def _three_plus(hands: np.ndarray) -> np.ndarray:
    r0, r1, r2, r3 = np.moveaxis(RANK_NP[hands], -1, 0)
    return (((r0 == r1) & ((r1 == r2) | (r1 == r3))) | ((r2 == r3) & ((r0 == r2) | (r1 == r2))))


def _deal_many(rules, deals: int, seed: int) -> tuple[np.ndarray, list]:
    """Hands of ``deals`` deals as an array (deal, seat, card), and every deal's redeals."""
    rng = np.random.default_rng(seed)
    hands, redeals = [], []
    for i in range(deals):
        state, r = TableState.deal(rules, rng, dealer=i % rules.players)
        hands.append(state.hands)
        redeals.append(r)
    flat = np.fromiter(chain.from_iterable(chain.from_iterable(hands)), dtype=np.int16)
    return flat.reshape(deals, rules.players, 4), redeals


def _assert_mean_close(per_deal: np.ndarray, expected: float, what: str) -> None:
    """The mean of iid per-deal counts is within Z sample standard errors of ``expected``."""
    mean, se = per_deal.mean(), per_deal.std(ddof=1) / sqrt(len(per_deal))
    assert se > 0, f"{what}: no variation in {len(per_deal)} deals"
    assert abs(mean - expected) <= Z * se, f"{what}: mean {mean:.5f}, closed form {expected:.5f}, se {se:.5f}"


# Exhaustive enumeration -------------------------------------------------------------------------------------
def test_enumeration_lists_every_4_subset_once():
    for decks in (1, 2):
        size, hands = 52 * decks, _all_hands(decks).astype(np.int64)
        assert len(hands) == comb(size, 4) and np.all(np.diff(hands, axis=1) > 0) and hands.max() == size - 1
        codes = ((hands[:, 0] * size + hands[:, 1]) * size + hands[:, 2]) * size + hands[:, 3]
        assert np.all(np.diff(np.sort(codes)) > 0)  # no subset twice


def test_exhaustive_one_deck_four_of_a_kind_count_is_13():
    hands = _all_hands(1)
    assert sum(map(is_four_of_a_kind, hands.tolist())) == 13
    assert int(_four(hands).sum()) == 13


def test_exhaustive_one_deck_at_least_three_of_a_kind_matches_closed_form():
    hands = _all_hands(1)
    expected = 13 * comb(4, 3) * 48 + 13
    assert int(_three_plus(hands).sum()) == expected == round(P_THREE_PLUS_1 * comb(52, 4))
    assert sum(most_of_a_kind(h) >= 3 for h in combinations(range(52), 4)) == expected


def test_exhaustive_two_deck_four_of_a_kind_count_is_13_times_c_8_4():
    assert sum(map(is_four_of_a_kind, combinations(range(104), 4))) == 13 * comb(8, 4)


def test_exhaustive_two_deck_at_least_three_of_a_kind_matches_closed_form():
    assert int(_three_plus(_all_hands(2)).sum()) == 13 * (comb(8, 3) * 96 + comb(8, 4))


# Sampled deals, one deck ------------------------------------------------------------------------------------
# At 10 players: 500,000 hands and 24 expected four of a kind, so the 4.5-sigma band is [2, 46]: loose (it
# catches a doubled rate), which is why the exact count is also checked by enumeration above. The same hands
# give a tight test of three or more of a kind (≈ 4,600 expected).
ONE_DECK_DEALS = 50_000


@pytest.fixture(scope="module")
def one_deck_hands() -> np.ndarray:
    """Hands of many deals at the largest one-deck table (10 players), redeal off."""
    rules = load_rules("standard", players=10, two_decks_from=11)
    assert rules.decks == 1 and not rules.redeal_on_deal
    hands, redeals = _deal_many(rules, ONE_DECK_DEALS, seed=20240601)
    assert not any(redeals)
    return hands


def test_sampled_four_of_a_kind_rate_matches_13_over_c_52_4(one_deck_hands):
    # Binomial count over 5·10^5 hands; within a deal hands are disjoint and the covariance of two
    # seats' four-of-a-kind events is below 1e-9, so the binomial standard error holds to 4 digits.
    count = int(_four(one_deck_hands).sum())
    n = one_deck_hands.shape[0] * one_deck_hands.shape[1]
    expected = n * P_FOUR_1
    tol = Z * sqrt(n * P_FOUR_1 * (1 - P_FOUR_1))
    assert abs(count - expected) <= tol, f"{count} in {n} hands, expected {expected:.1f}±{tol:.1f}"


def test_sampled_first_seat_at_least_three_of_a_kind_matches_closed_form(one_deck_hands):
    # The seat at the dealer's left is one hand per deal, so these are independent Bernoulli trials.
    rows = np.arange(one_deck_hands.shape[0])
    first = one_deck_hands[rows, (rows + 1) % 10]
    count = int(_three_plus(first).sum())
    n = len(first)
    expected = n * P_THREE_PLUS_1
    tol = Z * sqrt(n * P_THREE_PLUS_1 * (1 - P_THREE_PLUS_1))
    assert abs(count - expected) <= tol, f"{count} in {n} hands, expected {expected:.1f}±{tol:.1f}"


def test_sampled_at_least_three_of_a_kind_per_deal_matches_n_times_closed_form(one_deck_hands):
    per_deal = _three_plus(one_deck_hands).sum(axis=1)
    _assert_mean_close(per_deal, 10 * P_THREE_PLUS_1, "three or more of a kind per 10-player deal")


def test_every_card_position_is_uniform_over_ranks(one_deck_hands):
    # Each dealt card is uniform over 52 ids, so each rank shows with probability 1/13 at every seat and slot.
    ranks = RANK_NP[one_deck_hands[:2000]]
    counts = np.stack([(ranks == r).sum(axis=0) for r in range(13)])  # rank, seat, slot
    n, p = 2000, 1 / 13
    assert np.all(np.abs(counts - n * p) <= Z * sqrt(n * p * (1 - p)))


# The redeal rule --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "deals", "p_three_plus"), [
    (8, 12_000, P_THREE_PLUS_1),  # ≈ 890 seats redealt
    (10, 6_000, P_THREE_PLUS_2),  # ≈ 920 seats redealt
])
def test_redeal_frequency_is_players_times_p_three_of_a_kind(players, deals, p_three_plus):
    rules = load_rules("kems", players=players, redeal_until_clean=True)
    assert rules.redeal_on_deal and rules.decks == (2 if players >= 9 else 1)
    hands, redeals = _deal_many(rules, deals, seed=777 + players)
    # A seat may redraw again; count seats with at least one redeal, i.e. first redeals.
    seats_redealt = np.array([len({r.seat for r in deal}) for deal in redeals], dtype=float)
    _assert_mean_close(seats_redealt, players * p_three_plus, f"seats redealt per {players}-player deal")
    # After the deal with redeal on, no hand holds three of a kind.
    assert not _three_plus(hands).any()


def test_003_redeals_once_so_a_redrawn_hand_may_show_three_again():
    # 003: the player shows the cards, returns them and draws as many; nothing says to repeat.
    rules = load_rules("kems", players=8)
    assert rules.redeal_until_clean is False
    hands, redeals = _deal_many(rules, 4000, seed=99)
    assert all(len({r.seat for r in deal}) == len(deal) for deal in redeals)  # one redraw per seat at most
    assert _three_plus(hands).any()  # some redraw drew three of a kind again, and it stands


def test_redeal_records_show_three_or_more_of_one_rank_and_draw_as_many():
    rules = load_rules("kems", players=8)
    rng = np.random.default_rng(31)
    seen = 0
    for dealer in range(400):
        state, redeals = TableState.deal(rules, rng, dealer=dealer % 8)
        order = [(dealer % 8 + 1 + i) % 8 for i in range(8)]
        assert [order.index(r.seat) for r in redeals] == sorted(order.index(r.seat) for r in redeals)
        for r in redeals:
            seen += 1
            assert len(r.shown) >= 3 and len({RANK[c] for c in r.shown}) == 1
            assert len(r.drawn) == len(r.shown)
        for hand in state.hands:
            assert len(hand) == 4 and most_of_a_kind(hand) <= 2
        state.check()
    assert seen > 0


def test_redeal_off_means_no_redeals_even_with_three_of_a_kind_dealt():
    rules = load_rules("standard", players=8)
    rng = np.random.default_rng(5)
    dealt_three = 0
    for _ in range(500):
        state, redeals = TableState.deal(rules, rng)
        assert redeals == []
        dealt_three += sum(most_of_a_kind(h) >= 3 for h in state.hands)
    assert dealt_three > 0  # expected 500 · 8 · 0.0093 ≈ 37


# Two decks --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("preset", "players"),
                         [("standard", 10), ("standard", 12), ("party", 8), ("kems", 10)])
def test_two_deck_deal_conserves_all_104_cards(preset, players):
    rules = load_rules(preset, players=players)
    assert rules.decks == 2
    rng = np.random.default_rng(players)
    for _ in range(50):
        state, _ = TableState.deal(rules, rng)
        everything = [c for h in state.hands for c in h] + state.middle + state.pack + state.discard
        assert sorted(everything) == list(range(104))
        assert [len(h) for h in state.hands] == [4] * players
        assert len(state.middle) == 4 and state.discard == []
        assert len(state.pack) == 104 - 4 * players - 4


def test_two_deck_sampled_rates_match_the_two_deck_closed_forms():
    rules = load_rules("standard", players=10)
    hands, _ = _deal_many(rules, 12_000, seed=104)
    count = int(_four(hands).sum())
    n = hands.shape[0] * hands.shape[1]
    expected = n * P_FOUR_2  # ≈ 23.8, band [2, 46]: loose, as for one deck
    tol = Z * sqrt(n * P_FOUR_2 * (1 - P_FOUR_2))
    assert abs(count - expected) <= tol, f"{count} in {n} hands, expected {expected:.1f}±{tol:.1f}"
    # Three or more of a kind is far likelier with two decks (0.0154 against 0.0093): a tight check.
    _assert_mean_close(_three_plus(hands).sum(axis=1), 10 * P_THREE_PLUS_2, "three+ of a kind, two decks")


def test_one_deck_deal_conserves_all_52_cards():
    for players in (4, 6, 8):
        rules = load_rules("standard", players=players)
        state, _ = TableState.deal(rules, np.random.default_rng(players))
        everything = [c for h in state.hands for c in h] + state.middle + state.pack
        assert sorted(everything) == list(range(52))
        assert len(state.pack) == 52 - 4 * players - 4


# Determinism ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["standard", "kems"])
def test_same_seed_gives_the_same_deal_and_redeals(preset):
    rules = load_rules(preset, players=6)
    for seed in range(20):
        a, ra = TableState.deal(rules, np.random.default_rng(seed), dealer=2)
        b, rb = TableState.deal(rules, np.random.default_rng(seed), dealer=2)
        assert a.snapshot() == b.snapshot()
        assert ra == rb


@pytest.mark.parametrize(("preset", "players"), [("standard", 4), ("kems", 4), ("standard", 10)])  # 10: two decks
def test_the_shuffle_is_numpys_permutation_of_the_deck(preset, players):
    """The pack is the deck (``cards.deck``) in the order ``Generator.permutation`` puts it: shuffling the card ids
    by the deck's length draws what shuffling the deck's list draws, so a seed deals what it always dealt."""
    rules = load_rules(preset, players=players)
    if rules.redeal_on_deal:  # the shuffle alone
        rules = dataclasses.replace(rules, redeal_on_deal=False, redeal_until_clean=None)
    order = [(1 + i) % players for i in range(players)]  # served from the dealer's left, one card each in turn
    for seed in range(30):
        table, _ = TableState.deal(rules, np.random.default_rng(seed), dealer=0)
        shuffled = [int(c) for c in np.random.default_rng(seed).permutation(deck(rules.decks))]
        dealt = [card for turn in zip(*(table.hands[seat] for seat in order), strict=True) for card in turn]
        assert dealt + table.middle + table.pack[::-1] == shuffled[::-1]


def test_different_seeds_give_different_deals():
    rules = load_rules("standard", players=6)
    snapshots = {TableState.deal(rules, np.random.default_rng(seed))[0].snapshot() for seed in range(50)}
    assert len(snapshots) == 50


def test_dealing_starts_at_the_dealers_left():
    rules = load_rules("standard", players=6)
    base, _ = TableState.deal(rules, np.random.default_rng(9), dealer=0)
    pack = [int(c) for c in np.random.default_rng(9).permutation(52)]
    assert base.hands[1] == [pack[-1], pack[-7], pack[-13], pack[-19]]
    for dealer in range(1, 6):
        moved, _ = TableState.deal(rules, np.random.default_rng(9), dealer=dealer)
        assert [moved.hands[(s + dealer) % 6] for s in range(6)] == base.hands
        assert moved.middle == base.middle and moved.pack == base.pack
