"""Rule knobs as the engine plays them: calls and what follows them, fresh middles, the dealer's hands,
dealer rotation, and liveness (every round ends, and how is recorded)."""

from __future__ import annotations

import pytest

from kemps_sim import AgentError, EngineConfig, load_rules, simulate_match, simulate_round
from kemps_sim.scoring import Outcome
from kemps_sim.trace import CallHeard, Objected, Refilled, Revealed, StallSaid, Swapped, Swept
from tests.scripted import Caller, Idle, Objector, PingPong, Staller

QUIET = EngineConfig(fidgets=False, max_round_seconds=20.0)


def events(result, kind):
    return [e for e in result.trace if type(e) is kind]


def test_wrong_stop_kemps_ends_the_round_under_standard():
    result = simulate_round("standard", [Caller("stop", accused=1), Idle(), Idle(), Idle()], seed=4, config=QUIET)
    (call,) = events(result, CallHeard)
    if call.right:  # the accused was dealt four of a kind: rare, but then the call is right
        pytest.skip("seed dealt four of a kind to the accused")
    assert result.outcome is Outcome.STOP_WRONG and call.ends_round
    assert result.standings.letters == (1, 0)
    (shown,) = events(result, Revealed)
    assert shown.seats == (1,) and shown.to == -1  # accused_player: the accused alone shows, to everyone


def test_accused_pair_shows_both_hands():
    result = simulate_round("german", [Caller("stop", accused=1), Idle(), Idle(), Idle()], seed=4, config=QUIET)
    (shown,) = events(result, Revealed)
    assert shown.seats == (1, 3)


def test_kems_wrong_stop_lets_play_go_on_shows_two_cards_and_bars_the_caller():
    rules = load_rules("kems", start="immediate")
    lineup = [Caller("stop", accused=1, again=True), Idle(), Idle(), Idle()]
    with pytest.raises(AgentError, match="may not call it again this round"):
        simulate_round(rules, lineup, seed=4, config=QUIET)
    result = simulate_round(rules, [Caller("stop", accused=1), Idle(), Idle(), Idle()], seed=4, config=QUIET)
    (call,) = events(result, CallHeard)
    assert call.outcome == "stop_wrong" and not call.ends_round
    (shown,) = events(result, Revealed)
    assert shown.to == 0 and shown.seats == (1,) and len(shown.hands[0]) == 2
    assert shown.hands[0][0] // 4 != shown.hands[0][1] // 4  # two cards of different ranks
    assert result.standings.points == (0, 1)
    assert result.outcome is Outcome.TIMEOUT  # nobody did anything else: the round ran to the cap


def test_kems_wrong_kemps_lets_play_go_on():
    rules = load_rules("kems", start="immediate")
    result = simulate_round(rules, [Caller("kemps"), Idle(), Idle(), Idle()], seed=4, config=QUIET)
    (call,) = events(result, CallHeard)
    assert call.outcome == "kemps_wrong" and not call.ends_round
    assert result.standings.points == (0, 1)


def test_double_kemps_refused_when_the_knob_is_off_and_judged_when_on():
    with pytest.raises(AgentError, match="double_kemps"):
        simulate_round("standard", [Caller("double"), Idle(), Idle(), Idle()], seed=2, config=QUIET)
    result = simulate_round(load_rules("standard", double_kemps=True), [Caller("double"), Idle(), Idle(), Idle()],
                            seed=2, config=QUIET)
    assert result.outcome is Outcome.DOUBLE_WRONG
    assert result.standings.letters == (2, 0)


def test_adjacent_pairs_refuses_the_pair_opposite_at_eight_players():
    rules = load_rules("standard", players=8, stop_kemps_targets="adjacent_pairs")
    lineup = [Caller("stop", accused=2)] + [Idle()] * 7
    with pytest.raises(AgentError, match="accused"):
        simulate_round(rules, lineup, seed=1, config=QUIET)


def test_dealer_go_holds_play_until_the_dealer_speaks():
    result = simulate_round("kems", "collector", seed=3, config=QUIET)
    start = next(e for e in result.trace if type(e).__name__ == "PlayStarted")
    assert start.time > 0
    assert all(e.time >= start.time for e in events(result, Swapped))


def test_stall_call_sweeps_after_the_window_and_an_objection_keeps_the_middle():
    config = EngineConfig(fidgets=False, max_round_seconds=10.0)
    swept = simulate_round("standard", [Staller(), Idle(), Idle(), Idle()], seed=1, config=config)
    (said,) = events(swept, StallSaid)
    (sweep,) = events(swept, Swept)
    assert sweep.reason == "stall_call" and sweep.time >= said.time + config.objection_window
    assert len(events(swept, Refilled)) == 1
    kept = simulate_round("standard", [Staller(), Objector(), Idle(), Idle()], seed=1, config=config)
    assert events(kept, Objected) and not events(kept, Swept)


