"""From a cell's parameters to what its matches need: the rules, the lineup, one profile per seat, the engine.

An axis name says where its value goes: ``rules`` (the preset or rules file), ``rules.KNOB`` or ``players`` (a rule
knob), ``lineup``, ``profile.FIELD[.PARAM]`` (every seat) or ``pairN.profile.FIELD[.PARAM]`` (pair N's seats),
``agent.PARAM`` (every agent that has that hyperparameter) or ``pairN.agent.PARAM`` (pair N's agent), and
``engine.SETTING``. The sweep's game (:class:`~kemps_sim.games.Game`) says the rest: its sides (a Krepet sweep has
players instead of pairs: ``playerN.profile...``, ``playerN.agent.PARAM``), its rule knobs and defaults, whether
``players`` is a knob, and its engine settings (:class:`~kemps_sim.krepet.realtime.KrepetConfig` for Krepet).

Layering: built on :mod:`kemps_sim.sweep.design` (the parsed spec and its cells); the checks of
:mod:`kemps_sim.sweep.checks` plan each cell through it, and this module imports neither them nor the parsing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from kemps_sim.engine import EngineConfig
from kemps_sim.engine.match import resolve_profiles
from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME, Game, game
from kemps_sim.lineup import entry_text, parse_entry, resolve_lineup, split_lineup
from kemps_sim.profiles import PlayerProfile
from kemps_sim.registry import agent_info
from kemps_sim.rules import Rules
from kemps_sim.suggest import did_you_mean
from kemps_sim.sweep.design import Cell, SweepSpec, design_cells

_UNIT = re.compile(r"^(pair|player)(\d+)\.(profile|agent)\.(.+)$")


def axis_forms(played: Game) -> tuple[str, ...]:
    """Where an axis name may point in a sweep of ``played``: a rule knob (and ``players`` where the rules say how
    many play), the lineup, a profile parameter, an agent hyperparameter (every seat's or one side's), the
    engine."""
    unit = played.unit
    return ("rules", "rules.KNOB", *(("players",) if played.takes_players else ()), "lineup",
            "profile.FIELD[.PARAM]", f"{unit}N.profile.FIELD[.PARAM]", "agent.PARAM", f"{unit}N.agent.PARAM",
            "engine.SETTING")


@dataclass(frozen=True)
class CellPlan:
    """Everything a worker needs to play a cell's matches; plain picklable values (the rules and the engine
    settings of the cell's game: :class:`~kemps_sim.krepet.rules.KrepetRules` and
    :class:`~kemps_sim.krepet.realtime.KrepetConfig` for a Krepet cell)."""

    cell: Cell
    rules: Rules | Any
    lineup: str
    profiles: tuple[PlayerProfile, ...]
    config: EngineConfig | Any
    game: str = DEFAULT_GAME

    @property
    def scoring(self) -> str | None:
        """The cell's scoring rule (None for a game without one), which every row of the tables its game's
        :class:`~kemps_sim.games.GameTables` names as ``scored`` records as ``rules.scoring``."""
        return game(self.game).scoring(self.rules)


def plan_cell(spec: SweepSpec, cell: Cell) -> CellPlan:
    """The cell's set-up: the spec's base with the cell's parameters applied; a bad value is a ConfigError."""
    played = game(spec.game)
    base = spec.base
    params = cell.as_dict()
    unit = played.unit
    if "players" in params and not played.takes_players:
        raise ConfigError(f"axes.players: {played.fixed_players_text()}")
    where = "" if spec.game == DEFAULT_GAME else f" in a {played.title} sweep"
    routed = _route(params, unit, axis_forms(played), where)
    rule_overrides = spec.base_rule_overrides()
    if "players" in params:
        rule_overrides["players"] = params["players"]
    rule_overrides.update(routed.knobs)
    engine: dict[str, Any] = {**(base.get("engine") or {}), **routed.engine}
    rules = played.load_rules(params.get("rules", base.get("rules")), **rule_overrides)
    seats, sides = played.seats(rules), played.sides(rules)
    beyond = [side for side in (*routed.profile_unit, *routed.agent_unit) if side >= sides]
    if beyond and played.takes_players:
        raise ConfigError(f"axes.{unit}{beyond[0]}: no such {unit} at {seats} players; {unit}s are 0 to {sides - 1}")
    if beyond:
        listed = "0 and 1" if sides == 2 else f"0 to {sides - 1}"
        raise ConfigError(f"axes.{unit}{max(beyond)}: {played.title} has {unit}s {listed}")
    lineup = _lineup(params.get("lineup", base.get("lineup", played.default_lineup)), sides, routed.agent_all,
                     routed.agent_unit, unit, spec.game)
    resolve_lineup(lineup, seats, game=spec.game)
    profiles = _profiles(base, played, rules, routed.profile_all, routed.profile_unit)
    config = played.hook("config")
    allowed = [f.name for f in fields(config)]
    unknown = [k for k in engine if k not in allowed]
    if unknown:
        raise ConfigError(f"engine.{unknown[0]}: unknown {played.config_word}{did_you_mean(unknown[0], allowed)}; "
                          f"allowed: {', '.join(allowed)}")
    return CellPlan(cell, rules, lineup, profiles, config(**engine), spec.game)


@dataclass
class _Routed:
    """A cell's parameters sorted by where they go: rule knobs, every seat's or one unit's (pair or player)
    profile and agent, the engine."""

    knobs: dict[str, Any] = field(default_factory=dict)
    profile_all: dict[str, Any] = field(default_factory=dict)
    profile_unit: dict[int, dict[str, Any]] = field(default_factory=dict)
    agent_all: dict[str, Any] = field(default_factory=dict)
    agent_unit: dict[int, dict[str, Any]] = field(default_factory=dict)
    engine: dict[str, Any] = field(default_factory=dict)


