"""Tests of attention, lazy gaze and signal detection against the closed-form SDT rates."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from kemps_sim.errors import ConfigError
from kemps_sim.fitted_human import FITTED
from kemps_sim.gestures import DEFAULT_REPERTOIRE, Gesture
from kemps_sim.perception import (
    Attention,
    Observer,
    Perceiver,
    Percept,
    detection_probability,
    false_alarm_probability,
    false_alarm_rate,
    gaze_at,
    hit_probability,
    hit_rate,
    normal_cdf,
    perceive,
)

N = 40_000
K = 5  # tolerance in standard errors
PHI = NormalDist().cdf  # an independent Φ for the closed forms
EAR = DEFAULT_REPERTOIRE["ear"]
COUGH = DEFAULT_REPERTOIRE["cough"]
OBSERVER = Observer(criterion=1.0)  # the closed forms below are written for c = 1
LOOK_AT_PARTNER = Attention(partner=1.0, opponents=0.0, middle=0.0, own_hand=0.0, peripheral=0.0)
LOOK_AWAY_PERIPHERAL = Attention(partner=0.0, opponents=0.0, middle=1.0, own_hand=0.0, peripheral=1.0)
LOOK_AWAY_BLIND = Attention(partner=0.0, opponents=0.0, middle=1.0, own_hand=0.0, peripheral=0.0)


def _rate(perceiver: Perceiver, gesture: Gesture, deliberate: bool, relation: str = "partner",
          busy: bool = False, n: int = N) -> tuple[float, list[Percept]]:
    percepts = [perceiver.perceive(gesture, deliberate, relation, busy, gesturer=2, time=1.5) for _ in range(n)]
    hits = [p for p in percepts if p is not None]
    return len(hits) / n, hits


def _close(rate: float, p: float, n: int = N) -> bool:
    return abs(rate - p) <= K * math.sqrt(p * (1 - p) / n) + 1e-9


def test_closed_forms() -> None:
    assert hit_rate(2.0, 1.0) == pytest.approx(0.5)
    assert false_alarm_rate(2.0, 1.0) == pytest.approx(PHI(-2.0))
    assert hit_rate(0.8, 0.0) == pytest.approx(PHI(0.4))
    assert hit_rate(0.0, 0.3) == false_alarm_rate(0.0, 0.3)


def test_the_normal_cdf_agrees_with_scipy_in_both_tails() -> None:
    """Φ without SciPy: within 1e-12 relative of scipy.special.ndtr from 1e-300 up to 1, and exact at 0."""
    from scipy.special import ndtr

    xs = np.concatenate([np.linspace(-37.0, 8.5, 9_101), [-1e-12, 0.0, 1e-12]])
    ours = np.array([normal_cdf(float(x)) for x in xs])
    assert normal_cdf(0.0) == 0.5
    np.testing.assert_allclose(ours, ndtr(xs), rtol=1e-12, atol=0)


def test_fixated_observer_matches_sdt_hit_and_false_alarm_rates() -> None:
    perceiver = Perceiver(OBSERVER, LOOK_AT_PARTNER, np.random.default_rng(31), n_opponents=2)
    hits, percepts = _rate(perceiver, EAR, True)
    fas, _ = _rate(perceiver, EAR, False)
    assert _close(hits, hit_rate(2.0, 1.0))
    assert _close(fas, false_alarm_rate(2.0, 1.0))
    p = percepts[0]
    assert (p.gesturer, p.gesture, p.gaze, p.time) == (2, "ear", "fixated", 1.5)
    assert all(q.evidence > OBSERVER.criterion and math.isclose(q.llr, 2.0 * q.evidence) for q in percepts)


def test_peripheral_uses_d_peripheral_and_salience() -> None:
    perceiver = Perceiver(OBSERVER, LOOK_AWAY_PERIPHERAL, np.random.default_rng(32), n_opponents=2)
    yawn = DEFAULT_REPERTOIRE["yawn"]
    for gesture in (EAR, yawn):
        d = 0.8 * gesture.salience
        hits, percepts = _rate(perceiver, gesture, True)
        assert _close(hits, hit_rate(d, 1.0)) and {p.gaze for p in percepts} == {"peripheral"}
        assert all(math.isclose(q.llr, d * q.evidence) for q in percepts)
        assert _close(_rate(perceiver, gesture, False)[0], false_alarm_rate(d, 1.0))


def test_unseen_never_perceives() -> None:
    perceiver = Perceiver(OBSERVER, LOOK_AWAY_BLIND, np.random.default_rng(33), n_opponents=2)
    assert _rate(perceiver, EAR, True, n=10_000)[0] == 0.0
    assert _rate(perceiver, EAR, True, "opponent", n=10_000)[0] == 0.0


def test_heard_gestures_reach_everyone_whatever_the_gaze_or_hands() -> None:
    for seed, attention in enumerate((LOOK_AWAY_BLIND, LOOK_AT_PARTNER)):
        perceiver = Perceiver(OBSERVER, attention, np.random.default_rng(34 + seed), n_opponents=2)
        hits, percepts = _rate(perceiver, COUGH, True, "opponent", busy=True)
        assert _close(hits, hit_rate(OBSERVER.heard_d, 1.0)) and {p.gaze for p in percepts} == {"heard"}


def test_busy_hands_halve_detection_of_seen_gestures() -> None:
    perceiver = Perceiver(OBSERVER, LOOK_AT_PARTNER, np.random.default_rng(36), n_opponents=2)
    assert OBSERVER.busy_miss == 0.5
    assert _close(_rate(perceiver, EAR, True, busy=True)[0], 0.5 * hit_rate(2.0, 1.0))
    assert hit_probability(OBSERVER, LOOK_AT_PARTNER, EAR, "partner", 2, busy=True) == pytest.approx(
        0.5 * hit_probability(OBSERVER, LOOK_AT_PARTNER, EAR, "partner", 2))


@pytest.mark.parametrize("relation", ["partner", "opponent"])
@pytest.mark.parametrize("deliberate", [True, False])
def test_closed_form_detection_matches_simulation(relation: str, deliberate: bool) -> None:
    attention = Attention.balanced()
    perceiver = Perceiver(OBSERVER, attention, np.random.default_rng(37), n_opponents=4)
    p = detection_probability(OBSERVER, attention, EAR, deliberate, relation, 4)
    assert p == perceiver.detection_probability(EAR, deliberate, relation)
    assert _close(_rate(perceiver, EAR, deliberate, relation)[0], p)
    fix, per, _ = attention.gaze_probabilities(relation, 4)
    rate = hit_rate if deliberate else false_alarm_rate
    assert p == pytest.approx(fix * rate(2.0, 1.0) + per * rate(0.8, 1.0))


def test_hit_and_false_alarm_probability_wrappers() -> None:
    a = Attention.partner_watcher()
    want = detection_probability(OBSERVER, a, EAR, True, "partner", 2)
    assert hit_probability(OBSERVER, a, EAR, "partner", 2) == want
    assert false_alarm_probability(OBSERVER, a, COUGH, "opponent", 2) == pytest.approx(false_alarm_rate(1.5, 1.0))


def test_gaze_at_matches_gaze_probabilities() -> None:
    rng = np.random.default_rng(38)
    attention = Attention.opponent_watcher()
    for relation in ("partner", "opponent"):
        gazes = [gaze_at(attention, rng, relation, 2) for _ in range(40_000)]
        for state, p in zip(("fixated", "peripheral", "unseen"), attention.gaze_probabilities(relation, 2),
                            strict=True):
            assert _close(gazes.count(state) / len(gazes), p, len(gazes)), (relation, state)
    assert attention.fixation_probability("opponent", 2) == pytest.approx(0.3)
    assert attention.fixation_probability("opponents", 3) == pytest.approx(0.2)


def test_perceive_function_uses_given_draws() -> None:
    p = perceive(OBSERVER, LOOK_AT_PARTNER, EAR, True, None, relation="partner", n_opponents=2, u=0.3, z=0.5,
                 gesturer=1, time=2.0)
    assert p == Percept(1, "ear", 1.5, 3.0, "fixated", 2.0)
    assert perceive(OBSERVER, LOOK_AT_PARTNER, EAR, False, None, relation="partner", n_opponents=2,
                    u=0.3, z=0.5) is None
    # Busy: the fixated band shrinks to [0, 0.5), so u = 0.7 is a miss.
    assert perceive(OBSERVER, LOOK_AT_PARTNER, EAR, True, None, relation="partner", n_opponents=2, busy=True,
                    u=0.7, z=3.0) is None


def test_perceiver_equals_perceive_with_the_same_generator() -> None:
    """With blocks of one, a Perceiver draws exactly what the scalar function draws."""
    attention = Attention.balanced()
    perceiver = Perceiver(OBSERVER, attention, np.random.default_rng(39), n_opponents=2, block=1)
    rng = np.random.default_rng(39)
    gestures = (EAR, COUGH, DEFAULT_REPERTOIRE["yawn"])
    for i in range(3_000):
        gesture, deliberate, busy = gestures[i % 3], i % 2 == 0, i % 7 == 0
        relation = ("partner", "opponent")[i % 5 % 2]
        want = perceive(OBSERVER, attention, gesture, deliberate, rng, relation=relation, n_opponents=2, busy=busy)
        assert perceiver.perceive(gesture, deliberate, relation, busy) == want


def test_attention_normalises_and_round_trips() -> None:
    a = Attention(1, 1, 1, 1, 0.4)
    assert (a.partner, a.opponents, a.middle, a.own_hand, a.peripheral) == (0.25, 0.25, 0.25, 0.25, 0.4)
    for preset in (Attention.balanced(), Attention.partner_watcher(), Attention.opponent_watcher(), a):
        assert Attention.from_mapping(preset.as_dict()) == preset
    assert Attention.from_mapping({"preset": "partner_watcher"}) == Attention.partner_watcher()
    assert Attention.from_mapping({"peripheral": 0.9}).peripheral == 0.9
    assert Attention() == Attention.balanced()


@pytest.mark.parametrize(("data", "message"), [
    ({"partner": -0.1}, r"profile.attention.partner = -0.1: must be a number >= 0"),
    ({"peripheral": 1.5}, r"profile.attention.peripheral = 1.5: must be a number from 0 to 1"),
    ({"partner": 0, "opponents": 0, "middle": 0, "own_hand": 0},
     r"profile.attention.partner/opponents/middle/own_hand = 0 each: the attention weights must be numbers >= 0"),
    ({"partners": 0.5}, r"profile.attention.partners = 0.5: not an attention field \(did you mean partner\?\)"),
    ({"preset": "hawk"}, r"profile.attention.preset = 'hawk': must be one of balanced, partner_watcher"),
    ("everyone", r"profile.attention = 'everyone': must be a table of attention weights"),
])
def test_attention_errors_name_the_field(data: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Attention.from_mapping(data)


def test_attention_direct_and_relation_errors() -> None:
    with pytest.raises(ConfigError, match=r"attention.middle = 'x': must be a number >= 0"):
        Attention(middle="x")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"relation = 'self': must be partner or opponent"):
        Attention().fixation_probability("self", 2)
    with pytest.raises(ConfigError, match=r"n_opponents = 0: must be a whole number >= 1"):
        Attention().fixation_probability("opponent", 0)


@pytest.mark.parametrize(("data", "message"), [
    ({"d_fixated": -1}, r"profile.observer.d_fixated = -1: must be a number >= 0"),
    ({"busy_miss": 1.2}, r"profile.observer.busy_miss = 1.2: must be a number from 0 to 1"),
    ({"criterion": math.inf}, r"profile.observer.criterion = inf: must be a finite number"),
    ({"d_prime": 2}, r"profile.observer.d_prime = 2: not an observer parameter"),
])
def test_observer_errors_name_the_field(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Observer.from_mapping(data)


def test_acuity_scales_every_seen_d_prime_and_nothing_else() -> None:
    """Half the acuity is the observer with half of each seen d' (the heard one kept), in closed form and in the
    perceiver's draws on the same stream (for an observer that knows its eyes: insight 1)."""
    sharp, dull = Observer(d_fixated=2.0, d_peripheral=0.8, heard_d=1.5), Observer(acuity=0.5, insight=1.0)
    halved = Observer(d_fixated=1.0, d_peripheral=0.4, heard_d=1.5)
    assert (dull.fixated_d, dull.peripheral_d, sharp.fixated_d) == (1.0, 0.4, 2.0)
    for gesture in (EAR, COUGH):
        for deliberate in (True, False):
            assert detection_probability(dull, Attention(), gesture, deliberate, "opponent", 2) == pytest.approx(
                detection_probability(halved, Attention(), gesture, deliberate, "opponent", 2), rel=1e-12)
    a = Perceiver(dull, Attention(), np.random.default_rng(4), n_opponents=2)
    b = Perceiver(halved, Attention(), np.random.default_rng(4), n_opponents=2)
    for _ in range(200):
        assert a.perceive(EAR, True, "partner") == b.perceive(EAR, True, "partner")
    with pytest.raises(ConfigError, match=r"^observer.acuity = -1: must be a number >= 0$"):
        Observer(acuity=-1)


