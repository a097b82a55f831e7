"""The shared belief on hand-made tables: card logic of the prior, the percept likelihood and the silence of a
holder who would have signalled, the honesty belief, what a missed swap forgets, the payoffs of the rules and the
call threshold, against their closed forms."""

from __future__ import annotations

import importlib.util
import itertools
import math

import numpy as np
import pytest

from kemps_sim import load_rules
from kemps_sim.belief import Belief, fitted
from kemps_sim.belief.decision import advantage, hazard, threshold
from kemps_sim.belief.honesty import Honesty
from kemps_sim.belief.payoffs import Stakes, kemps_stakes, pair_value, stop_stakes
from kemps_sim.belief.percepts import GestureOdds, likelihood_ratio
from kemps_sim.belief.prior import CERTAIN, ELAPSED_BOUNDS, IMPOSSIBLE, STILL_BOUNDS, HoldPrior, known_cards
from kemps_sim.belief.tracking import MIXED, HeardCall, TableReader
from kemps_sim.calibration.belief import FitPlan, _design, fit_logistic, run
from kemps_sim.cards import cards
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.observation import Observation
from kemps_sim.perception import Attention, Observer, Percept, hit_probability
from kemps_sim.scoring import Call, CallKind, Outcome, score
from kemps_sim.state import RoundState
from kemps_sim.trace import CallHeard, PlayStarted, Revealed, Swapped, Swept

RULES = load_rules("standard")


def view(hand: str, middle: str, log: list, seat: int = 0, percepts: list | None = None, now: float = 10.0,
         attention: Attention | None = None) -> Observation:
    hands = [cards(hand) if s == seat else [] for s in range(RULES.players)]
    state = RoundState.sketch(RULES, hands=hands, middle=cards(middle), log=log, now=now, dealer=1,
                              signals_allowed=DEFAULT_REPERTOIRE.names)
    state.signals = ("ear",) * RULES.pairs
    if percepts is not None:
        state.percepts[seat] = percepts
    if attention is None:
        return Observation(seat, state)
    from kemps_sim.profiles import PlayerProfile

    return Observation(seat, state, profile=PlayerProfile(attention=attention))


def took(t: float, seat: int, gave: str, take: str) -> Swapped:
    return Swapped(t, seat, tuple(cards(gave)), tuple(cards(take)))


# The public log and the prior's card logic -------------------------------------------------------------------
def test_known_cards_follow_takes_and_throws_and_decide_the_impossible_and_the_certain():
    log = [PlayStarted(0.0, 1, ()), took(1.0, 1, "2C", "9H"), took(2.0, 1, "3C", "9D")]
    reader = TableReader(4, 0)
    obs = view("KS KH 4D 5C", "2C 3C 6H 7H", log)
    reader.refresh(obs)
    assert reader.known_held(1) == (7, 2) and known_cards(reader, 1, obs.hand, obs.middle, 4) == 2
    log.append(took(3.0, 1, "9H", "KD"))  # throws a nine back and keeps a king: two ranks known
    reader.refresh(obs)
    assert reader.known_held(1) == (MIXED, 2) and known_cards(reader, 1, obs.hand, obs.middle, 4) == -1
    log += [took(4.0, 2, "2D", "QC"), took(4.5, 2, "3D", "QD"), took(5.0, 2, "4H", "QH"), took(5.5, 2, "5H", "QS")]
    reader.refresh(obs)
    assert known_cards(reader, 2, obs.hand, obs.middle, 4) == 4  # took all four queens and kept them
    prior = HoldPrior(RULES)
    assert prior.log_odds(reader, 2, 6.0, obs.hand, obs.middle) == CERTAIN
    assert prior.log_odds(reader, 1, 6.0, obs.hand, obs.middle) == IMPOSSIBLE


def test_a_rank_whose_missing_cards_are_all_seen_elsewhere_is_impossible():
    log = [PlayStarted(0.0, 1, ()), took(1.0, 3, "2C", "9H"), took(2.0, 3, "3C", "9D")]
    reader = TableReader(4, 0)
    possible = view("KS KH 4D 5C", "2S 3C 6H 7H", log)  # seat 3 keeps two nines; where the other two are, unknown
    reader.refresh(possible)
    assert reader.unseen(7, 3, possible.hand, possible.middle, 4) == 2  # both could be cards it was dealt
    assert known_cards(reader, 3, possible.hand, possible.middle, 4) == 2
    seen = view("9S KH 4D 5C", "9C 3C 6H 7H", log)  # I hold one of them and the middle shows the other
    assert reader.unseen(7, 3, seen.hand, seen.middle, 4) == 0
    assert known_cards(reader, 3, seen.hand, seen.middle, 4) == -1