def _route(params: Mapping[str, Any], unit_word: str, forms: tuple[str, ...], where: str) -> _Routed:
    """Sort a cell's parameters (``rules``, ``lineup`` and ``players`` are read by the caller); an axis name that
    points nowhere is a ConfigError suggesting the closest place (see :func:`_places`) and listing the ``forms``
    allowed."""
    routed = _Routed()
    for name, value in params.items():
        head, _, rest = name.partition(".")
        one = _UNIT.match(name)
        one = one if one and one.group(1) == unit_word else None
        if name in ("rules", "lineup", "players"):
            continue
        if head == "rules" and rest:
            routed.knobs[rest] = value
        elif head == "profile" and rest:
            routed.profile_all[rest] = value
        elif head == "agent" and rest and "." not in rest:
            routed.agent_all[rest] = value
        elif head == "engine" and rest:
            routed.engine[rest] = value
        elif one and one.group(3) == "profile":
            routed.profile_unit.setdefault(int(one.group(2)), {})[one.group(4)] = value
        elif one and "." not in one.group(4):
            routed.agent_unit.setdefault(int(one.group(2)), {})[one.group(4)] = value
        else:
            hint = did_you_mean(name, _places(name, unit_word))
            raise ConfigError(f"axes.{name}: not a place a value can go{where}{hint}; axis names are "
                              f"{', '.join(forms)}")
    return routed


def _places(name: str, unit_word: str) -> list[str]:
    """The axis names ``name`` may have meant: its tail under each head (``rule.x`` may be ``rules.x``), and
    under each unit's profile or agent (``pair0.agnet.x`` may be ``pair0.agent.x``)."""
    places = ["rules", "lineup"] + (["players"] if unit_word == "pair" else [])
    rest = name.partition(".")[2]
    if rest:
        places += [f"{place}.{rest}" for place in ("rules", "profile", "agent", "engine")]
    one = re.match(r"^[A-Za-z_]*?(\d+)\.[^.]*\.(.+)$", name)
    if one:
        places += [f"{unit_word}{one.group(1)}.{kind}.{one.group(2)}" for kind in ("profile", "agent")]
    return places


def plan_cells(spec: SweepSpec) -> list[CellPlan]:
    """Every cell's plan, in design order."""
    return [plan_cell(spec, cell) for cell in design_cells(spec)]


def _lineup(lineup: Any, pairs: int, agent_all: Mapping[str, Any], agent_pair: Mapping[int, Mapping[str, Any]],
            unit: str, game_name: str) -> str:
    """The lineup string with hyperparameters set; per-side values expand a one-entry lineup to one per side
    (``unit``: pair, or player in Krepet)."""
    if not isinstance(lineup, str) or not lineup.strip():
        raise ConfigError(f"lineup = {lineup!r}: must be a lineup string such as \"collector,watcher\"")
    if not agent_all and not agent_pair:
        return lineup
    entries = [parse_entry(entry, game_name) for entry in split_lineup(lineup)]
    if agent_pair and len(entries) == 1:
        entries = entries * pairs
    if agent_pair and len(entries) != pairs:
        raise ConfigError(f"lineup {lineup!r}: a {unit}N.agent axis needs one entry per {unit} ({pairs}), "
                          f"not {len(entries)}")
    for param, value in agent_all.items():
        takers = [i for i, (name, _) in enumerate(entries) if param in agent_info(name).parameters]
        if not takers:
            theirs = [p for name, _ in entries for p in agent_info(name).parameters]
            raise ConfigError(f"axes.agent.{param}: no agent in lineup {lineup!r} has this parameter"
                              f"{did_you_mean(param, theirs)}; theirs: "
                              + "; ".join(f"{n}: {', '.join(agent_info(n).parameters) or 'none'}"
                                          for n in dict.fromkeys(n for n, _ in entries)))
        for i in takers:
            entries[i] = (entries[i][0], {**entries[i][1], param: value})
    for pair, values in agent_pair.items():
        name, current = entries[pair]
        for param in values:
            if param not in agent_info(name).parameters:
                listed = ", ".join(agent_info(name).parameters) or "none"
                raise ConfigError(f"axes.{unit}{pair}.agent.{param}: agent {name!r} has no such parameter"
                                  f"{did_you_mean(param, agent_info(name).parameters)}; its parameters: {listed}")
        entries[pair] = (name, {**current, **values})
    return ",".join(entry_text(name, params) for name, params in entries)


def _profiles(base: Mapping[str, Any], played: Game, rules: Any, profile_all: Mapping[str, Any],
              profile_unit: Mapping[int, Mapping[str, Any]]) -> tuple[PlayerProfile, ...]:
    """One profile per seat: the base profile(s), every-seat parameters, then each side's own."""
    players = played.seats(rules)
    common = PlayerProfile.from_mapping(base.get("profile", {}), "base.profile")
    given = base.get("profiles")
    if given is None:
        seats = [common] * players
    else:
        if not isinstance(given, list):
            raise ConfigError(f"base.profiles = {given!r}: must be a list of profile tables")
        seats = list(resolve_profiles([PlayerProfile.from_mapping(p, f"base.profiles[{i}]", base=common)
                                       for i, p in enumerate(given)], players))
    if profile_all:
        seats = [profile.with_params(profile_all, "axes.profile") for profile in seats]
    for side, values in profile_unit.items():
        for seat in played.side_seats(rules, side):
            seats[seat] = seats[seat].with_params(values, f"axes.{played.unit}{side}.profile")
    return tuple(seats)
