"""Tournament spec files: a round robin between named team strategies, declared in TOML rather than typed as agent
specs on the command line.

A file has a ``[tournament]`` table (the matches per seating, the rules and their knobs, the seed, ...; rule
variants in ``[tournament.vary]`` and an adaptive schedule, :mod:`kemps_sim.sweep.tournament_options`) and one
``[strategies.NAME]`` table per strategy: ``agent`` (one agent spec for every partner, with ``params`` merged into
its parameters) or ``partners`` (one agent spec per partner, in seat order). Each spec is checked against the agent
registry as a lineup entry is, and written in a normal form (parameters sorted, those at their default left out;
partners who are the same agent with the same parameters as one entry), so that two strategies that would play
alike are refused: the results could not tell them apart. Every problem is found at once, each one line naming
the field, the value and what is allowed.

The names survive into the results: :func:`strategy_labels` maps the ``agents`` text of a side of the pairs table
(its distinct agent labels joined by `` + ``) to the strategy's name, :func:`label_pairs` puts the names in, and
:func:`write_teams` keeps the strategies in the tournament's folder (``teams.json``) for reading back later.
:func:`kemps_sim.sweep.tournament.team_tournament_spec` builds the sweep that plays the round robin.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME, game_names
from kemps_sim.games import game as game_record
from kemps_sim.lineup import entry_text, make_factory, parse_entry, split_lineup
from kemps_sim.registry import agent_info
from kemps_sim.suggest import did_you_mean
from kemps_sim.sweep.problems import NOTHING_DONE, TOP, Problems
from kemps_sim.sweep.spec import SpecError
from kemps_sim.sweep.tournament_options import TOURNAMENT_FIELDS, adaptive_problems, variant_axes, variant_conflicts

if TYPE_CHECKING:
    import pandas as pd

#: The file a team tournament's folder keeps its strategies in (name -> the seat entries of one side).
TEAMS_FILE = "teams.json"
#: The keys of the [tournament] table, with what each may hold.
TOURNAMENT_KEYS = {
    "name": "a short name for the tournament, shown while it runs (default: the file's name)",
    "game": "kemps (the default), krepet (one player a side, so no partners) or a game a plugin registers",
    "matches": "matches per seating of every two strategies, a whole number >= 1 (default 50)",
    "seed": "the master seed, a whole number >= 0 (default 0)",
    "rules": "a preset name or a rules TOML file (default: the game's, standard for Kemps)",
    "set": "a table of rule knob overrides",
    "profile": "the human profile of every seat: a table of profile fields or a profile file (default: the default "
               "profile)",
    "output": "the results folder (default: results/NAME)",
    **TOURNAMENT_FIELDS,  # adaptive, max_matches and vary
}
#: The keys of a [strategies.NAME] table, with what each may hold.
STRATEGY_KEYS = {
    "agent": "one agent spec for every partner, such as \"watcher\" or \"watcher(threshold=0.9)\"",
    "params": "a table of parameters merged into the agent's, such as { threshold = 0.9 } (only with agent)",
    "partners": "one agent spec per partner, in seat order, such as [\"feeder\", \"collector(signal_policy='fixed')\"]",
}
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]{0,39}$")
_NAME_TEXT = "letters, digits, _ and -, a letter first, at most 40 characters"
_TWICE = re.compile(r"^Cannot declare \('strategies', '([^']*)'\) twice(.*)$")
_AT_LINE = re.compile(r"\(at line (\d+), column \d+\)")
_MISSING = object()


@dataclass(frozen=True)
class TeamPlan:
    """A tournament spec file read and checked: its settings (the [tournament] table with defaults filled in) and
    its strategies (name -> the seat entries of one side, in normal form)."""

    settings: Mapping[str, Any]
    teams: Mapping[str, tuple[str, ...]]


def read_tournament_file(path: str | Path) -> dict[str, Any]:
    """The TOML of a tournament spec file; a missing file or bad TOML is a one-line :class:`SpecError` (a strategy
    declared twice is named as such)."""
    path = Path(path)
    if not path.is_file():
        raise SpecError(f"tournament spec {str(path)!r}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
        return tomllib.loads(text)
    except UnicodeDecodeError as exc:
        raise SpecError(f"tournament spec {str(path)!r}: not valid TOML: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        twice = _TWICE.match(str(exc))
        if twice:
            raise SpecError(f"tournament spec {str(path)!r}: strategies.{twice.group(1)}: declared twice"
                            f"{twice.group(2)}; each strategy needs a name of its own") from None
        at = _AT_LINE.search(str(exc))
        lines = text.splitlines()
        shown = f": line {at.group(1)} reads {lines[int(at.group(1)) - 1].strip()!r}" \
            if at and 0 < int(at.group(1)) <= len(lines) else ""
        raise SpecError(f"tournament spec {str(path)!r}: not valid TOML: {exc}{shown}") from None


def check_tournament(data: Any, source: str, default_name: str = "tournament") -> TeamPlan:
    """The settings and strategies of a tournament spec's plain data, every problem reported together: one line
    when there is one, else a list under the sections of the file (a :class:`SpecError`)."""
    problems = Problems()
    if not isinstance(data, Mapping):
        raise SpecError(f"{source}: must be a table with [tournament] and [strategies.NAME] tables")
    for key, value in data.items():
        if key in ("tournament", "strategies"):
            continue
        if key in TOURNAMENT_KEYS:
            problems.add(TOP, f"{key} = {value!r}: outside any table; belongs in [tournament]")
        elif isinstance(value, Mapping) and ({"agent", "partners"} & set(value)):
            problems.add(TOP, f"{key}: unknown table; a strategy is declared as [strategies.{key}]")
        else:
            problems.add(TOP, f"{key}: unknown table{did_you_mean(key, ('tournament', 'strategies'))}; a "
                              "tournament spec has [tournament] and [strategies.NAME] tables")
    table = data.get("tournament", {})
    if not isinstance(table, Mapping):
        problems.add("[tournament]", f"tournament = {table!r}: must be a table ([tournament])")
        table = {}
    settings = _settings(table, default_name, problems)
    game = settings["game"] if settings["game"] in game_names() else None
    teams = _strategies(data.get("strategies"), game, problems)
    if problems:
        raise tournament_error(problems, source)
    return TeamPlan(settings, teams)


def tournament_error(problems: Problems, source: str) -> SpecError:
    """The error of a tournament spec's problems: one line for one problem, else the list by section."""
    lines = problems.lines()
    if len(lines) == 1:
        return SpecError(f"{source}: {lines[0]} {NOTHING_DONE}")
    return SpecError(problems.text(source))


