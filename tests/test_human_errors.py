"""Tests of the human errors of the model: look-alike gestures read as the awaited one (priming), the belief that
neglects them (base-rate neglect), idle gestures of the pair's own signal that look meant (slips), and signals
whose form an observer does not know yet (unfamiliar).

Each mechanism is checked against its closed form where it has one, and switched off alone against the statistic it
should move (wrong calls), on the same seeds. Statistical tolerances: ``K`` binomial standard errors for shares; for
the effect on wrong calls, a one-sided exact binomial test of the "on" count among all wrong calls of both arms
(equal rates put it at one half), at level 0.01.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binomtest, norm

from kemps_sim import simulate_match
from kemps_sim.belief.percepts import fidget_rate
from kemps_sim.engine.seat import SeatKit
from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE, FACE, Gesture, Repertoire
from kemps_sim.perception import Attention, Observer, Perceiver
from kemps_sim.profiles import PlayerProfile
from kemps_sim.trace import CallHeard, Gestured, Perceived
from tests.scripted import Idle

K = 5  # tolerance in binomial standard errors
#: Two collecting pairs with distinct, fixed signals: every difference between arms is the mechanism's.
LINEUP = "collector(signal='ear',signal_policy='fixed'),collector(signal='nose',signal_policy='fixed')"


# Look-alike families ---------------------------------------------------------------------------------------------
def test_face_touches_form_one_family_and_other_gestures_none() -> None:
    face = [g.name for g in DEFAULT_REPERTOIRE if g.family == FACE]
    assert face == ["cheek", "chin", "ear", "eye_rub", "forehead", "hair", "mouth", "nose"]
    assert DEFAULT_REPERTOIRE.look_alikes("ear") == tuple(n for n in face if n != "ear")
    for name in ("blink", "cough", "nod", "tap", "word", "yawn"):
        assert DEFAULT_REPERTOIRE.look_alikes(name) == ()
    # the face touches add up to Kwok et al.'s 23 an hour less the 6% that touch several places at once
    total = sum(DEFAULT_REPERTOIRE[n].fidget_rate_per_hour for n in face)
    assert total == pytest.approx(23 * 0.56 + 23 * 0.44 * 0.94, abs=0.05)


def test_family_round_trips_and_bad_family_is_one_line() -> None:
    assert Repertoire.from_mapping(DEFAULT_REPERTOIRE.as_dict()) == DEFAULT_REPERTOIRE
    with pytest.raises(ConfigError, match=r"^repertoire\.wink\.family = 'two words': must be a word"):
        Repertoire.from_mapping({"wink": {"fidget_rate_per_hour": 1.0, "family": "two words"}})
    with pytest.raises(ConfigError, match="not in the repertoire"):
        DEFAULT_REPERTOIRE.look_alikes("wink")
    assert Gesture("wink", family="eyes").as_dict()["family"] == "eyes"


# Priming: reading a look-alike as the awaited gesture ------------------------------------------------------------
@pytest.mark.parametrize(("priming", "alikes"), [(0.3, ("ear",)), (0.6, ("chin", "ear", "hair"))])
def test_misread_probability_is_priming_split_evenly(priming: float, alikes: tuple[str, ...]) -> None:
    perceiver = Perceiver(Observer(priming=priming), Attention(), np.random.default_rng(7), n_opponents=2)
    n = 20_000
    reads = [perceiver.misread(alikes) for _ in range(n)]
    for name in alikes:
        share = sum(r == name for r in reads) / n
        p = priming / len(alikes)
        assert abs(share - p) < K * math.sqrt(p * (1 - p) / n)
    assert sum(r is None for r in reads) / n == pytest.approx(1 - priming, abs=K * math.sqrt(0.25 / n))


@pytest.mark.parametrize("d_prime", [0.0, 0.8, 2.0, 3.0])
def test_misread_chance_falls_with_the_d_prime_the_gesture_was_seen_with(d_prime: float) -> None:
    """Priming at d' = 0; an observer who tells forms apart with d' confuses them as an unbiased one does two forms
    d' apart: priming · 2Φ(−d'/2). Checked in closed form and on the perceiver's draws after a percept at that d'."""
    observer = Observer(priming=0.9, d_fixated=d_prime, criterion=-10.0)  # every gesture in view is noticed
    chance = 0.9 * 2 * norm.cdf(-d_prime / 2)
    assert observer.misread_chance(d_prime) == pytest.approx(chance, rel=1e-12)
    perceiver = Perceiver(observer, Attention(1.0, 0.0, 0.0, 0.0, peripheral=0.0), np.random.default_rng(11),
                          n_opponents=2)
    n, reads = 20_000, 0
    for _ in range(n):
        assert perceiver.perceive(DEFAULT_REPERTOIRE["hair"], False, "partner") is not None
        reads += perceiver.misread(("ear",)) == "ear"
    assert abs(reads / n - chance) < K * math.sqrt(chance * (1 - chance) / n) + 1e-9


def test_no_priming_draws_nothing_and_reads_nothing() -> None:
    rng = np.random.default_rng(3)
    perceiver = Perceiver(Observer(priming=0.0), Attention(), rng, n_opponents=2)
    before = rng.bit_generator.state
    assert perceiver.misread(("ear",)) is None
    assert rng.bit_generator.state == before


def _percepts_by_source(profile: dict, seeds: range) -> list[tuple[str, str, bool, str, bool]]:
    """(gesture made, gesture read, by a partner, the gesturer's pair's signal, whether the table had seen that
    signal called in an earlier round) for every percept of a face touch in these matches."""
    found = []
    for seed in seeds:
        result = simulate_match("standard", LINEUP, profile, seed)
        called: set[tuple[int, str]] = set()
        for rnd in result.rounds:
            made = {(e.seat, e.time): e.gesture for e in rnd.trace if type(e) is Gestured}
            for e in rnd.trace:
                if type(e) is Perceived and DEFAULT_REPERTOIRE[e.gesture].family == FACE:
                    pair = e.gesturer % 2
                    found.append((made[(e.gesturer, e.made_at)], e.gesture, pair == e.seat % 2, rnd.signals[pair],
                                  (pair, rnd.signals[pair]) in called))
            for e in rnd.trace:
                if type(e) is CallHeard and e.cue:
                    pair = (e.seat if e.accused < 0 else e.accused) % 2
                    if e.cue == rnd.signals[pair]:
                        called.add((pair, e.cue))
    return found


def test_the_engine_reads_look_alikes_as_an_awaited_signal_only_when_primed() -> None:
    """Primed, a seat reads look-alikes as the signal it awaits: its partner's always, an opponent's once the table
    has seen that pair's signal called; never as anything else."""
    primed = _percepts_by_source({"observer": {"priming": 1.0}, "fidget_scale": 6.0}, range(6))
    misread = [row for row in primed if row[0] != row[1]]
    assert any(by_partner for _, _, by_partner, _, _ in misread), "a partner's look-alike is read as the signal"
    assert any(not by_partner for _, _, by_partner, _, _ in misread), "so is a known opponent signal's"
    for made, read, by_partner, signal, known in misread:
        assert read == signal and DEFAULT_REPERTOIRE[made].family == FACE
        assert by_partner or known
    plain = _percepts_by_source({"observer": {"priming": 0.0}, "fidget_scale": 6.0}, range(6))
    assert plain and all(made == read for made, read, *_ in plain)


