"""Time distributions for human actions (reacting, reaching, speaking, perceiving), in seconds.

Each family is a frozen, validated dataclass with a closed-form ``mean``, vectorised ``sample(rng, size)`` that
never returns a negative time, and a plain-dict form that round-trips through :func:`distribution_from_mapping`.
The engine draws one value at a time through a :class:`BlockSampler`, which pre-draws numpy blocks so the hot path
is a list pop instead of a numpy scalar call. This module also holds the small validation helpers shared by the
other human-model modules (:mod:`~kemps_sim.gestures`, :mod:`~kemps_sim.perception`, :mod:`~kemps_sim.profiles`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import numpy as np

from kemps_sim.errors import ConfigError
from kemps_sim.streams import GeneratorOrMaker, built
from kemps_sim.suggest import did_you_mean

#: Every draw below this is raised to it: no human action takes negative time. Only the ex-Gaussian can fall
#: below zero, and with the default parameters (mu >= 10 sigma) that has probability below 1e-20, so the clip
#: does not move any mean measurably. For mu close to sigma the sample mean exceeds ``mean`` by at most
#: ``sigma * pdf(mu / sigma) - mu * cdf(-mu / sigma)`` (the clipped part of the Gaussian component).
TIME_FLOOR = 0.0

#: Hick-Hyman slope: extra choice reaction time per bit of stimulus information (≈150 ms/bit).
HICK_HYMAN_SLOPE = 0.15

DEFAULT_BLOCK = 256


# Validation helpers shared by the human-model modules ---------------------------------------------------------
def show(value: Any) -> str:
    """A value as a user would write it in a TOML file, for error messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _allowed_text(gt: float | None, ge: float | None, le: float | None) -> str:
    if ge is not None and le is not None:
        return f"a number from {ge:g} to {le:g}"
    if gt is not None:
        return f"a number > {gt:g}"
    if ge is not None:
        return f"a number >= {ge:g}"
    return "a finite number"


def check_number(field: str, value: Any, *, gt: float | None = None, ge: float | None = None,
                 le: float | None = None) -> float:
    """``value`` as a float if it is a finite real number within the bounds, else a ConfigError naming ``field``."""
    ok = isinstance(value, int | float | np.integer | np.floating) and not isinstance(value, bool | np.bool_)
    number = float(value) if ok else math.nan
    ok = ok and math.isfinite(number)
    ok = ok and (gt is None or number > gt) and (ge is None or number >= ge) and (le is None or number <= le)
    if not ok:
        raise ConfigError(f"{field} = {show(value)}: must be {_allowed_text(gt, ge, le)}")
    return number


def check_mapping(field: str, value: Any, what: str) -> Mapping[str, Any]:
    """``value`` if it is a mapping with string keys, else a ConfigError saying it must be ``what``."""
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise ConfigError(f"{field} = {show(value)}: must be {what}")
    return value


def check_keys(field: str, data: Mapping[str, Any], allowed: Iterable[str], what: str) -> None:
    """Refuse any key of ``data`` not in ``allowed``, suggesting the closest allowed key."""
    allowed = list(allowed)
    for key in data:
        if key not in allowed:
            raise ConfigError(f"{field}.{key} = {show(data[key])}: not {what}{did_you_mean(key, allowed)}; allowed: "
                              f"{', '.join(allowed)}")