def test_an_observer_weighs_evidence_with_the_acuity_it_knows_it_has() -> None:
    """Acuity sets what is noticed and the evidence; the weighing of it (the percept's log-likelihood ratio d'·x)
    uses d' times acuity^insight: insight 0 weighs as usual eyes would, insight 1 with the observer's own d'. Same
    stream, same gazes and evidence; at acuity 1 insight changes nothing."""
    for acuity in (0.5, 1.0, 1.5):
        blind, knowing = Observer(acuity=acuity, insight=0.0), Observer(acuity=acuity, insight=1.0)
        halfway = Observer(acuity=acuity, insight=0.5)
        a, b, c = (Perceiver(o, Attention(), np.random.default_rng(8), n_opponents=2) for o in (blind, knowing,
                                                                                              halfway))
        for i in range(400):
            gesture, deliberate = (EAR, COUGH)[i % 2], i % 3 == 0
            seen = [p.perceive(gesture, deliberate, "opponent", familiar=i % 5 != 0) for p in (a, b, c)]
            if seen[0] is None:
                assert seen == [None, None, None]
                continue
            x, gaze = seen[0].evidence, seen[0].gaze
            assert all(p.evidence == x and p.gaze == gaze for p in seen)
            if gaze == "heard":
                assert seen[0].llr == seen[1].llr == seen[2].llr
                continue
            d = knowing.fixated_d if gaze == "fixated" else knowing.peripheral_d
            d *= gesture.salience * (1.0 if i % 5 != 0 else knowing.unfamiliar)
            assert seen[1].llr == pytest.approx(d * x, rel=1e-12)
            assert seen[0].llr == pytest.approx(d / acuity * x, rel=1e-12)
            assert seen[2].llr == pytest.approx(d / acuity ** 0.5 * x, rel=1e-12)
    # The scalar function weighs the same way, and the belief reasons with the eyes the observer thinks it has.
    p = perceive(Observer(criterion=1.0, acuity=0.5), LOOK_AT_PARTNER, EAR, True, None, relation="partner",
                 n_opponents=2, u=0.3, z=1.0)
    assert (p.evidence, p.llr) == (1.5, 3.0)  # d' 1 seen, weighed as 2 (d_fixated, acuity 1)
    assert Observer(acuity=0.5).self_image() == Observer(acuity=1.0, insight=1.0)
    assert Observer(acuity=0.25, insight=0.5).self_image().acuity == 0.5
    assert Observer(acuity=0.5, insight=1.0).self_image() == Observer(acuity=0.5, insight=1.0)
    with pytest.raises(ConfigError, match=r"^observer.insight = 1.5: must be a number from 0 to 1$"):
        Observer(insight=1.5)


def test_observer_defaults_and_round_trip() -> None:
    # the error knobs and the criterion come from the calibration (kemps_sim.fitted_human), the rest from sources
    assert Observer().as_dict() == {"d_fixated": 2.0, "d_peripheral": 0.8, "criterion": FITTED["observer.criterion"],
                                    "busy_miss": 0.5, "heard_d": 1.5, "priming": FITTED["observer.priming"],
                                    "neglect": 1.0, "unfamiliar": FITTED["observer.unfamiliar"], "acuity": 1.0,
                                    "insight": 0.0}
    assert Observer.from_mapping(OBSERVER.as_dict()) == OBSERVER
    assert Observer.from_mapping({"criterion": -0.5}).criterion == -0.5
    with pytest.raises(ConfigError, match=r"^observer.heard_d = -2: must be a number >= 0$"):
        Observer(heard_d=-2)