# Base-rate neglect in the belief ----------------------------------------------------------------------------------
def test_believed_idle_rate_counts_the_misread_look_alikes_only_without_neglect() -> None:
    ear = DEFAULT_REPERTOIRE["ear"].fidget_rate
    others = sum(DEFAULT_REPERTOIRE[n].fidget_rate for n in DEFAULT_REPERTOIRE.look_alikes("ear"))
    misread = 0.4 * 2 * norm.cdf(-0.8 / 2)  # the misread chance in the periphery, d' = 0.8
    assert fidget_rate(DEFAULT_REPERTOIRE, "ear", Observer(priming=0.4, neglect=1.0)) == ear
    assert fidget_rate(DEFAULT_REPERTOIRE, "ear", Observer(priming=0.4, neglect=0.0, d_peripheral=0.8)) == \
        pytest.approx(ear + misread * others)
    assert fidget_rate(DEFAULT_REPERTOIRE, "ear", Observer(priming=0.4, neglect=0.25, d_peripheral=0.8)) == \
        pytest.approx(ear + misread * 0.75 * others)
    assert fidget_rate(DEFAULT_REPERTOIRE, "cough", Observer(priming=1.0, neglect=0.0)) == (
        DEFAULT_REPERTOIRE["cough"].fidget_rate)