def _settings(table: Mapping[str, Any], default_name: str, problems: Problems) -> dict[str, Any]:
    """The [tournament] fields, checked for their kind (what they mean is checked with the sweep they make)."""
    found: list[str] = []
    for key in table:
        if key not in TOURNAMENT_KEYS:
            hint = did_you_mean(key, TOURNAMENT_KEYS)
            if not hint and isinstance(table[key], Mapping) and ({"agent", "partners"} & set(table[key])):
                hint = f" (a strategy is declared as [strategies.{key}])"
            found.append(f"tournament.{key}: unknown key{hint}; allowed: {', '.join(TOURNAMENT_KEYS)}")
    settings: dict[str, Any] = {"name": default_name, "game": DEFAULT_GAME, "matches": 50, "seed": 0,
                                "rules": None, "set": {}, "profile": None, "output": None}
    kinds = {"name": str, "game": str, "rules": str, "output": str, "set": Mapping, "profile": (Mapping, str)}
    for key, kind in kinds.items():
        if key in table:
            value = table[key]
            if not isinstance(value, kind) or (isinstance(value, str) and not value.strip()):
                found.append(f"tournament.{key} = {value!r}: must be {TOURNAMENT_KEYS[key]}")
            else:
                settings[key] = dict(value) if isinstance(value, Mapping) else value
    for key, low in (("matches", 1), ("seed", 0)):
        if key in table:
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                found.append(f"tournament.{key} = {value!r}: must be {TOURNAMENT_KEYS[key]}")
            else:
                settings[key] = value
    found += adaptive_problems(table.get("adaptive"), table.get("max_matches"), settings["matches"], "tournament.")
    settings["adaptive"], settings["max_matches"] = table.get("adaptive"), table.get("max_matches")
    axes, fields, wrong = variant_axes(table["vary"], "tournament.vary") if "vary" in table else ({}, {}, [])
    found += wrong + variant_conflicts(axes, fields, settings["set"], settings["rules"], "tournament.set",
                                       "tournament.rules")
    settings["vary"], settings["vary_fields"] = axes, fields
    game = settings["game"]
    if game not in game_names():
        found.append(f"tournament.game = {game!r}: unknown game{did_you_mean(game, game_names())}; allowed: "
                     f"{', '.join(game_names())}")
    if settings["output"] is None:
        settings["output"] = f"results/{settings['name']}"
    for text in found:
        problems.add("[tournament]", text)
    return settings