def test_the_readers_own_kept_cards_are_counted_once():
    log = [PlayStarted(0.0, 1, ()), took(1.0, 0, "2C", "9H"), took(1.5, 0, "3C", "9D"), took(2.0, 2, "4C", "9S")]
    reader = TableReader(4, 0)
    obs = view("9H 9D KS 5C", "2C 3C 4C 7H", log)  # I kept two nines; seat 2 kept one
    reader.refresh(obs)
    assert reader.unseen(7, 2, obs.hand, obs.middle, 4) == 4 - 2 - 1  # one nine unaccounted for


def test_a_missed_swap_forgets_the_cards_known_in_that_hand():
    log = [PlayStarted(0.0, 1, ()), took(1.0, 1, "2C", "9H"), took(2.0, 1, "3C", "9D")]
    seen = TableReader(4, 0, notice=lambda e: e.time < 1.5)  # notices the first swap only
    seen.refresh(view("KS KH 4D 5C", "2C 3C 6H 7H", log))
    assert seen.held[1] == [] and seen.known_held(1) == (-1, 0)
    assert seen.still_since(1) == 2.0  # the swap itself is seen: it ends the player's stillness


# Percepts --------------------------------------------------------------------------------------------------------
def test_percept_ratio_silence_and_the_mixture_over_possible_signals():
    observer, attention = Observer(), Attention.balanced()
    odds = GestureOdds(DEFAULT_REPERTOIRE, observer, 2, signal_rate=0.3)
    ear = DEFAULT_REPERTOIRE["ear"]
    assert odds.ratio["ear"] == pytest.approx(0.3 / ear.fidget_rate)
    assert odds.percept_ratio("ear", 1.5) == pytest.approx(1 + 0.3 / ear.fidget_rate * math.exp(1.5))
    hits = odds.hits(attention, "opponent")
    assert hits["ear"] == pytest.approx(hit_probability(observer, attention, ear, "opponent", 2))
    # one percept of the known signal, then 4 s of silence
    expected = odds.percept_ratio("ear", 1.5) * math.exp(-0.3 * hits["ear"] * 4.0)
    assert likelihood_ratio(odds, {"ear": 1.0}, hits, [("ear", 1.5)], 4.0) == pytest.approx(expected)
    # two candidate signals: each weighted by its share; the one without a percept only decays
    mixed = likelihood_ratio(odds, {"ear": 0.25, "nose": 0.75}, hits, [("ear", 1.5)], 4.0)
    assert mixed == pytest.approx(0.25 * expected + 0.75 * math.exp(-0.3 * hits["nose"] * 4.0))
    assert likelihood_ratio(odds, {"ear": 1.0}, hits, [], 10.0) < 1.0  # silence alone is evidence against


def test_belief_of_a_partner_rises_with_its_signal_and_its_evidence_fades_with_silence():
    log: list = [PlayStarted(0.0, 1, ()), took(1.0, 2, "2C", "9H"), took(2.0, 2, "3C", "9D")]
    percepts: list = []
    belief = Belief(0, 4, np.random.default_rng(0))
    obs = view("KS KH 4D 5C", "2C 3C 6H 7H", log, percepts=percepts, now=3.0)
    belief.refresh(obs)
    quiet = belief.probability(obs, 2)
    percepts.append(Percept(2, "ear", 2.0, 4.0, "fixated", 3.0))
    belief.refresh(obs)
    loud = belief.probability(obs, 2)
    assert quiet < 0.2 < 0.9 < loud
    # the likelihood ratio alone (the prior moves with time too): one percept, then silence
    at_once = belief.ratio(obs, 2)
    obs._clock.now = 60.0
    hits = belief.hits(obs, 2)["ear"]
    assert belief.ratio(obs, 2) == pytest.approx(at_once * math.exp(-belief.signal_rate * hits * 57.0), rel=1e-9)


