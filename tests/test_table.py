"""The table state: legal and illegal moves, swaps, drop and pick, sweep and refill, conservation.

Property tests play random legal moves (drawn by Hypothesis from the state's own ``legal_*`` lists) under
every preset and check conservation after each; at every step they also try each kind of illegal move and
check that it raises :class:`IllegalMove` naming the fault and leaves the state unchanged.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from math import comb

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kemps_sim.cards import card_name
from kemps_sim.errors import IllegalMove
from kemps_sim.presets import load_rules, preset_names
from kemps_sim.table import InvariantError, Refill, TableState, swap_problem

PRESETS = preset_names()
CASES = [(p, n) for p in PRESETS for n in (4, 6, 8)] + [("kems", 10)]
PROPERTY = settings(derandomize=True, database=None, deadline=None, max_examples=30,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _deal(preset: str, players: int = 4, seed: int = 0) -> tuple[TableState, np.random.Generator]:
    rng = np.random.default_rng(seed)
    state, _ = TableState.deal(load_rules(preset, players=players), rng)
    return state, rng


def _assert_invariants(state: TableState) -> None:
    state.check()
    if not any(state.owed):
        assert all(len(h) == 4 for h in state.hands)
    assert len(state.middle) == (state.middle_laid if state.refilling else 4) + sum(state.owed)
    assert (len(state.pack) + (state.middle_laid if state.refilling else 4)) % 4 == 0


# Random legal play ------------------------------------------------------------------------------------------
def _kinds(state: TableState) -> list[str]:
    if state.refilling and state.middle_laid == 0:
        return ["refill", "deal_one"]
    n = state.rules.players
    kinds = ["deal_one"] if state.refilling else []
    if state.rules.swap == "multi_drop_first":
        if any(state.legal_drops(s) for s in range(n)):
            kinds.append("drop")
        if any(state.owed):
            kinds.append("pick")
    else:
        kinds.append("swap")
    if not any(state.owed) and not state.refilling:
        kinds.append("sweep")
    return kinds


def _play_one(state: TableState, choose: random.Random, rng: np.random.Generator) -> bool:
    """Play one legal move picked by ``choose`` (drawn by Hypothesis), check its effect; False once void."""
    n = state.rules.players
    before = state.snapshot()
    hands, middle = [list(h) for h in state.hands], list(state.middle)
    pack, discard = list(state.pack), list(state.discard)
    kind = choose.choice(_kinds(state))
    seat = None  # the seat that moved, if any
    if kind == "swap":
        seat = choose.randrange(n)
        options = state.legal_swaps(seat)
        assert options, "a seat with four cards always has a legal swap"
        move = choose.choice(options)
        state.swap(seat, move.give, move.take)
        for give, take in zip(move.give, move.take, strict=True):
            hands[seat][hands[seat].index(give)] = take
            middle[middle.index(take)] = give
        assert state.hands == hands and state.middle == middle
    elif kind == "drop":
        seat = choose.choice([s for s in range(n) if state.legal_drops(s)])
        give = choose.choice(state.legal_drops(seat))
        state.drop(seat, give)
        hands[seat] = [c for c in hands[seat] if c not in give]
        assert state.hands == hands and state.middle == middle + list(give)
        assert state.owed[seat] == len(give)
    elif kind == "pick":
        seat = choose.choice([s for s in range(n) if state.owed[s]])
        options = state.legal_picks(seat)
        assert len(options) == comb(len(middle), state.owed[seat])
        take = choose.choice(options)
        state.pick(seat, take)
        hands[seat] += list(take)
        assert state.hands == hands and state.middle == [c for c in middle if c not in take]
        assert state.owed[seat] == 0
    elif kind == "sweep":
        state.sweep()
        assert state.refilling and state.middle == [] and state.discard == discard + middle
    elif kind == "deal_one":
        laid = state.middle_laid
        outcome = state.deal_one(rng)
        if outcome is Refill.EXHAUSTED:
            assert state.rules.pack_exhausted == "void_round" and pack == []
            assert state.snapshot() == before
            return False
        assert state.middle_laid == laid + 1 and state.refilling == (laid + 1 < 4)
        if outcome is Refill.DEALT:
            assert state.middle == [*middle, pack[-1]] and state.pack == pack[:-1] and state.discard == discard
        else:
            assert outcome is Refill.RESHUFFLED and pack == [] and state.discard == []
            assert sorted([*state.pack, state.middle[-1]]) == sorted(discard)
    else:
        outcome = state.refill(rng)
        if outcome is Refill.EXHAUSTED:
            assert state.rules.pack_exhausted == "void_round" and pack == []
            assert state.snapshot() == before
            return False
        assert not state.refilling
        if outcome is Refill.DEALT:
            assert state.middle == pack[:-5:-1] and state.pack == pack[:-4] and state.discard == discard
        else:
            assert outcome is Refill.RESHUFFLED and state.rules.pack_exhausted == "reshuffle_discards"
            assert pack == [] and state.discard == []
            assert sorted(state.middle + state.pack) == sorted(discard)
    assert all(state.hands[s] == list(before[0][s]) for s in range(n) if s != seat)
    _assert_invariants(state)
    return True


@pytest.mark.parametrize(("preset", "players"), CASES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), choose=st.randoms(use_true_random=True), moves=st.integers(1, 60))
def test_random_legal_moves_keep_every_card_in_one_place(preset, players, seed, choose, moves):
    state, rng = _deal(preset, players, seed)
    _assert_invariants(state)
    for _ in range(moves):
        if not _play_one(state, choose, rng):
            break


# Illegal moves ----------------------------------------------------------------------------------------------
def _illegal_moves(state: TableState, seat: int, rng: np.random.Generator) -> list[tuple[str, Callable, str]]:
    """(what is wrong, the move, a regex its message must match) for every applicable kind of illegal move."""
    n, rules = state.rules.players, state.rules
    hand, middle, owed = state.hands[seat], state.middle, state.owed[seat]
    # A card in neither this hand nor the middle (hands and middle never hold the whole deck).
    elsewhere = [c for s in range(n) if s != seat for c in state.hands[s]] + state.pack + state.discard
    other = elsewhere[0]
    not_in_hand = rf"{card_name(other)} not in seat {seat}'s hand"
    not_in_middle = rf"{card_name(other)} not in the middle"
    twice = "names a card twice"
    refilling = re.escape(": the middle is being refilled")
    cases: list[tuple[str, Callable, str]] = []
    add = cases.append
    bad_seat = rf"must be a seat from 0 to {n - 1}"
    for s in (n, -1, n + 3):
        add((f"swap by seat {s}", lambda s=s: state.swap(s, hand[:1], middle[:1]),
             rf"seat = {s}: {bad_seat}"))
        add((f"pick by seat {s}", lambda s=s: state.pick(s, middle[:1]), rf"seat = {s}: {bad_seat}"))
    add(("drop by seat n", lambda: state.drop(n, hand[:1]), rf"seat = {n}: {bad_seat}"))
    add(("string seat", lambda: state.swap("0", hand[:1], middle[:1]), rf"seat = '0': {bad_seat}"))
    if not state.refilling:
        add(("refill without sweep", lambda: state.refill(rng), "refill: the middle has not been swept"))
    else:
        add(("sweep while refilling", state.sweep, "sweep" + refilling))
    if any(state.owed) and not state.refilling:
        add(("sweep while a player owes", state.sweep, "sweep: a player is between drop and pick"))

    if rules.swap != "multi_drop_first":
        add(("drop without multi_drop_first", lambda: state.drop(seat, hand[:1]),
             rf"drop: only under swap = 'multi_drop_first' \(here '{rules.swap}'\)"))
        add(("pick with nothing owed", lambda: state.pick(seat, []),
             rf"pick by seat {seat}: nothing is owed"))
        add(("pick of one with nothing owed", lambda: state.pick(seat, [other]),
             rf"pick by seat {seat}: nothing is owed"))
        if rules.swap == "one_for_one":
            exactly_one = "under swap = 'one_for_one' exactly one card goes each way"
            add(("two for two", lambda: state.swap(seat, hand[:2], [other, other]), exactly_one))
            add(("one for none", lambda: state.swap(seat, hand[:1], []), exactly_one))
            add(("same card twice", lambda: state.swap(seat, hand[:1] * 2, [other] * 2), exactly_one))
        else:
            as_many = "must move as many cards each way, at least one"
            add(("two for one", lambda: state.swap(seat, hand[:2], [other]), as_many))
            add(("nothing for nothing", lambda: state.swap(seat, [], []), as_many))
        if state.middle:
            add(("give a card not in the hand", lambda: state.swap(seat, [other], middle[:1]), not_in_hand))
            add(("take a card not in the middle", lambda: state.swap(seat, hand[:1], [other]), not_in_middle))
            if rules.swap == "multi" and len(middle) >= 2:
                add(("give the same card twice", lambda: state.swap(seat, hand[:1] * 2, middle[:2]), twice))
                add(("take the same card twice", lambda: state.swap(seat, hand[:2], middle[:1] * 2), twice))
        return cases

    add(("swap under multi_drop_first", lambda: state.swap(seat, hand[:1], middle[:1]),
         re.escape("swap: under swap = 'multi_drop_first' a swap is drop() then pick()")))
    if owed:
        add(("drop while owing", lambda: state.drop(seat, hand[:1]),
             rf"drop by seat {seat}: it must first pick up the {owed} card\(s\) owed"))
        wrong = rf"must pick exactly the {owed} owed"
        add(("pick one too many", lambda: state.pick(seat, middle[:owed + 1]),
             rf"pick by seat {seat} of {owed + 1} card\(s\): {wrong}"))
        add(("pick one too few", lambda: state.pick(seat, middle[:owed - 1]),
             rf"pick by seat {seat} of {owed - 1} card\(s\): {wrong}"))
        add(("pick a card not in the middle", lambda: state.pick(seat, [other, *middle[:owed - 1]]),
             not_in_middle))
        if owed >= 2:
            add(("pick the same card twice", lambda: state.pick(seat, middle[:1] * owed), twice))
        return cases
    add(("pick with nothing owed", lambda: state.pick(seat, []), rf"pick by seat {seat}: nothing is owed"))
    add(("pick of one with nothing owed", lambda: state.pick(seat, middle[:1] or [other]),
         rf"pick by seat {seat}: nothing is owed"))
    if state.middle:
        add(("drop nothing", lambda: state.drop(seat, []),
             rf"drop by seat {seat}: must put down at least one"))
        add(("drop a card not in the hand", lambda: state.drop(seat, [hand[0], other]), not_in_hand))
        add(("drop the same card twice", lambda: state.drop(seat, hand[:1] * 2), twice))
    return cases


def _assert_illegal_moves_refused(state: TableState, choose: random.Random, rng: np.random.Generator) -> None:
    seat = choose.randrange(state.rules.players)
    before = state.snapshot()
    rng_before = rng.bit_generator.state
    for what, move, message in _illegal_moves(state, seat, rng):
        try:  # pytest.raises is slow enough to matter in this loop
            move()
        except IllegalMove as exc:
            assert re.search(message, str(exc)), f"{what}: message {str(exc)!r} does not match {message!r}"
        else:
            raise AssertionError(f"{what}: no IllegalMove raised")
        assert state.snapshot() == before, f"{what} changed the state"
    assert rng.bit_generator.state == rng_before


@pytest.mark.parametrize(("preset", "players"), CASES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), choose=st.randoms(use_true_random=True), moves=st.integers(1, 20))
def test_illegal_moves_raise_naming_the_fault_and_change_nothing(preset, players, seed, choose, moves):
    state, rng = _deal(preset, players, seed)
    _assert_illegal_moves_refused(state, choose, rng)
    for _ in range(moves):
        playing = _play_one(state, choose, rng)
        _assert_illegal_moves_refused(state, choose, rng)
        if not playing:
            break


# Swaps ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_legal_swap_count_is_16_for_one_for_one_and_69_for_multi(preset):
    state, _ = _deal(preset, 6, seed=3)
    expected = {"one_for_one": 16, "multi": sum(comb(4, k) ** 2 for k in range(1, 5)), "multi_drop_first": 0}
    assert expected["multi"] == 69
    for seat in range(6):
        swaps = state.legal_swaps(seat)
        assert len(swaps) == expected[state.rules.swap]
        assert len({(s.give, s.take) for s in swaps}) == len(swaps)
        for s in swaps:
            assert len(s.give) == len(s.take) >= 1
            assert set(s.give) <= set(state.hands[seat]) and set(s.take) <= set(state.middle)
            assert len(set(s.give)) == len(s.give) and len(set(s.take)) == len(s.take)
        if state.rules.swap == "multi":
            for k in range(1, 5):
                assert sum(len(s.give) == k for s in swaps) == comb(4, k) ** 2


def test_swaps_while_the_middle_is_refilled_use_only_the_cards_laid_so_far():
    for preset in PRESETS:
        state, rng = _deal(preset, 4, seed=1)
        state.sweep()
        assert all(state.legal_swaps(s) == [] for s in range(4))
        assert state.deal_one(rng) is Refill.DEALT and state.refilling and len(state.middle) == 1
        if state.rules.swap == "one_for_one" or state.rules.swap == "multi":
            assert len(state.legal_swaps(0)) == 4
        state.check()


@pytest.mark.parametrize(("i", "j"), [(0, 0), (1, 3), (3, 2), (2, 1)])
def test_one_for_one_given_card_lands_in_the_taken_cards_middle_slot(i, j):
    state, _ = _deal("standard", 4, seed=11)
    hand, middle = list(state.hands[2]), list(state.middle)
    state.swap(2, [hand[i]], [middle[j]])
    assert state.middle == [*middle[:j], hand[i], *middle[j + 1:]]
    assert state.hands[2] == [*hand[:i], middle[j], *hand[i + 1:]]
    state.check()


def test_multi_swap_pairs_given_and_taken_cards_slot_by_slot():
    state, _ = _deal("german", 4, seed=12)
    h, m = list(state.hands[0]), list(state.middle)
    state.swap(0, [h[0], h[2], h[3]], [m[3], m[1], m[0]])
    assert state.middle == [h[3], h[2], m[2], h[0]]
    assert state.hands[0] == [m[3], h[1], m[1], m[0]]
    state.check()


def test_one_for_one_swap_with_two_cards_is_refused_even_if_both_are_present():
    state, _ = _deal("standard", 4, seed=2)
    before = state.snapshot()
    with pytest.raises(IllegalMove, match="exactly one card goes each way"):
        state.swap(0, state.hands[0][:2], state.middle[:2])
    assert state.snapshot() == before


# Drop and pick ----------------------------------------------------------------------------------------------
def test_multi_drop_first_drop_then_pick_with_another_player_taking_a_dropped_card():
    state, _ = _deal("kems", 4, seed=21)
    assert state.legal_swaps(0) == [] and len(state.legal_drops(0)) == 15
    h0, h1, m = list(state.hands[0]), list(state.hands[1]), list(state.middle)

    state.drop(0, h0[1:3])
    assert state.hands[0] == [h0[0], h0[3]] and state.middle == m + h0[1:3]
    assert state.owed == [2, 0, 0, 0]
    assert state.legal_drops(0) == [] and len(state.legal_picks(0)) == comb(6, 2)
    state.check()

    state.drop(1, h1[:1])
    assert state.owed == [2, 1, 0, 0] and len(state.middle) == 7 and len(state.hands[1]) == 3
    state.pick(1, [h0[2]])  # seat 1 takes a card seat 0 put down
    assert state.hands[1] == [*h1[1:], h0[2]] and state.owed == [2, 0, 0, 0]
    assert len(state.middle) == 6
    state.check()

    before = state.snapshot()
    with pytest.raises(IllegalMove, match=re.escape(f"{card_name(h0[2])} not in the middle")):
        state.pick(0, [h0[2], m[0]])
    assert state.snapshot() == before

    state.pick(0, [m[0], h1[0]])
    assert state.hands[0] == [h0[0], h0[3], m[0], h1[0]] and state.owed == [0, 0, 0, 0]
    assert sorted(state.middle) == sorted([m[1], m[2], m[3], h0[1]])
    assert all(len(h) == 4 for h in state.hands)
    state.check()


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_drop_of_k_cards_lengthens_the_middle_and_owes_k(k):
    state, _ = _deal("kems", 6, seed=30 + k)
    hand = list(state.hands[3])
    state.drop(3, hand[:k])
    assert len(state.hands[3]) == 4 - k and len(state.middle) == 4 + k and state.owed[3] == k
    with pytest.raises(IllegalMove, match="sweep: a player is between drop and pick"):
        state.sweep()
    state.pick(3, state.middle[-k:])  # picking the dropped cards back is allowed
    assert sorted(state.hands[3]) == sorted(hand) and state.owed[3] == 0 and len(state.middle) == 4
    state.sweep()
    state.check()


# Sweep and refill -------------------------------------------------------------------------------------------
VOID = [p for p in PRESETS if load_rules(p).pack_exhausted == "void_round"]
RESHUFFLE = [p for p in PRESETS if load_rules(p).pack_exhausted == "reshuffle_discards"]


def test_every_pack_exhausted_knob_is_covered():
    assert VOID and RESHUFFLE and sorted(VOID + RESHUFFLE) == sorted(PRESETS)


def _sweep_and_refill(state: TableState, rng: np.random.Generator) -> Refill:
    state.sweep()
    return state.refill(rng)


@pytest.mark.parametrize("preset", VOID)
@pytest.mark.parametrize("players", [4, 8, 10])
def test_void_round_deals_the_pack_then_reports_exhausted_and_moves_nothing(preset, players):
    state, rng = _deal(preset, players, seed=41)
    refills = len(state.pack) // 4
    assert len(state.pack) == 52 * state.rules.decks - 4 * players - 4
    for i in range(refills):
        top = state.pack[:-5:-1]
        assert _sweep_and_refill(state, rng) is Refill.DEALT
        assert state.middle == top and len(state.pack) == 4 * (refills - 1 - i)
        assert len(state.discard) == 4 * (i + 1)
        state.check()
    assert state.pack_exhausted
    state.sweep()
    before = state.snapshot()
    assert state.refill(rng) is Refill.EXHAUSTED
    assert state.snapshot() == before and state.refilling and state.middle == []
    assert state.refill(rng) is Refill.EXHAUSTED
    assert state.snapshot() == before
    state.check()


@pytest.mark.parametrize("preset", RESHUFFLE)
@pytest.mark.parametrize("players", [4, 8, 10])
def test_reshuffle_discards_turns_the_discards_into_the_pack(preset, players):
    state, rng = _deal(preset, players, seed=42)
    refills = len(state.pack) // 4
    for _ in range(refills):
        assert _sweep_and_refill(state, rng) is Refill.DEALT
        assert len(state.pack) % 4 == 0
    assert state.pack == [] and state.pack_exhausted
    state.sweep()
    old_discard = list(state.discard)
    assert len(old_discard) == 4 * (refills + 1)
    assert state.refill(rng) is Refill.RESHUFFLED
    assert state.discard == [] and not state.refilling
    assert set(state.middle) <= set(old_discard)
    assert sorted(state.middle + state.pack) == sorted(old_discard)
    assert len(state.pack) == len(old_discard) - 4 and len(state.pack) % 4 == 0
    # Shuffled: the dealing order is not the order the cards were swept in.
    assert state.pack + state.middle[::-1] != old_discard
    state.check()
    # The next refills deal from the old discards until they too run out, then reshuffle again.
    for _ in range(len(state.pack) // 4):
        assert _sweep_and_refill(state, rng) is Refill.DEALT
        assert set(state.middle) <= set(old_discard)
        assert len(state.pack) % 4 == 0
        state.check()
    assert _sweep_and_refill(state, rng) is Refill.RESHUFFLED
    state.check()


def test_a_bool_is_not_a_seat():
    # scoring.check_seat refuses bools as seats; the table must too, or swap(True, ...) moves seat 1's cards.
    state, _ = _deal("standard", 4)
    before = state.snapshot()
    with pytest.raises(IllegalMove, match=r"seat = True: must be a seat from 0 to 3"):
        state.swap(True, state.hands[1][:1], state.middle[:1])
    assert state.snapshot() == before


def test_refill_without_sweep_and_sweep_during_refill_are_refused():
    state, rng = _deal("standard", 4)
    before = state.snapshot()
    with pytest.raises(IllegalMove, match="refill: the middle has not been swept"):
        state.refill(rng)
    assert state.snapshot() == before
    state.sweep()
    before = state.snapshot()
    with pytest.raises(IllegalMove, match="sweep: the middle is being refilled"):
        state.sweep()
    assert state.snapshot() == before


# The conservation check -------------------------------------------------------------------------------------
def _dup(s: TableState) -> None:
    s.hands[0][0] = s.hands[1][0]


def _lose(s: TableState) -> None:
    s.pack.pop()


def _foreign(s: TableState) -> None:
    s.pack[0] = 52 * s.rules.decks


def _short_hand(s: TableState) -> None:
    s.pack.append(s.hands[2].pop())


def _long_hand(s: TableState) -> None:
    s.hands[1].append(s.pack.pop())


def _long_middle(s: TableState) -> None:
    s.middle.append(s.pack.pop())


def _false_owed(s: TableState) -> None:
    s.owed[0] = 1


def _extra_seat(s: TableState) -> None:
    s.hands.append([])


def _false_refilling(s: TableState) -> None:
    s.refilling = True
    s.middle_laid = 0


@pytest.mark.parametrize(("corrupt", "message"), [
    (_dup, r"conservation broken: 52 cards placed, 52 in the deck, 1 duplicated"),
    (_lose, r"conservation broken: 51 cards placed"),
    (_foreign, r"conservation broken: 52 cards placed, 52 in the deck, 0 duplicated"),
    (_short_hand, r"seat 2 holds 3 cards and owes 0"),
    (_long_hand, r"seat 1 holds 5 cards and owes 0"),
    (_long_middle, r"middle holds 5 cards, expected 4"),
    (_false_owed, r"seat 0 holds 4 cards and owes 1"),
    (_extra_seat, r"5 hands at a table of 4"),
    (_false_refilling, r"middle holds 4 cards, expected 0"),
])
def test_check_raises_invariant_error_on_a_corrupted_state(corrupt, message):
    state, _ = _deal("standard", 4, seed=7)
    state.check()
    corrupt(state)
    with pytest.raises(InvariantError, match=message):
        state.check()


def test_constructing_a_state_with_a_duplicated_card_raises_invariant_error():
    rules = load_rules("standard", players=4)
    state, _ = _deal("standard", 4)
    hands = [list(h) for h in state.hands]
    hands[3][0] = state.middle[0]
    with pytest.raises(InvariantError, match="1 duplicated"):
        TableState(rules, hands, state.middle, state.pack)
    assert issubclass(InvariantError, AssertionError)


@pytest.mark.parametrize(("give", "take", "message"), [
    ((True,), (2,), r"give = \(True,\): True is not a card id"),  # True == 1, and card 1 is in the hand
    ((1.0,), (2,), r"give = \(1.0,\): 1.0 is not a card id"),
    ((1,), (np.int64(2),), r"take = .*: .*2\)? is not a card id"),  # a numpy integer is no card id here
    ((1, 1), (2, 6), r"give = .*: names a card twice"),
    ((1,), (3,), r"take = .*: .* not in the middle"),
])
def test_a_swap_naming_something_else_than_a_card_it_may_move_is_refused(give, take, message):
    """The legality check answers a legal swap at once and words a refusal only when there is one; a card named by
    something equal to its id but not an id, twice, or out of its place is refused all the same."""
    rules = load_rules("german")  # any number of cards each way
    hand, middle = (1, 5, 9, 13), (2, 6, 10, 14)
    assert swap_problem(rules, 0, hand, middle, 0, (1,), (2,)) is None
    assert swap_problem(rules, 0, hand, middle, 0, (1, 5), (2, 6)) is None
    assert re.search(message, swap_problem(rules, 0, hand, middle, 0, give, take) or "")
