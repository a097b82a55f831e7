"""Every row of the scoring tables, for letters and for points, at 4 and at 6 players, plus the knobs around them.

Expected values are written out by hand from the rules. Seats: at 4 players pair 0 is seats 0/2 and pair 1 is
1/3; at 6 players pair 0 is 0/3, pair 1 is 1/4 and pair 2 is 2/5; at 8 players pair p is seats p and p + 4.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from kemps_sim.cards import is_four_of_a_kind
from kemps_sim.errors import IllegalMove
from kemps_sim.presets import load_rules
from kemps_sim.rules import Rules
from kemps_sim.scoring import (
    Call,
    CallKind,
    Outcome,
    ScoreDelta,
    Standings,
    allowed_stop_targets,
    check_call,
    judge,
    letters_text,
    match_over,
    min_ranks,
    ranking,
    resolve_call,
    score,
    winners,
)

KEMPS, STOP, DOUBLE = CallKind.KEMPS, CallKind.STOP_KEMPS, CallKind.DOUBLE_KEMPS


def deal(players: int, quads: Iterable[int] = ()) -> list[list[int]]:
    """Hands of distinct cards from one deck: the seats in ``quads`` get four of a kind, the rest mixed hands."""
    quads = list(quads)
    hands: list[list[int] | None] = [None] * players
    for rank, seat in enumerate(quads):
        hands[seat] = [rank * 4 + suit for suit in range(4)]
    free_ranks = range(len(quads), 13)
    leftover = iter([rank * 4 + suit for suit in range(4) for rank in free_ranks])  # suit by suit
    for seat in range(players):
        if hands[seat] is None:
            hands[seat] = [next(leftover) for _ in range(4)]
    dealt: list[list[int]] = [h for h in hands if h is not None]
    ids = [c for h in dealt for c in h]
    assert len(set(ids)) == len(ids) == 4 * players
    assert [s for s in range(players) if is_four_of_a_kind(dealt[s])] == sorted(quads)
    return dealt


def letters_rules(players: int, **knobs: Any) -> Rules:
    return load_rules("standard", players=players, **knobs)


def points_rules(players: int, **knobs: Any) -> Rules:
    return load_rules("standard", players=players, scoring="points", **knobs)


# The scoring tables ----------------------------------------------------------------------------------------
# Seats per table size: caller C (pair cp), partner P, accused A (another pair), accused's partner Q.
SEATS = {4: {"C": 0, "P": 2, "A": 1, "Q": 3}, 6: {"C": 1, "P": 4, "A": 5, "Q": 2}}
# At 6 players the caller is in pair 1 and the accused in pair 2; pair 0 is a bystander.

ROWS = {
    # row: (kind, who holds four of a kind, double_kemps on?, outcome,
    #       letters {4: .., 6: ..}, points {4: .., 6: ..}, rounds won {4: .., 6: ..})
    # A round is won by the caller's pair on a right call and by every pair but the caller's on a wrong one.
    "kemps_right": (KEMPS, "P", False, Outcome.KEMPS_RIGHT,
                    {4: (0, 1), 6: (1, 0, 1)}, {4: (1, 0), 6: (0, 1, 0)}, {4: (1, 0), 6: (0, 1, 0)}),
    "kemps_wrong": (KEMPS, "", False, Outcome.KEMPS_WRONG,
                    {4: (1, 0), 6: (0, 1, 0)}, {4: (0, 1), 6: (1, 0, 1)}, {4: (0, 1), 6: (1, 0, 1)}),
    "stop_right": (STOP, "A", False, Outcome.STOP_RIGHT,
                   {4: (0, 1), 6: (0, 0, 1)}, {4: (1, 0), 6: (0, 1, 0)}, {4: (1, 0), 6: (0, 1, 0)}),
    "stop_wrong": (STOP, "", False, Outcome.STOP_WRONG,
                   {4: (1, 0), 6: (0, 1, 0)}, {4: (0, 1), 6: (0, 0, 1)}, {4: (0, 1), 6: (1, 0, 1)}),
    "stop_against_double_ineffective": (STOP, "AQ", True, Outcome.STOP_INEFFECTIVE,
                                        {4: (1, 0), 6: (0, 1, 0)}, {4: (0, 1), 6: (0, 0, 1)},
                                        {4: (0, 1), 6: (1, 0, 1)}),
    "double_right": (DOUBLE, "CP", True, Outcome.DOUBLE_RIGHT,
                     {4: (0, 2), 6: (2, 0, 2)}, {4: (2, 0), 6: (0, 2, 0)}, {4: (1, 0), 6: (0, 1, 0)}),
    "double_wrong": (DOUBLE, "C", True, Outcome.DOUBLE_WRONG,
                     {4: (2, 0), 6: (0, 2, 0)}, {4: (0, 2), 6: (2, 0, 2)}, {4: (0, 1), 6: (1, 0, 1)}),
}


def _row_call(kind: CallKind, seats: dict[str, int]) -> Call:
    return Call(kind, seats["C"], seats["A"] if kind == STOP else None)


@pytest.mark.parametrize("players", [4, 6], ids=["4p", "6p"])
@pytest.mark.parametrize("scoring", ["letters", "points"])
@pytest.mark.parametrize("row", list(ROWS))
def test_scoring_table_row(row: str, scoring: str, players: int) -> None:
    kind, holders, double, outcome, letters, points, rounds = ROWS[row]
    seats = SEATS[players]
    make = letters_rules if scoring == "letters" else points_rules
    rules = make(players, double_kemps=double)
    hands = deal(players, [seats[h] for h in holders])

    verdict = judge(rules, _row_call(kind, seats), hands)

    zeros = (0,) * (players // 2)
    assert verdict.outcome == outcome
    assert verdict.right == row.endswith("_right")
    assert verdict.ends_round  # every preset used here ends the round on any call
    expected_letters = letters[players] if scoring == "letters" else zeros
    expected_points = points[players] if scoring == "points" else zeros
    assert verdict.delta == ScoreDelta(expected_letters, expected_points, rounds[players])
    assert score(rules, verdict.call, outcome) == verdict.delta


@pytest.mark.parametrize("outcome", [Outcome.VOID_PACK_EXHAUSTED, Outcome.TIMEOUT])
@pytest.mark.parametrize("scoring", ["letters", "points", "rounds_won"])
def test_round_without_a_call_scores_nothing(outcome: Outcome, scoring: str) -> None:
    rules = load_rules("standard", players=6, scoring=scoring)
    assert score(rules, Call(KEMPS, 0), outcome) == ScoreDelta((0, 0, 0), (0, 0, 0), (0, 0, 0))
    standings = Standings.start(rules).finish_round(decided=False)
    assert standings.rounds_played == 0


# What is revealed ------------------------------------------------------------------------------------------
def test_kemps_reveals_the_partner_and_double_reveals_both() -> None:
    rules = letters_rules(6, double_kemps=True)
    assert judge(rules, Call(KEMPS, 1), deal(6, [4])).revealed == (4,)
    assert judge(rules, Call(DOUBLE, 4), deal(6, [1, 4])).revealed == (1, 4)
    assert judge(rules, Call(KEMPS, 1), deal(6, [4])).shown_to_caller is None


@pytest.mark.parametrize("players, caller, accused, accused_partner", [(4, 0, 1, 3), (6, 1, 5, 2)])
def test_stop_on_player_whose_partner_holds_it_accused_pair_right_accused_player_wrong(
        players: int, caller: int, accused: int, accused_partner: int) -> None:
    hands = deal(players, [accused_partner])
    call = Call(STOP, caller, accused)

    pair_verdict = judge(letters_rules(players, stop_kemps_reveals="accused_pair"), call, hands)
    assert pair_verdict.outcome == Outcome.STOP_RIGHT
    assert pair_verdict.revealed == tuple(sorted((accused, accused_partner)))

    player_verdict = judge(letters_rules(players, stop_kemps_reveals="accused_player"), call, hands)
    assert player_verdict.outcome == Outcome.STOP_WRONG
    assert player_verdict.revealed == (accused,)


def test_stop_against_double_is_ineffective_under_accused_player_too_but_right_without_double_kemps() -> None:
    hands = deal(4, [1, 3])
    call = Call(STOP, 0, 1)
    assert judge(letters_rules(4, double_kemps=True), call, hands).outcome == Outcome.STOP_INEFFECTIVE
    assert judge(letters_rules(4, double_kemps=True, stop_kemps_reveals="accused_pair"), call,
                 hands).outcome == Outcome.STOP_INEFFECTIVE
    plain = judge(letters_rules(4), call, hands)
    assert plain.outcome == Outcome.STOP_RIGHT
    assert plain.delta.letters == (0, 1)


# right_kemps_penalises and wrong_kemps_points ---------------------------------------------------------------
@pytest.mark.parametrize("knob, kemps_letters, double_letters", [
    ("all_other_pairs", (0, 1, 1), (0, 2, 2)),
    ("nobody", (0, 0, 0), (0, 0, 0)),
])
def test_right_kemps_penalises_at_6_players(knob: str, kemps_letters: tuple, double_letters: tuple) -> None:
    rules = letters_rules(6, right_kemps_penalises=knob, double_kemps=True)
    assert judge(rules, Call(KEMPS, 0), deal(6, [3])).delta.letters == kemps_letters
    assert judge(rules, Call(DOUBLE, 0), deal(6, [0, 3])).delta.letters == double_letters


@pytest.mark.parametrize("knob", ["all_other_pairs", "nobody"])
def test_right_kemps_at_4_players_always_gives_the_other_pair_a_letter(knob: str) -> None:
    rules = letters_rules(4, right_kemps_penalises=knob, double_kemps=True)
    assert judge(rules, Call(KEMPS, 0), deal(4, [2])).delta.letters == (0, 1)
    assert judge(rules, Call(DOUBLE, 0), deal(4, [0, 2])).delta.letters == (0, 2)


@pytest.mark.parametrize("knob, kemps_points, double_points", [
    ("other_pairs", (0, 1, 1), (0, 2, 2)),
    ("nobody", (0, 0, 0), (0, 0, 0)),
])
def test_wrong_kemps_points_at_6_players(knob: str, kemps_points: tuple, double_points: tuple) -> None:
    rules = points_rules(6, wrong_kemps_points=knob, double_kemps=True)
    assert judge(rules, Call(KEMPS, 0), deal(6)).delta.points == kemps_points
    assert judge(rules, Call(DOUBLE, 0), deal(6, [0])).delta.points == double_points


# Play goes on (kems: points, wrong_call_ends_round off, 003's wrong-stop penalty) ------------------------------
KEMS = load_rules("kems")


def test_kems_wrong_stop_play_goes_on_caller_barred_only_caller_sees_accused() -> None:
    verdict = judge(KEMS, Call(STOP, 0, 1), deal(4))
    assert verdict.outcome == Outcome.STOP_WRONG
    assert not verdict.ends_round
    assert verdict.barred == 0
    assert verdict.revealed == ()
    assert verdict.shown_to_caller == 1
    assert verdict.delta == ScoreDelta((0, 0), (0, 1), (0, 0))  # no round is won while play goes on


def test_kems_stop_against_double_like_a_wrong_stop_play_goes_on_caller_barred() -> None:
    rules = load_rules("kems", stop_against_double="like_wrong_stop")
    verdict = judge(rules, Call(STOP, 2, 3), deal(4, [1, 3]))
    assert verdict.outcome == Outcome.STOP_INEFFECTIVE
    assert not verdict.ends_round
    assert verdict.barred == 2
    assert verdict.shown_to_caller == 3
    assert verdict.revealed == ()
    assert verdict.delta == ScoreDelta((0, 0), (0, 1), (0, 0))


def test_kems_stop_against_double_plays_on_with_nobody_barred_and_nothing_shown() -> None:
    # The kems preset reads 003's case 5 as play_on: +1 to the accused pair, and nothing else happens.
    assert KEMS.stop_against_double == "play_on"
    verdict = judge(KEMS, Call(STOP, 2, 3), deal(4, [1, 3]))
    assert verdict.outcome == Outcome.STOP_INEFFECTIVE
    assert not verdict.right
    assert not verdict.ends_round
    assert verdict.barred is None
    assert verdict.shown_to_caller is None
    assert verdict.revealed == ()
    assert verdict.delta == ScoreDelta((0, 0), (0, 1), (0, 0))


def test_kems_stop_against_double_ending_the_round_shows_the_accused_pair() -> None:
    rules = load_rules("kems", stop_against_double="ends_round")
    verdict = judge(rules, Call(STOP, 2, 3), deal(4, [1, 3]))
    assert verdict.outcome == Outcome.STOP_INEFFECTIVE
    assert verdict.ends_round
    assert verdict.barred is None
    assert verdict.shown_to_caller is None
    assert verdict.revealed == (1, 3)  # kems shows the accused pair
    assert verdict.delta == ScoreDelta((0, 0), (0, 1), (0, 1))  # the round ends: a round won for the other side


# At 6 players the caller (seat 1) is in pair 1 and the accused (seat 5) in pair 2, which holds a Double (5 and 2).
@pytest.mark.parametrize("value, ends, revealed, letters, rounds_won", [
    ("like_wrong_stop", True, (5,), (0, 1, 0), (1, 0, 1)),
    ("play_on", False, (), (0, 1, 0), (0, 0, 0)),
    ("ends_round", True, (5,), (0, 1, 0), (1, 0, 1)),
])
def test_stop_against_double_under_letters_at_6_players(value: str, ends: bool, revealed: tuple[int, ...],
                                                        letters: tuple[int, ...], rounds_won: tuple[int, ...]) -> None:
    rules = letters_rules(6, double_kemps=True, stop_against_double=value)
    verdict = judge(rules, Call(STOP, 1, 5), deal(6, [2, 5]))
    assert verdict.outcome == Outcome.STOP_INEFFECTIVE
    assert (verdict.ends_round, verdict.revealed, verdict.barred, verdict.shown_to_caller) == (
        ends, revealed, None, None)
    assert verdict.delta == ScoreDelta(letters, (0, 0, 0), rounds_won)


@pytest.mark.parametrize("value, ends", [("like_wrong_stop", False), ("play_on", False), ("ends_round", True)])
def test_stop_against_double_leaves_a_plain_wrong_stop_alone(value: str, ends: bool) -> None:
    # The knob speaks only when the accused pair holds a Double; a plain wrong stop keeps 003's penalty.
    rules = load_rules("kems", stop_against_double=value)
    wrong = judge(rules, Call(STOP, 2, 3), deal(4))
    assert wrong.outcome == Outcome.STOP_WRONG
    assert (wrong.ends_round, wrong.barred, wrong.shown_to_caller) == (False, 2, 3)
    assert judge(rules, Call(STOP, 2, 3), deal(4, [1, 3])).ends_round == ends


# rounds_won with 3-4 pairs ----------------------------------------------------------------------------------------
def rounds_rules(players: int, **knobs: Any) -> Rules:
    return load_rules("standard", players=players, scoring="rounds_won", **knobs)


@pytest.mark.parametrize("players, call, quads, outcome, rounds_won", [
    # 6 players: pair p is seats p and p + 3; the caller is seat 1 (pair 1), the accused seat 5 (pair 2).
    (6, Call(STOP, 1, 5), [], Outcome.STOP_WRONG, (1, 0, 1)),
    (6, Call(STOP, 1, 5), [5], Outcome.STOP_RIGHT, (0, 1, 0)),
    (6, Call(KEMPS, 1), [], Outcome.KEMPS_WRONG, (1, 0, 1)),
    (6, Call(KEMPS, 1), [4], Outcome.KEMPS_RIGHT, (0, 1, 0)),
    # 8 players: pair p is seats p and p + 4; the caller is seat 2 (pair 2), the accused seat 7 (pair 3).
    (8, Call(STOP, 2, 7), [], Outcome.STOP_WRONG, (1, 1, 0, 1)),
    (8, Call(STOP, 2, 7), [7], Outcome.STOP_RIGHT, (0, 0, 1, 0)),
    (8, Call(KEMPS, 2), [], Outcome.KEMPS_WRONG, (1, 1, 0, 1)),
    (8, Call(KEMPS, 2), [6], Outcome.KEMPS_RIGHT, (0, 0, 1, 0)),
    (8, Call(DOUBLE, 2), [2], Outcome.DOUBLE_WRONG, (1, 1, 0, 1)),
], ids=["6p-stop-wrong", "6p-stop-right", "6p-kemps-wrong", "6p-kemps-right",
        "8p-stop-wrong", "8p-stop-right", "8p-kemps-wrong", "8p-kemps-right", "8p-double-wrong"])
def test_rounds_won_go_to_every_pair_but_a_wrong_caller(players: int, call: Call, quads: list[int],
                                                         outcome: Outcome, rounds_won: tuple[int, ...]) -> None:
    rules = rounds_rules(players, double_kemps=True)
    verdict = judge(rules, call, deal(players, quads))
    zeros = (0,) * (players // 2)
    assert verdict.outcome == outcome
    assert verdict.ends_round
    assert verdict.delta == ScoreDelta(zeros, zeros, rounds_won)


def test_rounds_won_stop_against_double_at_8_players_follows_the_knob() -> None:
    # The accused pair 3 (seats 3 and 7) holds a Double; the caller is seat 2 (pair 2).
    hands = deal(8, [3, 7])
    ends = judge(rounds_rules(8, double_kemps=True, stop_against_double="ends_round"), Call(STOP, 2, 7), hands)
    assert ends.outcome == Outcome.STOP_INEFFECTIVE and ends.delta.rounds_won == (1, 1, 0, 1)
    like = judge(rounds_rules(8, double_kemps=True), Call(STOP, 2, 7), hands)
    assert like.ends_round and like.delta.rounds_won == (1, 1, 0, 1)
    on = judge(rounds_rules(8, double_kemps=True, stop_against_double="play_on"), Call(STOP, 2, 7), hands)
    assert not on.ends_round and on.delta.rounds_won == (0, 0, 0, 0)


def test_rounds_won_match_at_6_players_counts_a_wrong_stop_for_both_other_pairs() -> None:
    rules = load_rules("peanut_butter", players=6, rounds_to_play=3)
    standings = Standings.start(rules)
    _, standings = resolve_call(rules, Call(STOP, 0, 1), deal(6), standings)  # wrong: pairs 1 and 2 win
    standings = standings.finish_round(decided=True)
    _, standings = resolve_call(rules, Call(KEMPS, 2), deal(6, [5]), standings)  # right: pair 2 wins
    standings = standings.finish_round(decided=True)
    assert (standings.rounds_won, standings.rounds_played) == ((0, 1, 2), 2)
    assert not match_over(rules, standings)
    assert ranking(rules, standings) == (3, 2, 1)


def test_kems_wrong_kemps_play_goes_on_nobody_barred() -> None:
    verdict = judge(KEMS, Call(KEMPS, 1), deal(4))
    assert verdict.outcome == Outcome.KEMPS_WRONG
    assert not verdict.ends_round
    assert verdict.barred is None
    assert verdict.revealed == (3,)
    assert verdict.delta == ScoreDelta((0, 0), (1, 0), (0, 0))


@pytest.mark.parametrize("call, quads, outcome, revealed, points", [
    (Call(KEMPS, 0), [2], Outcome.KEMPS_RIGHT, (2,), (1, 0)),
    (Call(STOP, 0, 1), [3], Outcome.STOP_RIGHT, (1, 3), (1, 0)),
    (Call(DOUBLE, 1), [1, 3], Outcome.DOUBLE_RIGHT, (1, 3), (0, 2)),
], ids=["kemps_right", "stop_right", "double_right"])
def test_kems_right_call_ends_round(call: Call, quads: list[int], outcome: Outcome,
                                    revealed: tuple[int, ...], points: tuple[int, int]) -> None:
    verdict = judge(KEMS, call, deal(4, quads))
    assert verdict.outcome == outcome
    assert verdict.ends_round
    assert verdict.barred is None
    assert verdict.shown_to_caller is None
    assert verdict.revealed == revealed
    assert verdict.delta.points == points


def test_right_call_always_ends_round_when_wrong_calls_do_not() -> None:
    rules = letters_rules(6, wrong_call_ends_round=False, wrong_stop_penalty_003=False)
    assert judge(rules, Call(KEMPS, 0), deal(6, [3])).ends_round
    assert judge(rules, Call(STOP, 0, 1), deal(6, [1])).ends_round
    wrong = judge(rules, Call(STOP, 0, 1), deal(6))
    assert not wrong.ends_round
    assert wrong.barred is None  # without 003's penalty nobody is barred
    assert wrong.revealed == (1,)
    assert wrong.shown_to_caller is None
    assert wrong.delta.letters == (1, 0, 0)


def test_points_match_can_end_mid_round_when_play_goes_on() -> None:
    before = Standings(letters=(0, 0), points=(9, 9), rounds_won=(0, 0), rounds_played=3)
    verdict, after = resolve_call(KEMS, Call(STOP, 0, 1), deal(4), before)
    assert not verdict.ends_round
    assert after.points == (9, 10)
    assert match_over(KEMS, after)
    assert winners(KEMS, after) == (1,)


# Match end and ranking --------------------------------------------------------------------------------------
def test_points_match_ends_when_target_reached() -> None:
    rules = points_rules(4, target_points=3)
    standings = Standings.start(rules)
    for expected in ((1, 0), (2, 0)):
        _, standings = resolve_call(rules, Call(KEMPS, 0), deal(4, [2]), standings)
        standings = standings.finish_round(decided=True)
        assert standings.points == expected
        assert not match_over(rules, standings)
    _, standings = resolve_call(rules, Call(STOP, 1, 0), deal(4), standings)  # wrong stop: point to pair 0
    assert standings.points == (3, 0)
    assert match_over(rules, standings)
    assert ranking(rules, standings) == (1, 2)


def test_points_match_ends_when_target_passed() -> None:
    rules = points_rules(4, double_kemps=True)
    standings = Standings(letters=(0, 0), points=(9, 4), rounds_won=(0, 0), rounds_played=12)
    assert not match_over(rules, standings)
    _, standings = resolve_call(rules, Call(DOUBLE, 2), deal(4, [0, 2]), standings)
    assert standings.points == (11, 4)
    assert match_over(rules, standings)


def test_rounds_won_match_ends_after_rounds_to_play_decided_rounds() -> None:
    rules = load_rules("peanut_butter", players=4, rounds_to_play=3)
    standings = Standings.start(rules)
    _, standings = resolve_call(rules, Call(KEMPS, 0), deal(4, [2]), standings)  # right: pair 0 wins
    standings = standings.finish_round(decided=True)
    assert (standings.rounds_won, standings.rounds_played) == ((1, 0), 1)
    standings = standings.finish_round(decided=False)  # a void round is not counted
    assert standings.rounds_played == 1
    _, standings = resolve_call(rules, Call(KEMPS, 1), deal(4, [3]), standings)  # right: pair 1 wins
    standings = standings.finish_round(decided=True)
    assert (standings.rounds_won, standings.rounds_played) == ((1, 1), 2)
    assert not match_over(rules, standings)
    _, standings = resolve_call(rules, Call(STOP, 0, 3), deal(4), standings)  # wrong: the other pair 1 wins
    standings = standings.finish_round(decided=True)
    assert (standings.rounds_won, standings.rounds_played) == ((1, 2), 3)
    assert standings.letters == (0, 0) and standings.points == (0, 0)
    assert match_over(rules, standings)
    assert ranking(rules, standings) == (2, 1)
    assert winners(rules, standings) == (1,)


@pytest.mark.parametrize("scoring, knobs, field, values, over, ranks", [
    ("letters", {}, "letters", (5, 2, 2), True, (3, 1, 1)),
    ("letters", {}, "letters", (4, 4, 1), False, (2, 2, 1)),
    ("letters", {}, "letters", (3, 5, 0, 3), True, (2, 4, 1, 2)),
    ("points", {}, "points", (10, 10, 4), True, (1, 1, 3)),
    ("points", {}, "points", (7, 12, 12, 0), True, (3, 1, 1, 4)),
    ("points", {}, "points", (9, 0, 9), False, (1, 3, 1)),
    ("rounds_won", {"rounds_to_play": 5}, "rounds_won", (2, 2, 1), True, (1, 1, 3)),
], ids=["letters-6p-tie-for-first", "letters-6p-not-over", "letters-8p", "points-6p-tie",
        "points-8p-tie", "points-6p-not-over", "rounds_won-6p-tie"])
def test_match_end_and_ranking_with_ties(scoring: str, knobs: dict, field: str, values: tuple,
                                         over: bool, ranks: tuple) -> None:
    rules = load_rules("standard", players=2 * len(values), scoring=scoring, **knobs)
    zeros = (0,) * len(values)
    standings = Standings(**{"letters": zeros, "points": zeros, "rounds_won": zeros, field: values},
                          rounds_played=5)
    assert match_over(rules, standings) == over
    assert ranking(rules, standings) == ranks
    assert winners(rules, standings) == tuple(p for p, r in enumerate(ranks) if r == 1)


def test_min_ranks_equal_scipy_rankdata_min_on_random_keys_with_ties() -> None:
    """The counted ranks are exactly SciPy's ``rankdata(method="min")``: ties, negative keys, one key, many."""
    import numpy as np
    from scipy.stats import rankdata

    rng = np.random.default_rng(14)
    for _ in range(2000):
        size = int(rng.integers(1, 13))
        spread = int(rng.integers(1, 8))  # a narrow spread forces ties, a wide one makes them rare
        keys = [int(k) for k in rng.integers(-spread, spread + 1, size=size)]
        assert min_ranks(keys) == tuple(int(r) for r in rankdata(keys, method="min")), keys
    assert min_ranks([]) == ()