class NumericConfig:
    """Base of the frozen dataclasses whose fields are all bounded numbers (distributions, observer, attention).

    Subclasses list each field's bounds in ``_limits`` (keyword arguments of :func:`check_number`) and name
    themselves in ``_prefix``; construction validates every field and stores it as a float.
    """

    __slots__ = ()
    _prefix: ClassVar[str] = ""
    _limits: ClassVar[Mapping[str, Mapping[str, float]]] = {}

    def __post_init__(self) -> None:
        for name, value in self._checked(self._prefix, {f.name: getattr(self, f.name) for f in fields(self)}):
            object.__setattr__(self, name, value)

    @classmethod
    def _checked(cls, prefix: str, values: Mapping[str, Any]) -> list[tuple[str, float]]:
        checked = [(name, check_number(f"{prefix}.{name}", values[name], **cls._limits[name])) for name in values]
        cls._check_together(prefix, dict(checked))
        return checked

    @classmethod
    def _check_together(cls, prefix: str, values: dict[str, float]) -> None:
        """Constraints between fields (none by default); raise ConfigError naming ``prefix``."""

    @classmethod
    def parameter_names(cls) -> tuple[str, ...]:
        """The field names, in declaration order."""
        return tuple(f.name for f in fields(cls))  # type: ignore[arg-type]

    @classmethod
    def _from_values(cls, data: Mapping[str, Any], field: str, base: Any, what: str) -> Any:
        """Validate ``data`` (merged over ``base`` if given) under the name ``field`` and build the object."""
        names = cls.parameter_names()
        check_keys(field, data, names, what)
        values = {**base.params(), **data} if base is not None else dict(data)
        for name in names:
            if name not in values:
                raise ConfigError(f"{field}.{name} = (missing): {cls._prefix} needs {', '.join(names)}")
        return cls(**dict(cls._checked(field, values)))

    def params(self) -> dict[str, float]:
        """The fields as a plain dict of floats, in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]


# Distributions ------------------------------------------------------------------------------------------------
class Distribution(NumericConfig):
    """A non-negative time distribution in seconds: closed-form ``mean``/``variance`` and vectorised draws."""

    __slots__ = ()
    family: ClassVar[str] = ""

    # Every family also has ``mean``: the expected value in seconds (of the unclipped distribution, see
    # :data:`TIME_FLOOR`). It is a field of some families and a property of others, so it is not declared here.
    mean: float

    @property
    def variance(self) -> float:
        """Variance in seconds squared."""
        raise NotImplementedError

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` independent draws as a float array, none below :data:`TIME_FLOOR`."""
        raise NotImplementedError

    def draw(self, rng: np.random.Generator) -> float:
        """One draw: the same number as ``float(self.sample(rng, 1)[0])``, from the same state of ``rng`` (families
        whose numpy draw has a scalar form override this with it, which skips building an array)."""
        return float(self.sample(rng, 1)[0])

    def as_dict(self) -> dict[str, Any]:
        """``{"family": ..., <parameters>}``, accepted back by :func:`distribution_from_mapping`."""
        return {"family": self.family, **self.params()}

    def sampler(self, rng: GeneratorOrMaker, block: int = DEFAULT_BLOCK) -> BlockSampler:
        """A :class:`BlockSampler` drawing from this distribution with ``rng`` (or the generator it builds)."""
        return BlockSampler(self, rng, block)


@dataclass(frozen=True)
class ExGaussian(Distribution):
    """Normal(mu, sigma) plus Exponential(tau): the usual shape of reaction times (a fast rise, a slow tail)."""

    mu: float
    sigma: float
    tau: float
    family: ClassVar[str] = "ex_gaussian"
    _prefix: ClassVar[str] = "ex_gaussian"
    _limits: ClassVar[Mapping[str, Mapping[str, float]]] = {"mu": {"ge": 0.0}, "sigma": {"ge": 0.0},
                                                            "tau": {"gt": 0.0}}

    @property
    def mean(self) -> float:
        """The mean, ``mu + tau``."""
        return self.mu + self.tau

    @property
    def variance(self) -> float:
        return self.sigma**2 + self.tau**2

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        x = rng.normal(self.mu, self.sigma, size)
        x += rng.exponential(self.tau, size)
        return np.maximum(x, TIME_FLOOR, out=x)


@dataclass(frozen=True)
class LogNormal(Distribution):
    """exp(Normal(log median, sigma)): positive, right-skewed movement times; ``sigma`` is that of the log."""

    median: float
    sigma: float
    family: ClassVar[str] = "lognormal"
    _prefix: ClassVar[str] = "lognormal"
    _limits: ClassVar[Mapping[str, Mapping[str, float]]] = {"median": {"gt": 0.0}, "sigma": {"ge": 0.0}}

    @property
    def mean(self) -> float:
        """The mean, ``median * exp(sigma^2 / 2)``."""
        return self.median * math.exp(self.sigma**2 / 2)

    @property
    def variance(self) -> float:
        return (math.exp(self.sigma**2) - 1) * self.median**2 * math.exp(self.sigma**2)

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return rng.lognormal(math.log(self.median), self.sigma, size)

    def draw(self, rng: np.random.Generator) -> float:
        return float(rng.lognormal(math.log(self.median), self.sigma))


@dataclass(frozen=True)
class Exponential(Distribution):
    """Memoryless waiting time with the given mean; exact (never clipped), so race odds are λA / (λA + λB)."""

    mean: float
    family: ClassVar[str] = "exponential"
    _prefix: ClassVar[str] = "exponential"
    _limits: ClassVar[Mapping[str, Mapping[str, float]]] = {"mean": {"gt": 0.0}}

    @property
    def variance(self) -> float:
        return self.mean**2

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return rng.exponential(self.mean, size)

    def draw(self, rng: np.random.Generator) -> float:
        return float(rng.exponential(self.mean))


