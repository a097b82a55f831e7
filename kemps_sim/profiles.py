"""A player's human profile: how fast it reacts, reaches, speaks and perceives, and where it looks.

One frozen, validated :class:`PlayerProfile` bundles every human parameter of a seat, with defaults from the
literature (the source is beside each default). ``from_mapping``/``as_dict`` round-trip through plain dicts (TOML,
sweep specs) and ``with_params({"reaction.tau": 0.1})`` lets a sweep vary any parameter by its dotted name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from kemps_sim.errors import ConfigError
from kemps_sim.fitted_human import FITTED
from kemps_sim.gestures import DEFAULT_REPERTOIRE, FidgetStream, Repertoire
from kemps_sim.perception import Attention, Observer, Perceiver
from kemps_sim.streams import GeneratorOrMaker
from kemps_sim.timing import (
    DEFAULT_BLOCK,
    BlockSampler,
    Distribution,
    ExGaussian,
    Fixed,
    Gamma,
    LogNormal,
    check_keys,
    check_mapping,
    check_number,
    distribution_from_mapping,
    show,
)

#: Simple visual reaction time (Kosinski's RT review: ≈190-240 ms): mean 0.24 s. The choice reaction time of the
#: default profile adds about 0.11 s of Hick-Hyman choice cost (≈0.7 bit at ≈150 ms/bit), see ``hick_hyman``.
SIMPLE_VISUAL_RT = ExGaussian(mu=0.18, sigma=0.025, tau=0.06)

#: The profile fields that are time distributions, in declaration order.
DISTRIBUTION_FIELDS: tuple[str, ...] = ("reaction", "reach", "speech", "perception_latency", "gesture_time",
                                        "card_read", "patience")
#: The times a player's own actions take: zero would let a player act endlessly at one instant (a livelock).
ACTION_FIELDS: tuple[str, ...] = ("reaction", "reach", "speech", "gesture_time")

#: The smallest typical time (seconds) each time distribution of a profile may have, and why: a profile faster than
#: any human does not model a player, and near-zero times make a match run for minutes of wall time (millions of
#: simulated actions). The typical time is the location parameter of the family: ``mu`` of an ex-Gaussian, the
#: ``median`` of a log-normal, the ``mean`` of an exponential or gamma, the ``value`` of a fixed time. The bounds are
#: far below the defaults (0.25-6 s) and below every value the tests, notebooks and experiments use.
TIME_LOWER_BOUNDS: dict[str, tuple[float, str]] = {
    "reaction": (0.05, "faster than any human reaction (simple reaction times are about 0.2 s)"),
    "reach": (0.05, "faster than any human hand movement (reaching for a card takes about 0.3-0.6 s)"),
    "speech": (0.05, "faster than any spoken response (vocal reaction times are about 0.2 s)"),
    "perception_latency": (0.01, "faster than any human percept (one fixation takes about 0.2-0.3 s)"),
    "gesture_time": (0.01, "faster than any human gesture (a deliberate gesture takes about 0.4 s)"),
    "card_read": (0.01, "faster than any human can read a card (one fixation takes about 0.2-0.3 s)"),
    "patience": (0.01, "faster than any human can look at the middle (one fixation takes about 0.2-0.3 s)"),
}
#: The parameter of each family that :data:`TIME_LOWER_BOUNDS` applies to.
_LOCATION = {"ex_gaussian": "mu", "lognormal": "median", "exponential": "mean", "fixed": "value", "gamma": "mean"}


# Default human parameters, each with its source.
#: Choice RT, mean 0.35 s: simple visual RT (Kosinski) + Hick-Hyman ≈150 ms/bit for a small choice.
DEFAULT_REACTION = ExGaussian(mu=0.29, sigma=0.025, tau=0.06)
#: Reach and grab a middle card, median 0.42 s (≈0.30-0.60 s): Fitts' law with a ≈ 13 ms, b ≈ 95 ms/bit
#: (Fitts 1954 as tabled by MacKenzie) gives ≈0.39 s for a 41 cm move to a 5 cm card, plus the grab.
DEFAULT_REACH = LogNormal(median=0.42, sigma=0.2)
#: Speech onset of a prepared call, mean 0.35 s: simple vocal RT ≈0.2 s plus 50-100 ms plosive onset
#: (vocal RT studies, JSHR 1984), with a reaction-time-like tail.
DEFAULT_SPEECH = ExGaussian(mu=0.27, sigma=0.03, tau=0.08)
#: From a gesture to its percept: one fixation, mean 0.25 s (Rayner 1998; Land et al. 1999: 2-4 gaze shifts
#: a second); shape 6 gives a spread of ≈0.1 s (estimate).
DEFAULT_PERCEPTION_LATENCY = Gamma(mean=0.25, shape=6.0)
#: Making a deliberate gesture (hand to ear and back): 0.4 s, an estimate; the hands are busy meanwhile.
DEFAULT_GESTURE_TIME = Fixed(value=0.4)
#: Taking in one card that has just landed in the middle, on top of the reaction time: mean 0.38 s, one eye
#: movement and fixation (0.23 s, Card, Moran & Newell 1983; fixations 0.2-0.35 s, Rayner 1998) plus comparing its
#: rank with the four held (Sternberg 1966: ≈38 ms per item in memory); shape 6 (≈0.15 s spread) is an estimate.
DEFAULT_CARD_READ = Gamma(mean=0.38, shape=6.0)
#: How long a player looks at a middle that has stopped changing before it says "stalled" (or, as the dealer under
#: ``nobody_wants``, before it sweeps): median 6 s, an estimate. No study times it; it is scanning the four cards
#: against the hand (≈1.5 s, from ``card_read``) and then a social "anyone?" pause of a few seconds. With four
#: players the first of them speaks after ≈4 s.
DEFAULT_PATIENCE = LogNormal(median=6.0, sigma=0.4)
#: d' 2.0 / 0.8 (estimates), criterion 1.0, busy_miss 0.5 (Simons & Chabris 1999): see :class:`Observer`.
DEFAULT_OBSERVER = Observer()
#: Balanced gaze (estimate): see :class:`Attention`.
DEFAULT_ATTENTION = Attention.balanced()
#: The repertoire's rates are Kwok et al. 2015's: 23 face touches an hour, students in a lecture. A card table is a
#: social and demanding setting, where touching rises (Spille et al. 2021, review: more under social, emotional and
#: cognitive challenge); studies of adults in other settings find about 50 an hour (Rahman et al. 2020, review of
#: 10 studies: 50 ± 47; Oh, Ryu & Yang 2021, video of 30 adults: ≈50). The default player fidgets twice as often as
#: the lecture's students; 1.0 gives the repertoire's rates.
DEFAULT_FIDGET_SCALE = 2.0
#: How many times an hour a player's idle gesture of the pair's own signal looks meant: once a touch of the ear is
#: the signal, an idle one may carry its marks (a letter waiting to happen, as 004 warns of a partner who coughs by
#: accident). A rate rather than a share of the idle gestures, so that a frequent gesture (a blink signal) does not
#: slip hundreds of times an hour; it is capped by the gesture's own idle rate. No study measures it: fitted to the
#: calibration targets (kemps_sim.fitted_human); 0 switches slips off.
DEFAULT_SLIPS_PER_HOUR = FITTED["slips_per_hour"]


def check_human_time(field: str, name: str, dist: Distribution) -> None:
    """Refuse a time distribution whose typical time is below the human lower bound of profile field ``name``."""
    bound, why = TIME_LOWER_BOUNDS[name]
    param = _LOCATION.get(dist.family)
    if param is None:  # a family added later: bound its mean
        param, typical = "mean", dist.mean
    else:
        typical = getattr(dist, param)
    if typical < bound:
        raise ConfigError(f"{field}.{param} = {show(typical)}: below {bound:g} s, {why}; allowed: >= {bound:g}")


@dataclass(frozen=True)
class PlayerProfile:
    """Every human parameter of one seat: action times, perception latency, reading the middle and patience with
    it, observer, attention, fidgeting, and how often an idle gesture of the pair's own signal looks meant."""

    reaction: Distribution = DEFAULT_REACTION
    reach: Distribution = DEFAULT_REACH
    speech: Distribution = DEFAULT_SPEECH
    perception_latency: Distribution = DEFAULT_PERCEPTION_LATENCY
    gesture_time: Distribution = DEFAULT_GESTURE_TIME
    card_read: Distribution = DEFAULT_CARD_READ
    patience: Distribution = DEFAULT_PATIENCE
    observer: Observer = DEFAULT_OBSERVER
    attention: Attention = DEFAULT_ATTENTION
    fidget_scale: float = DEFAULT_FIDGET_SCALE  # multiplier on every natural rate of the repertoire
    slips_per_hour: float = DEFAULT_SLIPS_PER_HOUR  # idle gestures of the pair's own signal that look meant

    def __post_init__(self) -> None:
        for name in DISTRIBUTION_FIELDS:
            value = getattr(self, name)
            if not isinstance(value, Distribution):
                raise ConfigError(f"profile.{name} = {show(value)}: must be a time distribution "
                                  "(ExGaussian, LogNormal, Exponential, Fixed or Gamma)")
        for name in ACTION_FIELDS:
            value = getattr(self, name)
            if isinstance(value, Fixed) and value.value <= 0:
                raise ConfigError(f"profile.{name} = Fixed(value={show(value.value)}): an action must take time; "
                                  "give a fixed value > 0 or a distribution")
        for name in DISTRIBUTION_FIELDS:
            check_human_time(f"profile.{name}", name, getattr(self, name))
        if not isinstance(self.observer, Observer):
            raise ConfigError(f"profile.observer = {show(self.observer)}: must be an Observer")
        if not isinstance(self.attention, Attention):
            raise ConfigError(f"profile.attention = {show(self.attention)}: must be an Attention")
        for name, limits in _SCALAR_LIMITS.items():
            object.__setattr__(self, name, check_number(f"profile.{name}", getattr(self, name), **limits))

    # Plain-dict form -------------------------------------------------------------------------------------------
    def as_dict(self) -> dict[str, Any]:
        """Nested plain dicts (distributions as ``{"family": ...}``), accepted back by :meth:`from_mapping`."""
        out: dict[str, Any] = {name: getattr(self, name).as_dict() for name in DISTRIBUTION_FIELDS}
        out["observer"] = self.observer.as_dict()
        out["attention"] = self.attention.as_dict()
        out["fidget_scale"] = self.fidget_scale
        out["slips_per_hour"] = self.slips_per_hour
        return out

    @classmethod
    def from_mapping(cls, data: Any, field: str = "profile", base: PlayerProfile | None = None) -> PlayerProfile:
        """A profile from a (possibly partial) mapping applied over ``base`` (default: the default profile).

        Nested tables are applied over the base's value: ``{"reaction": {"tau": 0.1}}`` changes one parameter;
        a distribution table naming a different family must give all of that family's parameters. Errors name
        the full dotted field, e.g. ``profile.reaction.tau``.
        """
        if isinstance(data, PlayerProfile):
            return data
        base = cls() if base is None else base
        data = check_mapping(field, data, "a table of profile fields")
        check_keys(field, data, PROFILE_FIELDS, "a profile field")
        changes: dict[str, Any] = {}
        for name, value in data.items():
            where = f"{field}.{name}"
            if name in DISTRIBUTION_FIELDS:
                changes[name] = distribution_from_mapping(value, where, base=getattr(base, name))
            elif name == "observer":
                changes[name] = Observer.from_mapping(value, where, base=base.observer)
            elif name == "attention":
                changes[name] = Attention.from_mapping(value, where, base=base.attention)
            else:
                changes[name] = check_number(where, value, **_SCALAR_LIMITS[name])
        return dataclasses.replace(base, **changes)

    def with_params(self, overrides: Mapping[str, Any], field: str = "profile") -> PlayerProfile:
        """A copy with parameters changed by dotted name, e.g. ``{"reaction.tau": 0.1, "observer.d_fixated": 1.5}``.

        A sweep varies any profile parameter this way; ``"attention.preset"`` and ``"reaction.family"`` work too.
        """
        check_mapping(field, overrides, "a table of dotted parameter names and values")
        whole: dict[str, Any] = {}
        parts: dict[str, dict[str, Any]] = {}
        for key, value in overrides.items():
            head, dot, rest = str(key).partition(".")
            if dot and ("." in rest or not rest or head in _SCALAR_FIELDS):
                raise ConfigError(f"{field}.{key} = {show(value)}: a dotted name has two parts, a profile field "
                                  "with parameters and one of its parameters, such as reaction.tau")
            check_keys(field, {head: value}, PROFILE_FIELDS, "a profile field")
            if dot:
                parts.setdefault(head, {})[rest] = value
            else:
                whole[head] = value
        for head in whole:
            if head in parts:
                raise ConfigError(f"{field}.{head} = {show(whole[head])}: given both whole and by parameter "
                                  f"({', '.join(f'{head}.{p}' for p in parts[head])}); give one or the other")
        nested = {**whole, **parts}
        return PlayerProfile.from_mapping(nested, field, base=self)

    def replace(self, **overrides: Any) -> PlayerProfile:
        """Like :meth:`with_params`, with ``__`` for the dot: ``replace(reaction__tau=0.1, fidget_scale=2)``."""
        return self.with_params({key.replace("__", "."): value for key, value in overrides.items()})

    # Engine helpers ----------------------------------------------------------------------------------------------
    def sampler(self, name: str, rng: GeneratorOrMaker, block: int = DEFAULT_BLOCK) -> BlockSampler:
        """A block sampler for one of the time distributions (``reaction``, ``reach``, ...), drawing with ``rng``
        (or the generator it builds at the first draw)."""
        if name not in DISTRIBUTION_FIELDS:
            raise ConfigError(f"profile sampler = {show(name)}: must be one of {', '.join(DISTRIBUTION_FIELDS)}")
        return BlockSampler(getattr(self, name), rng, block)

    def perceiver(self, rng: np.random.Generator, n_opponents: int, block: int = DEFAULT_BLOCK) -> Perceiver:
        """This player's fast percept generator (observer and attention of this profile)."""
        return Perceiver(self.observer, self.attention, rng, n_opponents, block)

    def fidget_stream(self, rng: np.random.Generator, repertoire: Repertoire = DEFAULT_REPERTOIRE,
                      exclude: Iterable[str] = (), block: int = DEFAULT_BLOCK) -> FidgetStream:
        """This player's natural gestures as one Poisson stream, rates scaled by ``fidget_scale``."""
        return repertoire.fidget_stream(rng, self.fidget_scale, exclude, block)


PROFILE_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(PlayerProfile))
#: The bounds of the profile's plain numbers.
_SCALAR_LIMITS: dict[str, dict[str, float]] = {"fidget_scale": {"ge": 0.0}, "slips_per_hour": {"ge": 0.0}}
_SCALAR_FIELDS = tuple(_SCALAR_LIMITS)

DEFAULT_PROFILE = PlayerProfile()
