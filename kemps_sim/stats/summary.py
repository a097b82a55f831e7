"""One wide row per group, gathering the headline statistics of a sweep for printing or saving as CSV."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.results import FAILED_END_REASONS
from kemps_sim.stats._groups import Key, as_by, check_confidence, group_fields, group_keys, key_of, require, split
from kemps_sim.stats.rates import call_accuracy, win_rates
from kemps_sim.stats.standings import scores
from kemps_sim.stats.timing import call_timings

#: ``end_reason`` values of the matches table that count as failures: the match did not finish on its own terms.
FAILURES = FAILED_END_REASONS
#: The call-accuracy metrics the summary keeps, in column order.
_ACCURACY = ("kemps_precision", "stop_precision", "conversion_kemps", "conversion_stolen")
_WIN = re.compile(r"^(pair\d+)_win_rate$")
_SHARE = re.compile(r"(_win_rate|_win_low|_win_high|precision|conversion)")
#: Shorter headers for the printed table (the CSV keeps the full column names).
_HEADERS = {"rounds_per_match": "rounds", "kemps_precision": "kemps_right", "stop_precision": "stop_right",
            "conversion_kemps": "fours_kemps", "conversion_stolen": "fours_stolen",
            "four_to_call_median": "four_to_call_s", "letters_pair0": "letters_p0", "points_pair0": "points_p0"}
#: Score columns left out of the printed table when they are zero throughout (points under letters scoring).
_OPTIONAL = ("letters_pair0", "points_pair0")
#: How many calls of each outcome: right and wrong Kemps (Double Kemps included), right and wrong Stop Kemps.
_CALL_COUNTS = ("kemps_right_calls", "kemps_wrong_calls", "stop_right_calls", "stop_wrong_calls")
#: The printed table shows the four counts as one column, ``right/wrong Kemps / right/wrong Stop Kemps``.
CALLS_HEADER = "calls K+/K-/S+/S-"


def summary_table(tables: Mapping[str, pd.DataFrame], by: Sequence[str] = ("cell",),
                  confidence: float = 0.95) -> pd.DataFrame:
    """The headline numbers of each group in one wide row, built from the long outputs of the other functions.

    ``matches`` counts the rows of the ``matches`` table when there is one (finished or not) and otherwise the
    matches in the pairs table; ``failures`` (only with a matches table) counts matches that ended in
    ``agent_error`` or ``crashed``. ``rounds_per_match`` is the mean number of rounds, ``pair{p}_win_rate`` with
    ``pair{p}_win_low``/``pair{p}_win_high`` each pair's win rate and Wilson interval (co-wins count as wins), then
    four call-accuracy shares, the counts of right and wrong Kemps (Double Kemps included) and of right and wrong Stop
    Kemps, the median seconds from four of a kind to a right Kemps call, and pair 0's mean letters and points per
    match. The ``pairs`` table is required; ``calls``, ``fours`` and ``matches`` are optional
    and their columns are NaN (or absent, for ``failures``) without them.
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
    pair_ids = sorted(int(p) for p in pairs["pair"].unique())
    counted = _call_counts(calls, by)

    rows = []
    for key in group_keys(by, pairs, calls, fours, *([matches] if matches is not None else [])):
        row: dict[str, Any] = group_fields(by, key)
        games = played.get(key)
        if matches is not None:
            reasons = finished[key]["end_reason"] if key in finished else pd.Series(dtype=object)
            row["matches"] = len(reasons)
            row["failures"] = int(reasons.isin(FAILURES).sum())
        else:
            row["matches"] = 0 if games is None else len(games)
        row["rounds_per_match"] = float(games["rounds"].mean()) if games is not None else math.nan
        for p in pair_ids:
            estimate = wins.get((key, p), {})
            row[f"pair{p}_win_rate"] = estimate.get("value", math.nan)
            row[f"pair{p}_win_low"] = estimate.get("ci_low", math.nan)
            row[f"pair{p}_win_high"] = estimate.get("ci_high", math.nan)
        for metric in _ACCURACY:
            row[metric] = accuracy.get((key, metric), {}).get("value", math.nan)
        row.update(counted.get(key, dict.fromkeys(_CALL_COUNTS, 0)))
        row["four_to_call_median"] = timings.get((key, "four_to_call"), {}).get("median", math.nan)
        row["letters_pair0"] = standings.get((key, "letters"), {}).get("value", math.nan)
        row["points_pair0"] = standings.get((key, "points"), {}).get("value", math.nan)
        rows.append(row)
    columns = [*by, "matches", *(["failures"] if matches is not None else []), "rounds_per_match",
               *(f"pair{p}_win_{part}" for p in pair_ids for part in ("rate", "low", "high")),
               *_ACCURACY, *_CALL_COUNTS, "four_to_call_median", "letters_pair0", "points_pair0"]
    return pd.DataFrame(rows, columns=columns)


def _call_counts(calls: pd.DataFrame, by: tuple[str, ...]) -> dict[Key, dict[str, int]]:
    """Per group, the number of calls of each outcome (see :data:`_CALL_COUNTS`)."""
    if calls.empty or "call" not in calls.columns or "right" not in calls.columns:
        return {}
    kemps = calls["call"].isin(("kemps", "double_kemps"))
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


def format_summary(summary: pd.DataFrame) -> str:
    """A fixed-width text rendering of ``summary_table``: win rates as ``0.52 [0.45, 0.59]``, shares with two
    decimals, other numbers with two or three significant decimals and missing values as ``-``. Headers are
    shortened (``kemps_right`` for Kemps precision, ``fours_kemps`` for conversion...), and a score column that is
    zero throughout (points under letters scoring) is left out."""
    shown: dict[str, list[str]] = {}
    skip: set[str] = {c for c in _OPTIONAL if c in summary.columns and not summary[c].fillna(0).astype(bool).any()}
    for column in summary.columns:
        name = str(column)
        if name in skip:
            continue
        if name in _CALL_COUNTS:
            if name == _CALL_COUNTS[0] and all(c in summary.columns for c in _CALL_COUNTS):
                shown[CALLS_HEADER] = ["/".join(str(int(summary[c].iloc[i])) for c in _CALL_COUNTS)
                                       for i in range(len(summary))]
            elif not all(c in summary.columns for c in _CALL_COUNTS):
                shown[name] = _format_column(summary[column], share=False)
            continue
        match = _WIN.match(name)
        stem = match.group(1) if match else ""
        low, high = f"{stem}_win_low", f"{stem}_win_high"
        if match and low in summary.columns and high in summary.columns:
            skip.update((low, high))
            shown[f"{stem}_win"] = [
                "-" if _blank(v) else f"{v:.2f} [{_fixed(lo, 2)}, {_fixed(hi, 2)}]"
                for v, lo, hi in zip(summary[name], summary[low], summary[high], strict=True)]
        else:
            shown[_HEADERS.get(name, name)] = _format_column(summary[column], share=bool(_SHARE.search(name)))
    text = pd.DataFrame(shown, index=summary.index, columns=list(shown))
    return text.to_string(index=False)


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
