"""One wide row per group, gathering the headline statistics of a sweep for printing or saving as CSV."""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.metrics import GROUP_LABELS, Metric, estimator, every, get, legend_text, score_metrics
from kemps_sim.results import FAILED_END_REASONS
from kemps_sim.stats._groups import Key, as_by, check_confidence, group_fields, group_keys, key_of, require, split
from kemps_sim.stats._scoring import SCORE_OF, group_scorings
from kemps_sim.stats.rates import KEMPS_CALLS, call_accuracy, win_rates
from kemps_sim.stats.standings import scores
from kemps_sim.stats.timing import call_timings

#: ``end_reason`` values of the matches table that count as failures: the match did not finish on its own terms.
FAILURES = FAILED_END_REASONS
#: The metrics of the summary, in column order: the metric registry's ``summary`` role (:mod:`kemps_sim.metrics`).
SUMMARY_METRICS: tuple[Metric, ...] = every("kemps", "summary")
#: The call-accuracy metrics the summary keeps, in column order (the names of ``call_accuracy`` and ``compare``).
_ACCURACY = tuple(metric.name for metric in SUMMARY_METRICS if "accuracy" in metric.roles)
#: The suffixes of an estimate's interval columns: ``X_ci_low`` and ``X_ci_high`` bound column ``X``.
_CI = ("_ci_low", "_ci_high")
_SHARE = re.compile(r"(win_rate|precision|conversion|_share)")
#: How many calls of each outcome: right and wrong Kemps (Double Kemps included), right and wrong Stop Kemps.
_CALL_COUNTS = tuple(metric.column for metric in SUMMARY_METRICS if metric.group == "calls")
#: The printed table shows the four counts as one column, ``right/wrong Kemps / right/wrong Stop Kemps``.
CALLS_HEADER = GROUP_LABELS["calls"]
#: How wide the printed summary may be: a terminal of 100 columns.
WIDTH = 100
#: The printed labels of the summary columns whose names are too wide to print (the CSV keeps the names).
LABELS = {metric.column: metric.label for metric in SUMMARY_METRICS
          if metric.label != metric.column and "N_" not in metric.column}
#: What the printed columns mean, for :func:`summary_legend`, one entry per metric or group of metrics explained
#: together (pairN_win_rate, explained for every N there, is left out).
_EXPLAINED = tuple(
    (tuple(m.column for m in SUMMARY_METRICS if m.group == metric.group) if metric.group else (metric.column,),
     legend_text(metric))
    for i, metric in enumerate(SUMMARY_METRICS)
    if "N_" not in metric.column and not (metric.group and any(m.group == metric.group for m in SUMMARY_METRICS[:i])))
#: The metrics with a column per pair (``pairN_win_rate``), and the pattern of those columns.
_PER_PAIR = tuple(metric for metric in SUMMARY_METRICS if "N_" in metric.column)
_WIN_RATE = get("win_rate")
_PATTERNS = {metric.name: re.compile(re.escape(metric.column).replace("N_", r"\d+_")) for metric in _PER_PAIR}
#: The first part of a parameter's name that says only where its value goes, left out of a printed label.
_WHERE = ("rules", "engine", "profile", "agent")
_WHOSE = re.compile(r"(pair|player)\d+")
_GAP = "  "


