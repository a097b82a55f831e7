"""What a round robin plays besides its strategies: under which rule variants, and how many matches a pairing gets.

**Rule variants** (``[tournament.vary]`` in a tournament spec file, ``--vary KEY=V1,V2`` on the command line,
``vary=`` in Python) turn one tournament into a grid: every seating of every two strategies under every variant.
``rules = [...]`` lists presets or rules files and becomes the sweep's ``rules`` axis; ``KNOB = [...]`` (or
``"rules.KNOB" = [...]``) lists the levels of one rule knob and becomes its ``rules.KNOB`` axis. The tournament's
design is a grid, so common random numbers are on and replicate r of every cell plays the same deal: the variants
are compared on the same deals. A variant is a rule, never the table size or the lineups, which the tournament
fixes.

**An adaptive schedule** (``[tournament] adaptive = RESOLUTION``, ``--adaptive``, ``adaptive=``) makes the round
robin an adaptive one (:mod:`kemps_sim.sweep.adaptive`: ``until_metric = "sign"``, ``until_ci = RESOLUTION``): the
matches per seating are where every pairing starts, and a pairing gets more, round by round, only while who wins it
is uncertain and it is not even to within the resolution, up to ``max_matches`` per seating. The default cap,
:func:`default_cap`, is the fewest matches at which every pairing has settled by sign or as a tie (so no pairing
stops at the cap), and never more than :data:`~kemps_sim.sweep.targets.DEFAULT_MAX_MATCHES`; it only grows with a
tighter resolution, more pairings or more starting matches, so each of those extends a folder. With variants, each
(variant, pairing) settles on its own.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.sweep.adaptive import hoeffding_halfwidth, looks
from kemps_sim.sweep.targets import CONFIDENCE, DEFAULT_MAX_MATCHES, SIGN

__all__ = ["TOURNAMENT_FIELDS", "VARY_FORMS", "adaptive_problems", "adaptive_sweep", "axis_name", "default_cap",
           "merge_vary", "parse_vary", "variant_axes", "variant_conflicts", "vary_field_text"]

#: What a table of rule variants may hold.
VARY_FORMS = "rules = [presets or rules files] and KNOB = [levels] (or \"rules.KNOB\"), each a list of at least 2"
#: What the adaptive settings may hold.
ADAPTIVE_TEXT = "the tie resolution of an adaptive round robin, a number above 0 and at most 0.5"
CAP_TEXT = "the most matches per seating of an adaptive round robin, a whole number >= the matches it starts with"
#: The keys of a tournament spec file's [tournament] table these settings add, with what each may hold.
TOURNAMENT_FIELDS = {
    "adaptive": f"{ADAPTIVE_TEXT}: matches is then where every pairing starts, and a pairing gets more only while "
                "its winner is uncertain (default: none, every pairing plays matches)",
    "max_matches": f"{CAP_TEXT} (default: enough to settle every pairing by sign or as a tie, at most "
                   f"{DEFAULT_MAX_MATCHES})",
    "vary": f"a table of rule variants, every seating played under each: {VARY_FORMS}",
}
_KNOB = re.compile(r"^[A-Za-z_]\w*$")


# --- the adaptive schedule ---------------------------------------------------------------------------------------


def adaptive_problems(adaptive: Any, max_matches: Any, matches: int, prefix: str = "") -> list[str]:
    """The problems of an adaptive schedule's settings (``prefix`` names where they are, e.g. ``"tournament."``),
    one line each naming the field: the resolution in (0, 0.5], a cap only with a resolution and never below the
    ``matches`` every pairing starts with."""
    found = []
    if adaptive is not None and (isinstance(adaptive, bool) or not isinstance(adaptive, int | float)
                                 or not math.isfinite(adaptive) or not 0 < adaptive <= 0.5):
        found.append(f"{prefix}adaptive = {adaptive!r}: must be {ADAPTIVE_TEXT} (the payoff of a deal played in "
                     "both seatings runs from -1/2 to 1/2), e.g. 0.05")
    if max_matches is None:
        return found
    if adaptive is None:
        found.append(f"{prefix}max_matches = {max_matches!r}: only an adaptive round robin has a cap; add "
                     f"{prefix}adaptive or leave max_matches out")
    elif isinstance(max_matches, bool) or not isinstance(max_matches, int) or max_matches < 1:
        found.append(f"{prefix}max_matches = {max_matches!r}: must be {CAP_TEXT}")
    elif isinstance(matches, int) and max_matches < matches:
        found.append(f"{prefix}max_matches = {max_matches!r}: must be >= {prefix}matches ({matches}), the matches "
                     "per seating every pairing starts with")
    return found


def default_cap(resolution: float, start: int, pairings: int) -> int:
    """The default ``max_matches`` of an adaptive round robin: the fewest matches per seating at which a pairing's
    Hoeffding interval is within ``resolution`` of its middle, so that every pairing has settled by sign or as a tie
    by then; at least ``start`` and at most :data:`~kemps_sim.sweep.targets.DEFAULT_MAX_MATCHES` (beyond which a
    pairing may stop at the cap).

    The Bonferroni level counts ``pairings`` and the looks from a single match up to the cap, at least as many as
    a run starting at ``start`` takes, so the cap is never too small; and it grows with a tighter resolution, more
    pairings or more starting matches, never shrinks, so that each of those extends a folder (a lower cap is
    refused, :func:`kemps_sim.sweep.identity.extension_problem`)."""
    if not 0 < resolution <= 0.5 or start < 1 or pairings < 1:
        raise ConfigError(f"default_cap({resolution!r}, {start!r}, {pairings!r}): needs a resolution in (0, 0.5], "
                          "a start >= 1 and at least 1 pairing")
    for cap in range(1, DEFAULT_MAX_MATCHES + 1):
        delta = (1.0 - CONFIDENCE) / (pairings * looks(1, cap))
        if hoeffding_halfwidth(cap, delta) <= resolution + 1e-12:  # the tie test of settle_pairings
            return max(start, cap)
    return max(start, DEFAULT_MAX_MATCHES)


def adaptive_sweep(adaptive: float, max_matches: int | None, matches: int, pairings: int) -> dict[str, Any]:
    """The ``[sweep]`` fields of an adaptive round robin of ``pairings`` (pairings times variants) starting at
    ``matches`` per seating: ``until_metric = "sign"``, ``until_ci`` and ``max_matches`` (``None``: the
    :func:`default_cap`)."""
    cap = default_cap(adaptive, matches, pairings) if max_matches is None else max_matches
    return {"until_metric": SIGN, "until_ci": float(adaptive), "max_matches": cap}


# --- rule variants -----------------------------------------------------------------------------------------------


def axis_name(key: str) -> str:
    """The sweep axis a key of a table of rule variants stands for: ``rules``, or ``rules.KNOB`` for ``KNOB``."""
    return key if key == "rules" or key.startswith("rules.") else f"rules.{key}"


def _flat(vary: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The keys of a table of rule variants with a ``rules`` table (TOML's ``rules.KNOB = [...]``, unquoted) spread
    into ``rules.KNOB`` keys."""
    flat = []
    for key, value in vary.items():
        if key == "rules" and isinstance(value, Mapping):
            flat += [(f"rules.{knob}", levels) for knob, levels in value.items()]
        else:
            flat.append((str(key), value))
    return flat


