"""The gesture repertoire: what a player can do as a signal, and how often each happens by accident.

Every gesture type has a natural (fidget) rate at which any player makes it without meaning anything, a salience
(how much a deliberate one stands out, as a multiplier on d') and a modality (seen, or heard by everyone). A
pair's signal is one of these types, so a natural fidget of the same type is indistinguishable in kind and only
weaker in evidence. A player's fidgets are one Poisson stream whose type is drawn per event
(:class:`FidgetStream`), which keeps the number of simulation events small.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import numpy as np

from kemps_sim.errors import ConfigError
from kemps_sim.pickling import by_fields
from kemps_sim.timing import DEFAULT_BLOCK, check_keys, check_mapping, check_number, show

Modality = Literal["seen", "heard"]
MODALITIES: tuple[str, ...] = ("seen", "heard")
#: The values of ``rules.signal_modality``: ``silent`` forbids spoken signals (000: no words; a knock on the table
#: is fine), ``seen_only`` every signal that is heard (004's variant: something seen, not heard).
SIGNAL_MODALITY_RULES: tuple[str, ...] = ("silent", "seen_only", "spoken_allowed")
_GESTURE_KEYS = ("modality", "fidget_rate_per_hour", "salience", "spoken", "family", "scaled")


def _checked_gesture(prefix: str, name: Any, values: Mapping[str, Any]) -> dict[str, Any]:
    """The validated fields of a gesture, with errors named ``prefix.<field>``."""
    if not isinstance(name, str) or not name or name.strip() != name or " " in name:
        raise ConfigError(f"{prefix} = {show(name)}: a gesture name must be a non-empty word without spaces")
    modality = values["modality"]
    if modality not in MODALITIES:
        raise ConfigError(f"{prefix}.modality = {show(modality)}: must be one of {', '.join(MODALITIES)}")
    spoken = values["spoken"]
    if not isinstance(spoken, bool):
        raise ConfigError(f"{prefix}.spoken = {show(spoken)}: must be true or false")
    if spoken and modality != "heard":
        raise ConfigError(f"{prefix}.spoken = true: a spoken gesture must have modality = 'heard' "
                          f"(here {show(modality)})")
    family = values["family"]
    if not isinstance(family, str) or family.strip() != family or " " in family:
        raise ConfigError(f"{prefix}.family = {show(family)}: must be a word without spaces (the look-alike family), "
                          "or empty for a gesture that looks like no other")
    scaled = values["scaled"]
    if not isinstance(scaled, bool):
        raise ConfigError(f"{prefix}.scaled = {show(scaled)}: must be true or false")
    return {"name": name, "modality": modality, "spoken": spoken, "family": family, "scaled": scaled,
            "fidget_rate_per_hour": check_number(f"{prefix}.fidget_rate_per_hour",
                                                 values["fidget_rate_per_hour"], ge=0.0),
            "salience": check_number(f"{prefix}.salience", values["salience"], gt=0.0)}


@dataclass(frozen=True)
class Gesture:
    """One gesture type: its name, how it is perceived, how often it happens by accident, how much it stands out.

    ``salience`` multiplies the observer's d' (1.0 is typical; an unusual, large gesture is more salient).
    ``spoken`` marks a word slipped into talk, which may not be a signal under ``signal_modality = silent``; under
    ``seen_only`` no heard gesture (spoken or a sound) may be. Gestures of one ``family`` look alike across a table
    (an ear touch, a hand in the hair, a scratch of the cheek): an observer watching for one of them may read another
    as it (:attr:`kemps_sim.perception.Observer.priming`); an empty family looks like nothing else.
    ``scaled`` says whether a player's ``fidget_scale`` multiplies the natural rate (a fidget: how fidgety the player
    is); a blink is physiology, and keeps its rate.
    """

    name: str
    modality: Modality = "seen"
    fidget_rate_per_hour: float = 0.0
    salience: float = 1.0
    spoken: bool = False
    family: str = ""
    scaled: bool = True
    heard: bool = field(init=False, repr=False, compare=False)  # modality == "heard", precomputed for speed

    def __post_init__(self) -> None:
        checked = _checked_gesture(f"gesture.{self.name}", self.name,
                                   {**self.as_dict(), "family": self.family, "scaled": self.scaled})
        for key, value in checked.items():
            object.__setattr__(self, key, value)
        object.__setattr__(self, "heard", self.modality == "heard")

    @property
    def fidget_rate(self) -> float:
        """Natural rate per player per second."""
        return self.fidget_rate_per_hour / 3600.0

    def rate_for(self, fidget_scale: float) -> float:
        """The natural rate per second of a player whose ``fidget_scale`` is given (unscaled if not ``scaled``)."""
        return self.fidget_rate * fidget_scale if self.scaled else self.fidget_rate

    def as_dict(self) -> dict[str, Any]:
        """The fields except the name, as a repertoire table entry."""
        out: dict[str, Any] = {"modality": self.modality, "fidget_rate_per_hour": self.fidget_rate_per_hour,
                               "salience": self.salience, "spoken": self.spoken}
        if self.family:
            out["family"] = self.family
        if not self.scaled:
            out["scaled"] = False
        return out

    @classmethod
    def from_mapping(cls, name: str, data: Any, field: str = "repertoire") -> Gesture:
        """A gesture from ``{"modality": ..., "fidget_rate_per_hour": ..., "salience": ..., "spoken": ...}``.

        ``modality`` defaults to "seen", ``salience`` to 1.0, ``spoken`` to false and ``family`` to none; the rate
        is required.
        """
        prefix = f"{field}.{name}"
        data = check_mapping(prefix, data, "a table with modality, fidget_rate_per_hour, salience and spoken")
        check_keys(prefix, data, _GESTURE_KEYS, "a gesture field")
        if "fidget_rate_per_hour" not in data:
            raise ConfigError(f"{prefix}.fidget_rate_per_hour = (missing): must be a number >= 0 (per hour)")
        values = {"modality": "seen", "salience": 1.0, "spoken": False, "family": "", "scaled": True, **data}
        return cls(**_checked_gesture(prefix, name, values))

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied through __init__ (kemps_sim.pickling)


# Natural rates. Kwok et al. 2015: 23 face touches per hour; 44% of them touch a mucous membrane (of those: mouth
# 36%, nose 31%, eyes 27%, 6% several at once) and 56% touch elsewhere on the face. That source does not break
# the other 56% down; we split it evenly over five regions (cheek, chin, ear, forehead, hair): an estimate.
_FACE_TOUCH_PER_HOUR = 23.0  # Kwok et al. 2015
_MUCOSAL = 0.44 * _FACE_TOUCH_PER_HOUR  # Kwok et al. 2015
_NON_MUCOSAL_REGION = round(0.56 * _FACE_TOUCH_PER_HOUR / 5, 2)  # Kwok et al. 2015 share, even split: estimate
#: Every hand-to-face touch looks like the others from across a table: one look-alike family (an estimate; a
#: finer split, say the side of the head against the mouth and nose, is a repertoire with other families).
FACE = "face"

DEFAULT_REPERTOIRE_GESTURES: tuple[Gesture, ...] = (
    # Bentivoglio et al. 1997: 17/min at rest, 26/min talking; physiology, not fidgeting: a fidgety player blinks
    # no more (not scaled by fidget_scale)
    Gesture("blink", "seen", 20 * 60, salience=0.5, scaled=False),
    Gesture("cheek", "seen", _NON_MUCOSAL_REGION, family=FACE),  # Kwok et al. 2015 non-mucosal share (split est.)
    Gesture("chin", "seen", _NON_MUCOSAL_REGION, family=FACE),  # Kwok et al. 2015 non-mucosal share (split est.)
    Gesture("cough", "heard", 0.25),  # Holt et al. 2016: healthy adults cough ≈0.25 times an hour
    Gesture("ear", "seen", _NON_MUCOSAL_REGION, family=FACE),  # Kwok et al. 2015 non-mucosal share (split est.)
    Gesture("eye_rub", "seen", round(0.27 * _MUCOSAL, 2), family=FACE),  # Kwok et al. 2015: eyes, 27% of mucosal
    Gesture("forehead", "seen", _NON_MUCOSAL_REGION, family=FACE),  # Kwok et al. 2015 non-mucosal (split est.)
    Gesture("hair", "seen", _NON_MUCOSAL_REGION, family=FACE),  # Kwok et al. 2015 non-mucosal share (split est.)
    Gesture("mouth", "seen", round(0.36 * _MUCOSAL, 2), family=FACE),  # Kwok et al. 2015: mouth, 36% of mucosal
    Gesture("nod", "seen", 6.0, salience=0.8),  # estimate: nods outside conversation at a card table
    Gesture("nose", "seen", round(0.31 * _MUCOSAL, 2), family=FACE),  # Kwok et al. 2015: nose, 31% of mucosal
    Gesture("tap", "heard", 3.0),  # estimate: a knuckle rap on the table, audible to all
    Gesture("word", "heard", 2.0, spoken=True),  # estimate: saying the agreed code word by chance
    Gesture("yawn", "seen", 0.6, salience=1.5),  # Scholarpedia "Yawn": ≈0.6/h; a large, unusual movement
)
# Saliences other than 1.0 are estimates: a blink is small and fast, a yawn large; they are knobs to sweep.


@dataclass(frozen=True)
class Repertoire:
    """The gesture types known at a table, ordered by name (never by set iteration), looked up by name."""

    gestures: tuple[Gesture, ...]
    _by_name: dict[str, Gesture] = field(init=False, repr=False, compare=False)
    _alikes: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    #: (scale, excluded names) -> a fidget stream's fixed tables (:meth:`fidget_table`), worked out once: a match
    #: starts a stream per seat whenever the gestures it simulates change, about a dozen times.
    _fidget_tables: dict[tuple[float, tuple[str, ...]], FidgetTable] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        given: object = self.gestures  # as given: anything until checked here
        items = tuple(given) if isinstance(given, list | tuple) else None
        if not items or not all(isinstance(g, Gesture) for g in items):
            raise ConfigError(f"repertoire = {show(given)}: must be a non-empty list of gestures")
        ordered = tuple(sorted(cast(tuple[Gesture, ...], items), key=lambda g: g.name))
        for a, b in itertools.pairwise(ordered):
            if a.name == b.name:
                raise ConfigError(f"repertoire.{a.name}: named twice; gesture names must be unique")
        object.__setattr__(self, "gestures", ordered)
        object.__setattr__(self, "_by_name", {g.name: g for g in ordered})
        object.__setattr__(self, "_fidget_tables", {})
        object.__setattr__(self, "_alikes", {g.name: tuple(h.name for h in ordered if h.family == g.family
                                                           and h.name != g.name) if g.family else ()
                                             for g in ordered})

    def __getitem__(self, name: str) -> Gesture:
        try:
            return self._by_name[name]
        except (KeyError, TypeError):
            raise ConfigError(f"gesture = {show(name)}: not in the repertoire; allowed: "
                              + ", ".join(self.names)) from None

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __iter__(self) -> Iterator[Gesture]:
        return iter(self.gestures)

    def __len__(self) -> int:
        return len(self.gestures)

    @property
    def names(self) -> tuple[str, ...]:
        """Gesture names in order."""
        return tuple(self._by_name)

    def look_alikes(self, name: str) -> tuple[str, ...]:
        """The other gestures of ``name``'s look-alike family, in name order (none for a gesture without one)."""
        self[name]  # an unknown name: the one-line error
        return self._alikes[name]

    @property
    def total_fidget_rate(self) -> float:
        """Sum of the natural rates of one player, per second."""
        return math.fsum(g.fidget_rate for g in self.gestures)

    def allowed_signals(self, modality_rule: str) -> tuple[Gesture, ...]:
        """The gestures a pair may choose as its signal under ``rules.signal_modality``."""
        if modality_rule not in SIGNAL_MODALITY_RULES:
            raise ConfigError(f"rules.signal_modality = {show(modality_rule)}: must be one of "
                              + ", ".join(SIGNAL_MODALITY_RULES))
        if modality_rule == "silent":
            return tuple(g for g in self.gestures if not g.spoken)
        if modality_rule == "seen_only":
            return tuple(g for g in self.gestures if not g.heard)
        return self.gestures

    def extended(self, *gestures: Gesture) -> Repertoire:
        """A repertoire with ``gestures`` added, replacing any of the same name."""
        names = {g.name for g in gestures}
        return Repertoire(tuple(g for g in self.gestures if g.name not in names) + tuple(gestures))

    def fidget_stream(self, rng: np.random.Generator, scale: float = 1.0, exclude: Iterable[str] = (),
                      block: int = DEFAULT_BLOCK) -> FidgetStream:
        """One player's natural gestures as a single Poisson stream; see :class:`FidgetStream`."""
        return FidgetStream(self, rng, scale, exclude, block)

    def fidget_table(self, scale: float, exclude: tuple[str, ...]) -> FidgetTable:
        """The gestures a player fidgets with at ``scale`` leaving out ``exclude``, their rates and the cumulative
        shares a fidget's kind is drawn from (checked and worked out at the first asking, then kept)."""
        scale = check_number("fidget_stream.scale", scale, ge=0.0)
        key = (scale, exclude)
        table = self._fidget_tables.get(key)
        if table is None:
            table = self._fidget_tables[key] = FidgetTable.of(self, scale, exclude)
        return table

    def as_dict(self) -> dict[str, dict[str, Any]]:
        """``{name: gesture table}``, accepted back by :meth:`from_mapping`."""
        return {g.name: g.as_dict() for g in self.gestures}

    @classmethod
    def from_mapping(cls, data: Any, field: str = "repertoire") -> Repertoire:
        """A repertoire from ``{name: {"modality": ..., "fidget_rate_per_hour": ..., ...}}``."""
        data = check_mapping(field, data, "a table of gestures, each a table with modality, "
                                          "fidget_rate_per_hour, salience and spoken")
        if not data:
            raise ConfigError(f"{field} = {{}}: must name at least one gesture")
        return cls(tuple(Gesture.from_mapping(name, value, field) for name, value in data.items()))

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied through __init__ (kemps_sim.pickling)


