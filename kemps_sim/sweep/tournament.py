"""A round robin between strategies as a sweep: one cell per seating of every two strategies, one strategy a side
(Kemps: two pairs, four players; Krepet: two players, one per chair).

Running it as an ordinary sweep gives tournaments everything sweeps have: any executor, resuming, Parquet tables.
:func:`pairings` lists its lineups; :mod:`kemps_sim.ratings` turns the outcomes in its pairs table into Bradley–Terry
ratings and the head-to-head matrix.

A strategy is one agent spec (:func:`tournament_spec`, seated at every seat of its side) or a named team declared in
a tournament spec file (:func:`team_tournament_spec`, with :mod:`kemps_sim.sweep.teams`): one agent for every
partner, with parameters, or one agent spec per partner; the results then read by the teams' names.

Either may be played under several rule variants at once (``vary``: the sweep then has the variants' axes besides
``lineup``) and as an adaptive round robin (``adaptive``, ``max_matches``: more matches only where the winner is in
doubt); :mod:`kemps_sim.sweep.tournament_options` describes both.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME
from kemps_sim.games import game as game_record
from kemps_sim.lineup import entry_text, parse_entry, split_lineup
from kemps_sim.sweep.problems import Problems
from kemps_sim.sweep.spec import SpecError, SweepSpec, spec_from_mapping
from kemps_sim.sweep.teams import (
    check_tournament,
    label_pairs,
    read_tournament_file,
    strategy_labels,
    team_pairings,
    tournament_error,
)
from kemps_sim.sweep.tournament_options import (
    adaptive_problems,
    adaptive_sweep,
    merge_vary,
    variant_axes,
    variant_conflicts,
    vary_field_text,
)

__all__ = ["TeamTournament", "label_pairs", "pairings", "strategy_labels", "team_tournament_spec", "tournament_data",
           "tournament_spec"]


def pairings(strategies: Sequence[str]) -> list[str]:
    """The lineups of a round robin: every unordered pair of distinct strategies, in both seatings.

    The order follows the input: for ``i < j`` the lineup ``"S_i,S_j"`` comes right before ``"S_j,S_i"``, so
    three strategies give six lineups and each ordered pair appears once. Playing both seatings cancels the
    first-seat advantage out of the head-to-head means.
    """
    if isinstance(strategies, str):
        raise ConfigError(f"strategies = {strategies!r}: must be a sequence of strategy names, not one string")
    names = []
    for entry in strategies:
        if not isinstance(entry, str) or not entry.strip():
            raise ConfigError(f"strategy {entry!r}: must be a non-empty agent spec such as 'collector'")
        if len(split_lineup(entry)) != 1:
            raise ConfigError(f"strategy {entry!r}: must be one agent spec; commas only inside its parentheses")
        names.append(_canonical(entry))
    if len(names) < 2:
        raise ConfigError(f"strategies = {list(strategies)!r}: a round robin needs at least 2 strategies")
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ConfigError(f"strategies = {names!r}: each strategy must appear once; repeated: {duplicates}")
    lineups = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            lineups += [f"{first},{second}", f"{second},{first}"]
    return lineups


def _canonical(entry: str) -> str:
    """The agent spec as a lineup labels it (``watcher()`` and ``watcher`` alike), so equal specs compare equal."""
    return entry_text(*parse_entry(entry))


def tournament_data(strategies: Sequence[str], matches: int = 50, rules: str | None = None,
                    overrides: Mapping[str, Any] | None = None, seed: int = 0,
                    output: str = "results/tournament", game: str = DEFAULT_GAME,
                    profile: Mapping[str, Any] | str | None = None, *, adaptive: float | None = None,
                    max_matches: int | None = None, vary: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The plain spec data of the round robin (``matches`` per seating of every two strategies; ``rules`` None:
    the game's default preset, standard or wikibooks; ``profile`` the human profile of every seat, a table of
    profile fields or a profile file, None: the default profile).

    ``vary`` plays every seating under every rule variant (``{"rules": [presets], "KNOB": [levels]}``, see
    :mod:`kemps_sim.sweep.tournament_options`); ``adaptive`` (a tie resolution) makes it an adaptive round robin
    starting at ``matches`` per seating, up to ``max_matches`` (None: the default cap). A bad one is a one-line
    :class:`ConfigError` naming the argument."""
    axes, _ = _api_options(matches, rules, overrides, adaptive, max_matches, vary)
    return _round_robin_data(lambda: pairings(strategies), matches, rules, overrides, seed, output, game, profile,
                             adaptive=adaptive, max_matches=max_matches, variants=axes)