def variant_axes(vary: Any, field: str) -> tuple[dict[str, list[Any]], dict[str, str], list[str]]:
    """The sweep axes a table of rule variants declares (axis name -> levels, in the table's order), the field each
    came from (for naming it in a problem: ``field.KEY`` as written) and the problems of its keys, one line each.
    The levels themselves are checked with the sweep (:func:`vary_field_text` names them as written)."""
    if not isinstance(vary, Mapping):
        return {}, {}, [f"{field} = {vary!r}: must be a table of rule variants: {VARY_FORMS}"]
    axes: dict[str, list[Any]] = {}
    fields: dict[str, str] = {}
    found = []
    for key, levels in _flat(vary):
        name, where = axis_name(key), f"{field}.{key}"
        knob = name.removeprefix("rules.")
        if knob in ("players", "lineup"):
            fixed = "lineups (every seating of its strategies)" if knob == "lineup" else "table size"
            found.append(f"{where}: a tournament fixes its {fixed}; it varies {VARY_FORMS}")
        elif name != "rules" and not _KNOB.match(knob):
            found.append(f"{where}: not a rule variant; a tournament varies {VARY_FORMS}")
        elif name in axes:
            found.append(f"{where}: the same rule as {fields[name]}; give its levels once")
        elif not isinstance(levels, list) or len(levels) < 2:
            example = '["standard", "german"]' if name == "rules" else "[false, true]"
            found.append(f"{where} = {levels!r}: must be a list of at least 2 levels, such as {example} (one value "
                         "for every match is a rule knob override, not a variant)")
        else:
            axes[name], fields[name] = list(levels), where
    return axes, fields, found