def summary_table(tables: Mapping[str, pd.DataFrame], by: Sequence[str] = ("cell",),
                  confidence: float = 0.95, scoring: str | None = None) -> pd.DataFrame:
    """The headline numbers of each group in one wide row, built from the long outputs of the other functions.

    ``matches`` counts the rows of the ``matches`` table when there is one (finished or not) and otherwise the
    matches in the pairs table; ``failures`` (only with a matches table) counts matches that ended in
    ``agent_error`` or ``crashed``. ``rounds_per_match`` is the mean number of rounds; ``pair{p}_win_rate`` with
    ``pair{p}_win_rate_ci_low``/``_ci_high`` each pair's win rate and Wilson interval (co-wins count as wins);
    then four call-accuracy shares, the counts of right and wrong Kemps (Double Kemps included) and of right and
    wrong Stop Kemps, the median seconds from four of a kind to a right Kemps call (``four_to_call_median``), and
    pair 0's mean score per match under the group's scoring rule: ``pair0_letters`` under letters scoring,
    ``pair0_points`` under points, ``pair0_rounds_won`` under rounds won. A score column appears only when some
    group plays under its rule, and is NaN in the groups that do not (and in a group that mixes rules); the rule
    comes from ``scoring``, a ``rules.scoring`` column or the pairs table (see :mod:`kemps_sim.stats._scoring`).
    ``ci_level`` is the confidence level of the intervals. Metric names are those of ``call_accuracy``,
    ``call_timings``, ``scores`` and ``compare``.

    The ``pairs`` table is required; ``calls``, ``fours`` and ``matches`` are optional and their columns are NaN
    (or absent, for ``failures``) without them.
    """
    by, confidence = as_by(by), check_confidence(confidence)
    if "pairs" not in tables:
        raise ConfigError(f"summary_table needs the 'pairs' table; tables given: {', '.join(map(str, tables))}")
    # Each statistic checks the columns it reads itself; these checks cover what the summary reads directly.
    given_calls, given_fours = tables.get("calls", pd.DataFrame()), tables.get("fours", pd.DataFrame())
    pairs = require(tables["pairs"], "pairs", by, ("pair", "rounds"))
    calls = require(given_calls, "calls", by, ())
    fours = require(given_fours, "fours", by, ())
    matches = tables.get("matches")
    if matches is not None:
        matches = require(matches, "matches", by, ("end_reason",))

    first_pair = pairs[pairs["pair"] == 0]
    played = split(first_pair, by)
    finished = split(matches, by) if matches is not None else {}
    wins = _lookup(win_rates(tables["pairs"], by, confidence), by, "pair")
    accuracy = _lookup(call_accuracy(given_calls, given_fours, by, confidence), by, "metric")
    timings = _lookup(call_timings(given_calls, by, confidence=confidence), by, "measure")
    standings = _lookup(scores(tables["pairs"], by, confidence)[lambda s: s["pair"] == 0], by, "measure")
    keys = group_keys(by, pairs, calls, fours, *([matches] if matches is not None else []))
    parts = SummaryParts(
        keys=keys,
        finished=({key: _finished(finished[key]["end_reason"]) if key in finished else (0, 0) for key in keys}
                  if matches is not None else None),
        played={key: (len(games), float(games["rounds"].mean())) for key, games in played.items()},
        pair_ids=sorted(int(p) for p in pairs["pair"].unique()),
        wins={index: {name: record[name] for name in ("value", "ci_low", "ci_high")} for index, record in wins.items()},
        accuracy={index: record["value"] for index, record in accuracy.items()},
        counted=_call_counts(calls, by),
        medians={key: record["median"] for (key, measure), record in timings.items() if measure == "four_to_call"},
        rules=group_scorings(tables, by, scoring),
        standings={index: record["value"] for index, record in standings.items()})
    return assemble(parts, by, confidence)


@dataclass(frozen=True)
class SummaryParts:
    """What the summary's rows are made of, per group key: from whole tables (:func:`summary_table`) or added up
    chunk by chunk (:mod:`kemps_sim.stats.streamed`); :func:`assemble` turns either into the same table."""

    keys: list[Key]
    #: (matches, failures) per group, or None without a matches table.
    finished: dict[Key, tuple[int, int]] | None
    #: (matches, mean rounds per match) per group with pair-0 rows.
    played: dict[Key, tuple[int, float]]
    pair_ids: list[int]
    #: ``value``, ``ci_low``, ``ci_high`` of each (group, pair)'s win rate.
    wins: dict[tuple[Key, Any], dict[str, float]]
    #: The value of each (group, call-accuracy metric).
    accuracy: dict[tuple[Key, Any], float]
    counted: dict[Key, dict[str, int]]
    #: The median seconds from four of a kind to a right Kemps call, per group.
    medians: dict[Key, float]
    #: Each group's scoring rule (see :func:`kemps_sim.stats._scoring.group_scorings`).
    rules: dict[Key, str | None]
    #: Pair 0's mean of each (group, score measure).
    standings: dict[tuple[Key, Any], float]


