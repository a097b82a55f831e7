"""Krepet on the clock: the watcher's looks follow the signal-detection closed form, a perfect watcher catches every
miss and a blind one none, a mover that never misses is never called, calls race the mover, games are
deterministic and always end, and bad agents or lineups are refused in one line."""

from __future__ import annotations

import math

import pytest

from kemps_sim.errors import AgentError, ConfigError
from kemps_sim.krepet.agent import BaseKrepetAgent
from kemps_sim.krepet.realtime import MISS_CUE, KrepetConfig, play_krepet
from kemps_sim.krepet.trace import CallHeard, GameEnded, MoveCut, Moved, Noticed, TurnStarted
from kemps_sim.perception import OPPONENT, Attention, detection_probability
from kemps_sim.profiles import PlayerProfile
from kemps_sim.testing import check_agent


def fixed(value: float) -> dict:
    return {"family": "fixed", "value": value}


#: A watcher who is heard (latency 0.05 s + speech 0.1 s) before the mover's next move lands (reaction 0.3 s +
#: reach 0.3 s): every percept of a real miss becomes a right call, so the looks can be counted exactly.
FAST = {"perception_latency": fixed(0.05), "speech": fixed(0.1), "reaction": fixed(0.3), "reach": fixed(0.3)}


def looks(results) -> tuple[int, int, int, int]:
    """(looks at a callable miss, percepts of them, looks at anything else, percepts of those). Every landed move
    but the one ending a turn or the game is one look; with FAST timings the watcher is never still speaking."""
    real = real_seen = other = other_seen = 0
    for r in results:
        for e in r.trace:
            if isinstance(e, Moved) and e.kind != "end_turn":
                real += e.callable
                other += not e.callable
            elif isinstance(e, Noticed):
                real_seen += e.real
                other_seen += not e.real
        last = [e for e in r.trace if isinstance(e, Moved)][-1]  # the move that ended the game got no look
        real -= last.callable and r.reason != "timeout"
        other -= not last.callable and r.reason != "timeout" and last.kind != "end_turn"
    return real, real_seen, other, other_seen


def within(observed: int, trials: int, p: float) -> bool:
    """Binomial agreement: |observed/trials - p| within four standard errors."""
    return abs(observed / trials - p) <= 4 * math.sqrt(p * (1 - p) / trials)


def test_the_watchers_looks_follow_the_detection_closed_form():
    profile = PlayerProfile.from_mapping(FAST)
    a = 0.7
    attention = Attention(0, a, 0, 1 - a, peripheral=profile.attention.peripheral)
    hit = detection_probability(profile.observer, attention, MISS_CUE, True, OPPONENT, 1)
    false_alarm = detection_probability(profile.observer, attention, MISS_CUE, False, OPPONENT, 1)
    results = [play_krepet(None, f"greedy(lapse=0.3, attention={a})", profile, seed=s) for s in range(60)]
    real, real_seen, other, other_seen = looks(results)
    assert real > 800 and other > 8000
    assert within(real_seen, real, hit), (real_seen / real, hit)
    assert within(other_seen, other, false_alarm), (other_seen / other, false_alarm)
    calls = [c for r in results for c in r.calls]
    # fast enough: every percept of a real miss is a right call, every other percept a false alarm
    assert sum(c.verdict == "right" for c in calls) == real_seen
    assert sum(c.verdict == "false_alarm" for c in calls) == other_seen
    assert not any(c.verdict == "too_late" for c in calls)


def test_a_perfect_watcher_catches_every_miss_and_a_blind_one_none():
    perfect = PlayerProfile.from_mapping({**FAST, "observer": {"d_fixated": 12.0, "criterion": 0.0}})
    results = [play_krepet(None, "greedy(lapse=0.3, attention=1.0)", perfect, seed=s) for s in range(15)]
    misses = sum(len(r.callable_misses) for r in results)
    assert misses > 100
    assert sum(c.caught for r in results for c in r.calls) == misses
    assert all(c.verdict == "right" for r in results for c in r.calls)
    blind = PlayerProfile.from_mapping({**FAST, "attention": {"peripheral": 0.0}})
    results = [play_krepet(None, "greedy(lapse=0.3, attention=0.0)", blind, seed=s) for s in range(15)]
    assert sum(len(r.callable_misses) for r in results) > 100
    assert not any(isinstance(e, Noticed | CallHeard) for r in results for e in r.trace)


@pytest.mark.parametrize("mover", ["greedy(lapse=0.0)", "careful"])
def test_a_mover_that_never_misses_is_never_called(mover):
    perfect = PlayerProfile.from_mapping({"observer": {"d_fixated": 12.0, "criterion": 0.0}})
    for seed in range(6):
        result = play_krepet(None, f"{mover},lookout(attention=1.0, lapse=0.0)", perfect, seed=seed)
        assert not result.callable_misses
        assert not [c for c in result.calls if c.caller == 1]


def test_careful_checks_cost_time_and_remove_lapses():
    greedy = [play_krepet(None, "greedy(lapse=0.2)", seed=s) for s in range(6)]
    careful = [play_krepet(None, "careful", seed=s) for s in range(6)]
    assert sum(len(r.callable_misses) for r in greedy) > 0
    assert sum(len(r.callable_misses) for r in careful) == 0
    pace = [sum(r.duration for r in rs) / sum(r.moves for r in rs) for rs in (greedy, careful)]
    assert pace[1] > pace[0] + 0.2  # one card_read (mean 0.38 s) more per move


