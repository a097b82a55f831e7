"""Fakes learnt from their timing: a bluffing pair's fakes come right after the faker's own swap, and a seat that was
burnt keeps that pair's honesty per bin of stillness (:mod:`kemps_sim.belief.tells`), so its early gestures are
discounted while its later ones stay credible.

The first tests check the bookkeeping against closed forms on hand-made tables. The measured ones play the standard
rules with both pairs keeping an ear touch all match (``signal='ear', signal_policy='fixed'``): the watchers know
the bluffers' signal from the first round, the condition in which fakes bait wrong Stop Kemps at once, so that what
changes across rounds is what the watchers learned. The knob is the belief's ``reads_tells``; "off" is the belief as
it was before tells were read (one honesty per pair), the "before" of every comparison, on the same seeds.

Counts are per round. Two counts over different numbers of rounds are compared by the conditional binomial test for
Poisson rates: given k₁ + k₂ events, k₁ is binomial with p = n₁·r₁ / (n₁·r₁ + n₂·r₂) under rates r₁, r₂; win rates
by Fisher's exact test. The thresholds are p-values, so the tolerance follows from the sample size.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from scipy.stats import binomtest, fisher_exact

from kemps_sim import EngineConfig, load_rules, simulate_match
from kemps_sim.belief import Belief
from kemps_sim.belief.decision import SHY
from kemps_sim.belief.honesty import Honesty
from kemps_sim.belief.tells import CUE_LEAD, NO_TELLS, TELL_EDGE, TimingTells
from kemps_sim.belief.tracking import HeardCall, TableReader
from kemps_sim.cards import cards
from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.observation import Observation
from kemps_sim.perception import Attention, Percept
from kemps_sim.profiles import PlayerProfile
from kemps_sim.state import RoundState
from kemps_sim.trace import CallHeard, PlayStarted, Swapped

RULES = load_rules("standard")
#: Gaze on the middle only: every swap is noticed, so that no draw decides what the seat knows of a hand.
MIDDLE = Attention(partner=0.0, opponents=0.0, middle=1.0, own_hand=0.0)
EAR = "(signal='ear', signal_policy='fixed')"
TOLD, UNTOLD = f"bluffer{EAR}", "bluffer(signal='ear', signal_policy='fixed', partner_knows=False)"
WATCHER = f"watcher{EAR}"


def took(t: float, seat: int, gave: str, take: str) -> Swapped:
    return Swapped(t, seat, tuple(cards(gave)), tuple(cards(take)))


def view(log: list, percepts: list, now: float, round_index: int = 0) -> Observation:
    """Seat 0's view of a hand-made table: nothing in hand that matters, every pair signalling with an ear touch."""
    hands = [cards("KS KH 4D 5C"), [], [], []]
    state = RoundState.sketch(RULES, hands=hands, middle=cards("2C 3C 6H 7H"), log=log, now=now, dealer=1,
                              signals_allowed=DEFAULT_REPERTOIRE.names, round_index=round_index)
    state.signals = ("ear",) * RULES.pairs
    state.percepts[0] = percepts
    return Observation(0, state, profile=PlayerProfile(attention=MIDDLE))


def nines(seat: int, start: float) -> list[Swapped]:
    """``seat`` takes three nines, one a second from ``start`` (its last swap at ``start + 2``)."""
    return [took(start, seat, "2C", "9H"), took(start + 1.0, seat, "3C", "9D"), took(start + 2.0, seat, "4C", "9S")]


# The bins and the reader's clock ---------------------------------------------------------------------------------
def test_timing_tells_bin_by_stillness_and_refuse_bad_edges():
    tells = TimingTells()
    assert tells.bins == 2 and NO_TELLS.bins == 1
    assert tells.bin(0.6) == 0 and tells.bin(TELL_EDGE) == 1 and tells.bin(30.0) == 1 and tells.bin(None) is None
    assert NO_TELLS.bin(None) == 0 and NO_TELLS.bin(0.6) == 0
    assert TimingTells((1.0, 3.0)).bin(2.0) == 1
    for bounds in ((2.0, 1.0), (0.0,), (math.inf,), ("1",), [1.5]):
        with pytest.raises(ConfigError, match=r"^tells\.bounds = "):
            TimingTells(bounds)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^tells\.cue_lead = -1"):
        TimingTells(cue_lead=-1)


