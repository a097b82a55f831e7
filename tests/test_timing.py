"""Tests of the time distributions, the block sampler and Hick-Hyman: closed forms against fixed-seed samples."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from kemps_sim.errors import ConfigError
from kemps_sim.timing import (
    FAMILIES,
    TIME_FLOOR,
    BlockSampler,
    Distribution,
    ExGaussian,
    Exponential,
    Fixed,
    Gamma,
    LogNormal,
    distribution_from_mapping,
    hick_hyman,
)

N = 200_000
K = 5  # tolerance in standard errors

DISTRIBUTIONS = [
    ExGaussian(0.29, 0.025, 0.06),
    ExGaussian(0.27, 0.03, 0.08),
    LogNormal(0.42, 0.2),
    LogNormal(1.0, 0.8),
    Exponential(0.3),
    Fixed(0.4),
    Gamma(0.25, 6.0),
    Gamma(2.0, 0.5),
]


@pytest.mark.parametrize("dist", DISTRIBUTIONS, ids=repr)
def test_sample_mean_matches_closed_form(dist: Distribution) -> None:
    x = dist.sample(np.random.default_rng(11), N)
    assert x.shape == (N,)
    assert abs(x.mean() - dist.mean) <= K * math.sqrt(dist.variance / N) + 1e-12


@pytest.mark.parametrize("dist", DISTRIBUTIONS, ids=repr)
def test_sample_variance_matches_closed_form(dist: Distribution) -> None:
    x = dist.sample(np.random.default_rng(12), N)
    # The sample variance's standard error is about sd² sqrt((kurtosis - 1) / n); 15 % is > 5 SE for these.
    assert x.var() == pytest.approx(dist.variance, rel=0.15, abs=1e-12)


@pytest.mark.parametrize("dist", DISTRIBUTIONS, ids=repr)
def test_draws_are_never_negative(dist: Distribution) -> None:
    assert dist.sample(np.random.default_rng(13), 10_000).min() >= TIME_FLOOR


def test_ex_gaussian_is_clipped_at_the_floor() -> None:
    x = ExGaussian(0.01, 0.05, 0.02).sample(np.random.default_rng(14), 10_000)
    assert x.min() == TIME_FLOOR == 0.0
    assert (x == 0.0).mean() > 0.2  # about P(N(0.01, 0.05) + Exp(0.02) < 0)


def test_exponential_passes_ks_test() -> None:
    x = Exponential(0.3).sample(np.random.default_rng(15), 50_000)
    assert stats.kstest(x, "expon", args=(0, 0.3)).pvalue > 0.01


def test_exponential_race_odds() -> None:
    """P(A first) = λA / (λA + λB): the engine's call races rely on exact exponential draws."""
    rng = np.random.default_rng(16)
    a, b = Exponential(0.2).sample(rng, N), Exponential(0.5).sample(rng, N)
    p = (1 / 0.2) / (1 / 0.2 + 1 / 0.5)
    assert abs((a < b).mean() - p) <= K * math.sqrt(p * (1 - p) / N)


def test_fixed_consumes_no_randomness() -> None:
    rng = np.random.default_rng(17)
    state = rng.bit_generator.state
    assert Fixed(0.4).sample(rng, 3).tolist() == [0.4, 0.4, 0.4]
    assert rng.bit_generator.state == state


@pytest.mark.parametrize("dist", DISTRIBUTIONS, ids=repr)
def test_block_sampler_equals_direct_block_sampling(dist: Distribution) -> None:
    sampler = BlockSampler(dist, np.random.default_rng(18), block=64)
    got = [sampler.next() for _ in range(64 * 3 + 5)]
    rng = np.random.default_rng(18)
    want = np.concatenate([dist.sample(rng, 64) for _ in range(4)])[: len(got)]
    assert got == want.tolist()
    assert all(type(v) is float for v in got)


def test_block_sampler_same_seed_same_values_and_callable() -> None:
    dist = ExGaussian(0.29, 0.025, 0.06)
    a, b = dist.sampler(np.random.default_rng(19)), BlockSampler(dist, np.random.default_rng(19))
    assert [a.next() for _ in range(600)] == [b() for _ in range(600)]
    c = BlockSampler(dist, np.random.default_rng(20))
    assert [c.next() for _ in range(10)] != [a.next() for _ in range(10)]


@pytest.mark.parametrize("block", [0, -1, 2.5, True])
def test_block_sampler_rejects_bad_block(block: object) -> None:
    with pytest.raises(ConfigError, match=r"BlockSampler.block = .*: must be a whole number >= 1"):
        BlockSampler(Fixed(1.0), np.random.default_rng(0), block=block)  # type: ignore[arg-type]


