"""The difference between two groups of a results folder in words: what ``kemps-sim report --compare`` prints, and
the answer to the question a sweep spec asks in its ``[compare]`` table, which ends the summary that ``kemps-sim
sweep`` and ``kemps-sim report`` print (:func:`answer_text`)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import game
from kemps_sim.metrics import every, get
from kemps_sim.report.folder import game_of, grouping, with_scoring

if TYPE_CHECKING:
    import pandas as pd

    from kemps_sim.sweep import SweepResults

#: The metrics about one side, read from the pairs table (one row per pair, or per player of a Krepet game, and
#: match): the registry's compare metrics with ``per_side``.
PAIR_METRICS = tuple(metric.name for metric in every(role="compare") if metric.per_side)


def compare_text(results: SweepResults, by: str | None, metric: str, first: str, second: str, pair: int = 0,
                 confidence: float = 0.95, tables: Mapping[str, pd.DataFrame] | None = None) -> str:
    """The difference in ``metric`` between two groups of one column (``first`` and ``second`` as typed on the
    command line), as a few lines that name both groups, the design (paired or not), the interval with its level
    and the test with its p-value."""
    columns = grouping(by, results.params)
    if len(columns) != 1:
        raise ConfigError(f"--compare: needs one column to compare along, not {','.join(columns)}; "
                          "give --by COLUMN")
    column = columns[0]
    check_column(results, column, "--by")
    values = results["matches"][column]
    return comparison_text(results, column, metric, _typed(values, first), _typed(values, second), pair,
                           confidence, tables)


def comparison_text(results: SweepResults, column: str, metric: str, a: Any, b: Any, pair: int = 0,
                    confidence: float = 0.95, tables: Mapping[str, pd.DataFrame] | None = None) -> str:
    """The difference in ``metric`` between groups ``a`` and ``b`` of ``column`` (values as the tables hold them),
    from :func:`kemps_sim.stats.compare`, in the few lines of :func:`kemps_sim.stats.format_comparison`."""
    from kemps_sim import stats

    outcome, who = _compared(results, column, metric, a, b, pair, confidence, tables)
    return stats.format_comparison(outcome, by=column, who=who or "")


def _compared(results: SweepResults, column: str, metric: str, a: Any, b: Any, pair: int, confidence: float,
              tables: Mapping[str, pd.DataFrame] | None = None) -> tuple[Any, str | None]:
    """The comparison (a match paired with its twin of the other group: the same seed and the same other swept
    parameters) and whose metric it is."""
    from kemps_sim import stats

    outcome = stats.compare(tables or with_scoring(results), metric, a, b, by=column, confidence=confidence,
                            pair=pair, within=[param for param in results.params if param != column])
    return outcome, _who(results, metric, pair)


def answer_text(folder: str | Path, question: Any, confidence: float = 0.95, skip_damaged: bool = False,
                results: SweepResults | None = None) -> str:
    """The question of a spec's ``[compare]`` table (a :class:`~kemps_sim.sweep.CompareSpec`: ``by``, ``a``,
    ``b``, ``metric``, ``pair`` and ``question``, which may be None) and its answer: the comparison of the two
    groups in one sentence (:func:`kemps_sim.stats.comparison_sentence`), wrapped to 100 columns.

    The comparison reads rows, which the streamed summary does not hold: only the tables the metric needs are
    loaded (the matches, which pair the groups, and the pairs, which name the agents, besides the metric's own),
    unless ``results`` holds them already.
    """
    from kemps_sim import stats
    from kemps_sim.stats.summary import WIDTH
    from kemps_sim.sweep import load_results

    needed = tables_for(question.metric)
    if results is None or not all(name in results.tables for name in needed):
        results = load_results(folder, tables=needed, skip_damaged=skip_damaged)
    if results["matches"].empty:
        raise ConfigError(f"results folder {str(folder)!r}: holds no finished matches yet")
    check_column(results, question.by, "[compare] by")
    outcome, who = _compared(results, question.by, question.metric, question.a, question.b, question.pair,
                             confidence)
    sentence = textwrap.fill(stats.comparison_sentence(outcome, by=question.by, who=who or ""), WIDTH)
    return f"{question.question}\n{sentence}" if question.question else sentence


def spec_question(manifest: Mapping[str, Any]) -> Any | None:
    """The ``[compare]`` table of the spec a results folder was run with (None when it has none)."""
    from kemps_sim.sweep import spec_from_mapping

    data = manifest.get("spec") or {}
    if "compare" not in data:
        return None
    return getattr(spec_from_mapping(data), "compare", None)


def tables_for(metric: str) -> tuple[str, ...]:
    """The tables :func:`kemps_sim.stats.compare` reads for ``metric``: the matches (for pairing the groups), the
    pairs (for the agents' names) and the metric's own table."""
    return tuple(dict.fromkeys(("matches", "pairs", *get(metric).tables)))


def check_column(results: SweepResults, column: str, where: str) -> None:
    """A one-line error unless ``column`` is a column of the matches table (one the groups can be told by)."""
    if column not in results["matches"].columns:
        allowed = ", ".join(c for c in results["matches"].columns if c not in ("error",))
        raise ConfigError(f"{where} {column!r}: no such column; columns are {allowed}")


def _who(results: SweepResults, metric: str, pair: int) -> str | None:
    """Whose metric it is, ``pair 0 (collector)`` or, in a Krepet sweep, ``player 1 (lookout)``; None for a metric
    of everyone's calls or fours."""
    if metric not in PAIR_METRICS:
        return None
    agents = results["pairs"].loc[results["pairs"]["pair"] == pair, "agents"].unique()
    side = game(game_of(results.manifest)).unit
    return f"{side} {pair}" + (f" ({agents[0]})" if len(agents) == 1 else "")


def _typed(column: pd.Series, text: str) -> Any:
    """The value of the column that reads as ``text`` (so ``--compare True False`` finds booleans, ``1`` 1.0)."""
    for value in column.drop_duplicates():
        if str(value) == text or _same_number(value, text):
            return value
    listed = ", ".join(sorted(str(v) for v in column.drop_duplicates()))
    raise ConfigError(f"--compare {text!r}: no such group; groups are {listed}")


def _same_number(value: Any, text: str) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return float(text) == float(value)
    except ValueError:
        return False
