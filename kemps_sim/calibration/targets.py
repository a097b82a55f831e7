"""Calibration targets: sourced statistics a table of people should show, each with an interval and its source.

The targets live in a versioned TOML file (the package's ``targets.toml`` unless another is named). A target told
as counts (``k`` of ``n``) has its value and interval computed here when the file is read, never typed in, so the
file cannot disagree with its counts: a share gets the exact Clopper-Pearson interval
(``scipy.stats.binomtest(k, n).proportion_ci()``), a rate per round the exact Poisson interval of ``k`` events in
``n`` rounds (from ``scipy.stats.chi2``). Bounds become half-lines, and a target ``within_factor`` of another takes
that target's value. Every problem with the file is a one-line :class:`~kemps_sim.errors.ConfigError` naming the
field, the value and what is allowed.
"""

from __future__ import annotations

import datetime
import math
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from scipy import stats

from kemps_sim.calibration.statistics import STATISTICS
from kemps_sim.errors import ConfigError
from kemps_sim.suggest import did_you_mean

#: The versions of the targets file this module reads.
SUPPORTED_VERSIONS = (1, 2)
#: The kinds of target, with the keys each takes besides name, statistic, kind, source and note.
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {  # kind: (required keys, optional keys)
    "counts": (("k", "n", "method"), ()),
    "range": (("low", "high", "derivation"), ("value",)),
    "at_most": (("value",), ()),
    "at_least": (("value",), ()),
    "within_factor": (("of", "factor"), ()),
}
#: How an interval is computed from counts: a share of n, or a rate of k events in n rounds.
METHODS = ("clopper_pearson", "poisson")
_COMMON = ("name", "statistic", "kind", "source", "note")
_OPTIONAL = ("players",)  # every kind may name the table sizes it applies to
_TOP = ("version", "date", "confidence", "target")
_NAME = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$")


@dataclass(frozen=True)
class Target:
    """One target: the statistic it constrains, its value (None for a range without a point), its interval
    ``[low, high]`` (a half-line for a bound) and how that was derived, its source and a note.

    ``k`` and ``n`` are the counts of a ``counts`` target (None otherwise); ``players`` the table sizes the target
    applies to (empty: every size).
    """

    name: str
    statistic: str
    kind: str
    value: float | None
    low: float
    high: float
    derivation: str
    source: str
    note: str
    k: int | None = None
    n: int | None = None
    players: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        where = f"target {self.name!r}"
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ConfigError(f"target.name = {self.name!r}: must be lower-case words joined by _ and dots")
        if self.statistic not in STATISTICS:
            raise ConfigError(f"{where}.statistic = {self.statistic!r}: must be one of {', '.join(STATISTICS)}")
        if self.kind not in KINDS:
            raise ConfigError(f"{where}.kind = {self.kind!r}: must be one of {', '.join(KINDS)}")
        if math.isnan(self.low) or math.isnan(self.high) or self.low > self.high:
            raise ConfigError(f"{where}: low = {self.low!r}, high = {self.high!r}: must be numbers with low <= high")
        if self.value is not None and not self.low <= self.value <= self.high:
            raise ConfigError(f"{where}.value = {self.value!r}: must lie in [{self.low!r}, {self.high!r}]")

    def applies_to(self, players: int | None) -> bool:
        """Whether the target applies to a table of ``players`` (None: a table of unknown size, taken to apply)."""
        return not self.players or players is None or players in self.players

    @property
    def bound(self) -> bool:
        """Whether the target is a bound (a half-line) rather than a value with an interval."""
        return self.kind in ("at_most", "at_least")

    def interval_text(self, digits: int = 3) -> str:
        """The interval as a reader writes it: ``<= 0.25``, ``>= 0``, ``[0.118, 0.882]``."""
        if self.kind == "at_most":
            return f"<= {self.high:.{digits}g}"
        if self.kind == "at_least":
            return f">= {self.low:.{digits}g}"
        return f"[{self.low:.{digits}g}, {self.high:.{digits}g}]"


@dataclass(frozen=True)
class Targets:
    """Every target of a file, in file order, with the file's version, date, confidence level and path."""

    version: int
    date: datetime.date
    confidence: float
    targets: tuple[Target, ...]
    path: str = ""

    def __post_init__(self) -> None:
        if self.version not in SUPPORTED_VERSIONS:
            raise ConfigError(f"targets.version = {self.version!r}: must be one of "
                              f"{', '.join(map(str, SUPPORTED_VERSIONS))}")
        if not isinstance(self.date, datetime.date) or isinstance(self.date, datetime.datetime):
            raise ConfigError(f"targets.date = {self.date!r}: must be a date such as 2026-12-01")
        if not 0.0 < self.confidence < 1.0:
            raise ConfigError(f"targets.confidence = {self.confidence!r}: must be a number strictly between 0 and 1")
        names = [t.name for t in self.targets]
        for name in names:
            if names.count(name) > 1:
                raise ConfigError(f"target.name = {name!r}: named twice; target names must be unique")

    def __iter__(self) -> Iterator[Target]:
        return iter(self.targets)

    def __len__(self) -> int:
        return len(self.targets)

    def __getitem__(self, name: str) -> Target:
        for target in self.targets:
            if target.name == name:
                return target
        raise ConfigError(f"target = {name!r}: no such target; targets: {', '.join(self.names)}")

    @property
    def names(self) -> tuple[str, ...]:
        """The targets' names in file order."""
        return tuple(t.name for t in self.targets)