@pytest.mark.parametrize(("field", "value"), [("priming", 1.5), ("neglect", -0.1)])
def test_bad_observer_error_knobs_are_one_line(field: str, value: float) -> None:
    with pytest.raises(ConfigError, match=rf"^profile\.observer\.{field} = {value}: "):
        PlayerProfile.from_mapping({"observer": {field: value}})


# Slips ------------------------------------------------------------------------------------------------------------
def test_slips_are_idle_gestures_of_the_own_signal_at_the_slip_rate() -> None:
    """4 slips an hour out of an ear touched 2.58 x 10 times an hour: a share of 4 / 25.8 of the idle ear touches."""
    own = {0: "ear", 1: "nose"}
    slips = idle_own = 0
    for seed in range(30):
        result = simulate_match("standard", LINEUP, {"slips_per_hour": 4.0, "fidget_scale": 10.0}, seed)
        for rnd in result.rounds:
            for e in rnd.trace:
                if type(e) is Gestured and not e.deliberate and e.seat % 2 == 0:
                    if e.slip:
                        assert e.gesture == own[e.seat % 2], "only the pair's own signal slips"
                    if e.gesture == own[e.seat % 2]:
                        idle_own += 1
                        slips += e.slip
    share = 4.0 / (DEFAULT_REPERTOIRE["ear"].fidget_rate_per_hour * 10.0)
    assert idle_own > 100
    assert abs(slips / idle_own - share) < K * math.sqrt(share * (1 - share) / idle_own)


def test_a_frequent_signal_slips_no_more_often_than_a_rare_one() -> None:
    """The slips are a rate: a blink signal (1,200 idle blinks an hour) slips at the same
    rate an hour as an ear touch, not at a share of its blinks."""
    profile = PlayerProfile(slips_per_hour=3.0)
    kit = SeatKit.build(0, Idle(), "idle", profile, 4, DEFAULT_REPERTOIRE, False, np.random.SeedSequence(1))
    for name in ("blink", "ear", "nose"):
        idle = DEFAULT_REPERTOIRE[name].rate_for(profile.fidget_scale) * 3600.0  # a blink is not scaled
        assert kit.slip_chance(name) * idle == pytest.approx(3.0)
    assert kit.slip_chance("cough") == 1.0  # half an idle cough an hour: every one of them looks meant (capped)


def test_bad_slip_rate_is_one_line() -> None:
    with pytest.raises(ConfigError, match=r"^profile\.slips_per_hour = -1: must be a number >= 0"):
        PlayerProfile.from_mapping({"slips_per_hour": -1})


# Each mechanism switched off alone: fewer wrong calls on the same seeds -------------------------------------------
def _wrong_kemps(profile: dict, seeds: range) -> int:
    """Wrong Kemps calls in these matches: what a partner's misread or slipped gesture leads to."""
    return sum(1 for seed in seeds for rnd in simulate_match("standard", LINEUP, profile, seed).rounds
               for e in rnd.trace if type(e) is CallHeard and e.call == "kemps" and not e.right)