def test_all_agree_needs_every_player_and_dealer_decides_only_the_dealer():
    config = EngineConfig(fidgets=False, max_round_seconds=10.0)
    agree = load_rules("standard", fresh_middle="all_agree")
    assert not events(simulate_round(agree, [Staller(), Staller(), Staller(), Idle()], seed=1, config=config), Swept)
    assert events(simulate_round(agree, [Staller()] * 4, seed=1, config=config), Swept)
    dealer = load_rules("standard", fresh_middle="dealer_decides")
    assert not events(simulate_round(dealer, [Idle(), Staller(), Staller(), Staller()], seed=1, dealer=0,
                                     config=config), Swept)
    assert events(simulate_round(dealer, [Staller(), Idle(), Idle(), Idle()], seed=1, dealer=0, config=config), Swept)


def test_say_stalled_is_refused_under_nobody_wants():
    with pytest.raises(AgentError, match="nobody_wants"):
        simulate_round("german", [Staller(), Idle(), Idle(), Idle()], seed=1, config=QUIET)


def test_nobody_wants_sweeps_once_everyone_waits_and_void_round_ends_on_an_empty_pack():
    result = simulate_round("german", [Idle()] * 4, seed=1, config=EngineConfig(fidgets=False,
                                                                               max_round_seconds=1000.0))
    assert result.outcome is Outcome.VOID_PACK_EXHAUSTED
    assert len(events(result, Swept)) == 8  # 52 - 16 dealt - 4 middle = 32 cards: eight refills, then void


def test_reshuffle_keeps_the_round_going_past_the_first_pack():
    result = simulate_round(load_rules("standard", fresh_middle="dealer_decides"), [Staller(), Idle(), Idle(), Idle()],
                            seed=1, config=QUIET)
    assert result.outcome is Outcome.TIMEOUT
    rules = load_rules("german", pack_exhausted="reshuffle_discards")
    long = simulate_round(rules, [Idle()] * 4, seed=1, config=EngineConfig(fidgets=False, max_round_seconds=300.0))
    assert long.outcome is Outcome.TIMEOUT
    assert any(e.reshuffled for e in events(long, Refilled))


def dealer_swaps_while_dealing(busy: bool, matches: int = 15) -> tuple[int, int]:
    """Swaps made between a sweep and the last fresh card, by the dealer and by the others."""
    dealer = others = 0
    for seed in range(matches):
        result = simulate_match(load_rules("standard", dealer_busy=busy), "collector", seed=seed)
        for rnd in result.rounds:
            refills = [e for e in rnd.trace if type(e) is Refilled]
            for sweep in (e for e in rnd.trace if type(e) is Swept):
                done = next((e.time for e in refills if e.time > sweep.time), None)
                if done is None:
                    continue
                for e in rnd.trace:
                    if type(e) is Swapped and sweep.time < e.time < done:
                        dealer += e.seat == rnd.dealer
                        others += e.seat != rnd.dealer
    return dealer, others


def test_dealer_busy_keeps_the_dealers_hands_off_the_fresh_cards_while_the_others_take_them():
    """Fresh cards are laid one at a time; the others grab them as they land, the busy dealer cannot."""
    dealer, others = dealer_swaps_while_dealing(busy=True)
    assert dealer == 0 and others > 0
    dealer, others = dealer_swaps_while_dealing(busy=False)
    assert dealer > 0 and others > 0


def test_livelock_is_capped_and_recorded_as_timeout():
    config = EngineConfig(fidgets=False, max_round_seconds=30.0, max_rounds=3)
    result = simulate_match("standard", [PingPong(), PingPong(), Idle(), Idle()], seed=1, config=config)
    assert [r.outcome for r in result.rounds] == [Outcome.TIMEOUT] * 3
    assert result.end_reason == "round_cap"
    assert all(r.end_time == 30.0 for r in result.rounds)


@pytest.mark.parametrize(("rotation", "step"), [("same", 0), ("left", 1)])
def test_dealer_rotation(rotation, step):
    rules = load_rules("standard", dealer_rotation=rotation)
    result = simulate_match(rules, "collector", seed=2)
    first = result.rounds[0].dealer
    assert [r.dealer for r in result.rounds[:3]] == [(first + i * step) % 4 for i in range(3)]


def test_first_dealer_is_drawn_at_random():
    firsts = [simulate_match("standard", "collector", seed=s, config=EngineConfig(max_rounds=1)).rounds[0].dealer
              for s in range(80)]
    assert set(firsts) == {0, 1, 2, 3}


def test_void_round_keeps_the_same_dealer():
    rules = load_rules("party", dealer_rotation="left")
    seen = 0
    for seed in range(30):
        result = simulate_match(rules, "collector(signal='ear', signal_policy='fixed'),"
                                       "random(signal='ear', signal_policy='fixed')", seed=seed)
        voids = [i for i, r in enumerate(result.rounds[:-1]) if r.outcome is Outcome.VOID_PACK_EXHAUSTED]
        seen += len(voids)
        for i in voids:
            assert result.rounds[i + 1].dealer == result.rounds[i].dealer
        decided = [i for i, r in enumerate(result.rounds[:-1]) if r.outcome is not Outcome.VOID_PACK_EXHAUSTED]
        for i in decided:
            assert result.rounds[i + 1].dealer == (result.rounds[i].dealer + 1) % 4
    assert seen > 0, "thirty matches of party rules had no void round to check"