def default_path() -> Path:
    """The package's own targets file (found through importlib.resources, installed or not)."""
    return Path(str(resources.files("kemps_sim.calibration").joinpath("targets.toml")))


def load_targets(path: str | Path | None = None) -> Targets:
    """The targets of a TOML file (default: the package's ``targets.toml``), checked whole.

    Counts become a value ``k / n`` with an exact interval at the file's ``confidence``; see the module text.
    """
    if path is None:
        text = resources.files("kemps_sim.calibration").joinpath("targets.toml").read_text(encoding="utf-8")
        shown = "targets.toml"
    else:
        file = Path(path)
        shown = str(file)
        if not file.is_file():
            raise ConfigError(f"targets file {shown!r}: no such file")
        text = file.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"targets file {shown!r}: not valid TOML: {exc}") from None
    try:
        return targets_from_mapping(data, shown)
    except ConfigError as exc:
        raise ConfigError(f"targets file {shown!r}: {exc}") from None


def targets_from_mapping(data: Mapping[str, Any], path: str = "") -> Targets:
    """The targets of plain data shaped like the TOML file (``version``, ``date``, ``confidence``, ``[[target]]``)."""
    for key in data:
        if key not in _TOP:
            raise ConfigError(f"{key} = {data[key]!r}: unknown key; allowed: {', '.join(_TOP)}")
    for key in ("version", "date", "target"):
        if key not in data:
            raise ConfigError(f"{key}: missing; a targets file has version, date, confidence and [[target]] tables")
    version = data["version"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise ConfigError(f"version = {version!r}: must be one of {', '.join(map(str, SUPPORTED_VERSIONS))}")
    confidence = _number("confidence", data.get("confidence", 0.95))
    if not 0.0 < confidence < 1.0:
        raise ConfigError(f"confidence = {confidence!r}: must be a number strictly between 0 and 1")
    entries = data["target"]
    if not isinstance(entries, list) or not entries or not all(isinstance(e, Mapping) for e in entries):
        raise ConfigError(f"target = {entries!r}: must be one or more [[target]] tables")
    made: dict[str, Target] = {}
    for index, entry in enumerate(entries):
        target = _target(index, entry, confidence, made)
        if target.name in made:
            raise ConfigError(f"target[{index}].name = {target.name!r}: named twice; target names must be unique")
        made[target.name] = target
    return Targets(version, data["date"], confidence, tuple(made.values()), path)


def clopper_pearson(k: int, n: int, confidence: float) -> tuple[float, float]:
    """The exact (Clopper-Pearson) interval of a share of ``k`` in ``n`` (scipy's ``binomtest``)."""
    found = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
    return float(found.low), float(found.high)


def poisson_rate(k: int, n: int, confidence: float) -> tuple[float, float]:
    """The exact Poisson interval of the rate of ``k`` events in ``n`` units (Garwood 1936, from chi-square
    quantiles): ``[chi2(a/2, 2k) / 2n, chi2(1 - a/2, 2k + 2) / 2n]``, the lower limit 0 when ``k`` is 0."""
    alpha = 1.0 - confidence
    low = float(stats.chi2.ppf(alpha / 2, 2 * k)) / (2 * n) if k > 0 else 0.0
    return low, float(stats.chi2.ppf(1 - alpha / 2, 2 * k + 2)) / (2 * n)


def _target(index: int, entry: Mapping[str, Any], confidence: float, made: Mapping[str, Target]) -> Target:
    """One ``[[target]]`` table, checked field by field; errors say ``target[INDEX] (NAME).FIELD = VALUE: ...``."""
    name = entry.get("name")
    where = f"target[{index}]" + (f" ({name})" if isinstance(name, str) else "")
    for key in ("name", "statistic", "kind"):
        if not isinstance(entry.get(key), str):
            raise ConfigError(f"{where}.{key} = {entry.get(key, '(missing)')!r}: must be text")
    if entry["statistic"] not in STATISTICS:
        raise ConfigError(f"{where}.statistic = {entry['statistic']!r}: must be one of the statistics"
                          f"{did_you_mean(entry['statistic'], STATISTICS)}: {', '.join(STATISTICS)}")
    kind = entry["kind"]
    if kind not in KINDS:
        raise ConfigError(f"{where}.kind = {kind!r}: must be one of {', '.join(KINDS)}")
    required, optional = KINDS[kind]
    for key in entry:
        if key not in (*_COMMON, *required, *optional, *_OPTIONAL):
            raise ConfigError(f"{where}.{key} = {entry[key]!r}: not a field of a {kind} target; its fields: "
                              f"{', '.join((*_COMMON, *required, *optional, *_OPTIONAL))}")
    for key in (*_COMMON, *required):
        if key not in entry:
            raise ConfigError(f"{where}.{key}: missing; a {kind} target needs {', '.join((*_COMMON, *required))}")
    for key in ("source", "note", *(("derivation",) if kind == "range" else ())):
        if not isinstance(entry[key], str) or not entry[key].strip():
            raise ConfigError(f"{where}.{key} = {entry[key]!r}: must be non-empty text")
    fields = {"name": name, "statistic": entry["statistic"], "kind": kind, "source": entry["source"],
              "note": entry["note"], "players": _players(where, entry.get("players", []))}
    if kind == "counts":
        return Target(**fields, **_counts(where, entry, confidence))
    if kind == "range":
        low, high = _number(f"{where}.low", entry["low"]), _number(f"{where}.high", entry["high"])
        if low > high:
            raise ConfigError(f"{where}.low = {low!r}: must be at most high ({high!r})")
        value = _number(f"{where}.value", entry["value"]) if "value" in entry else None
        if value is not None and not low <= value <= high:
            raise ConfigError(f"{where}.value = {value!r}: must lie in [low, high] = [{low!r}, {high!r}]")
        return Target(**fields, value=value, low=low, high=high, derivation=entry["derivation"])
    if kind in ("at_most", "at_least"):
        value = _number(f"{where}.value", entry["value"])
        low, high = (-math.inf, value) if kind == "at_most" else (value, math.inf)
        words = "at most" if kind == "at_most" else "at least"
        return Target(**fields, value=value, low=low, high=high, derivation=f"a bound: {words} {value:g}")
    return _within_factor(where, entry, fields, made)


def _players(where: str, value: Any) -> tuple[int, ...]:
    """The table sizes a target applies to: a list of even whole numbers from 4 to 8 (empty: all)."""
    if not isinstance(value, list) or not all(type(v) is int and v in (4, 6, 8) for v in value):
        raise ConfigError(f"{where}.players = {value!r}: must be a list of table sizes among 4, 6 and 8")
    return tuple(sorted(set(value)))


def _counts(where: str, entry: Mapping[str, Any], confidence: float) -> dict[str, Any]:
    """The value, interval, derivation and counts of a ``counts`` target."""
    k, n, method = entry["k"], entry["n"], entry["method"]
    if method not in METHODS:
        raise ConfigError(f"{where}.method = {method!r}: must be one of {', '.join(METHODS)}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"{where}.n = {n!r}: must be a whole number >= 1")
    top = n if method == "clopper_pearson" else None
    if isinstance(k, bool) or not isinstance(k, int) or k < 0 or (top is not None and k > top):
        allowed = f"a whole number from 0 to n ({n})" if top is not None else "a whole number >= 0"
        raise ConfigError(f"{where}.k = {k!r}: must be {allowed}")
    level = f"{confidence:.0%}"
    if method == "clopper_pearson":
        low, high = clopper_pearson(k, n, confidence)
        derivation = f"exact {level} Clopper-Pearson interval of {k} of {n} (scipy.stats.binomtest)"
    else:
        low, high = poisson_rate(k, n, confidence)
        derivation = f"exact {level} Poisson interval of {k} events in {n} rounds (chi-square quantiles)"
    return {"value": k / n, "low": low, "high": high, "derivation": derivation, "k": k, "n": n}


def _within_factor(where: str, entry: Mapping[str, Any], fields: dict[str, Any],
                   made: Mapping[str, Target]) -> Target:
    """A target within a factor of an earlier target's value: ``[value / factor, value * factor]``."""
    of, factor = entry["of"], _number(f"{where}.factor", entry["factor"])
    if of not in made:
        listed = ", ".join(made) or "none"
        raise ConfigError(f"{where}.of = {of!r}: must name a target above it in the file; above it: {listed}")
    value = made[of].value
    if value is None or value <= 0.0:
        raise ConfigError(f"{where}.of = {of!r}: that target has no positive value to take a factor of")
    if factor <= 1.0:
        raise ConfigError(f"{where}.factor = {factor!r}: must be a number above 1")
    return Target(**fields, value=value, low=value / factor, high=value * factor,
                  derivation=f"within a factor of {factor:g} of {of} ({value:.3g})")


def _number(field: str, value: Any) -> float:
    """``value`` as a float if it is a finite number, else a one-line ConfigError."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ConfigError(f"{field} = {value!r}: must be a finite number")
    return float(value)
