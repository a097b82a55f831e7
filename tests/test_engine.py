"""The real-time engine against closed forms and invariants: races, exact ties, signal detection, determinism,
strict conservation across every preset, and the refusal of illegal intents."""

from __future__ import annotations

import math

import pytest
from scipy.special import ndtr

from kemps_sim import (
    AgentError,
    EngineConfig,
    PlayerProfile,
    load_rules,
    preset_names,
    simulate_match,
    simulate_round,
)
from kemps_sim.gestures import Gesture as GestureSpec
from kemps_sim.gestures import Repertoire
from kemps_sim.intents import Gesture, Swap
from kemps_sim.perception import Attention, Observer
from kemps_sim.scoring import match_over
from kemps_sim.timing import Exponential, Fixed
from kemps_sim.trace import Gestured, Perceived, RaceLost, Swapped
from tests.scripted import Gesturer, GrabFirstCard, Idle, PingPong, Returns

QUIET = EngineConfig(fidgets=False, max_round_seconds=3.0)


def tolerance(p: float, n: int, k: float = 4.5) -> float:
    """``k`` binomial standard errors of a proportion ``p`` estimated from ``n`` trials."""
    return k * math.sqrt(p * (1 - p) / n)


def race_winner(seed: int, profiles: list[PlayerProfile]) -> tuple[int, bool]:
    """Seats 0 and 1 reach for the same card; return who got it and whether the other's loss was recorded."""
    result = simulate_round("standard", [GrabFirstCard(), GrabFirstCard(), Idle(), Idle()], profiles, seed,
                            config=QUIET)
    takers = [e.seat for e in result.trace if type(e) is Swapped]
    assert len(takers) == 1, takers
    losses = [e.seat for e in result.trace if type(e) is RaceLost]
    return takers[0], losses in ([], [1 - takers[0]])


def test_race_odds_follow_exponential_rates():
    """Exponential reaction times with rates λA and λB and equal reaches: A wins with λA / (λA + λB)."""
    lam_a, lam_b = 1 / 0.2, 1 / 0.4
    reach = Fixed(0.3)
    profiles = [PlayerProfile(reaction=Exponential(1 / lam_a), reach=reach),
                PlayerProfile(reaction=Exponential(1 / lam_b), reach=reach), PlayerProfile(), PlayerProfile()]
    n = 1500
    wins = sum(race_winner(seed, profiles)[0] == 0 for seed in range(n))
    expected = lam_a / (lam_a + lam_b)
    assert abs(wins / n - expected) < tolerance(expected, n)


def test_exact_ties_are_broken_at_random_not_by_seat():
    """Fixed, equal timings make both hands touch at the same instant: each seat wins half the time."""
    profile = PlayerProfile(reaction=Fixed(0.2), reach=Fixed(0.3))
    n = 600
    outcomes = [race_winner(seed, [profile] * 4) for seed in range(n)]
    wins = sum(seat == 0 for seat, _ in outcomes)
    assert abs(wins / n - 0.5) < tolerance(0.5, n)
    assert all(recorded for _, recorded in outcomes), "the slower hand's lost race must be in the trace"


def observer_profile(d_prime: float, criterion: float) -> PlayerProfile:
    """An observer whose eyes are always on the partner (fixated), never busy."""
    return PlayerProfile(observer=Observer(d_fixated=d_prime, d_peripheral=0.0, criterion=criterion),
                         attention=Attention(partner=1.0, opponents=0.0, middle=0.0, own_hand=0.0, peripheral=0.0))


def test_fixated_hit_rate_is_phi_of_half_d_minus_c():
    d_prime, c = 2.0, 0.5
    profiles = [PlayerProfile(), PlayerProfile(), observer_profile(d_prime, c), PlayerProfile()]
    made = noticed = 0
    for seed in range(40):
        result = simulate_round("standard", [Gesturer("ear", 0.5), Idle(), Idle(), Idle()], profiles, seed,
                                config=EngineConfig(fidgets=False, max_round_seconds=60.0))
        made += sum(type(e) is Gestured and e.seat == 0 for e in result.trace)
        noticed += sum(type(e) is Perceived and e.seat == 2 and e.gesturer == 0 and e.deliberate
                       for e in result.trace)
    expected = float(ndtr(d_prime / 2 - c))
    assert made > 1000
    assert abs(noticed / made - expected) < tolerance(expected, made)


def test_fixated_false_alarm_rate_is_phi_of_minus_half_d_minus_c():
    d_prime, c = 2.0, 0.0
    only_ear = Repertoire((GestureSpec("ear", "seen", fidget_rate_per_hour=3600.0),))
    # seat 0 fidgets with its own pair's signal: no slips, so that every fidget looks idle
    profiles = [PlayerProfile(slips_per_hour=0.0), PlayerProfile(), observer_profile(d_prime, c), PlayerProfile()]
    fidgets = noticed = 0
    for seed in range(25):
        result = simulate_round("standard", [Idle(), Idle(), Idle(), Idle()], profiles, seed, signals=("ear", "ear"),
                                repertoire=only_ear, config=EngineConfig(max_round_seconds=60.0))
        fidgets += sum(type(e) is Gestured and e.seat == 0 and not e.deliberate for e in result.trace)
        noticed += sum(type(e) is Perceived and e.seat == 2 and e.gesturer == 0 and not e.deliberate
                       for e in result.trace)
    expected = float(ndtr(-d_prime / 2 - c))
    assert fidgets > 800
    assert abs(noticed / fidgets - expected) < tolerance(expected, fidgets)


