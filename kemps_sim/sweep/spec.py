"""Sweep specifications: the base set-up, the axes to vary, the design, the matches per cell and a master seed.

A spec is read from TOML (or given as a mapping) and checked whole before any match runs: every problem found is
reported at once, each on its own line naming the field, the value and what is allowed, grouped under the section
of the spec it is in ([sweep], [base], [axes] "NAME", ...). A sweep is a pure function of its spec: the same spec
gives the same rows wherever and however it runs.

Layering: parsing sits on top. The parsed form (:class:`SweepSpec`, :class:`Axis`, :class:`Range`) lives in
:mod:`kemps_sim.sweep.design` and is re-exported here; the base and the cells are checked through
:mod:`kemps_sim.sweep.checks`. None of those imports this module.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import BUILT_IN, DEFAULT_GAME, game_names
from kemps_sim.games import game as game_record
from kemps_sim.metrics import names as metric_names
from kemps_sim.metrics import scored_only_under
from kemps_sim.results import COMPARE_METRICS
from kemps_sim.suggest import closest, did_you_mean
from kemps_sim.sweep.adaptive import round_robin_problem
from kemps_sim.sweep.checks import check_base, check_cells, judged_axes, not_finite_problem, read_profile_files
from kemps_sim.sweep.comparison import compare_cell_problems, parse_compare
from kemps_sim.sweep.design import (
    DESIGNS,
    MORRIS_LEVELS,
    PAIRED_DESIGNS,
    SENSITIVITY_DESIGNS,
    Axis,
    CompareSpec,
    Range,
    SweepSpec,
    plain_data,
)
from kemps_sim.sweep.problems import AXES, BASE, COMPARE, SWEEP, TOP, Problems, axis_section, table_section
from kemps_sim.sweep.targets import DEFAULT_MAX_MATCHES, SIGN, TARGET_METRICS, canonical_metric, metric_problem

__all__ = ["Axis", "CompareSpec", "Range", "SpecError", "SweepSpec", "read_spec", "spec_from_mapping"]

#: The keys of each table of a spec, with what each may hold.
SWEEP_KEYS = {
    "name": "a short name for the sweep",
    "game": "kemps (the default), krepet (the two-player racing patience) or a game a plugin registers",
    "seed": "the master seed, a whole number >= 0",
    "matches": "matches per cell, a whole number >= 1",
    "output": "the folder the results go to",
    "design": "one of " + ", ".join(DESIGNS),
    "samples": "how many cells a random or lhs design draws, a whole number >= 1; for sobol the base sample "
               "size N, a power of 2",
    "common_random_numbers": "true or false: replicate r of every cell plays the same seed (default: true for "
                             + ", ".join(PAIRED_DESIGNS) + ", false otherwise)",
    "second_order": "true or false: a sobol sample that also gives second-order indices (default: false)",
    "trajectories": "the number of Morris trajectories, a whole number >= 2",
    "levels": f"the grid levels of a Morris design, an even whole number >= 2 (default: {MORRIS_LEVELS})",
    "chunk": "matches per chunk of work, a whole number >= 1 (default: chosen from the size of the sweep)",
    "events": "true to also store every trace event (large)",
    "until_ci": "the interval half-width every cell's until_metric must reach, a number above 0 and at most 0.5; "
                "replicates are added in rounds until it does or max_matches is reached",
    "until_metric": "the metric until_ci narrows, one of " + ", ".join(TARGET_METRICS)
                    + f" (default: win_rate, pair 0's; {SIGN}: a round robin adds matches to each pairing until who"
                    " wins it is known, or it is even to within until_ci)",
    "max_matches": "the most matches a cell of an until_ci sweep plays, a whole number >= matches "
                   f"(default: {DEFAULT_MAX_MATCHES})",
}
BASE_KEYS = {
    "rules": "a preset name or a rules TOML file",
    "players": "the number of players",
    "set": "a table of rule knob overrides",
    "lineup": 'a lineup such as "collector,watcher(threshold=0.9)"',
    "profile": "a table of profile fields for every seat, or a profile file (TOML with a [profile] table, as "
               "kemps-sim calibrate writes; a relative path is taken from the spec's folder)",
    "profiles": "a list of profile tables or profile files, one per pair or one per seat",
    "engine": "a table of engine settings (max_round_seconds, max_rounds, ...)",
}
#: The keys of the optional [compare] table: the question the sweep asks, answered at the end of its summary.
COMPARE_KEYS = {
    "question": "optional text, printed before the answer",
    "by": "the swept axis the question is about, one with listed levels",
    "a": "a level of that axis; the answer is the difference a - b",
    "b": "another level of that axis",
    "metric": "one of " + ", ".join(COMPARE_METRICS) + " (default: win_rate; "
              + ", ".join(f"{metric} only under {rule} scoring" for metric, rule in scored_only_under().items())
              + "".join(f"; a {game_record(name).title} sweep: {', '.join(metric_names(name, 'compare'))} only"
                        for name in BUILT_IN if metric_names(name, "compare") != COMPARE_METRICS) + ")",
    "pair": "the pair (Kemps) or player (Krepet) the metric is about, a whole number (default: 0)",
}
RANGE_KEYS = ("low", "high", "steps", "log", "integer")
#: The tables of a spec ([compare] is optional).
TABLES = ("sweep", "base", "axes", "compare")
#: The keys of each table of a spec that has fixed keys (for saying where a key put in another table belongs).
TABLE_KEYS = {"sweep": SWEEP_KEYS, "base": BASE_KEYS, "compare": COMPARE_KEYS}
#: A name that looks like an axis name: what a value put there varies.
_AXIS_NAME = re.compile(r"^(rules|profile|agent|engine)\.|^(pair|player)\d+\.")


class SpecError(ConfigError):
    """A sweep spec with one or more problems; the message lists every one, one per line."""


def read_spec(path: str | Path, overrides: Mapping[str, Any] | None = None) -> SweepSpec:
    """The spec in a TOML file, with ``overrides`` (keys of its [sweep] table, e.g. from the command line) put in
    before it is checked; a missing file or bad TOML is a one-line :class:`SpecError`."""
    path = Path(path)
    if not path.is_file():
        raise SpecError(f"sweep spec {str(path)!r}: no such file")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SpecError(f"sweep spec {str(path)!r}: not valid TOML: {exc}") from None
    if overrides and isinstance(data.get("sweep", {}), Mapping):
        data["sweep"] = {**data.get("sweep", {}), **overrides}
    return spec_from_mapping(data, source=str(path), default_name=path.stem, folder=path.parent)


def spec_from_mapping(data: Mapping[str, Any], source: str = "sweep spec", default_name: str = "sweep",
                      folder: str | Path | None = None) -> SweepSpec:
    """A validated spec from plain data, checking every field and reporting all problems together, each under the
    section of the spec it is in (see :mod:`kemps_sim.sweep.problems`).

    A profile given as a file (``base.profile`` or an entry of ``base.profiles``: a string) is read here, from
    ``folder`` when relative (the spec file's folder; None: the working directory), and the spec holds its table:
    the spec a results folder records then stands alone, and an edited profile file makes a different sweep."""
    if not isinstance(data, Mapping):
        raise SpecError(f"{source}: must be a table with [sweep], [base] and [axes]")
    problems = Problems()
    data, unread = read_profile_files(data, folder)
    for text in unread:
        problems.add(BASE, text)
    for key in data:
        if key not in TABLES:
            home = _belongs(str(key), None)
            if home:
                problems.add(TOP, f"{key} = {plain_data(data[key])!r}: outside any table; {home}")
            else:
                problems.add(table_section(str(key)), f"{key}: unknown table{did_you_mean(key, TABLES)}; a spec "
                                                      "has [sweep], [base], [axes] and optionally [compare]")
    sweep = _table(data, "sweep", problems)
    base = _table(data, "base", problems)
    axes_data = _table(data, "axes", problems)
    _unknown_keys("sweep", sweep, problems)
    _unknown_keys("base", base, problems)
    if "game" not in sweep and base.get("game") in game_names():
        sweep = {**sweep, "game": base["game"]}  # reported as misplaced; the rest is checked for the game meant
    settings = _sweep_settings(sweep, base, default_name, problems)
    game, design = settings["game"], settings["design"]

    wrong_kind = _base_types(base, problems)
    base_check = check_base(base, game, frozenset(wrong_kind))
    for text in base_check.problems:
        problems.add(BASE, text)
    not_finite: dict[str, tuple[list[Any], float]] = {}  # axes listing nan or inf: the list, the first such level
    axes = tuple(axis for key, value in axes_data.items()
                 if (axis := _axis(str(key), value, design, problems, not_finite)) is not None)
    if design in SENSITIVITY_DESIGNS:
        _sensitivity_axes(design, axes_data, axes, problems)
    compare = _compare(data, axes, {str(key) for key in axes_data}, game, problems)
    samples, trajectories, levels = settings["samples"], settings["trajectories"], settings["levels"]
    drawable = design in DESIGNS and not (design in SENSITIVITY_DESIGNS and (not axes or (design == "sobol" and (
        not samples or samples & (samples - 1))) or (design == "morris" and (trajectories is None or levels is None))))
    spec = SweepSpec(**{**settings, "seed": settings["seed"] or 0, "matches": settings["matches"] or 1,
                        "design": design if design in DESIGNS else "grid"},
                     base=dict(base), axes=axes, source=plain_data(data), compare=compare)
    # The cells are checked on the sound base (each broken base field left out), with the axes it can judge.
    sound = replace(spec, base=base_check.sound, axes=judged_axes(axes, base_check.broken))
    cells = check_cells(sound, drawable)
    for axis, text in cells.problems:
        problems.add(axis_section(axis) if axis is not None else AXES, text)
    for name, (given, level) in not_finite.items():
        problems.add(axis_section(name), not_finite_problem(sound, name, given, level))
    for text in compare_cell_problems(compare, game, cells.playable) if compare is not None else ():
        problems.add(COMPARE, text)
    if spec.until_ci is not None and "rules" not in base_check.broken:
        problem = metric_problem(spec.until_metric, sound.sides())
        if problem:
            problems.add(SWEEP, f"sweep.until_metric = {sweep.get('until_metric', 'win_rate')!r}: {problem}")
        elif spec.until_metric == SIGN and not problems:
            problem = round_robin_problem(sound)
            if problem:
                problems.add(SWEEP, f"sweep.until_metric = 'sign': {problem}")
    if problems:
        raise SpecError(problems.text(source))
    return spec


def _sweep_settings(sweep: Mapping[str, Any], base: Mapping[str, Any], default_name: str,
                    problems: Problems) -> dict[str, Any]:
    """The fields of [sweep], parsed (each problem filed; a field with a problem keeps its default)."""
    found: list[str] = []
    name = _typed(sweep, "sweep", "name", str, default_name, found)
    game = _typed(sweep, "sweep", "game", str, DEFAULT_GAME, found)
    if game not in game_names():
        found.append(f"sweep.game = {game!r}: unknown game{did_you_mean(game, game_names())}; allowed: "
                     f"{', '.join(game_names())}")
        game = DEFAULT_GAME
    played = game_record(game)
    if not played.takes_players and "players" in base:
        problems.add(BASE, f"base.players = {base['players']!r}: {played.fixed_players_text()}; leave players "
                           "out")
    seed = _whole(sweep, "sweep.seed", "seed", None, 0, found)
    matches = _whole(sweep, "sweep.matches", "matches", None, 1, found)
    output = _typed(sweep, "sweep", "output", str, f"results/{name}", found)
    design = _typed(sweep, "sweep", "design", str, "grid", found)
    if design not in DESIGNS:
        found.append(f"sweep.design = {design!r}: must be one of {', '.join(DESIGNS)}")
    samples = _whole(sweep, "sweep.samples", "samples", 0, 1, found) if "samples" in sweep else None
    if design in ("random", "lhs") and "samples" not in sweep:
        found.append(f"sweep.samples: missing; a {design} design needs the number of cells to draw")
    if design == "sobol" and "samples" not in sweep:
        found.append("sweep.samples: missing; a sobol design needs the base sample size N, a power of 2 "
                     "(N x (D + 2) cells for D axes)")
    if design == "sobol" and samples and samples & (samples - 1):
        found.append(f"sweep.samples = {samples!r}: a sobol design needs a power of 2 (the Sobol' sequence is "
                     f"balanced only then), e.g. {1 << (samples.bit_length() - 1)} or {1 << samples.bit_length()}")
    if design in ("grid", "morris") and "samples" in sweep:
        instead = "visits every level" if design == "grid" else "draws trajectories (sweep.trajectories)"
        found.append(f"sweep.samples: only a random, lhs or sobol design draws samples; a {design} design "
                     f"{instead}")
    common = _typed(sweep, "sweep", "common_random_numbers", bool, design in PAIRED_DESIGNS, found)
    second_order = _typed(sweep, "sweep", "second_order", bool, False, found)
    if "second_order" in sweep and design != "sobol":
        found.append(f"sweep.second_order: only a sobol design has second-order indices, not a {design} design")
    trajectories = levels = None
    if design == "morris":
        trajectories = _whole(sweep, "sweep.trajectories", "trajectories", None, 2, found)
        levels = _whole(sweep, "sweep.levels", "levels", MORRIS_LEVELS, 2, found)
        if levels is not None and levels % 2:
            found.append(f"sweep.levels = {levels!r}: must be {SWEEP_KEYS['levels']}")
            levels = None
    else:
        for key in ("trajectories", "levels"):
            if key in sweep:
                found.append(f"sweep.{key}: only a morris design has {key}, not a {design} design")
    chunk = _whole(sweep, "sweep.chunk", "chunk", 0, 1, found)
    events = _typed(sweep, "sweep", "events", bool, False, found)
    until_ci, until_metric, max_matches = _until(sweep, matches, game, found)
    for text in found:
        problems.add(SWEEP, text)
    return dict(name=name, seed=seed, matches=matches, output=output, design=design, samples=samples or None,
                chunk=chunk or None, events=events, common_random_numbers=common,
                second_order=second_order if design == "sobol" else False, trajectories=trajectories,
                levels=levels, until_ci=until_ci, until_metric=until_metric, max_matches=max_matches, game=game)


def _compare(data: Mapping[str, Any], axes: tuple[Axis, ...], given: set[str], game: str,
             problems: Problems) -> CompareSpec | None:
    """The comparison of the [compare] table, if the spec has one, checked against the axes and the game."""
    if "compare" not in data:
        return None
    table = _table(data, "compare", problems)
    if not isinstance(data["compare"], Mapping):
        return None
    _unknown_keys("compare", table, problems)
    found: list[str] = []
    compare = parse_compare(table, axes, given - {axis.name for axis in axes}, game, found)
    for text in found:
        problems.add(COMPARE, text)
    return compare


def _until(sweep: Mapping[str, Any], matches: int | None, game: str,
           problems: list[str]) -> tuple[float | None, str, int | None]:
    """The precision target of the sweep: ``until_ci``, ``until_metric`` (canonical, and one that applies to the
    sweep's ``game``) and ``max_matches``."""
    metric, cap = "pair0.win_rate", None
    if "until_ci" not in sweep:
        for key in ("until_metric", "max_matches"):
            if key in sweep:
                problems.append(f"sweep.{key} = {sweep[key]!r}: only a sweep with sweep.until_ci (a precision "
                                "target) uses it; add until_ci or remove it")
        return None, metric, None
    target = sweep["until_ci"]
    if isinstance(target, bool) or not isinstance(target, int | float) or not math.isfinite(target) \
            or not 0 < target <= 0.5:
        problems.append(f"sweep.until_ci = {target!r}: must be a number above 0 and at most 0.5 (the "
                        "half-width of a share's interval)")
        target = None
    given = sweep.get("until_metric", "win_rate")
    problem = metric_problem(given, game=game)
    if problem:
        problems.append(f"sweep.until_metric = {given!r}: {problem}")
    else:
        metric = canonical_metric(given)
    cap = _whole(sweep, "sweep.max_matches", "max_matches", DEFAULT_MAX_MATCHES, 1, problems)
    if cap is not None and matches is not None and cap < matches:
        problems.append(f"sweep.max_matches = {cap!r}: must be >= sweep.matches ({matches}), the replicates every "
                        "cell starts with")
    return (float(target) if target is not None else None), metric, cap


#: The type each base field must have, by key, with what to say if it has not.
_BASE_TYPES = {"rules": (str, "a preset name or a rules TOML file"), "players": (int, "a whole number"),
               "set": (Mapping, "a table of rule knobs"), "lineup": (str, "a lineup string"),
               "profile": (Mapping, "a table of profile fields or a profile file (TOML)"),
               "profiles": (list, "a list of profile tables or profile files"),
               "engine": (Mapping, "a table of engine settings")}


def _sensitivity_axes(design: str, given: Mapping[str, Any], axes: tuple[Axis, ...], problems: Problems) -> None:
    """A sensitivity design varies numeric ranges only: every axis a {low, high} table, at least one of them."""
    if not given:
        problems.add(AXES, f"axes: a {design} design needs at least one range axis {{low, high}}")
    for axis in axes:
        if axis.levels is not None:
            problems.add(axis_section(axis.name), f"axes.{axis.name} = {plain_data(axis.levels)!r}: a {design} "
                         "design varies numeric ranges only; give {low, high} (a fixed value goes in [base])")


def _base_types(base: Mapping[str, Any], problems: Problems) -> set[str]:
    """File each base field of the wrong kind; return their keys."""
    wrong = set()
    for key, (kind, what) in _BASE_TYPES.items():
        value = base.get(key)
        if value is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            problems.add(BASE, f"base.{key} = {value!r}: must be {what}")
            wrong.add(key)
    return wrong


def _table(data: Mapping[str, Any], key: str, problems: Problems) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        problems.add(table_section(key), f"{key} = {value!r}: must be a table ([{key}])")
        return {}
    return value


def _unknown_keys(where: str, table: Mapping[str, Any], problems: Problems) -> None:
    """File each key ``table`` does not have: where it belongs if it is another table's, else the closest key."""
    allowed = TABLE_KEYS[where]
    for key in table:
        if key in allowed:
            continue
        home = _belongs(str(key), where)
        if home:
            problems.add(table_section(where), f"{where}.{key} = {plain_data(table[key])!r}: {home}")
        else:
            hint = did_you_mean(key, allowed) or _elsewhere(str(key), where)
            problems.add(table_section(where), f"{where}.{key}: unknown key{hint}; allowed: {', '.join(allowed)}")


def _elsewhere(key: str, where: str) -> str:
    """`` (did you mean KEY of [TABLE]?)`` for the closest key of another table, or ``""``."""
    for home, keys in TABLE_KEYS.items():
        found = closest(key, keys) if home != where else None
        if found:
            return f" (did you mean {found}, which belongs in [{home}]?)"
    return ""


def _belongs(key: str, where: str | None) -> str | None:
    """Where a key put in table ``where`` (None: outside any table) belongs, if it belongs somewhere else: a key of
    another table, an axis name, or a table's name."""
    for home, keys in TABLE_KEYS.items():
        if home != where and key in keys:
            place = f"not [{where}]" if where else f"below the [{home}] line"
            return f"belongs in [{home}], {place} ({key}: {keys[key]})"
    if key in TABLES and where is not None:
        return f"[{key}] is a table of its own, not a key of [{where}]"
    if where is not None and _AXIS_NAME.match(key):
        knob = key.removeprefix("rules.")
        fixed = f"[base] set = {{ {knob} = ... }}" if knob != key else "[base] (profile, lineup or engine)"
        return (f"an axis name: a swept value belongs in [axes] (\"{key}\" = [level, ...]); a fixed one in "
                f"{fixed}")
    return None


def _typed(table: Mapping[str, Any], where: str, key: str, kind: type, default: Any, problems: list[str]) -> Any:
    value = table.get(key, default)
    if not isinstance(value, kind) or (kind is str and not value.strip()):
        problems.append(f"{where}.{key} = {value!r}: must be {SWEEP_KEYS.get(key, kind.__name__)}")
        return default
    return value


def _whole(table: Mapping[str, Any], field: str, key: str, default: int | None, low: int,
           problems: list[str]) -> int | None:
    if key not in table:
        if default is None:
            problems.append(f"{field}: missing; must be {SWEEP_KEYS[key]}")
        return default
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        problems.append(f"{field} = {value!r}: must be {SWEEP_KEYS[key]}")
        return default
    return value


def _axis(name: str, value: Any, design: str, problems: Problems,
          not_finite: dict[str, tuple[list[Any], float]]) -> Axis | None:
    """The axis ``name`` as given, or None with its problems filed under its own section. A listed nan or inf is
    put in ``not_finite`` (to be explained once the place the axis points to can say what it allows) and the axis is
    checked without it."""
    found: list[str] = []
    if name in SWEEP_KEYS:  # none of them is a place an axis can point to
        problems.add(axis_section(name), f"axes.{name}: a setting of the sweep, not an axis; it belongs in [sweep] "
                                         f"({name}: {SWEEP_KEYS[name]})")
        return None
    if isinstance(value, list):
        odd = [v for v in value if isinstance(v, float) and not math.isfinite(v)]
        if odd:
            not_finite[name] = (value, odd[0])
            value = [v for v in value if not (isinstance(v, float) and not math.isfinite(v))]
            if not value:
                return None
    axis = _parsed_axis(name, value, design, found)
    for text in found:
        problems.add(axis_section(name), text)
    return axis


def _parsed_axis(name: str, value: Any, design: str, problems: list[str]) -> Axis | None:
    field = f"axes.{name}"
    if isinstance(value, list):
        if not value:
            problems.append(f"{field} = []: give at least one level")
            return None
        kinds = {_kind(v) for v in value}
        if len(kinds) > 1 or kinds == {None}:
            problems.append(f"{field} = {value!r}: levels must all be numbers, all true/false or all strings")
            return None
        levels = tuple(float(v) for v in value) if kinds == {"number"} and any(
            isinstance(v, float) for v in value) else tuple(value)
        if len(set(map(repr, levels))) != len(levels):
            problems.append(f"{field} = {value!r}: a level is listed twice")
            return None
        return Axis(name, levels=levels)
    if isinstance(value, Mapping):
        return _range_axis(name, field, value, design, problems)
    problems.append(f"{field} = {value!r}: must be a list of levels or a range table {{low, high, steps}}")
    return None


def _range_axis(name: str, field: str, value: Mapping[str, Any], design: str, problems: list[str]) -> Axis | None:
    before = len(problems)
    for key in value:
        if key not in RANGE_KEYS:
            problems.append(f"{field}.{key}: unknown key{did_you_mean(key, RANGE_KEYS)}; a range has "
                            f"{', '.join(RANGE_KEYS)}")
    bounds = {}
    for key in ("low", "high"):
        bound = value.get(key)
        if isinstance(bound, bool) or not isinstance(bound, int | float) or not math.isfinite(bound):
            problems.append(f"{field}.{key} = {bound!r}: must be a finite number")
        else:
            bounds[key] = float(bound)
    flags = {}
    for key in ("log", "integer"):
        flag = value.get(key, False)
        if not isinstance(flag, bool):
            problems.append(f"{field}.{key} = {flag!r}: must be true or false")
        flags[key] = flag is True
    steps = value.get("steps")
    if design == "grid":
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
            problems.append(f"{field}.steps = {steps!r}: a grid needs the number of points, a whole number >= 1")
    elif steps is not None:
        problems.append(f"{field}.steps = {steps!r}: only a grid uses steps; a {design} design samples the range")
    if len(bounds) == 2:
        if bounds["low"] > bounds["high"]:
            problems.append(f"{field}: low = {bounds['low']!r} is above high = {bounds['high']!r}")
        if flags["log"] and bounds["low"] <= 0:
            problems.append(f"{field}.low = {bounds['low']!r}: a log range must be above 0")
        if flags["integer"] and math.ceil(bounds["low"]) > math.floor(bounds["high"]):
            problems.append(f"{field}: no whole number between low = {bounds['low']!r} and high = {bounds['high']!r}")
    if len(problems) > before:
        return None
    return Axis(name, range=Range(bounds["low"], bounds["high"], steps, flags["log"], flags["integer"]))


def _kind(value: Any) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number" if math.isfinite(value) else None
    if isinstance(value, str):
        return "string"
    return None
