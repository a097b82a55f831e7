"""The rule knobs that say where the sources part ways with each other, played through the engine: when refilled
cards may be taken, who sweeps, a random dealer, heard signals under silent rules, a Stop Kemps against a Double;
and the recorder's one rule of who sees what."""

from __future__ import annotations

import itertools

import pytest

from kemps_sim import AgentError, EngineConfig, load_rules, simulate_match, simulate_round
from kemps_sim.engine.guard import Stopwatch
from kemps_sim.engine.match import _round_rngs, _setup
from kemps_sim.engine.round import RoundSim
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.lineup import resolve_lineup
from kemps_sim.retrace import TableReplay, TraceMismatch, check_match
from kemps_sim.scoring import Standings
from kemps_sim.trace import CallHeard, Refilled, Revealed, Swept
from kemps_sim.visibility import EVERYONE, TRACE_ONLY, audience, public_form
from tests.scripted import Caller, Gesturer, Idle
from tests.test_engine_calls import rigged_round

QUIET = EngineConfig(fidgets=False, max_round_seconds=5.0)


def refills(rules, seeds: range, lineup: str = "collector") -> tuple[int, int]:
    """(refills, refills in which a card was taken before the fourth landed) over matches of ``seeds``."""
    total = early = 0
    for seed in seeds:
        for rnd in simulate_match(rules, lineup, seed=seed).rounds:
            table = TableReplay(rules.players)
            for event in rnd.trace:
                table.apply(event)
                if type(event) is Refilled:
                    total += 1
                    early += bool(table.laid_taken)
    return total, early


@pytest.mark.parametrize("preset", ["german", "party"])
def test_under_000_and_001_refilled_cards_are_taken_only_once_the_fourth_is_down(preset):
    rules = load_rules(preset)
    assert rules.refill_opens == "when_complete"
    total, early = refills(rules, range(6))
    assert total >= 30 and early == 0
    # The same deals with cards taken as they land: early grabs are common (a third of refills or so).
    total, early = refills(load_rules(preset, refill_opens="each_card"), range(6))
    assert total >= 30 and early >= total // 10


def test_under_003_any_player_sweeps_and_under_004_the_dealer():
    def sweepers(rules) -> tuple[int, int]:
        own = other = 0
        for seed in range(6):
            for rnd in simulate_match(rules, "collector", seed=seed).rounds:
                for event in rnd.trace:
                    if type(event) in (Swept, Refilled):
                        own += event.seat == rnd.dealer
                        other += event.seat != rnd.dealer
        return own, other

    kems = load_rules("kems")
    assert kems.sweeper == "any_player"
    own, other = sweepers(kems)
    assert other > own > 0  # each of four seats is the quickest about as often: the dealer about a quarter
    assert sweepers(load_rules("kems", sweeper="dealer"))[1] == 0


def test_a_random_dealer_is_always_a_new_one():
    rules = load_rules("party", players=6)
    assert rules.dealer_rotation == "random"
    dealers = set()
    for seed in range(8):
        rounds = simulate_match(rules, "collector", seed=seed).rounds
        for before, after in itertools.pairwise(rounds):
            decided = before.outcome.value not in ("void_pack_exhausted", "timeout")
            assert (after.dealer != before.dealer) == decided  # a void round is dealt again by the same dealer
            dealers.add(after.dealer)
    assert dealers == set(range(6))


@pytest.mark.parametrize("gesture", ["word", "cough", "tap"])
def test_seen_only_signals_refuse_anything_heard_and_silent_ones_only_words(gesture):
    # 004's variant: something seen, not heard. 000 forbids words only; it names a knock on the table as a signal.
    seen_only = load_rules("standard", signal_modality="seen_only")
    with pytest.raises(AgentError, match=f"Gesture\\('{gesture}'\\): a gesture that is heard is forbidden"):
        simulate_round(seen_only, [Gesturer(gesture), Idle(), Idle(), Idle()], seed=1, config=QUIET)
    simulate_round(seen_only, [Gesturer("ear"), Idle(), Idle(), Idle()], seed=1, config=QUIET)  # seen: fine
    lineup = [Gesturer(gesture), Idle(), Idle(), Idle()]
    if gesture == "word":
        with pytest.raises(AgentError, match="Gesture\\('word'\\): a spoken gesture is forbidden"):
            simulate_round("german", lineup, seed=1, config=QUIET)
    else:
        simulate_round("german", lineup, seed=1, config=QUIET)