@dataclass(frozen=True)
class Fixed(Distribution):
    """Always the same time; draws consume nothing from the generator."""

    value: float
    family: ClassVar[str] = "fixed"
    _prefix: ClassVar[str] = "fixed"
    _limits: ClassVar[Mapping[str, Mapping[str, float]]] = {"value": {"ge": 0.0}}

    @property
    def mean(self) -> float:
        """The mean: the value itself."""
        return self.value

    @property
    def variance(self) -> float:
        return 0.0

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return np.full(size, self.value)


@dataclass(frozen=True)
class Gamma(Distribution):
    """Gamma with the given mean and shape (scale = mean / shape): fixation durations and similar latencies."""

    mean: float
    shape: float
    family: ClassVar[str] = "gamma"
    _prefix: ClassVar[str] = "gamma"
    _limits: ClassVar[Mapping[str, Mapping[str, float]]] = {"mean": {"gt": 0.0}, "shape": {"gt": 0.0}}

    @property
    def variance(self) -> float:
        return self.mean**2 / self.shape

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return rng.gamma(self.shape, self.mean / self.shape, size)

    def draw(self, rng: np.random.Generator) -> float:
        return float(rng.gamma(self.shape, self.mean / self.shape))


FAMILIES: dict[str, type[Distribution]] = {
    cls.family: cls for cls in (ExGaussian, Exponential, Fixed, Gamma, LogNormal)}


def distribution_from_mapping(data: Any, field: str = "profile.reaction",
                              base: Distribution | None = None) -> Distribution:
    """A distribution from ``{"family": name, <parameters>}``; errors name ``field`` and what is allowed.

    With a ``base``, a mapping without ``family`` (or with the base's family) is applied over the base's
    parameters, so ``{"tau": 0.1}`` changes one parameter; a different family must give all its parameters.
    A :class:`Distribution` passes through unchanged.
    """
    if isinstance(data, Distribution):
        return data
    families = ", ".join(sorted(FAMILIES))
    data = dict(check_mapping(field, data, f"a table with family = one of {families} and its parameters"))
    family = data.pop("family", None if base is None else base.family)
    if not isinstance(family, str) or family not in FAMILIES:
        shown = "(missing)" if family is None else show(family)
        raise ConfigError(f"{field}.family = {shown}: must be one of {families}")
    cls = FAMILIES[family]
    same = base is not None and base.family == family
    return cls._from_values(data, field, base if same else None, f"a parameter of {family}")


def hick_hyman(simple: ExGaussian, bits: float, slope: float = HICK_HYMAN_SLOPE) -> ExGaussian:
    """A choice reaction time: the simple one with ``mu`` shifted by ``slope`` seconds per bit of choice."""
    if not isinstance(simple, ExGaussian):
        raise ConfigError(f"hick_hyman.simple = {show(simple)}: must be an ExGaussian")
    bits = check_number("hick_hyman.bits", bits, ge=0.0)
    slope = check_number("hick_hyman.slope", slope, ge=0.0)
    return ExGaussian(simple.mu + slope * bits, simple.sigma, simple.tau)


class BlockSampler:
    """One draw at a time from a distribution, taken from blocks pre-drawn with numpy (≈0.1 µs per draw).

    The stream is exactly that of ``dist.sample(rng, block)`` called repeatedly and concatenated, so it is
    deterministic given the generator's state. Keep one sampler per (player, quantity) with the player's own
    generator; sharing a generator between samplers is still deterministic but interleaves their blocks. ``rng`` may
    be a function that builds the generator: it is called at the first draw, so a sampler never drawn from (a fixed
    time draws nothing) costs no generator.
    """

    __slots__ = ("_buf", "block", "dist", "rng")

    def __init__(self, dist: Distribution, rng: GeneratorOrMaker, block: int = DEFAULT_BLOCK) -> None:
        if not isinstance(dist, Distribution):
            raise ConfigError(f"BlockSampler.dist = {show(dist)}: must be a Distribution")
        if not isinstance(block, int) or isinstance(block, bool) or block < 1:
            raise ConfigError(f"BlockSampler.block = {show(block)}: must be a whole number >= 1")
        self.dist = dist
        self.rng = rng
        self.block = block
        self._buf: list[float] = []

    def next(self) -> float:
        """The next draw, in seconds."""
        buf = self._buf
        if not buf:
            rng = self.rng = built(self.rng)
            buf = self._buf = self.dist.sample(rng, self.block)[::-1].tolist()
        return buf.pop()

    __call__ = next
