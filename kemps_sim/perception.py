"""Attention, lazy gaze and signal detection: whether an observer notices a gesture, and how strongly.

Gaze is sampled only when a gesture happens (no saccades are simulated): the observer is fixated on the gesturer
with the attention weight of that target, otherwise sees it in the periphery with probability ``peripheral``, or
not at all; heard gestures reach everyone. Detection is equal-variance signal detection: evidence
x ~ N(+d/2, 1) for a deliberate gesture and N(−d/2, 1) for a fidget, noticed when x > c, so the hit rate is
Φ(d/2 − c) and the false-alarm rate Φ(−d/2 − c). A noticed gesture becomes a :class:`Percept` carrying x and the
log-likelihood ratio d·x; deciding whether it was the signal is left to the agent.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, NamedTuple

import numpy as np

from kemps_sim.errors import ConfigError
from kemps_sim.fitted_human import FITTED
from kemps_sim.gestures import Gesture
from kemps_sim.seating import NOBODY
from kemps_sim.timing import DEFAULT_BLOCK, NumericConfig, check_mapping, show

FIXATED, PERIPHERAL, UNSEEN, HEARD = "fixated", "peripheral", "unseen", "heard"
#: How the gesturer relates to the observer; "opponents" (the attention target's name) is accepted too.
PARTNER, OPPONENT = "partner", "opponent"
_SQRT2 = math.sqrt(2.0)
ATTENTION_TARGETS: tuple[str, ...] = ("partner", "opponents", "middle", "own_hand")


def normal_cdf(x: float) -> float:
    """Φ(x), the standard normal CDF, from the complementary error function: accurate in both tails (within
    about 1e-13 relative of ``scipy.special.ndtr``) without importing SciPy, which would add about 14 MB to every
    process that plays a match."""
    return 0.5 * math.erfc(-x / _SQRT2)


def hit_rate(d_prime: float, criterion: float) -> float:
    """P(x > c) for a deliberate gesture: Φ(d'/2 − c)."""
    return normal_cdf(d_prime / 2 - criterion)


def false_alarm_rate(d_prime: float, criterion: float) -> float:
    """P(x > c) for a fidget: Φ(−d'/2 − c)."""
    return normal_cdf(-d_prime / 2 - criterion)


@dataclass(frozen=True)
class Attention(NumericConfig):
    """How a player spreads its gaze over partner, opponents (all together), middle and own hand.

    Weights are relative (normalised to sum 1 on construction). ``peripheral`` is the probability that a
    gesture by someone not fixated is still caught in peripheral vision. All defaults are estimates, to sweep.
    """

    partner: float = 0.3
    opponents: float = 0.3
    middle: float = 0.3
    own_hand: float = 0.1
    peripheral: float = 0.5  # estimate (no direct source): at a small table everyone is near the line of gaze
    _prefix: ClassVar[str] = "attention"
    _limits: ClassVar[Mapping[str, Mapping[str, float]]] = {
        **{t: {"ge": 0.0} for t in ATTENTION_TARGETS}, "peripheral": {"ge": 0.0, "le": 1.0}}

    def __post_init__(self) -> None:
        super().__post_init__()
        total = math.fsum(getattr(self, t) for t in ATTENTION_TARGETS)
        if abs(total - 1.0) > 1e-12:  # already-normalised weights are kept as given, so as_dict round-trips
            for t in ATTENTION_TARGETS:
                object.__setattr__(self, t, getattr(self, t) / total)

    @classmethod
    def _check_together(cls, prefix: str, values: dict[str, float]) -> None:
        if all(t in values for t in ATTENTION_TARGETS) and not any(values[t] > 0 for t in ATTENTION_TARGETS):
            raise ConfigError(f"{prefix}.partner/opponents/middle/own_hand = 0 each: the attention weights must "
                              "be numbers >= 0 with a positive sum")

    @classmethod
    def balanced(cls) -> Attention:
        """Gaze spread evenly over partner, opponents and middle, a little on the own hand."""
        return cls(0.3, 0.3, 0.3, 0.1)

    @classmethod
    def partner_watcher(cls) -> Attention:
        """Mostly on the partner, waiting for the signal."""
        return cls(0.6, 0.1, 0.25, 0.05)

    @classmethod
    def opponent_watcher(cls) -> Attention:
        """Mostly on the opponents, hunting for their signal."""
        return cls(0.1, 0.6, 0.25, 0.05)

    def fixation_probability(self, relation: str, n_opponents: int) -> float:
        """P(eyes on this gesturer): the partner weight, or the opponents weight split over ``n_opponents``."""
        if relation == PARTNER:
            return self.partner
        if relation in (OPPONENT, "opponents"):
            if not isinstance(n_opponents, int) or n_opponents < 1:
                raise ConfigError(f"n_opponents = {show(n_opponents)}: must be a whole number >= 1")
            return self.opponents / n_opponents
        raise ConfigError(f"relation = {show(relation)}: must be partner or opponent")

    def gaze_probabilities(self, relation: str, n_opponents: int) -> tuple[float, float, float]:
        """(P fixated, P peripheral, P unseen) for a seen gesture by this gesturer."""
        fix = self.fixation_probability(relation, n_opponents)
        per = (1.0 - fix) * self.peripheral
        return fix, per, 1.0 - fix - per

    def as_dict(self) -> dict[str, float]:
        """The normalised weights and ``peripheral``."""
        return self.params()

    @classmethod
    def from_mapping(cls, data: Any, field: str = "profile.attention", base: Attention | None = None) -> Attention:
        """Attention from a mapping; ``preset`` (balanced, partner_watcher, opponent_watcher) picks the base.

        Given keys are applied over the base (default: ``base`` argument, else balanced).
        """
        if isinstance(data, Attention):
            return data
        data = dict(check_mapping(field, data, "a table of attention weights"))
        if "preset" in data:
            name = data.pop("preset")
            if name not in ATTENTION_PRESETS:
                raise ConfigError(f"{field}.preset = {show(name)}: must be one of {', '.join(ATTENTION_PRESETS)}")
            base = ATTENTION_PRESETS[name]()
        return cls._from_values(data, field, base or cls.balanced(), "an attention field")


ATTENTION_PRESETS = {"balanced": Attention.balanced, "partner_watcher": Attention.partner_watcher,
                     "opponent_watcher": Attention.opponent_watcher}


@dataclass(frozen=True)
class Observer(NumericConfig):
    """How well a player tells a deliberate gesture from a fidget, and how easily it misses one."""

    d_fixated: float = 2.0  # estimate (no direct source): d' of deliberate vs natural when looking; swept
    d_peripheral: float = 0.8  # estimate (no direct source): d' in peripheral vision; swept
    # How readily a gesture is taken as possibly meant. An ideal observer whose prior odds are ≈7:1 for a fidget
    # (fidgets, ≈45/h per player blinks aside, far outnumber signals) puts c at ln(7.4)/2 ≈ 1.0 with d' = 2; people
    # at a table are less cautious. Fitted to the calibration targets (kemps_sim.fitted_human).
    criterion: float = FITTED["observer.criterion"]
    busy_miss: float = 0.5  # Simons & Chabris 1999: about half miss an unexpected event while busy
    heard_d: float = 1.5  # estimate: d' of a deliberate sound (cough, tap, word) vs a natural one; swept
    # Seeing what one looks for: a noticed gesture of the same look-alike family as a signal the observer awaits
    # (a hand in the hair when the signal is the ear: the partner's, or an opponent pair's the table has seen called)
    # is read as that signal with this probability when the two forms cannot be told apart; an observer who tells
    # them apart with d' (the d' of where it looked) misreads as often as an unbiased observer confuses two forms d'
    # apart, priming · 2Φ(−d'/2) (:meth:`misread_chance`): sharp eyes misread less. No study measures it for
    # gestures; expectation biases perception toward the awaited category (Summerfield & de Lange 2014, review);
    # fitted to the calibration targets (kemps_sim.fitted_human). 0 switches it off.
    priming: float = FITTED["observer.priming"]
    # Base-rate neglect: the share of the look-alikes' natural rate the observer leaves out when judging what it saw
    # (1: it trusts its eyes, taking an "ear touch" for an ear touch, as people neglect base rates: Kahneman &
    # Tversky 1973, Bar-Hillel 1980; 0: an ideal observer that knows how often it misreads). Default 1.
    neglect: float = 1.0
    # A pair's signal is a form the partners agreed (which ear, how many taps) and made to look natural: an observer
    # who has not yet seen that pair's signal called does not know the form and tells a meant gesture of that pair
    # from an idle one with d' times this factor; the partner, and everyone once the signal has been called, see it
    # with the full d' (004: an unusual signal is spotted the first time, a natural one hides). Fitted to the
    # calibration targets (kemps_sim.fitted_human); 1 switches it off.
    unfamiliar: float = FITTED["observer.unfamiliar"]
    # How well this player sees: every seen d' (fixated and peripheral) times this factor, the heard one apart. One
    # knob for sharper or duller eyes with everything else fixed (the realism check sweeps it: 0.5 to 1.5 puts d'
    # between 1 and 3 for a gesture looked at). 1: the d' values as given.
    acuity: float = 1.0
    # How much of its own acuity the observer knows when it weighs what it saw: the evidence of a gesture is weighed
    # (its log-likelihood ratio, what the belief reads) with the seen d' times acuity^insight, rather than times
    # acuity. 0: it weighs evidence as a player of usual eyes would, whatever its own (observers keep one criterion
    # across conditions of different sensitivity: Gorea & Sagi 2000; their confidence follows their sensitivity
    # only loosely: Fleming & Lau 2014), so dull eyes trust their percepts too much and sharp ones too little;
    # 1: it knows its eyes. At the default acuity of 1 the two are the same.
    insight: float = 0.0
    _prefix: ClassVar[str] = "observer"
    _limits: ClassVar[Mapping[str, Mapping[str, float]]] = {
        "d_fixated": {"ge": 0.0}, "d_peripheral": {"ge": 0.0}, "criterion": {}, "busy_miss": {"ge": 0.0, "le": 1.0},
        "heard_d": {"ge": 0.0}, "priming": {"ge": 0.0, "le": 1.0}, "neglect": {"ge": 0.0, "le": 1.0},
        "unfamiliar": {"ge": 0.0, "le": 1.0}, "acuity": {"ge": 0.0}, "insight": {"ge": 0.0, "le": 1.0}}

    @property
    def fixated_d(self) -> float:
        """The d' of a gesture looked at: ``d_fixated · acuity``."""
        return self.d_fixated * self.acuity

    @property
    def peripheral_d(self) -> float:
        """The d' of a gesture caught at the edge of view: ``d_peripheral · acuity``."""
        return self.d_peripheral * self.acuity

    @property
    def weighed_acuity(self) -> float:
        """The acuity the observer weighs its evidence with: ``acuity ** insight`` (1 for an observer that does not
        know its eyes, its acuity for one that does)."""
        return self.acuity ** self.insight

    def self_image(self) -> Observer:
        """The observer as it believes itself to be when it reasons about what it will notice: its acuity the one
        it weighs evidence with (:attr:`weighed_acuity`)."""
        if self.insight == 1.0 or self.acuity == 1.0:
            return self
        return replace(self, acuity=self.weighed_acuity, insight=1.0)

    def as_dict(self) -> dict[str, float]:
        """The parameters as a plain dict."""
        return self.params()

    def misread_chance(self, d_prime: float) -> float:
        """P(a noticed look-alike is read as the awaited signal) for an observer who tells forms apart with
        ``d_prime``: ``priming · 2Φ(−d'/2)``, ``priming`` itself at d' = 0."""
        return self.priming * 2.0 * normal_cdf(-0.5 * d_prime)

    @classmethod
    def from_mapping(cls, data: Any, field: str = "profile.observer", base: Observer | None = None) -> Observer:
        """Observer parameters from a mapping, applied over ``base`` (default: the defaults)."""
        if isinstance(data, Observer):
            return data
        data = check_mapping(field, data, "a table of observer parameters")
        return cls._from_values(data, field, base or cls(), "an observer parameter")


class Percept(NamedTuple):
    """A noticed gesture: who made it, which type, how strong the evidence, through which channel, and when.

    ``time`` is whatever time stamp the engine passes in (NaN if none); the engine adds the perception latency.
    """

    gesturer: int
    gesture: str
    evidence: float  # x, the observed evidence; > criterion by construction
    llr: float  # log-likelihood ratio d·x of deliberate vs fidget
    gaze: str  # "fixated", "peripheral" or "heard"
    time: float = math.nan


_new_tuple = tuple.__new__


def gaze_at(attention: Attention, rng: np.random.Generator, target_kind: str, n_opponents: int) -> str:
    """Where the observer's eyes were when the gesture happened: "fixated", "peripheral" or "unseen"."""
    fix, per, _ = attention.gaze_probabilities(target_kind, n_opponents)
    u = rng.random()
    return FIXATED if u < fix else PERIPHERAL if u < fix + per else UNSEEN


@functools.lru_cache(maxsize=4096)
def detection_probability(observer: Observer, attention: Attention, gesture: Gesture, deliberate: bool,
                          relation: str, n_opponents: int, busy: bool = False) -> float:
    """Closed-form P(a percept) for one gesture: a mixture over gaze states of SDT rates.

    A pure function of frozen values, asked again and again with the same ones (every seat of every match of a
    sweep cell shares its profile), so it is cached."""
    rate = hit_rate if deliberate else false_alarm_rate
    c = observer.criterion
    if gesture.heard:
        return rate(observer.heard_d * gesture.salience, c)
    fix, per, _ = attention.gaze_probabilities(relation, n_opponents)
    seen = fix * rate(observer.fixated_d * gesture.salience, c) + per * rate(
        observer.peripheral_d * gesture.salience, c)
    return seen * (1.0 - observer.busy_miss) if busy else seen


def hit_probability(observer: Observer, attention: Attention, gesture: Gesture, relation: str,
                    n_opponents: int, busy: bool = False) -> float:
    """Closed-form P(noticing a deliberate gesture), over gaze states."""
    return detection_probability(observer, attention, gesture, True, relation, n_opponents, busy)


def false_alarm_probability(observer: Observer, attention: Attention, gesture: Gesture, relation: str,
                            n_opponents: int, busy: bool = False) -> float:
    """Closed-form P(noticing a fidget), over gaze states."""
    return detection_probability(observer, attention, gesture, False, relation, n_opponents, busy)


def _thresholds(observer: Observer, attention: Attention, relation: str, n_opponents: int,
                busy: bool) -> tuple[float, float]:
    """Uniform cut points (fixated below the first, peripheral below the second), busy misses folded in."""
    fix, per, _ = attention.gaze_probabilities(relation, n_opponents)
    keep = 1.0 - observer.busy_miss if busy else 1.0
    return fix * keep, (fix + per) * keep


def perceive(observer: Observer, attention: Attention, gesture: Gesture, deliberate: bool,
             rng: np.random.Generator | None, *, relation: str, n_opponents: int, busy: bool = False,
             gesturer: int = NOBODY, time: float = math.nan, u: float | None = None,
             z: float | None = None, familiar: bool = True) -> Percept | None:
    """One observer's percept of one gesture, or None if it went unnoticed.

    Draws a uniform ``u`` for the gaze (seen gestures only; a busy observer misses with ``busy_miss``) and a
    standard normal ``z`` for the evidence, from ``rng`` unless given. For many calls use :class:`Perceiver`,
    which precomputes the thresholds and draws in blocks. ``familiar=False``: the observer does not know the form of
    the gesturer's pair's signal, and sees with d' times ``observer.unfamiliar``.
    """
    if gesture.heard:
        d, gaze = observer.heard_d * gesture.salience, HEARD
        b = d
    else:
        t_fix, t_per = _thresholds(observer, attention, relation, n_opponents, busy)
        if u is None:
            u = float(rng.random())  # type: ignore[union-attr]
        if u < t_fix:
            d, gaze = observer.fixated_d * gesture.salience, FIXATED
            b = observer.d_fixated * observer.weighed_acuity * gesture.salience
        elif u < t_per:
            d, gaze = observer.peripheral_d * gesture.salience, PERIPHERAL
            b = observer.d_peripheral * observer.weighed_acuity * gesture.salience
        else:
            return None
    if not familiar:
        d *= observer.unfamiliar
        b *= observer.unfamiliar
    if z is None:
        z = float(rng.standard_normal())  # type: ignore[union-attr]
    x = z + (0.5 * d if deliberate else -0.5 * d)
    if x <= observer.criterion:
        return None
    return Percept(gesturer, gesture.name, x, b * x, gaze, time)


class Perceiver:
    """One observer's fast percept generator: thresholds precomputed, uniforms and normals drawn in blocks.

    ``perceive`` gives the same result as :func:`perceive` for the same ``u`` and ``z``; a seen gesture uses one
    uniform, and one normal if it was in view; a heard one only a normal. Costs well under a microsecond.
    """

    __slots__ = ("_b_fix", "_b_per", "_c", "_d_fix", "_d_heard", "_d_per", "_thr", "_u", "_unfamiliar", "_z",
                 "attention", "block",
                 "n_opponents", "observer", "rng", "seen_with")

    def __init__(self, observer: Observer, attention: Attention, rng: np.random.Generator, n_opponents: int,
                 block: int = DEFAULT_BLOCK) -> None:
        if not isinstance(block, int) or isinstance(block, bool) or block < 1:
            raise ConfigError(f"Perceiver.block = {show(block)}: must be a whole number >= 1")
        self.observer, self.attention, self.rng = observer, attention, rng
        self.n_opponents, self.block = n_opponents, block
        self._c = observer.criterion
        self._d_fix, self._d_per, self._d_heard = observer.fixated_d, observer.peripheral_d, observer.heard_d
        weighed = observer.weighed_acuity
        self._b_fix, self._b_per = observer.d_fixated * weighed, observer.d_peripheral * weighed
        self._unfamiliar = observer.unfamiliar
        self.seen_with = 0.0  # the d' of the last gesture perceived (:meth:`misread` reads it)
        self.look(attention)
        self._u: list[float] = []
        self._z: list[float] = []

    def look(self, attention: Attention) -> None:
        """Spread the gaze differently from now on (an agent's attention policy); the random streams go on."""
        self.attention = attention
        self._thr = {rel: tuple(_thresholds(self.observer, attention, rel, self.n_opponents, b) for b in (False, True))
                     for rel in (PARTNER, OPPONENT, "opponents")}

    def perceive(self, gesture: Gesture, deliberate: bool, relation: str, busy: bool = False,
                 gesturer: int = NOBODY, time: float = math.nan, familiar: bool = True) -> Percept | None:
        """The percept of ``gesture`` by a gesturer of this ``relation`` ("partner"/"opponent"), or None; a gesturer
        whose signal's form the observer does not know (``familiar=False``) is seen with d' times
        ``Observer.unfamiliar``."""
        if gesture.heard:
            d = b = self._d_heard * gesture.salience
            gaze = HEARD
        else:
            buf = self._u
            if not buf:
                buf = self._u = self.rng.random(self.block).tolist()
            u = buf.pop()
            t_fix, t_per = self._thr[relation][busy]
            if u < t_fix:
                d, b = self._d_fix * gesture.salience, self._b_fix * gesture.salience
                gaze = FIXATED
            elif u < t_per:
                d, b = self._d_per * gesture.salience, self._b_per * gesture.salience
                gaze = PERIPHERAL
            else:
                return None
        if not familiar:
            d *= self._unfamiliar
            b *= self._unfamiliar
        self.seen_with = d
        buf = self._z
        if not buf:
            buf = self._z = self.rng.standard_normal(self.block).tolist()
        x = buf.pop() + (0.5 * d if deliberate else -0.5 * d)
        if x <= self._c:
            return None
        return _new_tuple(Percept, (gesturer, gesture.name, x, b * x, gaze, time))  # Percept(...), faster

    def misread(self, alikes: tuple[str, ...]) -> str | None:
        """The awaited look-alike the gesture just perceived is read as (one of ``alikes``, drawn evenly), with the
        observer's :meth:`Observer.misread_chance` at the d' that percept was seen with (``seen_with``), else None
        (read as what it was). Draws nothing when ``priming`` is 0."""
        if self.observer.priming <= 0.0 or not alikes:
            return None
        priming = self.observer.misread_chance(self.seen_with)
        buf = self._u
        if not buf:
            buf = self._u = self.rng.random(self.block).tolist()
        u = buf.pop()
        if u >= priming:
            return None
        return alikes[int(u / priming * len(alikes))] if len(alikes) > 1 else alikes[0]

    def detection_probability(self, gesture: Gesture, deliberate: bool, relation: str,
                              busy: bool = False) -> float:
        """Closed-form P(a percept) for this observer; lets the engine skip hopeless gesture types."""
        return detection_probability(self.observer, self.attention, gesture, deliberate, relation,
                                     self.n_opponents, busy)
