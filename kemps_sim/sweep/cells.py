"""From a cell's parameters to what its matches need: the rules, the lineup, one profile per seat, the engine.

An axis name says where its value goes: ``rules`` (the preset or rules file), ``rules.KNOB`` or ``players`` (a rule
knob), ``lineup``, ``profile.FIELD[.PARAM]`` (every seat) or ``pairN.profile.FIELD[.PARAM]`` (pair N's seats),
``agent.PARAM`` (every agent that has that hyperparameter) or ``pairN.agent.PARAM`` (pair N's agent), and
``engine.SETTING``. A Krepet sweep has players instead of pairs (``playerN.profile...``, ``playerN.agent.PARAM``),
its own rule knobs, and the settings of :class:`~kemps_sim.krepet.realtime.KrepetConfig` as ``engine.SETTING``.

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
from kemps_sim.lineup import entry_text, parse_entry, resolve_lineup, split_lineup
from kemps_sim.presets import load_rules
from kemps_sim.profiles import PlayerProfile
from kemps_sim.registry import agent_info
from kemps_sim.rules import Rules
from kemps_sim.seating import pair_seats
from kemps_sim.suggest import did_you_mean
from kemps_sim.sweep.design import Cell, SweepSpec, design_cells

#: Where an axis name may point: a rule knob, a profile parameter, an agent hyperparameter, the engine.
AXIS_FORMS = ("rules", "rules.KNOB", "players", "lineup", "profile.FIELD[.PARAM]", "pairN.profile.FIELD[.PARAM]",
              "agent.PARAM", "pairN.agent.PARAM", "engine.SETTING")
_PAIR = re.compile(r"^pair(\d+)\.(profile|agent)\.(.+)$")
_PLAYER = re.compile(r"^player(\d+)\.(profile|agent)\.(.+)$")
#: Where an axis name may point in a Krepet sweep.
KREPET_AXIS_FORMS = ("rules", "rules.KNOB", "lineup", "profile.FIELD[.PARAM]", "playerN.profile.FIELD[.PARAM]",
                     "agent.PARAM", "playerN.agent.PARAM", "engine.SETTING")


@dataclass(frozen=True)
class CellPlan:
    """Everything a worker needs to play a cell's matches; plain picklable values (for a Krepet cell the rules are
    :class:`~kemps_sim.krepet.rules.KrepetRules` and the config a :class:`~kemps_sim.krepet.realtime.KrepetConfig`)."""

    cell: Cell
    rules: Rules | Any
    lineup: str
    profiles: tuple[PlayerProfile, ...]
    config: EngineConfig | Any
    game: str = "kemps"


def plan_cell(spec: SweepSpec, cell: Cell) -> CellPlan:
    """The cell's set-up: the spec's base with the cell's parameters applied; a bad value is a ConfigError."""
    if spec.game == "krepet":
        return _plan_krepet_cell(spec, cell)
    base = spec.base
    params = cell.as_dict()
    rule_overrides = spec.base_rule_overrides()
    routed = _route(params, _PAIR, AXIS_FORMS, "", "pair")
    if "players" in params:
        rule_overrides["players"] = params["players"]
    rule_overrides.update(routed.knobs)
    profile_all, profile_pair, agent_all, agent_pair = (routed.profile_all, routed.profile_unit, routed.agent_all,
                                                        routed.agent_unit)
    engine: dict[str, Any] = {**(base.get("engine") or {}), **routed.engine}
    rules = load_rules(params.get("rules", base.get("rules", "standard")), **rule_overrides)
    pairs = rules.pairs
    for pair in (*profile_pair, *agent_pair):
        if pair >= pairs:
            raise ConfigError(f"axes.pair{pair}: no such pair at {rules.players} players; pairs are 0 to {pairs - 1}")
    lineup = _lineup(params.get("lineup", base.get("lineup", "collector")), pairs, agent_all, agent_pair)
    resolve_lineup(lineup, rules.players)
    profiles = _profiles(base, rules.players, profile_all, profile_pair)
    unknown = [k for k in engine if k not in {f.name for f in fields(EngineConfig)}]
    if unknown:
        allowed = [f.name for f in fields(EngineConfig)]
        raise ConfigError(f"engine.{unknown[0]}: unknown engine setting{did_you_mean(unknown[0], allowed)}; "
                          f"allowed: {', '.join(allowed)}")
    return CellPlan(cell, rules, lineup, profiles, EngineConfig(**engine))