DEFAULT_REPERTOIRE = Repertoire(DEFAULT_REPERTOIRE_GESTURES)


class FidgetTable:
    """The fixed part of a fidget stream: which gestures, at what rates, and how a fidget's kind is drawn."""

    __slots__ = ("cum", "kinds", "names", "rates", "total_rate")

    def __init__(self, kinds: tuple[str, ...], rates: tuple[float, ...], total_rate: float) -> None:
        self.kinds = kinds
        self.rates = rates
        self.total_rate = total_rate
        self.names = np.array(kinds, dtype=object)
        self.cum = np.cumsum(rates) / total_rate if total_rate > 0 else np.zeros(0)
        if self.cum.size:
            self.cum[-1] = 1.0

    @classmethod
    def of(cls, repertoire: Repertoire, scale: float, exclude: tuple[str, ...]) -> FidgetTable:
        """The table of ``repertoire``'s gestures at ``scale`` (a number >= 0) without ``exclude`` (every name
        checked)."""
        for name in exclude:
            if name not in repertoire:
                raise ConfigError(f"fidget_stream.exclude = {show(name)}: not in the repertoire; allowed: "
                                  + ", ".join(repertoire.names))
        chosen = [g for g in repertoire if g.name not in exclude and g.fidget_rate_per_hour > 0]
        rates = tuple(g.rate_for(scale) for g in chosen)
        return cls(tuple(g.name for g in chosen), rates, math.fsum(rates) if scale > 0 else 0.0)