def _strategies(table: Any, game: str | None, problems: Problems) -> dict[str, tuple[str, ...]]:
    """Each strategy's seat entries in normal form; problems filed under ``[strategies] NAME``. ``game`` None (not
    known) checks the tables' shape only."""
    if table is None:
        problems.add("[strategies]", "strategies: missing; declare at least 2 strategies, each a table such as "
                                     "[strategies.honest] with agent = \"collector\"")
        return {}
    if not isinstance(table, Mapping):
        problems.add("[strategies]", f"strategies = {table!r}: must be tables such as [strategies.honest]")
        return {}
    teams: dict[str, tuple[str, ...]] = {}
    seen: dict[str, str] = {}  # name folded to lower case -> name as given
    for name, value in table.items():
        section = f"[strategies] {name}"
        if not isinstance(name, str) or not _NAME.match(name):
            problems.add(section, f"strategies.{name!r}: not a strategy name; names are {_NAME_TEXT}")
            continue
        if name.lower() in seen:
            problems.add(section, f"strategies.{name}: the same name as strategies.{seen[name.lower()]} but for "
                                  "case; give each strategy a name of its own")
            continue
        seen[name.lower()] = name
        found: list[str] = []
        entries = _strategy(name, value, game, found)
        for text in found:
            problems.add(section, text)
        if entries is not None:
            teams[name] = entries
    if len(table) < 2:
        problems.add("[strategies]", f"strategies: {len(table)} declared ({', '.join(table) or 'none'}); a "
                                     "tournament needs at least 2")
    by_seats: dict[tuple[str, ...], str] = {}
    by_label: dict[str, str] = {}
    for name, entries in teams.items():
        label = team_label(entries)
        if entries in by_seats or label in by_label:
            other = by_seats.get(entries) or by_label[label]
            problems.add(f"[strategies] {name}", f"strategies.{name}: seats the same agents as strategies.{other} "
                         f"({label}); the results could not tell them apart, so declare each once")
            continue
        by_seats[entries], by_label[label] = name, name
    return teams


def _strategy(name: str, value: Any, game: str | None, found: list[str]) -> tuple[str, ...] | None:
    """The seat entries of one strategy (one entry when every partner is alike), or None with its problems."""
    field = f"strategies.{name}"
    if not isinstance(value, Mapping):
        found.append(f"{field} = {value!r}: must be a table with agent (and params) or partners, e.g. "
                     f"[strategies.{name}] agent = \"collector\"")
        return None
    for key in value:
        if key not in STRATEGY_KEYS:
            found.append(f"{field}.{key}: unknown key{did_you_mean(key, STRATEGY_KEYS)}; allowed: "
                         f"{', '.join(STRATEGY_KEYS)}")
    if "agent" in value and "partners" in value:
        found.append(f"{field}: has both agent and partners; give agent (the same agent for every partner) or "
                     "partners (one agent spec per partner), not both")
        return None
    if "agent" not in value and "partners" not in value:
        found.append(f"{field}: has neither agent nor partners; give agent = \"collector\" (every partner) or "
                     "partners = [...] (one agent spec per partner)")
        return None
    if "partners" in value:
        if "params" in value:
            found.append(f"{field}.params = {value['params']!r}: only with agent; give each partner's parameters in "
                         "its spec, such as \"collector(signal_policy='fixed')\"")
        return _partners(field, value["partners"], game, found)
    params = value.get("params", {})
    if not isinstance(params, Mapping):
        found.append(f"{field}.params = {params!r}: must be {STRATEGY_KEYS['params']}")
        params = {}
    entry = _entry(f"{field}.agent", value["agent"], dict(params), f"{field}.params", game, found)
    return None if entry is None or found else (entry,)


