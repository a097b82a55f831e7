"""Calls while play goes on: what the table learns, what only the caller sees, and short hands mid-swap."""

from __future__ import annotations

import pytest

from kemps_sim import AgentError, EngineConfig, load_rules, simulate_round
from kemps_sim.cards import cards
from kemps_sim.engine.calls import two_different
from kemps_sim.engine.guard import Stopwatch
from kemps_sim.engine.match import _round_rngs, _setup
from kemps_sim.engine.round import RoundSim
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.intents import Swap, Wait
from kemps_sim.lineup import resolve_lineup
from kemps_sim.scoring import Standings
from kemps_sim.trace import CallHeard, Gestured, Perceived, Revealed
from tests.scripted import Caller, Idle, force_hand

QUIET = EngineConfig(fidgets=False, max_round_seconds=5.0)


def rigged_round(rules, lineup, hands: dict[int, str], seed: int = 1):
    """A round whose deal is changed so that the given seats hold the given cards."""
    rules = load_rules(rules)
    seed, _, kits = _setup(rules, resolve_lineup(lineup, rules.players), None, seed, DEFAULT_REPERTOIRE, Stopwatch())
    deal_rng, tie_rng = _round_rngs(seed, 0)
    sim = RoundSim(rules=rules, kits=kits, repertoire=DEFAULT_REPERTOIRE, config=QUIET, deal_rng=deal_rng,
                   tie_rng=tie_rng, dealer=2, signals=("ear",) * rules.pairs, standings=Standings.start(rules),
                   round_index=0, seed=seed)
    for seat, text in hands.items():
        force_hand(sim.state.table, seat, cards(text))
    sim.state.holding = [sim.state.table.has_four_of_a_kind(s) for s in range(rules.players)]
    return sim, sim.run()


def test_stop_against_a_double_is_ineffective_and_the_table_is_not_told_why():
    rules = load_rules("kems", start="immediate")
    sim, result = rigged_round(rules, [Caller("stop", accused=1), Idle(), Idle(), Idle()],
                               {1: "7S 7H 7D 7C", 3: "9S 9H 9D 9C"})
    (heard,) = [e for e in result.trace if type(e) is CallHeard]
    assert heard.outcome == "stop_ineffective" and not heard.ends_round
    (public,) = [e for e in sim.state.public.log if type(e) is CallHeard]
    assert public.outcome == "stop_wrong"
    assert not [e for e in result.trace if type(e) is Revealed]  # no hand shown, not even two cards
    assert result.standings.points == (0, 1)


def test_wrong_stop_under_003_shows_two_different_cards_to_the_caller_only():
    rules = load_rules("kems", start="immediate")
    sim, result = rigged_round(rules, [Caller("stop", accused=1), Idle(), Idle(), Idle()], {1: "7S 7H 2D 5C"})
    (shown,) = [e for e in result.trace if type(e) is Revealed]
    assert shown.to == 0 and shown.hands == ((cards("7S")[0], cards("2D")[0]),)
    assert shown not in sim.state.public.log
    assert [e for e in sim.state.private[0] if type(e) is Revealed] == [shown]


def test_wrong_kemps_while_play_goes_on_reveals_no_hand():
    rules = load_rules("kems", start="immediate")
    _, result = rigged_round(rules, [Caller("kemps"), Idle(), Idle(), Idle()], {2: "7S 7H 2D 5C"})
    assert not [e for e in result.trace if type(e) is Revealed]


def test_right_kemps_ends_the_round_and_shows_the_partner_to_all():
    sim, result = rigged_round("standard", [Caller("kemps"), Idle(), Idle(), Idle()], {2: "7S 7H 7D 7C"})
    (shown,) = [e for e in result.trace if type(e) is Revealed]
    assert shown.seats == (2,) and shown.to == -1 and shown in sim.state.public.log


@pytest.mark.parametrize(("hand", "expected"), [
    ("7S 7H 2D 5C", "7S 2D"), ("7S 7H 7D 7C", "7S"), ("9S", "9S"), ("", ""), ("2S 3S", "2S 3S")])
def test_two_different_handles_short_and_single_rank_hands(hand, expected):
    assert two_different(cards(hand)) == tuple(cards(expected))


def test_a_seat_that_owes_cards_must_pick_them_up_before_waiting():
    class DropThenWait(Idle):
        name = "drop_then_wait"

        def decide(self, obs):
            if not getattr(self, "dropped", False):
                self.dropped = True
                return Swap(obs.hand[:1], obs.middle[:1])
            return Wait()

    rules = load_rules("kems", start="immediate")
    with pytest.raises(AgentError, match="owes 1; it must pick them up first"):
        for seed in range(20):  # some seed lets another hand take the card the dropper wanted
            simulate_round(rules, [DropThenWait(), Idle(), Idle(), Idle()], seed=seed, config=QUIET)
            simulate_round(rules, [DropThenWait()] * 4, seed=seed, config=QUIET)


def test_collectors_perceive_only_their_signal_and_unwatched_fidgets_are_not_simulated():
    unprimed = {"observer": {"priming": 0.0}}
    result = simulate_round("standard", "collector(stop=False, signal='ear')", unprimed, seed=2,
                            config=EngineConfig(max_round_seconds=60))
    assert all(e.gesture == "ear" for e in result.trace if type(e) is Perceived)
    assert all(e.gesture == "ear" for e in result.trace if type(e) is Gestured)
    # a primed partner may read a look-alike of the signal as it: those are simulated too, and read as the signal
    primed = simulate_round("standard", "collector(stop=False, signal='ear')", {"observer": {"priming": 1.0}},
                            seed=2, config=EngineConfig(max_round_seconds=60))
    made = {e.gesture for e in primed.trace if type(e) is Gestured}
    assert made - {"ear"} and made <= {"ear", *DEFAULT_REPERTOIRE.look_alikes("ear")}
    assert all(e.gesture == "ear" for e in primed.trace if type(e) is Perceived)
    watched_all = simulate_round("standard", [Idle()] * 4, seed=2, config=EngineConfig(max_round_seconds=60))
    assert any(e.gesture == "blink" for e in watched_all.trace if type(e) is Gestured)