def variant_conflicts(axes: Mapping[str, Any], fields: Mapping[str, str], overrides: Mapping[str, Any],
                      rules: str | None, set_field: str, rules_field: str) -> list[str]:
    """The problems of rule variants against the fixed rules: a knob both set for every match (in ``set_field``)
    and varied, or the presets varied while ``rules_field`` names one."""
    found = []
    for name, where in fields.items():
        knob = name.removeprefix("rules.")
        if name == "rules" and rules is not None:
            found.append(f"{where}: the presets vary, so {rules_field} = {rules!r} would have no say; leave "
                         f"{rules_field} out")
        elif name != "rules" and knob in overrides:
            found.append(f"{where}: also set for every match in {set_field} ({knob} = {overrides[knob]!r}); a "
                         "knob is either set or varied")
    return found


def merge_vary(table: Any, given: Mapping[str, Any]) -> Any:
    """A file's table of rule variants with ``given`` (from the command line) laid over it: a rule ``given`` names
    replaces the file's levels of that rule. A file's table that is not a table is left for the checks to name."""
    if not isinstance(table, Mapping):
        return table if table is not None else dict(given)
    replaced = {axis_name(key) for key in given}
    return {**{key: value for key, value in _flat(table) if axis_name(key) not in replaced}, **given}


def vary_field_text(text: str, fields: Mapping[str, str], axes: Mapping[str, Sequence[Any]]) -> str | None:
    """A sweep spec's problem about a variant's axis (``axes.rules.double_kemps = ...``) with the field named as
    the variants table names it (``tournament.vary.double_kemps = ...``); None when the problem is not about one."""
    for name in sorted(fields, key=len, reverse=True):
        head = f"axes.{name}"
        rest = text[len(head):]
        if not text.startswith(head) or (rest and rest[0] not in " .:="):
            continue
        if name == "rules" and rest.startswith(".preset"):
            return fields[name] + rest[len(".preset"):]
        if name == "rules" and rest.startswith("."):  # a knob one of the presets sets, at odds with the others
            return f"{fields[name]} = {list(axes[name])!r}: one of them sets {rest[1:]}"
        return fields[name] + rest
    return None


def parse_vary(items: Sequence[str]) -> dict[str, list[Any]]:
    """``KEY=V1,V2,...`` strings (the command line's ``--vary``) to a table of rule variants; each value is read as
    TOML (``false``, ``0.5``, ``[3, 2, 1]``), else taken as plain text (a preset name or a rules file)."""
    found: dict[str, list[Any]] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key or not raw.strip():
            raise ConfigError(f"--vary {item!r}: must be KEY=V1,V2,..., e.g. --vary rules=standard,german or "
                              "--vary double_kemps=false,true")
        if axis_name(key) in {axis_name(other) for other in found}:
            raise ConfigError(f"--vary {item!r}: {key} is varied twice; give all its levels in one --vary")
        try:
            levels = tomllib.loads(f"v = [{raw}]")["v"]
        except tomllib.TOMLDecodeError:
            levels = [_value(part) for part in _split(raw)]
        found[key] = levels
    return found


def _split(raw: str) -> list[str]:
    """``raw`` split at the commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, "", 0
    for i, char in enumerate(raw):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(raw[start:i])
            start = i + 1
    return [*parts, raw[start:]]


def _value(text: str) -> Any:
    """One level as TOML would read it, else the text itself (stripped)."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text.strip()