def assemble(parts: SummaryParts, by: tuple[str, ...], confidence: float) -> pd.DataFrame:
    """The summary table (see :func:`summary_table`) from its parts."""
    score_columns = {rule: metric.column for rule, metric in score_metrics().items() if rule in parts.rules.values()}
    rows = []
    for key in parts.keys:
        row: dict[str, Any] = group_fields(by, key)
        games = parts.played.get(key)
        if parts.finished is not None:
            row["matches"], row["failures"] = parts.finished[key]
        else:
            row["matches"] = 0 if games is None else games[0]
        row["rounds_per_match"] = games[1] if games is not None else math.nan
        for p, column in zip(parts.pair_ids, _WIN_RATE.columns_for(parts.pair_ids), strict=True):
            estimate = parts.wins.get((key, p), {})
            row[column] = estimate.get("value", math.nan)
            row[f"{column}_ci_low"] = estimate.get("ci_low", math.nan)
            row[f"{column}_ci_high"] = estimate.get("ci_high", math.nan)
        for metric in _ACCURACY:
            row[metric] = parts.accuracy.get((key, metric), math.nan)
        row.update(parts.counted.get(key, dict.fromkeys(_CALL_COUNTS, 0)))
        row["four_to_call_median"] = parts.medians.get(key, math.nan)
        for rule, column in score_columns.items():
            mine = parts.rules.get(key) == rule
            row[column] = parts.standings.get((key, SCORE_OF[rule]), math.nan) if mine else math.nan
        row["ci_level"] = confidence
        rows.append(row)
    return pd.DataFrame(rows, columns=[*by, *_columns(parts, set(score_columns)), "ci_level"])


def _columns(parts: SummaryParts, rules: set[str]) -> list[str]:
    """The summary's columns after the grouping ones, in the registry's order: every summary metric's column (one
    per pair for a ``pairN_`` column, with its interval columns where it has them), ``failures`` only with a
    matches table, and a score only when some group plays under its rule (``rules``)."""
    columns = []
    for metric in SUMMARY_METRICS:
        if metric.name == "failures" and parts.finished is None:
            continue
        if metric.score_of is not None and metric.score_of not in rules:
            continue
        for column in metric.columns_for(parts.pair_ids):
            columns += [column, *(column + suffix for suffix in _CI)] if metric.summary_ci else [column]
    return columns


def _finished(reasons: pd.Series) -> tuple[int, int]:
    """How many matches, and how many of them failed."""
    return len(reasons), int(reasons.isin(FAILURES).sum())


def _call_counts(calls: pd.DataFrame, by: tuple[str, ...]) -> dict[Key, dict[str, int]]:
    """Per group, the number of calls of each outcome (see :data:`_CALL_COUNTS`)."""
    if calls.empty or "call" not in calls.columns or "right" not in calls.columns:
        return {}
    kemps = calls["call"].isin(KEMPS_CALLS)
    stop = calls["call"] == "stop_kemps"
    right = calls["right"].astype(bool)
    flags = pd.DataFrame({"kemps_right_calls": kemps & right, "kemps_wrong_calls": kemps & ~right,
                          "stop_right_calls": stop & right, "stop_wrong_calls": stop & ~right}, index=calls.index)
    out = {}
    for key, rows in split(pd.concat([calls[list(by)], flags], axis=1), by).items():
        out[key] = {name: int(rows[name].sum()) for name in _CALL_COUNTS}
    return out


def _lookup(long: pd.DataFrame, by: tuple[str, ...], column: str) -> dict[tuple[Key, Any], dict[str, Any]]:
    """A long output's rows by (group key, value of ``column``)."""
    out = {}
    for record in long.to_dict("records"):
        key = key_of(tuple(record[c] for c in by))
        out[(key, record[column])] = record
    return out