#: Every arm fidgets six times as much as the default player, so that 120 matches show the mechanism's effect.
BUSY = 6.0


@pytest.mark.parametrize(("on", "off"), [
    ({"observer": {"priming": 0.8}, "slips_per_hour": 0.0}, {"observer": {"priming": 0.0}, "slips_per_hour": 0.0}),
    ({"observer": {"priming": 0.8, "neglect": 1.0}, "slips_per_hour": 0.0},
     {"observer": {"priming": 0.8, "neglect": 0.0}, "slips_per_hour": 0.0}),
    ({"observer": {"priming": 0.0}, "slips_per_hour": 100.0}, {"observer": {"priming": 0.0}, "slips_per_hour": 0.0}),
], ids=["priming", "neglect", "slips"])
def test_each_error_mechanism_raises_wrong_kemps(on: dict, off: dict) -> None:
    seeds = range(100, 220)
    with_it = _wrong_kemps({**on, "fidget_scale": BUSY}, seeds)
    without = _wrong_kemps({**off, "fidget_scale": BUSY}, seeds)
    assert binomtest(with_it, with_it + without, 0.5, alternative="greater").pvalue < 0.01, (with_it, without)


def test_calling_in_a_race_raises_wrong_calls() -> None:
    """The built-ins' fitted caution against the loss aversion of a gamble at leisure (the race switched off), on
    the same 60 matches at the default profile, neither caution raised by burns (``shy=0``): more wrong calls of every
    kind with the race on."""
    from kemps_sim_agents.composed import CAUTION, LOSS_AVERSION

    assert CAUTION < LOSS_AVERSION
    counts = []
    for caution in (CAUTION, LOSS_AVERSION):
        lineup = LINEUP.replace("signal_policy='fixed'", f"signal_policy='fixed',caution={caution!r},shy=0")
        counts.append(sum(1 for seed in range(300, 360) for rnd in simulate_match("standard", lineup, None, seed).rounds
                          for e in rnd.trace if type(e) is CallHeard and not e.right))
    racing, leisurely = counts
    assert binomtest(racing, racing + leisurely, 0.5, alternative="greater").pvalue < 0.01, counts


# Unfamiliar signals: d' shrinks until the table has seen the pair's signal called ---------------------------------
@pytest.mark.parametrize("familiar", [True, False])
def test_an_unfamiliar_signal_is_seen_with_the_reduced_d_prime(familiar: bool) -> None:
    observer = Observer(d_fixated=2.0, criterion=0.5, unfamiliar=0.4)
    always_fixated = Attention(partner=0.0, opponents=1.0, middle=0.0, own_hand=0.0, peripheral=0.0)
    perceiver = Perceiver(observer, always_fixated, np.random.default_rng(11), n_opponents=1)
    n = 20_000
    hits = sum(perceiver.perceive(DEFAULT_REPERTOIRE["ear"], True, "opponent", familiar=familiar) is not None
               for _ in range(n))
    d = 2.0 * (1.0 if familiar else 0.4)
    expected = 0.5 * math.erfc(-(d / 2 - 0.5) / math.sqrt(2))  # Φ(d'/2 − c)
    assert abs(hits / n - expected) < K * math.sqrt(expected * (1 - expected) / n)


def test_the_table_learns_a_signals_form_from_the_calls_it_hears() -> None:
    """Once a call has answered a pair's signal, every seat knows its form: the next rounds see it familiar."""
    from kemps_sim.engine.match import _seen_called
    from kemps_sim.presets import load_rules

    rules = load_rules("standard")
    result = simulate_match(rules, LINEUP, None, 3)
    first = result.rounds[0]
    seen = _seen_called(rules, first)
    cues = [(e.seat, e.accused, e.cue) for e in first.trace if type(e) is CallHeard]
    assert cues, "the round ended with a call"
    for seat, accused, cue in cues:
        pair = (seat if accused < 0 else accused) % 2
        assert ((pair, cue) in seen) == (cue == first.signals[pair])
