"""Seed 004's worked game at 4 players (standard preset): replayed call by call through the scoring code, and
played whole through the engine (stacked deals, scripted gestures and calls on the simulated clock).

Alice is seat 0, Ben seat 1, Cara seat 2, Dev seat 3: Alice and Cara are pair 0, Ben and Dev pair 1. Every round
deals four hands of distinct cards from one deck; the expected standings are written out from the rules by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from kemps_sim import EngineConfig, simulate_match
from kemps_sim.cards import RANK, cards
from kemps_sim.intents import CallKemps, CallStopKemps, Gesture
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
from kemps_sim.table import stack_pack
from kemps_sim.trace import (
    NOBODY,
    CallCutOff,
    CallHeard,
    Dealt,
    Gestured,
    Revealed,
    RoundEnded,
    Scored,
    Swapped,
)
from tests.scripted import Idle, Scripted

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


# The worked game played through the engine ---------------------------------------------------------------------
#
# The same eight rounds, now dealt from stacked packs and played in real time by scripted players: the gestures
# and calls happen on the simulated clock and the engine judges every call on the hands of the moment it is heard.
# What the rules text does not say is invented here, and kept as close to ROUNDS as possible:
#   - round 2: Dev scratches his nose (their signal) holding three nines, a signal given too soon;
#   - round 4: Ben scratches his nose holding three kings (the text says only that Alice was sure he signalled);
#   - round 7: Alice yawns again, holding four aces, and Cara calls Kemps (right): Ben/Dev's 4th letter;
#   - round 8: Dev coughs holding three jacks and Ben calls Kemps (wrong): Ben/Dev's 5th letter.
# "Yawn" is in the default repertoire, so round 6 uses it as written.

SEED = 4  # any seed would do: the packs are stacked; the first dealer is drawn from it and read back below
SIGNALS = (("ear",) * 4 + ("yawn",) * 4,  # Alice chooses for Alice/Cara: both pairs change before round 5
           ("nose",) * 4 + ("cough",) * 4)  # Ben chooses for Ben/Dev
SIGNS = ((CARA, "ear"), (DEV, "nose"), (ALICE, "ear"), (BEN, "nose"),
         (BEN, "cough"), (ALICE, "yawn"), (ALICE, "yawn"), (DEV, "cough"))  # who gestures what, round by round
GESTURE_AT, CALL_AT = 1.0, 4.0  # seconds after play starts; the first decision comes ≈2 s in (reaction + reading)
ENGINE = EngineConfig(fidgets=False, strict=True, max_round_seconds=60.0)


def _call_intent(call: Call) -> CallKemps | CallStopKemps:
    return CallKemps() if call.kind is CallKind.KEMPS else CallStopKemps(accused=call.accused)


def _lineup(rounds=ROUNDS) -> list[Scripted]:
    """One scripted player per seat: the round's gesture at GESTURE_AT, its call at CALL_AT, nothing else."""
    scripts: list[list[list[tuple[float, object]]]] = [[[] for _ in rounds] for _ in range(4)]
    for r, rnd in enumerate(rounds):
        gesturer, gesture = SIGNS[r]
        scripts[gesturer][r].append((GESTURE_AT, Gesture(gesture)))
        scripts[rnd.call.caller][r].append((CALL_AT, _call_intent(rnd.call)))
    return [Scripted(script=scripts[seat], signals=SIGNALS[seat] if seat < 2 else ()) for seat in range(4)]


def _first_dealer() -> int:
    """The seed's first dealer, read from a one-round match of idle players (the deal never changes it)."""
    probe = simulate_match(RULES, [Idle()], seed=SEED,
                           config=EngineConfig(fidgets=False, max_rounds=1, max_round_seconds=1.0))
    return probe.rounds[0].dealer


def _play(rounds=ROUNDS, config: EngineConfig = ENGINE):
    """The first dealer and the match, the given rounds dealt from stacked packs to the scripted players."""
    first = _first_dealer()
    packs = [stack_pack(RULES, _deal(rnd.hands), dealer=(first + r) % 4) for r, rnd in enumerate(rounds)]
    return first, simulate_match(RULES, _lineup(rounds), seed=SEED, config=config, packs=packs)