def format_summary(summary: pd.DataFrame, width: int | None = WIDTH) -> str:
    """A fixed-width text rendering of ``summary_table`` (or of a Krepet summary) that fits ``width`` columns.

    Each group is a row, headed by its grouping columns (``rules.double_kemps`` printed as ``double_kemps``: see
    :func:`group_label`); the statistics follow under short labels without spaces (:data:`LABELS`; the CSV keeps
    the full names, and :func:`summary_legend` explains every label). An estimate with interval columns prints as
    ``0.52 [0.45, 0.59]``; shares have two decimals, other numbers two or three significant decimals, missing
    values print as ``-``, and the four call counts as one column ``K+/K-/S+/S-``. When the columns are wider than
    ``width`` they are printed in blocks, one under the other, each headed by the grouping columns again (or, when
    those take half the width, by a group number keyed in the first blocks). ``width=None`` prints one block.
    """
    groups, statistics = _printed_columns(summary)
    if width is not None and groups and _width(groups) > width // 2:
        number = _Column("#", [str(i + 1) for i in range(len(summary))])
        blocks = [*_blocks([number], groups, width), *_blocks([number], statistics, width)]
        return "\n\n".join(_render([number, *block]) for block in blocks)
    return "\n\n".join(_render([*groups, *block]) for block in _blocks(groups, statistics, width))


def summary_legend(summary: pd.DataFrame, width: int = WIDTH) -> list[str]:
    """What every column :func:`format_summary` prints means, as lines of at most ``width`` characters (one entry
    per kind of column, its continuation lines indented): the grouping columns, the counts, the estimates (with
    the intervals' level) and the scores, with the CSV's name of every column printed under a short label."""
    columns = [str(c) for c in summary.columns]
    level = _level(summary)
    entries: list[tuple[int, str]] = [(0, text) for text in [group_legend(summary)] if text]
    for explained, text in _EXPLAINED:
        present = [c for c in explained if c in columns]
        if not present or (explained == _CALL_COUNTS and len(present) < len(explained)):
            continue
        labels = [CALLS_HEADER] if explained == _CALL_COUNTS else [LABELS.get(c, c) for c in present]
        renamed = [c for c in present if LABELS.get(c, c) != c or explained == _CALL_COUNTS]
        names = f" (CSV: {', '.join(renamed)})" if renamed else ""
        entries.append((columns.index(present[0]), f"{', '.join(labels)}{names}: {text}"))
    for metric in _PER_PAIR:
        wins = [c for c in columns if _PATTERNS[metric.name].fullmatch(c)]
        if wins:
            entries.append((columns.index(wins[0]), f"{', '.join(wins)}: {legend_text(metric)}, its "
                                                    f"{level + ' ' if level else ''}{estimator(metric).interval} "
                                                    "interval in brackets"))
    lines = [text for _, text in sorted(entries, key=lambda entry: entry[0])]
    lines.append("'-': nothing to measure (no call or four of a kind of that kind, or a score of another rule)"
                 + (f"; intervals are {level} confidence intervals" if level else ""))
    return [wrapped for line in lines for wrapped in textwrap.wrap(line, width, subsequent_indent="  ")]


def group_legend(summary: pd.DataFrame) -> str | None:
    """What the rows are: ``one row per double_kemps = rules.double_kemps, ...`` (None without grouping columns)."""
    groups = group_columns(summary)
    if not groups:
        return None
    labels = [group_label(column, groups) for column in groups]
    return "one row per " + ", ".join(f"{label} = {column}" if label != column else column
                                      for label, column in zip(labels, groups, strict=True))


def group_columns(summary: pd.DataFrame) -> list[str]:
    """The grouping columns of a summary: those before its count of matches (``matches``, or ``games``)."""
    columns = [str(c) for c in summary.columns]
    first = next((i for i, c in enumerate(columns) if c in ("matches", "games")), 0)
    return columns[:first]


def group_label(column: str, columns: Sequence[str] = ()) -> str:
    """A grouping column's printed label: its name without the part that only says where the value goes
    (``rules.``, ``engine.``, ``profile.``, ``agent.``; ``pair1.agent.caution`` keeps whose parameter it is as
    ``pair1.caution``), or the whole name when that would print two of ``columns`` alike."""
    def short(name: str) -> str:
        parts = name.split(".")
        if len(parts) > 1 and parts[0] in _WHERE:
            parts = parts[1:]
        elif len(parts) > 2 and _WHOSE.fullmatch(parts[0]) and parts[1] in _WHERE:
            parts = [parts[0], *parts[2:]]
        return ".".join(parts)

    label = short(column)
    clash = [other for other in columns if other != column and short(other) == label]
    return column if clash or label in LABELS.values() else label