# Standings and letters ------------------------------------------------------------------------------------
def test_standings_apply_returns_a_new_object_and_keeps_the_old() -> None:
    rules = letters_rules(6)
    start = Standings.start(rules)
    assert start == Standings((0, 0, 0), (0, 0, 0), (0, 0, 0), 0)
    after = start.apply(ScoreDelta((1, 0, 2), (0, 0, 0), (0, 1, 0)))
    assert after == Standings((1, 0, 2), (0, 0, 0), (0, 1, 0), 0)
    assert start.letters == (0, 0, 0)
    assert after.finish_round(decided=True).rounds_played == 1
    with pytest.raises(FrozenInstanceError):
        start.letters = (1, 1, 1)  # type: ignore[misc]


@pytest.mark.parametrize("count, text", [(0, ""), (1, "K"), (2, "K-E"), (3, "K-E-M"), (4, "K-E-M-P"),
                                         (5, "K-E-M-P-S"), (7, "K-E-M-P-S")])
def test_letters_text(count: int, text: str) -> None:
    assert letters_text(count) == text


# Stop Kemps targets and refused calls -----------------------------------------------------------------------
@pytest.mark.parametrize("players, targets, caller, expected", [
    (4, "any_pair", 0, (1, 3)),
    (4, "adjacent_pairs", 0, (1, 3)),
    (6, "any_pair", 0, (1, 2, 4, 5)),
    (6, "adjacent_pairs", 0, (1, 2, 4, 5)),
    (8, "any_pair", 0, (1, 2, 3, 5, 6, 7)),
    (8, "adjacent_pairs", 0, (1, 3, 5, 7)),
    (8, "adjacent_pairs", 5, (0, 2, 4, 6)),
])
def test_allowed_stop_targets(players: int, targets: str, caller: int, expected: tuple[int, ...]) -> None:
    assert allowed_stop_targets(letters_rules(players, stop_kemps_targets=targets), caller) == expected