def test_however_often_the_partner_signals_the_belief_stops_at_its_limit():
    """A signal and a fake look alike, so each sighting of the partner's signal lifts the belief toward
    P(H) / (P(H) + P(F)) = 1 / (1 + r), r the odds that the pair's deliberate-looking gesture is a fake, and no
    further: :meth:`Belief.limit`, which the caller reads to know when waiting for another sighting is pointless."""
    log: list = [PlayStarted(0.0, 1, ()), took(1.0, 2, "2C", "9H"), took(2.0, 2, "3C", "9D")]
    percepts: list = []
    belief = Belief(0, 4, np.random.default_rng(0))
    obs = view("KS KH 4D 5C", "2C 3C 6H 7H", log, percepts=percepts, now=20.0)
    belief.refresh(obs)
    odds = belief.honesty.fake_odds(belief.pair, belief.tell(2))
    assert odds > 0  # an untold partner may gesture by accident: not trusted blindly
    limit = belief.limit(obs, 2)
    assert limit == pytest.approx(1.0 / (1.0 + odds), rel=1e-12)
    seen = [belief.probability(obs, 2)]
    for k in range(12):
        percepts.append(Percept(2, "ear", 2.0, 4.0, "fixated", 3.0 + k))
        belief.refresh(obs)
        seen.append(belief.probability(obs, 2))
    assert all(low <= high * (1 + 1e-12) <= limit * (1 + 2e-12) for low, high in itertools.pairwise(seen)), seen
    assert seen[1] < 0.99 * limit and seen[-1] == pytest.approx(limit, rel=1e-9), seen


def test_a_wrong_call_while_play_goes_on_settles_only_the_hands_it_showed():
    rules = load_rules("kems")  # play goes on after a wrong call; both of an accused pair are checked
    log: list = [PlayStarted(0.0, 1, ()), took(1.0, 1, "2C", "9H"), took(1.5, 3, "3C", "9D"),
                 took(2.0, 2, "4C", "9S")]
    state = RoundState.sketch(rules, hands=[cards("KS KH 4D 5C"), [], [], []], middle=cards("2C 3C 4C 7H"), log=log,
                              now=5.0, dealer=1, signals_allowed=DEFAULT_REPERTOIRE.names)
    obs = Observation(0, state)
    belief = Belief(0, 4, np.random.default_rng(0))
    belief.refresh(obs)
    log.append(CallHeard(4.0, 0, "kemps", -1, "kemps_wrong", False, 3.6, False, ""))  # my wrong Kemps on seat 2
    belief.refresh(obs)
    assert belief.floor[2] == 4.0 and belief.floor[1] == belief.floor[3] == float("-inf")
    assert belief.probability(obs, 2) == 0.0  # shown without four, and it has not swapped since
    log.append(CallHeard(4.5, 2, "stop_kemps", 1, "stop_wrong", False, 4.1, False, ""))  # pair 1: neither
    belief.refresh(obs)
    assert belief.floor[1] == belief.floor[3] == 4.5
    log.append(took(6.0, 2, "9S", "7H"))  # seat 2 swaps (for sevens now): it may hold four again
    obs._public.middle[:] = cards("2C 3C 4C 9S")
    obs._clock.now = 7.0
    belief.refresh(obs)
    assert belief.log_prior(obs, 2) > -60.0


def test_stop_kemps_is_right_as_the_rules_judge_it():
    belief = Belief(0, 4, np.random.default_rng(0))
    for preset, expected in (("standard", 0.3), ("german", 0.3 + 0.6 - 0.18), ("kems", 0.3 + 0.6 - 2 * 0.18)):
        rules = load_rules(preset)
        odds = {1: 0.3, 3: 0.6}
        belief.probability = lambda obs, seat, odds=odds: odds[seat]  # the two holders' beliefs, given
        obs = view("KS KH 4D 5C", "2C 3C 6H 7H", [PlayStarted(0.0, 1, ())])
        obs._public.rules = rules
        # standard: the accused alone shows; german: either of the pair; kems: either, but not both (a Double)
        assert belief.stop_right(obs, 1) == pytest.approx(expected), preset


# Honesty --------------------------------------------------------------------------------------------------------
def test_honesty_learns_fakes_from_a_wrong_stop_and_real_signals_from_a_right_one():
    honesty = Honesty(2, 0, by_pair=False)
    start = honesty.fake_share(1)
    reader = TableReader(4, 0)
    percept = Percept(1, "nose", 2.0, 4.0, "fixated", 9.0)
    honesty.remember(0, [percept])
    wrong = CallHeard(10.0, 0, "stop_kemps", 1, "stop_wrong", False, 9.5, True, "nose")
    reader.calls.append(HeardCall(0, wrong, {1: tuple(cards("9H 9D 9S KC"))}))
    assert honesty.update(reader, 0, lambda p, r: 1.0)
    assert honesty.fake_share(1) > start and honesty.fakes[1] == pytest.approx(0.1 + 1.0)
    right = CallHeard(20.0, 0, "stop_kemps", 1, "stop_right", True, 19.5, True, "nose")
    honesty.remember(1, [percept._replace(time=19.0)])
    reader.calls.append(HeardCall(1, right, {1: tuple(cards("9H 9D 9S 9C"))}))
    honesty.update(reader, 0, lambda p, r: 1.0)
    assert honesty.real[1] == pytest.approx(0.9 + 1.0)
    honesty.swapped_after(1, 0.5)
    assert honesty.fakes[1] == pytest.approx(1.1 + 0.5 * honesty.swap_weight)


