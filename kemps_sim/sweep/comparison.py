"""The ``[compare]`` table of a sweep spec: the question the sweep asks, as the difference between two levels of
one of its listed axes, so that its summary can end with the answer (:class:`~kemps_sim.sweep.design.CompareSpec`).

It is checked in two steps, like the rest of a spec: the table itself against the spec's axes and game
(:func:`parse_compare`), then against the cells it compares (:func:`compare_cell_problems`): the metric must be
scored under their scoring rule and the pair must sit at their table.

Layering: built on :mod:`kemps_sim.sweep.design`; the parsing in :mod:`kemps_sim.sweep.spec` calls it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from kemps_sim.games import game as game_record
from kemps_sim.metrics import names, scored_only_under
from kemps_sim.suggest import did_you_mean
from kemps_sim.sweep.design import Axis, Cell, CompareSpec

#: The metric each scoring rule alone records (the others exist under every rule): from the metric registry.
SCORED_ONLY_UNDER = scored_only_under("compare")
#: What a level of ``a`` or ``b`` is when it names none (see :func:`level_of`).
UNSET: Any = type("Unset", (), {"__repr__": lambda self: "UNSET"})()


def parse_compare(table: Mapping[str, Any], axes: Iterable[Axis], unparsed: Iterable[str], game: str,
                  problems: list[str]) -> CompareSpec:
    """The comparison ``table`` asks, checked against the spec's ``axes`` (``unparsed``: the names of the axes given
    that have problems of their own, which are not blamed again); each problem is appended to ``problems``.

    With problems, what could be read is still returned, for :func:`compare_cell_problems` to check the rest: a
    field in error is left at a value that checks nothing (``by`` empty and ``a``, ``b`` unset: every cell)."""
    played = game_record(game)
    question = table.get("question")
    if question is not None and (not isinstance(question, str) or not question.strip()):
        problems.append(f"compare.question = {question!r}: must be text, printed before the answer")
    metric = table.get("metric", "win_rate")
    every_game, this_game = names(role="compare"), names(game, "compare")
    if not isinstance(metric, str) or metric not in every_game:
        problems.append(f"compare.metric = {metric!r}: unknown metric{did_you_mean(metric, every_game)}; "
                        f"allowed: {', '.join(every_game)}")
        metric = "win_rate"
    elif metric not in this_game:
        problems.append(f"compare.metric = {metric!r}: a {played.title} sweep compares its {played.unit}s' "
                        f"{' or '.join(this_game)} only")
    pair = table.get("pair", 0)
    if isinstance(pair, bool) or not isinstance(pair, int) or pair < 0:
        problems.append(f"compare.pair = {pair!r}: must be a whole number >= 0, the {played.unit} the metric is "
                        "about (numbered from 0)")
        pair = 0
    elif played.players is not None and pair >= played.players // played.seats_per_side:
        sides = played.players // played.seats_per_side
        listed = "0 and 1" if sides == 2 else f"0 to {sides - 1}"
        problems.append(f"compare.pair = {pair!r}: {played.title} has {played.unit}s {listed}")
    by, a, b = _levels(table, {axis.name: axis for axis in axes}, set(unparsed), problems)
    text = question.strip() if isinstance(question, str) and question.strip() else None
    return CompareSpec(by, a, b, metric, pair, text)


def _levels(table: Mapping[str, Any], axes: Mapping[str, Axis], unparsed: set[str],
            problems: list[str]) -> tuple[str, Any, Any]:
    """The axis ``by`` and its two levels ``a`` and ``b`` as the axis holds them (``""`` and :data:`UNSET` on a
    problem)."""
    listed = [name for name, axis in axes.items() if axis.levels is not None]
    allowed = f"axes with listed levels: {', '.join(listed)}" if listed else "this spec has no axis with listed levels"
    if "by" not in table:
        problems.append(f"compare.by: missing; must be the swept axis the question is about ({allowed})")
        return "", UNSET, UNSET
    by = table["by"]
    if not isinstance(by, str) or by not in axes:
        if by not in unparsed:
            problems.append(f"compare.by = {by!r}: not an axis of this spec{did_you_mean(by, list(axes))}; {allowed}")
        return "", UNSET, UNSET
    axis = axes[by]
    if axis.levels is None:
        problems.append(f"compare.by = {by!r}: a range axis; compare needs an axis with listed levels, such as "
                        f"\"{by}\" = [{_shown(axis.range.low)}, {_shown(axis.range.high)}] ({allowed})")
        return "", UNSET, UNSET
    levels = ", ".join(_shown(level) for level in axis.levels)
    found = {}
    for key in ("a", "b"):
        if key not in table:
            problems.append(f"compare.{key}: missing; must be a level of {by}: {levels}")
            continue
        level = level_of(table[key], axis.levels)
        if level is UNSET:
            hint = did_you_mean(table[key], [lvl for lvl in axis.levels if isinstance(lvl, str)])
            problems.append(f"compare.{key} = {_shown(table[key])}: not a level of {by}{hint}; its levels are "
                            f"{levels}")
        else:
            found[key] = level
    if len(found) == 2 and _same(found["a"], found["b"]):
        problems.append(f"compare.b = {_shown(table['b'])}: the same level as compare.a; give two different levels "
                        f"of {by}: {levels}")
    if len(found) < 2 or _same(found["a"], found["b"]):
        return "", UNSET, UNSET
    return by, found["a"], found["b"]


def level_of(value: Any, levels: Iterable[Any]) -> Any:
    """The level among ``levels`` that ``value`` names, typed as the axis holds it (``1`` names ``1.0``; ``true``
    names only ``true``, never ``1``), or a marker that none does."""
    for level in levels:
        if _same(value, level):
            return level
    return UNSET


def _same(x: Any, y: Any) -> bool:
    if isinstance(x, bool) or isinstance(y, bool):
        return isinstance(x, bool) and isinstance(y, bool) and x == y
    if isinstance(x, int | float) and isinstance(y, int | float):
        return math.isfinite(x) and x == y
    return isinstance(x, str) and isinstance(y, str) and x == y


def _shown(value: Any) -> str:
    """A value as the spec's TOML writes it: ``true``, ``1.5``, ``"letters"``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def compare_cell_problems(compare: CompareSpec, game: str,
                          playable: Iterable[tuple[Cell, int, str | None]]) -> list[str]:
    """What the cells ``compare`` takes in (those at level a or b of its axis, from the ``playable`` cells with
    their number of sides and scoring rule) say against it: a metric their scoring does not record, or a pair that
    is not at their table."""
    every = not compare.by  # the levels could not be read: every cell is looked at
    compared = [(sides, scoring) for cell, sides, scoring in playable
                if every or any(name == compare.by and _same(value, level) for name, value in cell.params
                                for level in (compare.a, compare.b))]
    problems = []
    rule = SCORED_ONLY_UNDER.get(compare.metric)
    others = sorted({scoring for _, scoring in compared if scoring is not None and scoring != rule})
    if rule is not None and others:
        anywhere = [m for m in names(game, "compare") if m not in SCORED_ONLY_UNDER]
        problems.append(f"compare.metric = {compare.metric!r}: recorded only under {rule} scoring, and cells "
                        f"compared score {', '.join(others)} (rules.scoring); allowed there: {', '.join(anywhere)}")
    fewest = min((sides for sides, _ in compared), default=None)
    if game_record(game).takes_players and fewest is not None and compare.pair >= fewest:
        problems.append(f"compare.pair = {compare.pair!r}: the cells compared have {fewest} pairs, numbered 0 to "
                        f"{fewest - 1}")
    return problems