DOUBLE = {1: "7S 7H 7D 7C", 3: "9S 9H 9D 9C"}  # pair 1 holds a Double


def test_003_stop_against_a_double_plays_on_with_nobody_barred():
    rules = load_rules("kems", start="immediate")
    assert rules.stop_against_double == "play_on"
    _, result = rigged_round(rules, [Caller("stop", accused=1, again=True), Idle(), Idle(), Idle()], DOUBLE)
    heard = [e for e in result.trace if type(e) is CallHeard]
    assert [h.outcome for h in heard] == ["stop_ineffective"] * 2 and not any(h.ends_round for h in heard)
    assert result.standings.points == (0, 2) and not [e for e in result.trace if type(e) is Revealed]


def test_stop_against_a_double_as_a_wrong_stop_bars_the_caller():
    rules = load_rules("kems", start="immediate", stop_against_double="like_wrong_stop")
    with pytest.raises(AgentError, match="may not call it again this round"):
        rigged_round(rules, [Caller("stop", accused=1, again=True), Idle(), Idle(), Idle()], DOUBLE)


def test_stop_against_a_double_that_ends_the_round_shows_the_pair():
    rules = load_rules("kems", start="immediate", stop_against_double="ends_round")
    _, result = rigged_round(rules, [Caller("stop", accused=1), Idle(), Idle(), Idle()], DOUBLE)
    (heard,) = [e for e in result.trace if type(e) is CallHeard]
    (shown,) = [e for e in result.trace if type(e) is Revealed]
    assert heard.ends_round and result.outcome.value == "stop_ineffective" and shown.seats == (1, 3)


# Who sees what --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("preset", "players"), [("standard", 4), ("kems", 4), ("german", 8), ("party", 6)])
def test_every_event_reaches_exactly_its_audience(preset, players):
    lineup = ",".join(("collector", "watcher")[p % 2] for p in range(players // 2))
    rules = load_rules(preset, players=players)
    seed, _, kits = _setup(rules, resolve_lineup(lineup, players), None, 5, DEFAULT_REPERTOIRE, Stopwatch())
    for index in range(3):
        deal_rng, tie_rng = _round_rngs(seed, index)
        sim = RoundSim(rules=rules, kits=kits, repertoire=DEFAULT_REPERTOIRE, config=EngineConfig(), deal_rng=deal_rng,
                       tie_rng=tie_rng, dealer=index % players, signals=("ear",) * rules.pairs,
                       standings=Standings.start(rules), round_index=index, seed=seed)
        trace = sim.run().trace
        state = sim.state
        assert state.public.log == [public_form(e) for e in trace if audience(e) == EVERYONE]
        for seat in range(players):
            assert state.private[seat] == [e for e in trace if audience(e) == seat]
        assert any(audience(e) == TRACE_ONLY for e in trace)  # the deal, gestures as made


# Rebuilding the table from the trace ----------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["standard", "german", "party", "kems", "peanut_butter"])
@pytest.mark.parametrize("players", [4, 6, 8])
def test_every_hand_is_rebuilt_from_the_trace_and_every_verdict_agrees(preset, players):
    rules = load_rules(preset, players=players)
    lineup = ",".join(("collector", "watcher", "random")[p % 3] for p in range(rules.pairs))
    for seed in range(3):
        check_match(simulate_match(rules, lineup, seed=seed))


def test_a_tampered_trace_is_caught():
    result = simulate_match("standard", "collector", seed=2)
    rnd = next(r for r in result.rounds if any(type(e) is CallHeard for e in r.trace))
    i = next(i for i, e in enumerate(rnd.trace) if type(e) is CallHeard)
    heard = rnd.trace[i]
    flipped = heard._replace(outcome="kemps_wrong" if heard.outcome == "kemps_right" else "kemps_right",
                             right=not heard.right)
    import dataclasses

    bad = dataclasses.replace(rnd, trace=(*rnd.trace[:i], flipped, *rnd.trace[i + 1:]))
    with pytest.raises(TraceMismatch, match=f"round {rnd.index + 1}, event {i} \\(CallHeard\\)"):
        check_match(dataclasses.replace(result, rounds=(bad,)))