def test_the_reader_times_a_gesture_from_the_gesturers_own_last_swap_in_this_round_or_the_last():
    reader = TableReader(4, 0)
    log0 = [PlayStarted(0.5, 1, ()), *nines(1, 2.0)]
    reader.refresh(view(log0, [], 5.0))
    assert reader.stillness_at(1, 4.6, 0) == pytest.approx(0.6)  # 0.6 s after its swap at 4.0
    assert reader.stillness_at(1, 3.5, 0) == pytest.approx(0.5)
    assert reader.stillness_at(3, 4.0, 0) == pytest.approx(3.5)  # no swap: still since play opened
    assert reader.stillness_at(3, 0.2, 0) is None  # before play opened
    reader.refresh(view([PlayStarted(0.0, 1, ()), took(1.0, 1, "2C", "9H")], [], 2.0, round_index=1))
    assert reader.stillness_at(1, 4.6, 0) == pytest.approx(0.6)  # the last round's calls can still be timed
    assert reader.stillness_at(1, 4.6, 1) == pytest.approx(3.6)
    assert reader.stillness_at(1, 4.6, 5) is None


# Honesty per bin: closed forms ------------------------------------------------------------------------------------
def burnt_and_rewarded(tells: TimingTells) -> Honesty:
    """Seat 0's honesty after its wrong Stop Kemps on seat 1's ear touch 0.6 s after seat 1's swap, then its right
    one on an ear touch 6 s after that swap, each percept certainly deliberate."""
    honesty = Honesty(2, 0, by_pair=False, tells=tells)
    reader = TableReader(4, 0)
    reader.refresh(view([PlayStarted(0.0, 1, ()), *nines(1, 2.0)], [], 5.0))  # seat 1's last swap at 4.0
    early, late = Percept(1, "ear", 2.0, 4.0, "fixated", 4.6), Percept(1, "ear", 2.0, 4.0, "fixated", 10.0)
    honesty.remember(0, [early, late])
    reader.calls.append(HeardCall(0, CallHeard(5.5, 0, "stop_kemps", 1, "stop_wrong", False, 5.1, False, "ear"), {}))
    honesty.update(reader, 0, lambda p, r: 1.0)
    reader.calls.append(HeardCall(0, CallHeard(11.0, 0, "stop_kemps", 1, "stop_right", True, 10.6, True, "ear"), {}))
    honesty.update(reader, 0, lambda p, r: 1.0 if p.time > 5.5 else 0.0)  # the burn's percept is spent by then
    return honesty


def test_a_burn_and_a_reward_go_to_the_bins_of_their_gestures():
    honesty = burnt_and_rewarded(TimingTells())
    assert honesty.fakes_by[1] == pytest.approx([0.1 + 1.0, 0.1])  # the fake came 0.6 s after the swap
    assert honesty.real_by[1] == pytest.approx([0.9, 0.9 + 1.0])  # the real signal after 6 s of stillness
    assert honesty.fake_odds(1, 0) == pytest.approx(1.1 / 0.9)
    assert honesty.fake_odds(1, 1) == pytest.approx(0.1 / 1.9)
    # over all bins: the one-bin belief, where the reward buys back most of the burn
    assert honesty.fakes[1] == pytest.approx(1.1) and honesty.real[1] == pytest.approx(1.9)
    assert honesty.fake_odds(1) == pytest.approx(1.1 / 1.9)
    assert honesty.fakes_by[0] == [0.05, 0.05]  # the own pair untouched, from its own prior


def test_with_the_knob_off_one_bin_is_the_belief_over_all_bins():
    honesty = burnt_and_rewarded(NO_TELLS)
    assert honesty.fakes_by[1] == pytest.approx([1.1]) and honesty.real_by[1] == pytest.approx([1.9])
    assert honesty.fake_odds(1, 0) == honesty.fake_odds(1) == pytest.approx(1.1 / 1.9)


def test_a_cue_the_seat_did_not_see_is_timed_from_the_call_and_weighed_by_whose_call_it_was():
    honesty = Honesty(2, 0, by_pair=False)
    reader = TableReader(4, 0)
    reader.refresh(view([PlayStarted(0.0, 1, ()), *nines(1, 2.0)], [], 5.0))
    honesty.remember(0, [])
    # my partner (seat 2) began a wrong Stop Kemps 0.5 s + CUE_LEAD after seat 1's last swap: the cue came early
    call = CallHeard(5.2 + CUE_LEAD, 2, "stop_kemps", 1, "stop_wrong", False, 4.5 + CUE_LEAD, True, "ear")
    reader.calls.append(HeardCall(0, call, {}))
    honesty.update(reader, 0, lambda p, r: 0.8 if p.gesture == "ear" else 0.0)
    assert honesty.fakes_by[1] == pytest.approx([0.1 + honesty.partner_weight * 0.8, 0.1])
    assert honesty.partner_weight == 1.0
    # six players: a wrong Stop Kemps by a third pair's player counts public_weight; a call of a round the reader
    # no longer holds cannot be timed, so it counts in every bin
    six = Honesty(3, 0, by_pair=False)
    six.remember(0, [])
    far = TableReader(6, 0)
    far.calls.append(HeardCall(0, CallHeard(9.0, 2, "stop_kemps", 1, "stop_wrong", False, 8.6, True, "ear"), {}))
    six.update(far, 0, lambda p, r: 0.8)
    assert six.fakes_by[1] == pytest.approx([0.1 + six.public_weight * 0.8] * 2)
    assert six.public_weight == 0.5