def test_worked_game_played_through_the_engine() -> None:
    """Seed 004's worked game dealt from stacked packs and played in real time by scripted players (seats Alice 0,
    Ben 1, Cara 2, Dev 3): every round deals the hands of ROUNDS, the round's signal is made, then the call is
    spoken, and the engine judges and scores it; the match ends on Ben/Dev's fifth letter, 3 letters to 5."""
    first, result = _play()

    assert result.error is None, result.error
    before = (0, 0)
    for r, (rnd, played) in enumerate(zip(ROUNDS, result.rounds, strict=False)):  # the count is checked below
        story = rnd.story
        assert played.index == r
        assert played.dealer == (first + r) % 4, f"{story}: dealer {played.dealer}, not the first dealer {first} " \
                                                 f"passed {r} times to the left"
        assert played.signals == (SIGNALS[0][r], SIGNALS[1][r]), story
        trace = played.trace
        (dealt,) = [e for e in trace if type(e) is Dealt]
        assert [list(h) for h in dealt.hands] == _deal(rnd.hands), f"{story}: the stacked pack dealt other hands"

        # The sign: one deliberate gesture (no fidgets), the gesturer's pair's signal, made before the call began.
        gesturer, gesture = SIGNS[r]
        (gestured,) = [e for e in trace if type(e) is Gestured]
        assert (gestured.seat, gestured.gesture, gestured.deliberate) == (gesturer, gesture, True), story
        assert gesture == played.signals[gesturer % 2], story
        assert gestured.holds_four == (len({RANK[c] for c in _deal(rnd.hands)[gesturer]}) == 1), story

        # The call: who, what, on whom, and the engine's verdict on the hands of the moment it was heard.
        (heard,) = [e for e in trace if type(e) is CallHeard]
        accused = NOBODY if rnd.call.accused is None else rnd.call.accused
        assert (heard.seat, heard.call, heard.accused) == (rnd.call.caller, rnd.call.kind.value, accused), story
        assert (heard.outcome, heard.right) == (rnd.outcome.value,
                                                rnd.outcome in (Outcome.KEMPS_RIGHT, Outcome.STOP_RIGHT)), story
        assert heard.ends_round, story
        assert gestured.time <= heard.started < heard.time, f"{story}: the sign comes before the call"
        assert not [e for e in trace if type(e) in (Swapped, CallCutOff)], f"{story}: nobody else acted"
        (revealed,) = [e for e in trace if type(e) is Revealed]
        assert revealed.seats == rnd.revealed and revealed.to == NOBODY, story
        (scored,) = [e for e in trace if type(e) is Scored]
        assert scored.letters == tuple(a - b for a, b in zip(rnd.letters, before, strict=True)), story
        assert sum(scored.letters) == 1, f"{story}: exactly one letter a round"
        assert played.outcome == rnd.outcome and trace[-1] == RoundEnded(heard.time, rnd.outcome.value), story

        # The standings after the round.
        assert played.standings.letters == rnd.letters, story
        assert played.standings.rounds_won == rnd.rounds_won, story
        assert played.standings.rounds_played == r + 1, story
        before = rnd.letters

    assert len(result.rounds) == 8
    assert result.end_reason == "match_over"
    assert result.standings.letters == (3, 5)
    assert tuple(map(letters_text, result.standings.letters)) == ("K-E-M", "K-E-M-P-S")
    assert result.winners == (0,)
    assert result.ranking == (1, 2)


def test_engine_judges_the_worked_game_on_the_hands_dealt() -> None:
    """The control: round 1 as scripted, but Cara's seven of spades dealt to Alice instead (three sevens and a
    two). The same ear touch and call are now a wrong Kemps, a letter to Alice/Cara: the engine test above would
    fail if the engine judged calls on anything but the hands."""
    first = ROUNDS[0]
    changed = replace(first, story="1 changed: Cara has three sevens",
                      hands=("7S 5D 9H KS", "3C 3D JH AS", "7C 7D 7H 2C", "4C 8D QH 10S"))
    _, result = _play((changed,), replace(ENGINE, max_rounds=1))
    (played,) = result.rounds
    (heard,) = [e for e in played.trace if type(e) is CallHeard]
    assert (heard.seat, heard.outcome, heard.right) == (ALICE, Outcome.KEMPS_WRONG.value, False)
    assert played.standings.letters == (1, 0)
