"""Checking a sweep spec's set-up in parts, so that every problem is found in one run and named where it is: the
base field by field (:func:`check_base`), then every cell, and, where cells fail, each axis value alone on the
base (:func:`check_cells`).

A broken base field would make every cell fail with the same message; so the cells are checked on the *sound*
base, the base with each broken field left out (its default stands in), and the axes that cannot be judged without
the broken field (an agent axis without a lineup) are left unjudged until it is fixed.

Layering: built on :mod:`kemps_sim.sweep.cells` (the planning of one cell); :mod:`kemps_sim.sweep.spec` calls it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from kemps_sim.engine.match import resolve_profiles
from kemps_sim.errors import ConfigError
from kemps_sim.games import game as game_record
from kemps_sim.lineup import make_factory, parse_entry, resolve_lineup, split_lineup
from kemps_sim.profile_file import profile_table
from kemps_sim.profiles import PlayerProfile
from kemps_sim.suggest import did_you_mean
from kemps_sim.sweep.cells import plan_cell
from kemps_sim.sweep.design import Axis, Cell, SweepSpec, design_cells

#: At most this many cell problems are listed; the rest are counted.
MAX_CELL_PROBLEMS = 12
_KNOB = re.compile(r"^rules\.(\w+) = ")
_UNIT_AGENT = re.compile(r"^(pair|player)\d+\.agent\.")
_UNIT = re.compile(r"^pair(\d+)\.")
_QUOTED_LINEUP = re.compile(r"^lineup '(?:[^'\\]|\\.)*': ")


@dataclass(frozen=True)
class BaseCheck:
    """What checking the base found: its problems (one line each, naming the base field), the sound base (every
    broken field left out) and the names of the broken fields."""

    problems: tuple[str, ...]
    sound: dict[str, Any]
    broken: frozenset[str]


def read_profile_files(data: Mapping[str, Any], folder: str | Path | None) -> tuple[Mapping[str, Any], list[str]]:
    """A spec's ``data`` with each profile its [base] gives as a file (``profile``, or an entry of ``profiles``: a
    string, taken from ``folder`` when relative) replaced by the file's table, and the problems of the files that
    could not be read (such a file is left out, or the default profile stands in its place in ``profiles``, so
    that the rest of the spec is checked without it)."""
    base = data.get("base")
    given = base.get("profiles") if isinstance(base, Mapping) else None
    files = isinstance(given, list) and any(isinstance(entry, str) for entry in given)
    if not isinstance(base, Mapping) or not (isinstance(base.get("profile"), str) or files):
        return data, []
    base, problems = dict(base), []
    if isinstance(base.get("profile"), str):
        try:
            base["profile"] = profile_table(base["profile"], "base.profile", folder)
        except ConfigError as exc:
            problems.append(str(exc))
            del base["profile"]
    if files:
        tables = []
        for i, entry in enumerate(base["profiles"]):
            try:
                tables.append(profile_table(entry, f"base.profiles[{i}]", folder))
            except ConfigError as exc:
                problems.append(str(exc))
                tables.append({})
        base["profiles"] = tables
    return {**data, "base": base}, problems


def check_base(base: Mapping[str, Any], game: str, broken: frozenset[str] = frozenset()) -> BaseCheck:
    """Check every field of ``base`` on its own (``broken``: fields already found to be of the wrong kind).

    Each rule knob, lineup entry, profile field and engine setting is tried alone, so that two typos give two
    lines; fields that are fine alone are then tried together.
    """
    check = _BaseChecker({key: value for key, value in base.items() if key not in broken}, game, set(broken))
    rules = check.rules()
    players = check.played.seats(rules)
    known = players if not {"rules", "players"} & check.broken else None
    check.lineup(known)
    check.profiles(known)
    check.engine()
    for key in check.broken & {"rules", "players", "lineup", "profile", "profiles"}:
        check.sound.pop(key, None)
    return BaseCheck(tuple(check.problems), check.sound, frozenset(check.broken))


class _BaseChecker:
    """The base being checked: the problems found so far, the fields found broken and the sound base."""

    def __init__(self, sound: dict[str, Any], game: str, broken: set[str]) -> None:
        self.sound, self.game, self.broken = sound, game, broken
        self.played = game_record(game)
        self.problems: list[str] = []

    def fail(self, key: str, text: str) -> None:
        self.problems.append(text)
        self.broken.add(key)

    def rules(self) -> Any:
        """Check the preset (or rules file), then the knobs of ``set`` and ``players`` together, dropping each knob
        an error names until the rest load; return the rules of the sound base."""
        load = self.played.load_rules
        preset = self.sound.get("rules", self.played.default_rules)
        try:
            load(preset)
        except ConfigError as exc:
            self.fail("rules", _reworded(str(exc), "rules.preset = ", f"base.rules = {preset!r}: ", "base.rules = "))
            preset = self.played.default_rules
        knobs = dict(self.sound.get("set") or {})
        if "players" in self.sound and self.played.takes_players:
            knobs["players"] = self.sound["players"]
        dropped: list[str] = []
        while True:
            try:
                rules = load(preset, **knobs)
            except ConfigError as exc:
                text = str(exc)
                named = _KNOB.match(text)
                knob = named.group(1) if named else None
                if knob in knobs and any(re.search(rf"\b{k}\b", text) for k in dropped):
                    pass  # it fails for want of a knob already reported: one line is enough
                elif knob == "players" and "players" in knobs:
                    self.fail("players", _reworded(text, "rules.players", "base.players"))
                elif knob in knobs:
                    self.fail("set", _reworded(text, "rules.", "base.set."))
                else:  # an error that names no knob of the base: the knobs together
                    self.fail("set", f"base.set: {text}")
                    knobs = {}
                    continue
                knobs.pop(knob)
                dropped.append(knob)
                continue
            if "set" in self.sound:
                self.sound["set"] = {k: v for k, v in knobs.items() if k != "players"}
            return rules

    def lineup(self, players: int | None) -> None:
        """Check the lineup's syntax, then every entry alone (the agent, its game and parameters), then the count
        of entries when the number of players is known."""
        if "lineup" not in self.sound:
            return
        lineup = self.sound["lineup"]

        def fail(exc: ConfigError) -> None:
            text = _QUOTED_LINEUP.sub("", str(exc), count=1)
            self.fail("lineup", f"base.lineup = {lineup!r}: {text.removeprefix('lineup ')}")

        try:
            entries = split_lineup(lineup)
        except ConfigError as exc:
            fail(exc)
            return
        for entry in entries:
            try:
                name, params = parse_entry(entry, self.game)
                make_factory(name, params, self.game)
            except ConfigError as exc:
                fail(exc)
        if "lineup" not in self.broken and players is not None:
            try:
                resolve_lineup(lineup, players, game=self.game)
            except ConfigError as exc:
                fail(exc)

    def profiles(self, players: int | None) -> None:
        """Check every field of the every-seat profile alone, then each profile of ``profiles`` over it, then
        their count when the number of players is known."""
        common = PlayerProfile()
        if "profile" in self.sound:
            profile = self.sound["profile"]
            for key, value in profile.items():
                try:
                    PlayerProfile.from_mapping({key: value}, "base.profile")
                except ConfigError as exc:
                    self.fail("profile", str(exc))
            if "profile" not in self.broken:
                try:
                    common = PlayerProfile.from_mapping(profile, "base.profile")
                except ConfigError as exc:
                    self.fail("profile", str(exc))
        given = self.sound.get("profiles")
        if given is None:
            return
        items = []
        for i, entry in enumerate(given):
            try:
                items.append(PlayerProfile.from_mapping(entry, f"base.profiles[{i}]", base=common))
            except ConfigError as exc:
                self.fail("profiles", str(exc))
        if len(items) == len(given) and players is not None:
            try:
                resolve_profiles(items, players)
            except ConfigError as exc:
                self.fail("profiles", f"base.{exc}")

    def engine(self) -> None:
        """Check every engine setting alone (an unknown one with a suggestion), keeping the good ones."""
        if "engine" not in self.sound:
            return
        played = self.played
        config, prefix, what = played.hook("config"), played.config_prefix, played.config_word
        allowed = [f.name for f in fields(config)]
        good = {}
        for key, value in self.sound["engine"].items():
            if key not in allowed:
                self.fail("engine", f"base.engine.{key}: unknown {what}{did_you_mean(key, allowed)}; allowed: "
                                    f"{', '.join(allowed)}")
                continue
            try:
                config(**{key: value})
            except ConfigError as exc:
                self.fail("engine", _reworded(str(exc), prefix, "base.engine."))
                continue
            good[key] = value
        self.sound["engine"] = good


def _reworded(text: str, old: str, front: str, new: str | None = None) -> str:
    """``text`` with its leading ``old`` (the field as the library names it) replaced by ``new`` (default
    ``front``: the field as the spec names it); a text that does not start so gets ``front`` in front."""
    if text.startswith(old):
        return (front if new is None else new) + text[len(old):]
    return front + text if front.endswith(": ") else f"{front}: {text}"


def judged_axes(axes: tuple[Axis, ...], broken: frozenset[str]) -> tuple[Axis, ...]:
    """The axes that can be judged on the sound base: an agent axis needs the lineup, and a pair beyond pair 1
    needs the number of players."""
    kept = []
    for axis in axes:
        if "lineup" in broken and (axis.name.startswith("agent.") or _UNIT_AGENT.match(axis.name)):
            continue
        unit = _UNIT.match(axis.name)
        if {"rules", "players"} & broken and unit and int(unit.group(1)) >= 2:
            continue
        kept.append(axis)
    return tuple(kept)


@dataclass(frozen=True)
class CellCheck:
    """What checking the cells found: problems as (axis name or None for the cells together, line), and every
    cell that can be played with its number of sides (pairs, or Krepet's two players) and its scoring rule (None
    for Krepet)."""

    problems: tuple[tuple[str | None, str], ...]
    playable: tuple[tuple[Cell, int, str | None], ...] = ()


def check_cells(spec: SweepSpec, drawable: bool = True) -> CellCheck:
    """Build every cell's plan once and return the problems found (none when every cell can be played).

    A spec is valid when every cell can be played. When some cannot (or the design cannot be drawn:
    ``drawable`` False, when the base alone stands for the cells), each axis value is also tried alone on the
    base, so that every bad axis gets named rather than only the first one each cell trips over.
    """
    failures: dict[str, list[str]] = {}
    seen: set[tuple[str, str]] = set()  # (axis, value) pairs seen in a cell that can be played
    playable: list[tuple[Cell, int, str | None]] = []
    for cell in design_cells(spec) if drawable else [Cell(())]:
        try:
            rules = plan_cell(spec, cell).rules
        except ConfigError as exc:
            failures.setdefault(str(exc), []).append(cell.label())
        else:
            seen.update((name, repr(value)) for name, value in cell.params)
            played = game_record(spec.game)
            playable.append((cell, played.sides(rules), played.scoring(rules)))
    if not failures and drawable:
        return CellCheck((), tuple(playable))
    problems: dict[tuple[str | None, str], None] = {}
    for axis in spec.axes:
        for value in _values_to_try(axis):
            if (axis.name, repr(value)) in seen:
                continue  # some cell plays it, so whatever fails alone is made right by another axis
            try:
                plan_cell(spec, Cell(((axis.name, value),)))
            except ConfigError as exc:
                text = str(exc)
                problems.setdefault((axis.name, _axis_text(axis.name, value, text)))
                failures.pop(text, None)
                # A sampled range fails at many values, each with its own message: one is enough.
                for other in [t for t in failures if f"{axis.name} = " in t]:
                    failures.pop(other)
                break
    for text, labels in failures.items():
        where = f" (in {len(labels)} cell{'s' if len(labels) > 1 else ''}, e.g. {labels[0]})" if spec.axes else ""
        problems.setdefault((None, text + where))
    listed = list(problems)
    if len(listed) > MAX_CELL_PROBLEMS:
        listed = [*listed[:MAX_CELL_PROBLEMS], (None, f"... and {len(listed) - MAX_CELL_PROBLEMS} more cell problems")]
    return CellCheck(tuple(listed), tuple(playable))


def not_finite_problem(spec: SweepSpec, name: str, given: list[Any], level: float) -> str:
    """Why the level ``level`` (nan or inf) of axis ``name`` (listed as ``given``) is refused, with what the place
    the axis points to allows, as that place says it (a level must be a number >= 0, true or false, ...)."""
    kind = "not a number" if math.isnan(level) else "not finite"
    head = f"axes.{name} = {given!r}: {level!r} is not an allowed level ({kind})"
    try:
        plan_cell(spec, Cell(((name, level),)))
    except ConfigError as exc:
        text = str(exc)
        marker = f" = {level!r}: "
        if marker in text:
            said = text.split(marker, 1)[1]
            return f"{head}; a level {said}" if said.startswith("must ") else f"{head}; {said}"
    return f"{head}; a level must be a finite number"


def _axis_text(name: str, value: Any, text: str) -> str:
    """A problem of one axis value, naming the axis as the spec does (``axes.NAME``): the engine's own messages
    already name the field they are about, as the axis name or a part of it."""
    if text.startswith("axes."):
        return text
    if text.startswith(name):
        return f"axes.{text}"
    return f"axes.{name} = {value!r}: {text}"


def _values_to_try(axis: Axis) -> tuple[Any, ...]:
    """The values of an axis tried alone: every level, every grid point of a range with steps, or a sampled
    range's two ends."""
    if axis.levels is not None or (axis.range is not None and axis.range.steps):
        return axis.grid()
    return axis.at(0.0), axis.at(0.999)