# The belief: the tell is learned ------------------------------------------------------------------------------------
def belief_after_a_burn(reads_tells: bool) -> Belief:
    """Seat 0 after round 0, in which it called a wrong Stop Kemps on seat 1's ear touch 0.6 s after seat 1's swap."""
    belief = Belief(0, 4, np.random.default_rng(0), reads_tells=reads_tells)
    log: list = [PlayStarted(0.0, 1, ()), *nines(1, 1.0)]
    percepts = [Percept(1, "ear", 2.0, 4.0, "fixated", 3.6)]
    belief.refresh(view(log, percepts, 3.9))
    log.append(CallHeard(4.3, 0, "stop_kemps", 1, "stop_wrong", False, 3.9, True, "ear"))
    belief.refresh(view(log, percepts, 4.4))
    return belief


def believed(belief: Belief, made_at: float) -> tuple[float, Observation]:
    """P(seat 1 holds four) in round 1 at 9 s, seat 1 having taken three nines (last at 3 s) and touched its ear at
    ``made_at``: the same prior and the same likelihood whenever the touch came, only its timing differs."""
    obs = view([PlayStarted(0.0, 1, ()), *nines(1, 1.0)], [Percept(1, "ear", 2.0, 4.0, "fixated", made_at)], 9.0,
               round_index=1)
    belief.refresh(obs)
    return belief.probability(obs, 1), obs


def closed_form(belief: Belief, obs: Observation) -> float:
    """The model's P(H | seen) = πΛ / (πΛ + P(F)Λ + P(N)), P(F) = min(π·r, 1 − π), r the odds of the tell's bin."""
    prior = 1.0 / (1.0 + math.exp(-belief.log_prior(obs, 1)))
    ratio = belief.ratio(obs, 1)
    assert belief.honesty is not None
    fake = min(prior * belief.honesty.fake_odds(1, belief.tell(1)), 1.0 - prior)
    return prior * ratio / (prior * ratio + fake * ratio + 1.0 - prior - fake)


def test_after_a_burn_a_gesture_right_after_a_swap_is_believed_less_than_one_after_a_stillness():
    early_belief, late_belief = belief_after_a_burn(True), belief_after_a_burn(True)
    early, early_obs = believed(early_belief, 3.6)  # 0.6 s after its swap, as the fake came
    late, late_obs = believed(late_belief, 8.5)  # after 5.5 s of stillness
    assert early_belief.tell(1) == 0 and late_belief.tell(1) == 1
    assert late_belief.tell(2) is None  # the partner's tell is not read: trusted, its honesty is one belief
    assert early < 0.5 < late, (early, late)
    assert early == pytest.approx(closed_form(early_belief, early_obs), rel=1e-12)
    assert late == pytest.approx(closed_form(late_belief, late_obs), rel=1e-12)
    # the burn counted in the early bin only, as much as the percept was deliberate (≈ 1): the late odds are the
    # prior's, the early ones ≈ 1.1 against 0.9
    assert late_belief.honesty is not None
    weight = late_belief._weight(1, "ear", 4.0)
    assert 0.99 < weight < 1.0
    assert late_belief.honesty.fake_odds(1, 1) == pytest.approx(0.1 / 0.9)
    assert late_belief.honesty.fake_odds(1, 0) == pytest.approx((0.1 + weight) / 0.9)


def test_with_the_knob_off_the_timing_of_a_gesture_changes_nothing():
    early, _ = believed(belief_after_a_burn(False), 3.6)
    late, _ = believed(belief_after_a_burn(False), 8.5)
    assert early == late


# Measured: the tell is learned at the table -------------------------------------------------------------------------
def tells_read(entry: str, on: bool, shy: float = SHY) -> str:
    """A lineup entry ``name(...)`` with the agent's ``reads_tells`` knob set (passed to its belief), and its
    ``shy`` (:mod:`kemps_sim.belief.decision`)."""
    return f"{entry[:-1]}, reads_tells={on}, shy={shy})"


LONG = load_rules("standard", scoring="points", target_points=100)
UNPRIMED = {"observer": {"priming": 0.0}}


