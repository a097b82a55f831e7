"""Tests of the player profile: literature defaults, round trips, dotted overrides and field-naming errors."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.perception import Attention, Observer, Perceiver
from kemps_sim.profiles import DEFAULT_PROFILE, DISTRIBUTION_FIELDS, SIMPLE_VISUAL_RT, PlayerProfile
from kemps_sim.timing import ExGaussian, Fixed, Gamma, LogNormal, hick_hyman


def test_defaults_follow_the_literature() -> None:
    p = DEFAULT_PROFILE
    assert p.reaction.mean == pytest.approx(0.35)  # choice RT
    assert 0.19 <= SIMPLE_VISUAL_RT.mean <= 0.24  # Kosinski: simple visual RT
    assert hick_hyman(SIMPLE_VISUAL_RT, 0.11 / 0.15).mu == pytest.approx(p.reaction.mu)  # type: ignore[attr-defined]
    assert isinstance(p.reach, LogNormal) and p.reach.median == 0.42
    low, high = (p.reach.median * math.exp(k * p.reach.sigma) for k in (-1.645, 1.645))
    assert 0.28 < low < 0.35 and 0.55 < high < 0.70  # 5-95 % band, near the 0.35-0.70 s of the sources
    assert p.speech.mean == pytest.approx(0.35)
    assert isinstance(p.perception_latency, Gamma) and p.perception_latency.mean == 0.25
    assert p.gesture_time == Fixed(0.4)
    assert p.observer == Observer() and p.observer.busy_miss == 0.5
    assert p.attention == Attention.balanced() and p.fidget_scale == 2.0
    assert PlayerProfile() == DEFAULT_PROFILE


def test_as_dict_is_plain_and_round_trips() -> None:
    data = DEFAULT_PROFILE.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["reaction"] == {"family": "ex_gaussian", "mu": 0.29, "sigma": 0.025, "tau": 0.06}
    assert PlayerProfile.from_mapping(data) == DEFAULT_PROFILE
    other = DEFAULT_PROFILE.with_params({"reach.family": "gamma", "reach.mean": 0.5, "reach.shape": 3,
                                         "attention.preset": "opponent_watcher", "fidget_scale": 0})
    assert PlayerProfile.from_mapping(other.as_dict()) == other


def test_with_params_by_dotted_name() -> None:
    p = DEFAULT_PROFILE.with_params({"reaction.tau": 0.1, "observer.d_fixated": 1.5, "fidget_scale": 2})
    assert p.reaction == ExGaussian(0.29, 0.025, 0.1)
    assert p.observer.d_fixated == 1.5 and p.observer.d_peripheral == 0.8
    assert p.fidget_scale == 2.0 and p.reach == DEFAULT_PROFILE.reach
    assert DEFAULT_PROFILE.reaction.tau == 0.06  # type: ignore[attr-defined]  # unchanged
    q = DEFAULT_PROFILE.with_params({"reaction.family": "lognormal", "reaction.median": 0.3, "reaction.sigma": 0.1})
    assert q.reaction == LogNormal(0.3, 0.1)
    assert DEFAULT_PROFILE.with_params({"reaction": Fixed(0.2)}).reaction == Fixed(0.2)
    assert DEFAULT_PROFILE.with_params({"attention.partner": 0.7}).attention.partner == pytest.approx(0.7 / 1.4)
    assert DEFAULT_PROFILE.replace(reaction__tau=0.1, fidget_scale=2) == p.with_params({"observer.d_fixated": 2.0})


def test_from_mapping_applies_partial_tables_over_the_base() -> None:
    p = PlayerProfile.from_mapping({"speech": {"tau": 0.2}, "observer": {"criterion": 0.5}})
    assert p.speech == ExGaussian(0.27, 0.03, 0.2) and p.observer.criterion == 0.5
    base = DEFAULT_PROFILE.replace(fidget_scale=3)
    assert PlayerProfile.from_mapping({}, base=base) == base
    assert PlayerProfile.from_mapping(base) is base


@pytest.mark.parametrize(("overrides", "message"), [
    ({"reaction.tau": -0.1}, r"^profile.reaction.tau = -0.1: must be a number > 0$"),
    ({"reaction.median": 0.3}, r"^profile.reaction.median = 0.3: not a parameter of ex_gaussian"),
    ({"reactoin.tau": 0.1}, r"^profile.reactoin = 0.1: not a profile field \(did you mean reaction\?\)"),
    ({"reach.family": "gamma"}, r"^profile.reach.mean = \(missing\): gamma needs mean, shape$"),
    ({"reach.family": "normal"}, r"^profile.reach.family = 'normal': must be one of ex_gaussian"),
    ({"observer.busy_miss": 2}, r"^profile.observer.busy_miss = 2: must be a number from 0 to 1$"),
    ({"attention.peripheral": -1}, r"^profile.attention.peripheral = -1: must be a number from 0 to 1$"),
    ({"fidget_scale": "lots"}, r"^profile.fidget_scale = 'lots': must be a number >= 0$"),
    ({"fidget_scale.x": 1}, r"^profile.fidget_scale.x = 1: a dotted name has two parts"),
    ({"observer.d.x": 1}, r"^profile.observer.d.x = 1: a dotted name has two parts"),
    ({"reaction": 0.3}, r"^profile.reaction = 0.3: must be a table with family"),
    ({"reaction": {}, "reaction.tau": 0.1}, r"^profile.reaction = \{\}: given both whole and by parameter"),
])
def test_bad_overrides_name_the_full_field(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        DEFAULT_PROFILE.with_params(overrides)


def test_direct_construction_is_validated() -> None:
    with pytest.raises(ConfigError, match=r"^profile.reaction = 0.3: must be a time distribution"):
        PlayerProfile(reaction=0.3)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^profile.observer = .*: must be an Observer$"):
        PlayerProfile(observer={"d_fixated": 1.0})  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^profile.attention = .*: must be an Attention$"):
        PlayerProfile(attention=None)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^profile.fidget_scale = -1: must be a number >= 0$"):
        PlayerProfile(fidget_scale=-1)
    with pytest.raises(ConfigError, match=r"^profile = 3: must be a table of profile fields$"):
        PlayerProfile.from_mapping(3)


def test_engine_helpers() -> None:
    rng = np.random.default_rng(41)
    sampler = DEFAULT_PROFILE.sampler("reach", rng)
    draws = [sampler.next() for _ in range(20_000)]
    reach = DEFAULT_PROFILE.reach
    assert abs(np.mean(draws) - reach.mean) <= 5 * math.sqrt(reach.variance / len(draws))
    with pytest.raises(ConfigError, match=r"profile sampler = 'walk': must be one of reaction, reach"):
        DEFAULT_PROFILE.sampler("walk", rng)
    assert isinstance(DEFAULT_PROFILE.perceiver(rng, n_opponents=2), Perceiver)
    stream = DEFAULT_PROFILE.replace(fidget_scale=2).fidget_stream(rng, exclude=("blink",))
    assert stream.total_rate == pytest.approx(2 * (DEFAULT_REPERTOIRE.total_fidget_rate - 1200 / 3600))


# From 0.05 s: PlayerProfile refuses times faster than any human (see TIME_LOWER_BOUNDS); tau has no bound.
_positive = st.floats(min_value=0.05, max_value=5.0, allow_nan=False)


@settings(max_examples=40, deadline=None)
@given(tau=_positive, d=st.floats(min_value=0.0, max_value=4.0), scale=st.floats(min_value=0.0, max_value=3.0),
       field=st.sampled_from(DISTRIBUTION_FIELDS[1:]), value=_positive)
def test_any_valid_override_round_trips(tau: float, d: float, scale: float, field: str, value: float) -> None:
    p = DEFAULT_PROFILE.with_params({"reaction.tau": tau, "observer.d_peripheral": d, "fidget_scale": scale,
                                     f"{field}.family": "exponential", f"{field}.mean": value})
    assert getattr(p, field).mean == value and p.fidget_scale == scale
    assert PlayerProfile.from_mapping(p.as_dict()) == p