class FidgetStream:
    """A player's unintentional gestures as one Poisson process, the type of each drawn by rate.

    ``next_gap()`` gives the seconds to the next fidget and ``next_kind()`` its gesture name; both come from
    pre-drawn blocks. ``scale`` multiplies every ``scaled`` rate (a fidgety or a still player); ``exclude`` drops
    types the engine need not simulate (say, blinks when nobody signals or watches with blinks). With no rate left,
    ``next_gap()`` is ``math.inf``.
    """

    __slots__ = ("_cum", "_gaps", "_kinds", "_names", "block", "kinds", "rates", "rng", "total_rate")

    def __init__(self, repertoire: Repertoire, rng: np.random.Generator, scale: float = 1.0,
                 exclude: Iterable[str] = (), block: int = DEFAULT_BLOCK) -> None:
        if not isinstance(block, int) or isinstance(block, bool) or block < 1:
            raise ConfigError(f"fidget_stream.block = {show(block)}: must be a whole number >= 1")
        excluded = tuple(exclude) if not isinstance(exclude, str) else (exclude,)
        table = repertoire.fidget_table(scale, excluded)
        self.rng = rng
        self.block = block
        self.kinds: tuple[str, ...] = table.kinds
        self.rates: tuple[float, ...] = table.rates
        self.total_rate = table.total_rate
        self._names = table.names
        self._cum = table.cum
        self._gaps: list[float] = []
        self._kinds: list[str] = []

    def next_gap(self) -> float:
        """Seconds from the previous fidget (or the start) to the next one."""
        buf = self._gaps
        if not buf:
            if self.total_rate <= 0:
                return math.inf
            buf = self._gaps = self.rng.exponential(1.0 / self.total_rate, self.block)[::-1].tolist()
        return buf.pop()

    def next_kind(self) -> str:
        """The gesture name of the next fidget, drawn in proportion to the rates."""
        buf = self._kinds
        if not buf:
            if self.total_rate <= 0:
                raise RuntimeError("fidget stream has no gesture with a positive rate; next_gap() is inf")
            index = np.searchsorted(self._cum, self.rng.random(self.block), side="right")
            buf = self._kinds = self._names[index[::-1]].tolist()
        return buf.pop()