@pytest.mark.parametrize("rules, call, words", [
    (letters_rules(4), Call(STOP, 0, 2), ["call.accused = 2", "own pair", "1, 3"]),
    (letters_rules(4), Call(STOP, 1, 1), ["call.accused = 1", "own pair"]),
    (letters_rules(4), Call(STOP, 0), ["call.accused = None", "must name", "1, 3"]),
    (letters_rules(4), Call(STOP, 0, 4), ["call.accused = 4", "0 to 3"]),
    (letters_rules(4), Call(DOUBLE, 0), ["call.kind = 'double_kemps'", "rules.double_kemps = false",
                                         "kemps, stop_kemps"]),
    (letters_rules(8, stop_kemps_targets="adjacent_pairs"), Call(STOP, 0, 2),
     ["call.accused = 2", "adjacent_pairs", "1, 3, 5, 7"]),
    (letters_rules(8, stop_kemps_targets="adjacent_pairs"), Call(STOP, 0, 6), ["call.accused = 6"]),
    (letters_rules(4), Call(KEMPS, 4), ["call.caller = 4", "0 to 3"]),
    (letters_rules(6), Call(KEMPS, -1), ["call.caller = -1", "0 to 5"]),
    (letters_rules(4), Call(KEMPS, 0, 1), ["call.accused = 1", "only a Stop Kemps"]),
    (letters_rules(4, double_kemps=True), Call(DOUBLE, 0, 1), ["call.accused = 1", "only a Stop Kemps"]),
    (letters_rules(4), Call(STOP, 0, True), ["call.accused = True", "0 to 3"]),  # equal to seat 1, yet no seat
    (letters_rules(4), Call(STOP, 0, 1.0), ["call.accused = 1.0", "0 to 3"]),
], ids=["accusing-own-pair", "accusing-self", "stop-without-accused", "accused-out-of-range",
        "double-when-off", "adjacent-8p-opposite-pair", "adjacent-8p-opposite-partner",
        "caller-out-of-range", "caller-negative", "accused-on-kemps", "accused-on-double", "accused-a-bool",
        "accused-a-float"])
def test_bad_call_refused(rules: Rules, call: Call, words: list[str]) -> None:
    with pytest.raises(IllegalMove) as refused:
        check_call(rules, call)
    message = str(refused.value)
    assert "\n" not in message
    for word in words:
        assert word in message
    with pytest.raises(IllegalMove):
        judge(rules, call, deal(rules.players))
    with pytest.raises(IllegalMove):
        resolve_call(rules, call, deal(rules.players), Standings.start(rules))


def test_adjacent_pairs_allows_neighbours_pairs_at_8_players() -> None:
    rules = letters_rules(8, stop_kemps_targets="adjacent_pairs")
    for accused in (1, 3, 5, 7):
        check_call(rules, Call(STOP, 0, accused))  # no error


def test_judge_wants_one_hand_per_seat() -> None:
    with pytest.raises(ValueError, match="hands"):
        judge(letters_rules(6), Call(KEMPS, 0), deal(4))