def _api_options(matches: int, rules: str | None, overrides: Mapping[str, Any] | None, adaptive: Any,
                 max_matches: Any, vary: Any) -> tuple[dict[str, list[Any]], dict[str, str]]:
    """The variants' axes and fields of :func:`tournament_data`'s arguments; the first problem as a ConfigError."""
    found = adaptive_problems(adaptive, max_matches, matches)
    axes, fields, wrong = variant_axes(vary, "vary") if vary is not None else ({}, {}, [])
    found += wrong + variant_conflicts(axes, fields, overrides or {}, rules, "overrides", "rules")
    if found:
        raise ConfigError(found[0])
    return axes, fields


def _round_robin_data(lineups_of: Callable[[], list[str]], matches: int, rules: str | None,
                      overrides: Mapping[str, Any] | None, seed: int, output: str, game: str,
                      profile: Mapping[str, Any] | str | None, name: str = "tournament", *,
                      adaptive: float | None = None, max_matches: int | None = None,
                      variants: Mapping[str, list[Any]] | None = None) -> dict[str, Any]:
    """The plain spec data of a round robin whose lineups ``lineups_of`` lists (called once the players are
    checked, so that a bad ``players`` is reported first), under the ``variants`` axes, adaptive when ``adaptive``
    is given."""
    overrides = dict(overrides or {})
    variants = dict(variants or {})
    played = game_record(game)
    sweep: dict[str, Any] = {"name": name, "seed": seed, "matches": matches, "output": output}
    base: dict[str, Any] = {"rules": rules or played.default_rules}
    if game != DEFAULT_GAME:  # absent from a Kemps tournament, so that its spec and folder stay as they were
        sweep = {"name": name, "game": game, **{k: v for k, v in sweep.items() if k != "name"}}
    if played.takes_players:
        two_sides = 2 * played.seats_per_side
        if overrides.get("players", two_sides) != two_sides:
            raise ConfigError(f"players = {overrides['players']!r}: a tournament plays two {played.unit}s, so "
                              f"{two_sides} players")
        overrides.pop("players", None)
        base["players"] = two_sides
    elif "players" in overrides:
        raise ConfigError(f"players = {overrides['players']!r}: {played.fixed_players_text()}; leave it out")
    lineups = lineups_of()
    if profile is not None:  # absent otherwise, so that a tournament's spec and folder stay as they were
        base["profile"] = profile
    if adaptive is not None:
        sweep.update(adaptive_sweep(adaptive, max_matches, matches if isinstance(matches, int) and matches > 0
                                    else 1, len(lineups) // 2 * math.prod(len(v) for v in variants.values())))
    return {"sweep": sweep, "base": {**base, "set": overrides, "lineup": lineups[0]},
            "axes": {"lineup": lineups, **variants}}


def tournament_spec(strategies: Sequence[str], matches: int = 50, rules: str | None = None,
                    overrides: Mapping[str, Any] | None = None, seed: int = 0,
                    output: str = "results/tournament", game: str = DEFAULT_GAME,
                    profile: Mapping[str, Any] | str | None = None, *, adaptive: float | None = None,
                    max_matches: int | None = None, vary: Mapping[str, Any] | None = None) -> SweepSpec:
    """The validated sweep spec of a round robin between ``strategies`` (agent specs such as ``"watcher"``, or
    Krepet players such as ``"careful"`` with ``game = "krepet"``); a ``profile`` file is read from the working
    directory when relative. ``adaptive``, ``max_matches`` and ``vary`` are those of
    :func:`kemps_sim.sweep.tournament.tournament_data`: rule variants and an adaptive schedule
    (:mod:`kemps_sim.sweep.tournament_options`); a problem with a variant's levels names it as ``vary.KEY``."""
    data = tournament_data(strategies, matches, rules, overrides, seed, output, game, profile, adaptive=adaptive,
                           max_matches=max_matches, vary=vary)
    try:
        return spec_from_mapping(data, source="tournament")
    except SpecError as exc:
        axes, fields = _api_options(matches, rules, overrides, adaptive, max_matches, vary)
        if not fields:
            raise
        lines = [_renamed(line, fields, axes) for line in str(exc).splitlines()]
        raise SpecError("\n".join(lines)) from None


def _renamed(line: str, fields: Mapping[str, str], axes: Mapping[str, list[Any]]) -> str:
    """A line of a sweep spec's problem list with a variant's axis named as the variants name it."""
    text = line.lstrip()
    renamed = vary_field_text(text, fields, axes)
    return line if renamed is None else line[:len(line) - len(text)] + renamed


@dataclass(frozen=True)
class TeamTournament:
    """A round robin between named team strategies: the sweep spec that plays it and each strategy's seat entries
    (name -> the agent specs of one side in seat order, one entry when every partner is alike)."""

    spec: SweepSpec
    teams: Mapping[str, tuple[str, ...]]

    @property
    def labels(self) -> dict[str, str]:
        """Each side's ``agents`` text in the pairs table -> its strategy's name (:func:`strategy_labels`)."""
        return strategy_labels(self.teams)


#: A sweep spec's field -> the tournament spec file's field it comes from (in the problems of the sweep it makes).
_FILE_FIELDS = {"base.set": "tournament.set", "base.rules": "tournament.rules", "base.profile": "tournament.profile",
                "base.players": "tournament.set.players", "sweep.until_ci": "tournament.adaptive",
                "sweep.max_matches": "tournament.max_matches", "sweep": "tournament"}
_SWEEP_FIELD = re.compile(r"^(base\.set|base\.rules|base\.profile|base\.players|sweep\.until_ci|sweep\.max_matches"
                          r"|sweep)\b")


def team_tournament_spec(source: Mapping[str, Any] | str | Path, *, matches: int | None = None,
                         seed: int | None = None, rules: str | None = None,
                         overrides: Mapping[str, Any] | None = None, profile: Mapping[str, Any] | str | None = None,
                         output: str | None = None, adaptive: float | None = None, max_matches: int | None = None,
                         vary: Mapping[str, Any] | None = None) -> TeamTournament:
    """The round robin a tournament spec file (a path) or its plain data (a mapping) declares: its sweep spec and
    its teams (see :mod:`kemps_sim.sweep.teams` for the file's tables).

    ``matches``, ``seed``, ``rules``, ``profile``, ``output``, ``adaptive`` and ``max_matches``, when given, replace
    the file's values, ``overrides`` (rule knobs) are laid over its ``[tournament.set]`` and ``vary`` (rule
    variants) over its ``[tournament.vary]``, as the command line's options do. Every problem is a
    :class:`SpecError` naming the file's field: one line for one problem, a list for several. A relative profile
    file is taken from the spec file's folder.
    """
    if isinstance(source, str | Path):
        path = Path(source)
        data, where, folder, default_name = read_tournament_file(path), str(path), path.parent, path.stem
    else:
        data, where, folder, default_name = source, "tournament spec", None, "tournament"
    given = {key: value for key, value in (("matches", matches), ("seed", seed), ("rules", rules),
                                           ("profile", profile), ("output", output), ("adaptive", adaptive),
                                           ("max_matches", max_matches)) if value is not None}
    if isinstance(data, Mapping) and (given or overrides or vary):
        table = data.get("tournament", {})
        if isinstance(table, Mapping):
            knobs = table.get("set", {})
            if overrides and isinstance(knobs, Mapping):
                given["set"] = {**knobs, **overrides}
            if vary:
                given["vary"] = merge_vary(table.get("vary"), vary)
            data = {**data, "tournament": {**table, **given}}
    plan = check_tournament(data, where, default_name if _NAMEABLE.match(default_name) else "tournament")
    settings = plan.settings
    lineups = team_pairings(plan.teams)
    problems = Problems()
    try:
        mapping = _round_robin_data(lambda: lineups, settings["matches"], settings["rules"], settings["set"],
                                    settings["seed"], settings["output"], settings["game"], settings["profile"],
                                    name=settings["name"], adaptive=settings["adaptive"],
                                    max_matches=settings["max_matches"], variants=settings["vary"])
        spec = spec_from_mapping(mapping, source=where, folder=folder)
    except SpecError as exc:
        for line in str(exc).splitlines():
            if line.startswith("    "):
                text = line.strip()
                renamed = vary_field_text(text, settings["vary_fields"], settings["vary"])
                problems.add("[tournament]", renamed if renamed is not None else
                             _SWEEP_FIELD.sub(lambda m: _FILE_FIELDS[m.group(1)], text, count=1))
        raise tournament_error(problems, where) from None
    except ConfigError as exc:  # the players knob of a round robin, checked before the spec
        problems.add("[tournament]", f"tournament.set.{exc}" if str(exc).startswith("players = ") else str(exc))
        raise tournament_error(problems, where) from None
    return TeamTournament(spec, dict(plan.teams))


#: A file name fit to name the tournament (and its default output folder, results/NAME).
_NAMEABLE = re.compile(r"^[\w\-.]+$")