@pytest.mark.parametrize("dist", DISTRIBUTIONS, ids=repr)
def test_as_dict_round_trips(dist: Distribution) -> None:
    data = dist.as_dict()
    assert data["family"] == dist.family
    assert distribution_from_mapping(data, "x") == dist
    assert distribution_from_mapping(dist) is dist


def test_every_family_is_registered_and_ints_become_floats() -> None:
    assert sorted(FAMILIES) == ["ex_gaussian", "exponential", "fixed", "gamma", "lognormal"]
    d = distribution_from_mapping({"family": "gamma", "mean": 1, "shape": 2})
    assert d == Gamma(1.0, 2.0) and type(d.mean) is float


def test_mapping_over_a_base() -> None:
    base = ExGaussian(0.29, 0.025, 0.06)
    assert distribution_from_mapping({"tau": 0.1}, base=base) == ExGaussian(0.29, 0.025, 0.1)
    assert distribution_from_mapping({"family": "ex_gaussian", "mu": 0.3}, base=base) == ExGaussian(0.3, 0.025, 0.06)
    assert distribution_from_mapping({"family": "fixed", "value": 0.2}, base=base) == Fixed(0.2)
    with pytest.raises(ConfigError, match=r"profile.reaction.shape = \(missing\): gamma needs mean, shape"):
        distribution_from_mapping({"family": "gamma", "mean": 1.0}, base=base)


@pytest.mark.parametrize(("data", "message"), [
    ({"family": "weibull", "k": 1}, r"profile.reaction.family = 'weibull': must be one of ex_gaussian, "
                                    r"exponential, fixed, gamma, lognormal"),
    ({"mu": 0.3}, r"profile.reaction.family = \(missing\): must be one of ex_gaussian"),
    ({"family": 3}, r"profile.reaction.family = 3: must be one of"),
    ({"family": "ex_gaussian", "mu": 0.29, "sigma": 0.025},
     r"profile.reaction.tau = \(missing\): ex_gaussian needs mu, sigma, tau"),
    ({"family": "ex_gaussian", "mu": 0.29, "sigma": 0.025, "tau": 0.06, "tua": 1},
     r"profile.reaction.tua = 1: not a parameter of ex_gaussian \(did you mean tau\?\); allowed: mu, sigma, tau"),
    ({"family": "ex_gaussian", "mu": 0.29, "sigma": 0.025, "tau": -0.1},
     r"profile.reaction.tau = -0.1: must be a number > 0"),
    ({"family": "ex_gaussian", "mu": "0.29", "sigma": 0.025, "tau": 0.1},
     r"profile.reaction.mu = '0.29': must be a number >= 0"),
    ({"family": "lognormal", "median": 0.0, "sigma": 0.2}, r"profile.reaction.median = 0.0: must be a number > 0"),
    ({"family": "lognormal", "median": 0.4, "sigma": True}, r"profile.reaction.sigma = true: must be a number >= 0"),
    ({"family": "exponential", "mean": math.nan}, r"profile.reaction.mean = nan: must be a number > 0"),
    ({"family": "fixed", "value": -1}, r"profile.reaction.value = -1: must be a number >= 0"),
    ({"family": "gamma", "mean": 1.0, "shape": 0}, r"profile.reaction.shape = 0: must be a number > 0"),
    (0.3, r"profile.reaction = 0.3: must be a table with family = one of"),
])
def test_bad_mapping_raises_config_error_naming_the_field(data: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        distribution_from_mapping(data)


def test_direct_construction_is_validated() -> None:
    with pytest.raises(ConfigError, match=r"^ex_gaussian.tau = -0.1: must be a number > 0$"):
        ExGaussian(0.29, 0.025, -0.1)
    with pytest.raises(ConfigError, match=r"^gamma.mean = inf: must be a number > 0$"):
        Gamma(math.inf, 2.0)
    with pytest.raises(ConfigError, match=r"^exponential.mean = None: must be a number > 0$"):
        Exponential(None)  # type: ignore[arg-type]


def test_hick_hyman_shifts_mu_by_slope_per_bit() -> None:
    simple = ExGaussian(0.18, 0.025, 0.06)
    choice = hick_hyman(simple, 2.0)
    assert choice == ExGaussian(0.18 + 0.3, 0.025, 0.06)
    assert choice.mean == pytest.approx(simple.mean + 0.15 * 2)
    assert hick_hyman(simple, 1.0, slope=0.1).mu == pytest.approx(0.28)
    assert hick_hyman(simple, 0.0) == simple
    with pytest.raises(ConfigError, match=r"hick_hyman.bits = -1: must be a number >= 0"):
        hick_hyman(simple, -1)
    with pytest.raises(ConfigError, match=r"hick_hyman.simple = .*: must be an ExGaussian"):
        hick_hyman(Fixed(0.2), 1.0)  # type: ignore[arg-type]