def test_honesty_takes_the_table_s_cue_at_its_weight_and_nothing_from_calls_about_itself():
    honesty = Honesty(2, 0, by_pair=False)
    reader = TableReader(4, 0)
    honesty.remember(0, [])
    # seat 3 (not me) calls a wrong Stop Kemps on seat 1, answering a nose touch I did not see myself
    reader.calls.append(HeardCall(0, CallHeard(5.0, 3, "stop_kemps", 1, "stop_wrong", False, 4.6, True, "nose"),
                                  {1: tuple(cards("9H 9D 2S KC"))}))
    honesty.update(reader, 0, lambda p, r: 0.8 if p.gesture == "nose" else 0.0)
    assert honesty.fakes[1] == pytest.approx(0.1 + honesty.public_weight * 0.8)
    # a wrong Stop Kemps against me says nothing about my own pair's honesty: I know my hand
    before = list(honesty.fakes)
    reader.calls.append(HeardCall(1, CallHeard(9.0, 1, "stop_kemps", 0, "stop_wrong", False, 8.6, True, "ear"),
                                  {0: tuple(cards("9H 9D 2S KC"))}))
    honesty.update(reader, 0, lambda p, r: 1.0)
    assert honesty.fakes == before


# Payoffs and the decision ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["standard", "kems", "peanut_butter"])
def test_stakes_come_from_the_scoring_of_the_rules(preset):
    rules = load_rules(preset)
    kemps = kemps_stakes(rules, 0)
    assert kemps.gain == pair_value(rules, score(rules, Call(CallKind.KEMPS, 0), Outcome.KEMPS_RIGHT), 0)
    assert kemps.gain > 0 and kemps.loss > 0 and kemps.missed > 0
    stop = stop_stakes(rules, 0, 1)
    assert stop.gain == pair_value(rules, score(rules, Call(CallKind.STOP_KEMPS, 0, 1), Outcome.STOP_RIGHT), 0)
    if rules.double_kemps:
        assert kemps_stakes(rules, 0, double=True).gain == 2 * kemps.gain


def test_letters_with_three_pairs_share_the_gain_of_a_letter_to_two_others():
    rules = load_rules("standard", players=6)
    assert kemps_stakes(rules, 0).gain == pytest.approx(1.0)  # both other pairs take a letter: +1 each, mean 1
    assert stop_stakes(rules, 0, 1).gain == pytest.approx(0.5)  # one of the two others takes it


def test_the_threshold_is_where_calling_and_waiting_are_worth_the_same():
    stakes = Stakes(gain=1.0, loss=1.0, missed=1.0)
    for h in (0.1, 0.5, 0.9):
        for risk in (0.5, 1.0, 2.25):
            p = threshold(stakes, h, risk)
            assert p == pytest.approx(risk / (risk + 2 * h))
            assert advantage(p, stakes, h, risk) == pytest.approx(0.0, abs=1e-12)
            assert advantage(p + 0.01, stakes, h, risk) > 0 > advantage(p - 0.01, stakes, h, risk)
    assert threshold(stakes, 0.0, 1.0) == 1.0  # nothing to lose by waiting: never call short of certainty