@dataclass(frozen=True)
class _Column:
    label: str
    values: list[str]

    @property
    def width(self) -> int:
        return max([len(self.label), *map(len, self.values)])


def _printed_columns(summary: pd.DataFrame) -> tuple[list[_Column], list[_Column]]:
    """The grouping columns and the statistics, each as its printed label and values."""
    groups = group_columns(summary)
    skip: set[str] = {"ci_level", *groups}
    statistics = []
    for column in summary.columns:
        name = str(column)
        if name in skip:
            continue
        if name in _CALL_COUNTS:
            if name == _CALL_COUNTS[0] and all(c in summary.columns for c in _CALL_COUNTS):
                statistics.append(_Column(CALLS_HEADER, ["/".join(str(int(summary[c].iloc[i])) for c in _CALL_COUNTS)
                                                         for i in range(len(summary))]))
            elif not all(c in summary.columns for c in _CALL_COUNTS):
                statistics.append(_Column(name, _format_column(summary[column], share=False)))
            continue
        low, high = (f"{name}{suffix}" for suffix in _CI)
        if low in summary.columns and high in summary.columns:
            skip.update((low, high))
            decimals = 2 if _SHARE.search(name) else 3
            statistics.append(_Column(LABELS.get(name, name), [
                "-" if _blank(v) else f"{v:.{decimals}f} [{_fixed(lo, decimals)}, {_fixed(hi, decimals)}]"
                for v, lo, hi in zip(summary[name], summary[low], summary[high], strict=True)]))
        else:
            statistics.append(_Column(LABELS.get(name, name),
                                      _format_column(summary[column], share=bool(_SHARE.search(name)))))
    labelled = [_Column(group_label(c, groups), _format_column(summary[c], share=False)) for c in groups]
    return labelled, statistics


def _width(columns: Sequence[_Column]) -> int:
    return sum(c.width for c in columns) + len(_GAP) * max(0, len(columns) - 1)


def _blocks(head: list[_Column], statistics: list[_Column], width: int | None) -> list[list[_Column]]:
    """The statistics in order, as few to a block as keep each block (after the ``head`` columns) within ``width``
    (a single column wider than that gets a block of its own)."""
    blocks: list[list[_Column]] = [[]]
    for column in statistics:
        if width is not None and blocks[-1] and _width([*head, *blocks[-1], column]) > width:
            blocks.append([])
        blocks[-1].append(column)
    return blocks


def _render(columns: Sequence[_Column]) -> str:
    """The columns side by side, each right-aligned to its widest cell under its label."""
    rows = zip(*([c.label, *c.values] for c in columns), strict=True)
    return "\n".join(_GAP.join(cell.rjust(c.width) for cell, c in zip(row, columns, strict=True)) for row in rows)


def _level(summary: pd.DataFrame) -> str:
    """The confidence level of the summary's intervals as ``95%``, or empty if it does not say."""
    if "ci_level" not in summary.columns or summary["ci_level"].dropna().empty:
        return ""
    levels = summary["ci_level"].dropna().unique()
    return "/".join(f"{100 * float(v):g}%" for v in levels)


def _format_column(values: pd.Series, share: bool) -> list[str]:
    if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
        return ["-" if _blank(v) else str(v) for v in values]
    if pd.api.types.is_integer_dtype(values):
        return [str(int(v)) for v in values]
    numbers = values.to_numpy(dtype=float)
    finite = np.abs(numbers[np.isfinite(numbers)])
    if share:
        decimals = 2
    else:
        largest = float(finite.max()) if len(finite) else 0.0
        decimals = 3 if 0 < largest < 1 else 2 if largest < 100 else 1 if largest < 1000 else 0
    return [_fixed(v, decimals) for v in numbers]


def _fixed(value: Any, decimals: int) -> str:
    return "-" if _blank(value) else f"{float(value):.{decimals}f}"


def _blank(value: Any) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False