def _partners(field: str, partners: Any, game: str | None, found: list[str]) -> tuple[str, ...] | None:
    """The normal entries of a ``partners`` list: one per seat of a side, or one when every partner is alike."""
    if game is None:
        return None
    played = game_record(game)
    size = played.seats_per_side
    if size == 1:
        found.append(f"{field}.partners = {partners!r}: {played.title} has one player a side, so no partners; give "
                     "agent = \"NAME\" instead")
        return None
    if not isinstance(partners, list) or len(partners) != size:
        found.append(f"{field}.partners = {partners!r}: must be a list of {size} agent specs, one per partner in "
                     f"seat order, such as {STRATEGY_KEYS['partners'].split('such as ')[1]}")
        return None
    entries = [_entry(f"{field}.partners[{i}]", text, {}, None, game, found) for i, text in enumerate(partners)]
    if found or None in entries:
        return None
    return tuple(entries) if len(set(entries)) > 1 else (entries[0],)


def _entry(field: str, text: Any, params: dict[str, Any], params_field: str | None, game: str | None,
           found: list[str]) -> str | None:
    """One agent spec (with ``params`` merged in) checked against ``game``'s agents, in normal form: parameters
    sorted, those equal to the agent's default left out. Its problems are added to ``found``."""
    mine: list[str] = []
    entry = _checked_entry(field, text, params, params_field, game, mine)
    found += mine
    return None if mine else entry


def _checked_entry(field: str, text: Any, params: dict[str, Any], params_field: str | None, game: str | None,
                   found: list[str]) -> str | None:
    if not isinstance(text, str) or not text.strip():
        found.append(f"{field} = {text!r}: must be an agent spec such as \"collector\" or \"watcher(threshold=0.9)\"")
        return None
    try:
        if len(split_lineup(text)) != 1:
            found.append(f"{field} = {text!r}: must be one agent spec; commas only inside its parentheses")
            return None
        name, inline = parse_entry(text, game or DEFAULT_GAME)
    except ConfigError as exc:
        found.append(f"{field} = {text!r}: {_reason(exc, text)}")
        return None
    if game is None:
        return None
    try:
        make_factory(name, {}, game)
    except ConfigError as exc:
        found.append(f"{field} = {text!r}: {_reason(exc, name)}")
        return None
    for key in params:
        if key in inline:
            found.append(f"{params_field}.{key} = {params[key]!r}: also given in {field} = {text!r}; give it once")
        elif not _literal(name, key, params[key]):
            found.append(f"{params_field}.{key} = {params[key]!r}: must be a number, text, true/false, or a list or "
                         "table of them")
    if found:
        return None
    merged = {**inline, **params}
    try:
        make_factory(name, merged, game)
    except ConfigError as exc:
        where = f"{params_field} = {params!r}" if params_field and params else f"{field} = {text!r}"
        found.append(f"{where}: {_reason(exc, name)}")
        return None
    defaults = agent_info(name).parameters
    return entry_text(name, {k: v for k, v in sorted(merged.items()) if not _same(v, defaults.get(k, _MISSING))})


def _literal(name: str, key: str, value: Any) -> bool:
    """Whether ``value`` survives being written into a lineup entry and read back (TOML dates and nan do not)."""
    try:
        back = parse_entry(entry_text(name, {key: value}))[1].get(key, _MISSING)
    except ConfigError:
        return False
    return _same(back, value)


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same kind (``True`` is not ``1``; ``3`` is ``3.0``; nan is never equal)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isfinite(a) and a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _reason(exc: ConfigError, named: str) -> str:
    """A lineup error's message without its own ``lineup agent 'x': `` head (the caller names the field)."""
    text = str(exc)
    for head in (f"lineup agent {named!r}: ", f"lineup entry {named!r}: "):
        if text.startswith(head):
            return text[len(head):]
    return text


def team_label(entries: Sequence[str]) -> str:
    """The ``agents`` text of a side seated with ``entries`` in the pairs table: its distinct agent labels in seat
    order, joined by `` + `` (as :func:`kemps_sim.records.pairs_rows` writes it)."""
    return " + ".join(dict.fromkeys(entries))