def test_a_look_that_cannot_settle_it_lowers_the_threshold_below_the_belief_s_limit():
    """With the belief's limit p̄ < 1 (a fake looks like a signal), waiting brings the belief to p̄ at most:
    p* = wL / (wL + h(G + M) + (1 - h) wL (1 - p̄)/p̄), where calling and waiting are worth the same; below p̄ when
    anything hurries the caller (h > 0: a belief rising toward its limit crosses it), at p̄ when nothing does; at
    p̄ = 1 the threshold of a settling look; when a call at p̄ is not worth making, waiting is never calling:
    p* = wL / (wL + G + hM)."""
    stakes = Stakes(gain=1.0, loss=1.0, missed=1.0)
    for h in (0.0, 0.02, 0.5):
        for risk in (0.5, 2.25):
            assert threshold(stakes, h, risk, 1.0) == threshold(stakes, h, risk)
            for limit in (0.95, 0.974, 0.7):
                loss = risk * stakes.loss
                p = threshold(stakes, h, risk, limit)
                if limit * stakes.gain > (1 - limit) * loss:
                    assert p == pytest.approx(loss / (loss + 2 * h + (1 - h) * loss * (1 - limit) / limit))
                    assert p < limit if h > 0 else p == pytest.approx(limit)
                else:
                    assert p == pytest.approx(loss / (loss + 1 + h))
                assert advantage(p, stakes, h, risk, limit) == pytest.approx(0.0, abs=1e-12)
                assert advantage(p + 0.01, stakes, h, risk, limit) > 0 > advantage(p - 0.01, stakes, h, risk, limit)
    # the cautious seats of a table that never called: w 2.25, h 1.8 %, a limit of 0.947 against p* 0.984 before
    assert threshold(stakes, 0.018, 2.25) > 0.98 > 0.947 > threshold(stakes, 0.018, 2.25, 0.947)
    assert hazard(0.2, 5.0) == pytest.approx(1 - math.exp(-1.0))


# The fit ----------------------------------------------------------------------------------------------------------
def test_the_prior_fit_recovers_known_log_odds():
    rng = np.random.default_rng(1)
    n = 60000
    k, still = rng.integers(0, 4, n), rng.integers(0, 7, n)
    elapsed, players = rng.integers(0, 6, n), rng.integers(0, 3, n)
    x, penalty = _design(k, still, elapsed, players)
    truth = np.zeros(x.shape[1])
    truth[0], truth[1:4] = -3.0, (0.5, 1.5, 2.5)  # intercept and the known-cards effects
    y = (rng.random(n) < 1 / (1 + np.exp(-(x @ truth)))).astype(float)
    beta = fit_logistic(x, y, penalty)
    assert beta[0] == pytest.approx(-3.0, abs=0.15)
    assert np.allclose(beta[1:4], (0.5, 1.5, 2.5), atol=0.15)


def test_reader_notes_the_revealed_hands_of_the_call_that_ends_a_round():
    log = [PlayStarted(0.0, 1, ()), CallHeard(5.0, 1, "stop_kemps", 0, "stop_wrong", False, 4.6, True, "ear"),
           Revealed(5.0, (0,), (tuple(cards("2C 3C 4C 5C")),), -1), Swept(6.0, 1, (), "x")]
    reader = TableReader(4, 2)
    reader.refresh(view("KS KH 4D 5H", "2D 3D 6H 7H", log, seat=2))
    assert len(reader.calls) == 1 and reader.calls[0].revealed == {0: tuple(cards("2C 3C 4C 5C"))}


def test_the_fit_script_writes_constants_the_belief_can_load(tmp_path):
    plan = FitPlan(lineups=("collector",), presets=("standard",), players=(4,), matches=2, max_rounds=2)
    before = fitted.PRIOR
    path = tmp_path / "fitted.py"
    _prior, rates, _provenance = run(plan, iterations=1, path=str(path))
    assert fitted.PRIOR is before  # the constants in use are left alone
    spec = importlib.util.spec_from_file_location("fitted_copy", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert rates == module.RATES and module.PROVENANCE["matches"] == 2 and module.PROVENANCE["seed"] == plan.seed
    table = np.array(module.PRIOR["one_for_one"]["4"])
    assert table.shape == (4, len(STILL_BOUNDS) + 1, len(ELAPSED_BOUNDS) + 1) and np.isfinite(table).all()
    assert set(module.PRIOR) == set(fitted.PRIOR) and set(module.RATES) == set(fitted.RATES)
    HoldPrior(RULES, module.PRIOR)  # the prior reads it


def test_the_committed_constants_come_from_the_script_with_its_defaults():
    plan, made = FitPlan(), fitted.PROVENANCE
    assert made["script"] == "scripts/fit_belief.py" and made["iterations"] >= 2
    assert (made["lineups"], made["presets"], made["players"]) == (list(plan.lineups), list(plan.presets),
                                                                  list(plan.players))
    assert (made["matches_per_table"], made["seed"], made["max_rounds"]) == (plan.matches, plan.seed,
                                                                            plan.max_rounds)
    for rule, tables in fitted.PRIOR.items():
        assert set(tables) == {"4", "6", "8"}, rule