def _plan_krepet_cell(spec: SweepSpec, cell: Cell) -> CellPlan:
    """A Krepet cell's set-up: its rules, one lineup entry per player, a profile per player, the clock's limits."""
    from kemps_sim.krepet.presets import load_krepet_rules
    from kemps_sim.krepet.realtime import KrepetConfig

    base = spec.base
    params = cell.as_dict()
    if "players" in params:
        raise ConfigError("axes.players: Krepet is a game for two")
    routed = _route(params, _PLAYER, KREPET_AXIS_FORMS, " in a Krepet sweep", "player")
    knobs = {**(base.get("set") or {}), **routed.knobs}
    if any(player > 1 for player in (*routed.profile_unit, *routed.agent_unit)):
        raise ConfigError(f"axes.player{max((*routed.profile_unit, *routed.agent_unit))}: Krepet has players 0 and 1")
    profile_all, profile_player, agent_all, agent_player = (routed.profile_all, routed.profile_unit,
                                                            routed.agent_all, routed.agent_unit)
    engine: dict[str, Any] = {**(base.get("engine") or {}), **routed.engine}
    rules = load_krepet_rules(params.get("rules", base.get("rules", "wikibooks")), **knobs)
    lineup = _lineup(params.get("lineup", base.get("lineup", "greedy")), 2, agent_all, agent_player, "player")
    resolve_lineup(lineup, 2, game="krepet")
    common = PlayerProfile.from_mapping(base.get("profile", {}), "base.profile")
    given = base.get("profiles")
    if given is not None and not isinstance(given, list):
        raise ConfigError(f"base.profiles = {given!r}: must be a list of profile tables")
    seats = [common] * 2 if given is None else list(resolve_profiles(
        [PlayerProfile.from_mapping(p, f"base.profiles[{i}]", base=common) for i, p in enumerate(given)], 2))
    if profile_all:
        seats = [profile.with_params(profile_all, "axes.profile") for profile in seats]
    for player, values in profile_player.items():
        seats[player] = seats[player].with_params(values, f"axes.player{player}.profile")
    allowed = [f.name for f in fields(KrepetConfig)]
    unknown = [k for k in engine if k not in allowed]
    if unknown:
        raise ConfigError(f"engine.{unknown[0]}: unknown Krepet engine setting{did_you_mean(unknown[0], allowed)}; "
                          f"allowed: {', '.join(allowed)}")
    return CellPlan(cell, rules, lineup, tuple(seats), KrepetConfig(**engine), "krepet")


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


def _route(params: Mapping[str, Any], unit: re.Pattern[str], forms: tuple[str, ...], where: str,
           unit_word: str) -> _Routed:
    """Sort a cell's parameters (``rules``, ``lineup`` and ``players`` are read by the caller); an axis name that
    points nowhere is a ConfigError suggesting the closest place (see :func:`_places`) and listing the ``forms``
    allowed."""
    routed = _Routed()
    for name, value in params.items():
        head, _, rest = name.partition(".")
        one = unit.match(name)
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
        elif one and one.group(2) == "profile":
            routed.profile_unit.setdefault(int(one.group(1)), {})[one.group(3)] = value
        elif one and "." not in one.group(3):
            routed.agent_unit.setdefault(int(one.group(1)), {})[one.group(3)] = value
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
            unit: str = "pair") -> str:
    """The lineup string with hyperparameters set; per-pair values expand a one-entry lineup to one per pair (per
    player in Krepet: ``unit``)."""
    if not isinstance(lineup, str) or not lineup.strip():
        raise ConfigError(f"lineup = {lineup!r}: must be a lineup string such as \"collector,watcher\"")
    if not agent_all and not agent_pair:
        return lineup
    entries = [parse_entry(entry) for entry in split_lineup(lineup)]
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


def _profiles(base: Mapping[str, Any], players: int, profile_all: Mapping[str, Any],
              profile_pair: Mapping[int, Mapping[str, Any]]) -> tuple[PlayerProfile, ...]:
    """One profile per seat: the base profile(s), every-seat parameters, then each pair's own."""
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
    for pair, values in profile_pair.items():
        for seat in pair_seats(players, pair):
            seats[seat] = seats[seat].with_params(values, f"axes.pair{pair}.profile")
    return tuple(seats)
