"""Seed 004's worked game, replayed call by call through the scoring code at 4 players (standard preset).

Alice is seat 0, Ben seat 1, Cara seat 2, Dev seat 3: Alice and Cara are pair 0, Ben and Dev pair 1. Every round
deals four hands of distinct cards from one deck; the expected standings are written out from the rules by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kemps_sim.cards import cards
from kemps_sim.presets import load_rules
from kemps_sim.scoring import (
    Call,
    CallKind,
    Outcome,
    Standings,
    letters_text,
    match_over,
    ranking,
    resolve_call,
    winners,
)

ALICE, BEN, CARA, DEV = 0, 1, 2, 3
RULES = load_rules("standard", players=4)


@dataclass(frozen=True)
class Round:
    story: str
    hands: tuple[str, str, str, str]  # Alice, Ben, Cara, Dev
    call: Call
    outcome: Outcome
    revealed: tuple[int, ...]
    letters: tuple[int, int]  # (Alice/Cara, Ben/Dev) after the round
    texts: tuple[str, str]
    rounds_won: tuple[int, int]  # recorded as a statistic under letters too


ROUNDS = (
    Round("1: Cara has four sevens, Alice calls Kemps (right)",
          ("2C 5D 9H KS", "3C 3D JH AS", "7C 7D 7H 7S", "4C 8D QH 10S"),
          Call(CallKind.KEMPS, ALICE), Outcome.KEMPS_RIGHT, (CARA,), (0, 1), ("", "K"), (1, 0)),
    Round("2: Ben calls Kemps on Dev, who has three nines (wrong)",
          ("3C 6D JH AS", "KC KD 5H 8S", "4C 7D QH 10S", "9C 9D 9H 2S"),
          Call(CallKind.KEMPS, BEN), Outcome.KEMPS_WRONG, (DEV,), (0, 2), ("", "K-E"), (2, 0)),
    Round("3: Alice holds four queens, Dev calls Stop Kemps on Alice (right)",
          ("QC QD QH QS", "2C 6D 9H KS", "3C 3H 8D 8S", "5C 7D JH AS"),
          Call(CallKind.STOP_KEMPS, DEV, ALICE), Outcome.STOP_RIGHT, (ALICE,), (1, 2), ("K", "K-E"), (2, 1)),
    Round("4: Alice calls Stop Kemps on Ben, nobody has four of a kind (wrong)",
          ("2C 2D 2H 9S", "KC KD KH 4S", "5C 5D 8H JS", "6C 6D 10H AS"),
          Call(CallKind.STOP_KEMPS, ALICE, BEN), Outcome.STOP_WRONG, (BEN,), (2, 2), ("K-E", "K-E"), (2, 2)),
    Round("5: Ben has four kings, Dev calls Kemps (right)",
          ("2C 4D 6H 8S", "KC KD KH KS", "3C 5D 7H 9S", "10C JD QH AS"),
          Call(CallKind.KEMPS, DEV), Outcome.KEMPS_RIGHT, (BEN,), (3, 2), ("K-E-M", "K-E"), (2, 3)),
    Round("6: Alice has four twos, Cara calls Kemps (right)",
          ("2C 2D 2H 2S", "3C 4D 5H 6S", "7C 8D 9H 10S", "JC QD KH AS"),
          Call(CallKind.KEMPS, CARA), Outcome.KEMPS_RIGHT, (ALICE,), (3, 3), ("K-E-M", "K-E-M"), (3, 3)),
    Round("7: Alice has four aces, Cara calls Kemps (right)",
          ("AC AD AH AS", "2C 5D 8H JS", "3C 6D 9H QS", "4C 7D 10H KS"),
          Call(CallKind.KEMPS, CARA), Outcome.KEMPS_RIGHT, (ALICE,), (3, 4), ("K-E-M", "K-E-M-P"), (4, 3)),
    Round("8: Ben calls Kemps on Dev, who has three jacks (wrong)",
          ("2C 6D 10H AS", "3C 7D QH KS", "5C 8D 9H 2S", "JC JD JH 4S"),
          Call(CallKind.KEMPS, BEN), Outcome.KEMPS_WRONG, (DEV,), (3, 5), ("K-E-M", "K-E-M-P-S"), (5, 3)),
)


def _deal(hands: tuple[str, str, str, str]) -> list[list[int]]:
    """Parse one round's hands and make sure they could come from a single shuffled deck."""
    dealt = [cards(h) for h in hands]
    ids = [c for h in dealt for c in h]
    assert all(len(h) == 4 for h in dealt)
    assert len(set(ids)) == len(ids) == 16, "a card was dealt twice"
    assert all(0 <= c < 52 for c in ids)
    return dealt


def _replay(upto: int) -> Standings:
    """Play rounds 1..upto, closing each decided round, and return the standings."""
    standings = Standings.start(RULES)
    for rnd in ROUNDS[:upto]:
        verdict, standings = resolve_call(RULES, rnd.call, _deal(rnd.hands), standings)
        assert verdict.ends_round
        standings = standings.finish_round(decided=True)
    return standings


@pytest.mark.parametrize("number", range(1, 9), ids=[r.story.split(":")[0] for r in ROUNDS])
def test_worked_game_standings_after_round(number: int) -> None:
    rnd = ROUNDS[number - 1]
    before = _replay(number - 1)
    assert not match_over(RULES, before), f"match over before round {number}"

    verdict, after = resolve_call(RULES, rnd.call, _deal(rnd.hands), before)
    after = after.finish_round(decided=True)

    assert verdict.outcome == rnd.outcome, rnd.story
    assert verdict.right == (rnd.outcome in (Outcome.KEMPS_RIGHT, Outcome.STOP_RIGHT))
    assert verdict.revealed == rnd.revealed
    assert verdict.ends_round
    assert after.letters == rnd.letters, rnd.story
    assert (letters_text(after.letters[0]), letters_text(after.letters[1])) == rnd.texts
    assert after.points == (0, 0)
    assert after.rounds_won == rnd.rounds_won
    assert after.rounds_played == number
    assert match_over(RULES, after) == (number == 8)


def test_worked_game_ends_with_alice_and_cara_winning_three_letters_to_five() -> None:
    final = _replay(8)
    assert final.letters == (3, 5)
    assert letters_text(final.letters[0]) == "K-E-M"
    assert letters_text(final.letters[1]) == "K-E-M-P-S"
    assert match_over(RULES, final)
    assert ranking(RULES, final) == (1, 2)
    assert winners(RULES, final) == (0,)


def test_worked_game_is_not_over_after_seven_rounds() -> None:
    seven = _replay(7)
    assert seven.letters == (3, 4)
    assert not match_over(RULES, seven)