@functools.cache
def wrong_stops_by_round(opponent: str, on: bool, matches: int = 150, rounds: int = 8,
                         shy: float = SHY) -> tuple[tuple[int, int], ...]:
    """Per round index: (rounds, wrong Stop Kemps by the watchers in pair 1 against ``opponent`` in pair 0), every
    match lasting ``rounds`` rounds (points to 100, capped), so that late rounds are as many as early ones.

    One factor at a time: the watchers are not primed (``observer.priming`` 0). A primed watcher also reads the
    pair's idle look-alikes as its known signal, wrong Stops that come from misreading rather than from fakes, and
    that no reading of fakes removes (tests/test_human_errors.py measures those)."""
    tally = [[0, 0] for _ in range(rounds)]
    lineup = [tells_read(opponent, on, shy), tells_read(WATCHER, on, shy)]
    for seed in range(matches):
        result = simulate_match(LONG, lineup, UNPRIMED, seed=seed, config=EngineConfig(max_rounds=rounds))
        for rnd in result.rounds:
            tally[rnd.index][0] += 1
            tally[rnd.index][1] += sum(type(e) is CallHeard and e.call == "stop_kemps" and not e.right
                                       and e.seat % 2 == 1 for e in rnd.trace)
    return tuple((n, k) for n, k in tally)


def rates_below(low: tuple[int, int], high: tuple[int, int], factor: float = 1.0) -> float:
    """p-value of "the rate of ``low`` (rounds, events) is below ``factor`` times that of ``high``"."""
    (n_low, k_low), (n_high, k_high) = low, high
    p = n_low * factor / (n_low * factor + n_high)
    return binomtest(k_low, k_low + k_high, p, alternative="less").pvalue


def late(tally: tuple[tuple[int, int], ...], start: int = 5) -> tuple[int, int]:
    return sum(n for n, _ in tally[start:]), sum(k for _, k in tally[start:])


def test_watchers_learn_a_told_bluffing_pairs_fakes_within_a_few_rounds():
    """300 matches of 8 rounds: watchers' wrong Stop Kemps per round in rounds 5-7 are at most a third of round 0's
    (measured 0.05 against 0.61), and fewer than with the tells unread (measured 45 against 104 in 900 rounds).

    Most of the fall is the watchers' own burns (tests/test_shy_callers.py: 104 against 571 with tells unread); the
    tells add to it. Without the burns they barely move the watchers (measured 557 against 571): at the built-ins'
    fitted caution, a fake baits a call even when believed a fake more often than not."""
    on, off = wrong_stops_by_round(TOLD, True, 300), wrong_stops_by_round(TOLD, False, 300)
    first, rest = on[0], late(on)
    assert first[0] == 300 and rest[0] == 900
    assert first[1] >= 90, first  # the fakes do bait wrong calls before anything is learned
    assert rates_below(rest, first, 1 / 3) < 0.01, (first, rest)
    assert rates_below(rest, late(off)) < 0.05, (rest, late(off))


@functools.cache
def results(lineup: tuple[str, str], on: bool, matches: int = 150) -> dict[str, int]:
    """Standard matches of ``lineup`` (bluffers in pair 0): pair 0's wins, the rounds, pair 0's wrong Kemps."""
    counts = dict.fromkeys(("wins", "rounds", "wrong_kemps"), 0)
    entries = [tells_read(entry, on) for entry in lineup]
    for seed in range(matches):
        result = simulate_match("standard", entries, seed=seed)
        counts["wins"] += result.winners == (0,)
        for rnd in result.rounds:
            counts["rounds"] += 1
            counts["wrong_kemps"] += sum(type(e) is CallHeard and e.call == "kemps" and not e.right
                                         and e.seat % 2 == 0 for e in rnd.trace)
    return counts


def test_a_told_bluffing_pair_wins_clearly_fewer_matches_once_its_tell_is_read():
    """150 matches each: measured 0.69 with the tell read against 0.88 without (the watchers shy after a burn
    either way: with the tell read, of the bluffers' gestures right after their swaps only)."""
    on, off = results((TOLD, WATCHER), True), results((TOLD, WATCHER), False)
    table = [[on["wins"], 150 - on["wins"]], [off["wins"], 150 - off["wins"]]]
    assert fisher_exact(table, alternative="less").pvalue < 1e-4, table


def test_untold_bluffing_costs_its_own_pair():
    """With the tell read (150 matches each): the untold partner answers fakes with wrong Kemps (measured 0.40 a round,
    against 0.05 from a told pair: slips and misreads), and the pair that did not agree wins fewer matches than the
    same pair with the protocol agreed (measured 0.29 against 0.69)."""
    told, untold = results((TOLD, WATCHER), True), results((UNTOLD, WATCHER), True)
    told_kemps, untold_kemps = (told["rounds"], told["wrong_kemps"]), (untold["rounds"], untold["wrong_kemps"])
    assert rates_below(told_kemps, untold_kemps) < 1e-6, (told, untold)
    table = [[untold["wins"], 150 - untold["wins"]], [told["wins"], 150 - told["wins"]]]
    assert fisher_exact(table, alternative="less").pvalue < 0.05, table