def team_pairings(teams: Mapping[str, Sequence[str]]) -> list[str]:
    """The lineups of a round robin between teams: every two teams in both seatings, in the order given (for
    ``i < j`` team i first, then team j first). Two one-entry teams give ``"A,B"`` (one entry per side); otherwise
    one entry per seat, side 0 at the even seats, partner ``k`` of each side at seats ``2k`` and ``2k + 1``."""
    sides = list(teams.values())
    lineups = []
    for i, first in enumerate(sides):
        for second in sides[i + 1:]:
            lineups += [_lineup(first, second), _lineup(second, first)]
    return lineups


def _lineup(first: Sequence[str], second: Sequence[str]) -> str:
    if len(first) == len(second) == 1:
        return f"{first[0]},{second[0]}"
    size = max(len(first), len(second))
    seats = [(first, second)[s % 2] for s in range(2 * size)]
    return ",".join(side[(s // 2) % len(side)] for s, side in enumerate(seats))


def strategy_labels(source: Any) -> dict[str, str]:
    """Each side's ``agents`` text in the pairs table -> its strategy's name.

    ``source`` is a :class:`~kemps_sim.sweep.tournament.TeamTournament` (or anything with ``teams``), the teams
    mapping itself (name -> seat entries), or a tournament's results folder (its ``teams.json``; a folder without
    one, a tournament of agent specs typed on the command line, gives ``{}``: its strategies are named by their
    agent specs already).
    """
    teams = read_teams(source) if isinstance(source, str | Path) else getattr(source, "teams", source)
    if not isinstance(teams, Mapping):
        raise ConfigError(f"strategy_labels({source!r}): give a team tournament, its teams mapping or a results "
                          "folder")
    return {team_label(entries): name for name, entries in teams.items()}


def label_pairs(pairs: pd.DataFrame, labels: Mapping[str, str]) -> pd.DataFrame:
    """``pairs`` (a pairs table, or the outcomes :func:`kemps_sim.ratings.match_outcomes` makes of one) with each
    side's agent specs replaced by its strategy's name, so that ratings and head-to-head tables read by name.

    ``labels`` comes from :func:`strategy_labels`; empty leaves ``pairs`` as it is. A side no strategy seats is a
    :class:`ConfigError` (the results are of another tournament)."""
    if not labels:
        return pairs
    columns = [c for c in ("agents", "first", "second") if c in pairs.columns]
    if not columns:
        raise ConfigError("pairs table lacks an agents column (or first and second): give the tournament's pairs "
                          "table")
    for column in columns:
        unknown = sorted(set(pairs[column].astype(str)) - set(labels))
        if unknown:
            raise ConfigError(f"{column} = {unknown[0]!r}: no strategy of this tournament seats that side; its "
                              f"strategies seat {', '.join(repr(label) for label in labels)}")
    return pairs.assign(**{column: pairs[column].astype(str).map(labels) for column in columns})


def write_teams(folder: str | Path, teams: Mapping[str, Sequence[str]]) -> Path:
    """Keep the strategies (name -> seat entries) in ``folder``'s ``teams.json``, so that the names can be read
    back with the results (:func:`strategy_labels`); return its path."""
    from kemps_sim.sweep.receipts import write_atomic  # deferred: the receipts module is only needed here

    path = Path(folder) / TEAMS_FILE
    text = json.dumps({"teams": {name: list(entries) for name, entries in teams.items()}}, indent=2)
    write_atomic(path, (text + "\n").encode())
    return path


def read_teams(folder: str | Path) -> dict[str, tuple[str, ...]]:
    """The strategies ``folder``'s ``teams.json`` keeps, or ``{}`` when it has none."""
    path = Path(folder) / TEAMS_FILE
    if not path.is_file():
        return {}
    try:
        teams = json.loads(path.read_text(encoding="utf-8"))["teams"]
        return {str(name): tuple(str(e) for e in entries) for name, entries in teams.items()}
    except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError, AttributeError) as exc:
        raise ConfigError(f"{str(path)!r}: not a teams file ({type(exc).__name__}: {exc}); it holds "
                          '{"teams": {NAME: [agent spec, ...]}}') from None