def test_same_seed_same_trace_different_seed_different_trace():
    first = simulate_match("standard", "collector,random", seed=11)
    again = simulate_match("standard", "collector,random", seed=11)
    other = simulate_match("standard", "collector,random", seed=12)
    assert [r.trace for r in first.rounds] == [r.trace for r in again.rounds]
    assert first.standings == again.standings
    assert [r.trace for r in first.rounds] != [r.trace for r in other.rounds]


@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("players", [4, 6, 8])
def test_strict_full_match_under_every_preset_ends_with_a_valid_winner(preset, players):
    """Conservation checked after every change of the table; the match ends by the rules with a winner."""
    rules = load_rules(preset, players=players)
    lineup = "collector,random" if players == 4 else "collector"
    result = simulate_match(rules, lineup, seed=players, config=EngineConfig(strict=True, max_round_seconds=120))
    assert result.end_reason == "match_over"
    assert match_over(rules, result.standings)
    assert result.winners and all(result.ranking[p] == 1 for p in result.winners)
    assert sorted(result.winners) == [p for p in range(rules.pairs) if result.ranking[p] == 1]


def test_two_decks_at_ten_players():
    result = simulate_match(load_rules("german", players=10), "collector", seed=5,
                            config=EngineConfig(strict=True))
    assert result.rules.decks == 2 and result.end_reason == "match_over"


@pytest.mark.parametrize(("value", "fragment"), [
    (None, "not an intent"),
    ("foreign_card", "not in seat 0's hand"),
    (Swap((0, 1), (2, 3)), "one_for_one"),
    (Gesture("wink"), "not in the repertoire"),
])
def test_illegal_intent_is_refused_naming_agent_seat_time_and_seed(value, fragment):
    with pytest.raises(AgentError) as info:
        simulate_round("standard", [Returns(value), Idle(), Idle(), Idle()], seed=7, config=QUIET)
    message = str(info.value)
    assert fragment in message
    assert "agent returns(" in message and "seat 0" in message and "seed 7" in message and "t=" in message


def test_spoken_signal_is_refused_under_silent_rules():
    with pytest.raises(AgentError, match="forbidden under signal_modality = 'silent'"):
        simulate_round("german", [Gesturer("word"), Idle(), Idle(), Idle()], seed=1, config=QUIET)


def test_agent_exception_is_wrapped_with_its_context():
    class Broken(Idle):
        name = "broken"

        def decide(self, obs):
            raise RuntimeError("boom")

    with pytest.raises(AgentError, match=r"agent broken\(\) at seat 2.*seed 3.*RuntimeError: boom"):
        simulate_round("standard", [Idle(), Idle(), Broken(), Idle()], seed=3, config=QUIET)


def test_misbehaving_agent_ends_its_match_with_a_recorded_error_when_asked():
    result = simulate_match("standard", [Returns(None), Idle(), Idle(), Idle()], seed=5, errors="record",
                            config=QUIET)
    assert result.end_reason == "agent_error" and result.winners == ()
    assert "agent returns(value=None) at seat 0" in result.error and "seed 5" in result.error


def test_an_agent_that_never_decides_is_stopped_by_the_watchdog():
    class Stuck(Idle):
        name = "stuck"

        def decide(self, obs):
            while True:
                pass

    config = EngineConfig(fidgets=False, max_round_seconds=3.0, decide_timeout=0.2)
    result = simulate_match("standard", [Idle(), Stuck(), Idle(), Idle()], seed=2, errors="record", config=config)
    assert result.end_reason == "agent_error"
    assert "agent stuck() at seat 1" in result.error and "never decides" in result.error


@pytest.mark.parametrize("hook", ["start_match", "watches", "wakes_on_middle"])
def test_an_agent_hook_that_raises_is_reported_with_its_context(hook):
    class Faulty(Idle):
        name = "faulty"

    def boom(self, *args, **kwargs):
        raise RuntimeError("hook failed")

    setattr(Faulty, hook, boom)
    lineup = [PingPong(), Faulty(), Idle(), Idle()]  # the ping-pong swaps keep changing the middle
    result = simulate_match("standard", lineup, seed=4, errors="record",
                            config=EngineConfig(max_round_seconds=5.0, max_rounds=1))
    assert result.end_reason == "agent_error"
    assert "agent faulty() at seat 1" in result.error and "hook failed" in result.error
    assert "seed 4" in result.error