def test_a_right_call_ends_the_turn_at_once_and_cuts_the_move_in_the_air():
    slow_mover = {**FAST, "reaction": fixed(0.06), "reach": fixed(0.5)}  # the call lands while it reaches
    cut = 0
    for seed in range(10):
        result = play_krepet(None, "greedy(lapse=0.3, attention=1.0)", slow_mover, seed=seed)
        trace = result.trace
        for i, e in enumerate(trace):
            if isinstance(e, CallHeard) and e.right:
                after = [x for x in trace[i + 1:] if not isinstance(x, Noticed | CallHeard)]
                if isinstance(after[0], MoveCut):
                    cut += 1
                    after = after[1:]
                assert isinstance(after[0], TurnStarted) and after[0].time == e.time
                assert after[0].player == e.caller
                assert e.time - e.miss_at > 0
    assert cut > 0


def test_a_call_after_the_compulsory_move_was_made_is_too_late():
    slow_speech = {"speech": fixed(1.5), "reaction": fixed(0.3), "reach": fixed(0.3)}
    calls = [c for s in range(10) for c in play_krepet(None, "greedy(lapse=0.5, attention=1.0)", slow_speech,
                                                       seed=s).calls]
    assert any(c.verdict == "too_late" for c in calls)
    assert all(not c.right and c.caught == 0 and math.isnan(c.miss_at) for c in calls if c.verdict != "right")


def test_same_seed_same_game_and_every_game_ends():
    a, b = play_krepet(None, "greedy,loader", seed=5), play_krepet(None, "greedy,loader", seed=5)
    assert a.trace == b.trace and a.trace != play_krepet(None, "greedy,loader", seed=6).trace
    assert isinstance(a.trace[-1], GameEnded) and a.reason in ("out_of_cards", "both_stuck")
    capped = play_krepet(None, "greedy", seed=5, config=KrepetConfig(max_moves=40))
    assert capped.reason == "timeout" and capped.moves == 40 and capped.winner is None
    short = play_krepet(None, "greedy", seed=5, config=KrepetConfig(max_time=20.0))
    assert short.reason == "timeout" and short.duration < 25.0


@pytest.mark.parametrize("name", ["greedy", "careful", "loader", "lookout"])
def test_every_krepet_builtin_passes_the_conformance_check(name):
    report = check_agent(name)
    assert report.agent == name and report.matches == 5 * 2 and report.timeouts == 0


class Cheater(BaseKrepetAgent):
    """Lays a card straight from the state, changing the position it was shown."""

    name = "cheater"

    def decide(self, view):
        view.state.hand[view.player].append(view.state.talon[view.player].pop())
        return view.moves[-1]


class Stubborn(BaseKrepetAgent):
    """Always ends the turn, whether or not it may."""

    name = "stubborn"

    def decide(self, view):
        from kemps_sim.krepet.moves import EndTurn

        return EndTurn()


def test_misbehaving_agents_end_the_game_with_a_one_line_error():
    with pytest.raises(AgentError, match=r"agent .* as player \d, turn 0, .*not one of the \d+ moves it sees"):
        play_krepet(None, [Stubborn()], seed=0)
    recorded = play_krepet(None, [Stubborn(), "greedy"], seed=0, errors="record")
    assert recorded.reason == "agent_error" and "not one of" in recorded.error
    assert isinstance(recorded.trace[-1], GameEnded) and recorded.trace[-1].reason == "agent_error"
    with pytest.raises(AgentError, match="changed the position it was shown"):
        play_krepet(None, [Cheater()], seed=0, config=KrepetConfig(strict=True))


def test_lineups_and_parameters_are_checked_against_the_game():
    with pytest.raises(ConfigError, match="'collector': plays kemps, not krepet; built-in krepet agents are greedy"):
        play_krepet(None, "collector")
    from kemps_sim import simulate_match

    with pytest.raises(ConfigError, match="'greedy': plays krepet, not kemps"):
        simulate_match("standard", "greedy")
    with pytest.raises(ConfigError, match=r"greedy.attention = 1.5: must be a probability from 0 to 1"):
        play_krepet(None, "greedy(attention=1.5)")
    with pytest.raises(ConfigError, match="krepet.max_moves = 0"):
        KrepetConfig(max_moves=0)


def test_play_command_tells_a_krepet_game(capsys):
    import json

    from kemps_sim.cli import main

    assert main(["play", "--game", "krepet", "--seed", "3", "--lineup", "greedy(lapse=0.3),lookout"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Krepet, seed 3: player 0 greedy(lapse=0.3) against player 1 lookout")
    assert "turn 1: player" in out and "game over (" in out and "<< MISS" in out
    assert main(["play", "--game", "krepet", "--json", "--seed", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "krepet" and data["events"][-1]["event"] == "GameEnded"
    assert any("card_name" in e for e in data["events"])
    assert main(["play", "--game", "krepet", "--players", "4"]) == 2
    assert "--players 4: not used with --game krepet" in capsys.readouterr().err


def test_the_trace_alone_rebuilds_every_position_and_the_end():
    from kemps_sim.krepet.retrace import positions

    for seed in range(8):
        game = play_krepet(None, "greedy(lapse=0.3),loader", seed=seed)
        for _event, state in positions(game):
            state.check()
        assert (state.cards_of(0), state.cards_of(1)) == game.cards_left
        assert (state.result.winner if state.result else None) == game.winner
