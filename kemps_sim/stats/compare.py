"""The difference between two groups of a sweep (two cells, say) on one metric, with its interval and a test.

Two things decide how: what a metric's rows are, and whether the two groups are paired.

- **Paired** groups play the same matches: under common random numbers replicate r of every cell plays the same
  seed, so the two groups hold the same set of ``(replicate, seed)``. Each replicate is then one unit, measured
  once in each group, and the difference and its interval come from the units' differences (a paired t-test;
  for medians a bootstrap and a permutation test over units). Luck shared by both sides of a unit cancels, which
  is the point of common random numbers.
- **Unpaired** groups play unrelated matches. A win rate (one row per match) gets Fisher's exact test; a score
  per match Welch's t-test; a share of calls or fours, whose rows are clustered in matches, Newcombe's interval
  from the two groups' clustered Wilson intervals and a Rao–Scott corrected chi-square test; the median delay a
  bootstrap and a permutation test that move whole matches.

A metric that the groups' scoring rule does not score (letters under rounds-won scoring, say) is refused; see
:mod:`kemps_sim.stats._scoring` for where the rule comes from.
"""

from __future__ import annotations

import hashlib
import inspect
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from kemps_sim.errors import ConfigError
from kemps_sim.results import FATES
from kemps_sim.stats._clusters import (
    MATCH,
    Difference,
    clustered_share,
    paired_ratio_difference,
    totals,
    unit_columns,
    unpaired_ratio_difference,
    with_matches,
)
from kemps_sim.stats._groups import Key, as_by, check_confidence, group_keys, is_blank, key_of, require, split, truthy
from kemps_sim.stats._intervals import NAN, Estimate, newcombe_difference, wilson
from kemps_sim.stats._scoring import MIXED, SCORING_COLUMN, group_scorings
from kemps_sim.stats.rates import KEMPS_CALLS

#: The seed behind every resampling here, mixed with a hash of the data: the same tables give the same answer.
BOOTSTRAP_SEED = 20240601
#: Resamples of the bootstraps and permutation tests (a permutation test with fewer arrangements is exact).
RESAMPLES = 9999
#: A p-value below this prints as ``p < 1e-6``.
P_FLOOR = 1e-6
#: What each test is called in a sentence.
TEST_NAMES = {
    "fisher_exact": "Fisher's exact test",
    "welch_ttest": "Welch's t-test",
    "rao_scott_chi2": "chi-square test with Rao–Scott correction for calls clustered in matches",
    "paired_ttest": "paired t-test",
    "sign_test": "exact sign test on the replicates (McNemar's exact test for one match each)",
    "exact_permutation": "exact permutation test",
    "match_permutation": "permutation test moving whole matches, bootstrap of matches",
    "paired_permutation": "permutation test within pairs, bootstrap of pairs",
}


def _rng_keyword(function: Callable[..., Any]) -> str:
    """scipy 1.15 renamed the resampling functions' ``random_state`` to ``rng``; use whichever this scipy has."""
    return "rng" if "rng" in inspect.signature(function).parameters else "random_state"


_BOOTSTRAP_RNG, _PERMUTATION_RNG = _rng_keyword(stats.bootstrap), _rng_keyword(stats.permutation_test)


@dataclass(frozen=True)
class Comparison:
    """The outcome of ``compare`` and ``paired_difference``: two estimates, their difference with its interval and
    standard error, and the test.

    ``difference`` is ``value_a - value_b`` and ``ci_low``/``ci_high`` bound it at level ``confidence``;
    ``statistic`` and ``p_value`` are the test's (two-sided) and ``test`` names it. ``n_a``/``n_b`` count the rows
    behind each value (matches, calls or fours: ``unit`` says which) and ``matches_a``/``matches_b`` the matches
    they came from. ``paired`` says whether the groups were compared unit by unit (the same replicates with the
    same seeds), ``n_pairs`` how many such units there were.
    """

    metric: str
    a: Any
    b: Any
    value_a: float
    value_b: float
    difference: float
    ci_low: float
    ci_high: float
    statistic: float
    p_value: float
    test: str
    n_a: int
    n_b: int
    confidence: float
    se: float = NAN
    paired: bool = False
    n_pairs: int = 0
    matches_a: int = 0
    matches_b: int = 0
    unit: str = "rows"

    def to_frame(self) -> pd.DataFrame:
        """The comparison as a one-row DataFrame, columns in field order."""
        return pd.DataFrame([asdict(self)])


class _Metric(NamedTuple):
    """What a metric reads: its table and columns, which rows count and the value of each, how the rows make one
    estimate, and the scoring rule it needs (None: any)."""

    table: str
    kind: str  # "match_share" (one 0/1 per match), "share" (0/1 rows clustered in matches), "mean", "median"
    select: Callable[[pd.DataFrame], pd.Series]
    value: Callable[[pd.DataFrame], pd.Series]
    columns: tuple[str, ...]
    unit: str
    scoring: str | None = None


def _right(rows: pd.DataFrame) -> pd.Series:
    return truthy(rows["right"])


def _metrics(pair: int) -> dict[str, _Metric]:
    """The metrics ``compare`` knows, for pair ``pair`` where a metric is about one pair."""
    of_pair = (lambda rows: rows["pair"] == pair)  # noqa: E731
    metrics = {
        "win_rate": _Metric("pairs", "match_share", of_pair, lambda rows: truthy(rows["won"]), ("pair", "won"),
                            "matches"),
        "kemps_precision": _Metric("calls", "share", lambda rows: rows["call"].isin(KEMPS_CALLS), _right,
                                   ("call", "right"), "Kemps calls"),
        "stop_precision": _Metric("calls", "share", lambda rows: rows["call"] == "stop_kemps", _right,
                                  ("call", "right"), "Stop Kemps calls"),
    }
    for fate in FATES:
        metrics[f"conversion_{fate}"] = _Metric(
            "fours", "share", lambda rows: pd.Series(True, index=rows.index),
            lambda rows, fate=fate: rows["fate"].astype(str) == fate, ("fate",), "fours of a kind")
    metrics["four_to_call_median"] = _Metric(
        "calls", "median",
        lambda rows: rows["call"].isin(KEMPS_CALLS) & truthy(rows["right"]) & rows["four_to_call"].notna(),
        lambda rows: rows["four_to_call"], ("call", "right", "four_to_call"), "right Kemps calls")
    for score, rule in (("letters", "letters"), ("points", "points"), ("rounds_won", None)):
        metrics[score] = _Metric("pairs", "mean", of_pair, lambda rows, score=score: rows[score],
                                 ("pair", score), "matches", rule)
    return metrics


#: The metrics ``compare`` knows, in the order its error message lists them.
METRICS = tuple(_metrics(0))


def metrics_under(scoring: str | None) -> tuple[str, ...]:
    """The metrics that exist under a scoring rule (all of them when the rule is unknown)."""
    return tuple(name for name, spec in _metrics(0).items()
                 if scoring is None or spec.scoring is None or spec.scoring == scoring)


def compare(tables: Mapping[str, pd.DataFrame], metric: str, a: Any, b: Any, by: str | Sequence[str] = "cell",
            confidence: float = 0.95, pair: int = 0, paired: bool | None = None,
            scoring: str | None = None) -> Comparison:
    """The difference between groups ``a`` and ``b`` (values of the ``by`` column) in ``metric``, tested.

    Metrics: ``win_rate`` (the share of matches pair ``pair`` won, co-wins counting as wins);
    ``kemps_precision``, ``stop_precision`` (the share of Kemps and Double Kemps, or Stop Kemps, calls that were
    right); ``conversion_kemps``, ``conversion_stolen``, ``conversion_uncalled``, ``conversion_broken`` (the share
    of fours of a kind with that fate); ``four_to_call_median`` (the median delay from four of a kind to a right
    Kemps call); ``letters``, ``points``, ``rounds_won`` (pair ``pair``'s mean per match; letters only under
    letters scoring, points only under points scoring, rounds won under every rule, which records them).

    ``paired`` None pairs the groups when they hold the same set of ``(replicate, seed)`` (read from the
    ``matches`` table, else ``pairs``, else the metric's table), as common random numbers make them; True insists
    (an error if they are not pairable), False compares them as independent. Paired, each replicate is a unit and
    everything comes from the units (``se`` is the standard error of the mean per-unit difference, a linearised
    ratio for shares of calls, so 0 for two identical cells):

    - ``win_rate``: the exact sign test on the replicates (McNemar's exact test when each group has one match per
      replicate) and Newcombe's interval for paired proportions (his method 10, with the correlation of the units);
    - shares of calls and fours: the paired t-test on the linearised units and the same Newcombe interval, from
      the two groups' clustered Wilson limits;
    - scores: the paired t-test and its interval (exactly scipy's ``ttest_rel`` with one match per replicate);
    - ``four_to_call_median``: a percentile bootstrap of the units and a permutation test within them.

    Unpaired:

    - ``win_rate``: Fisher's exact test (its sample odds ratio as ``statistic``) and Newcombe's hybrid score
      interval of the difference, from the two Wilson intervals scipy's ``binomtest`` gives;
    - shares of calls and fours: Newcombe's interval from the two clustered Wilson intervals of
      :func:`~kemps_sim.stats.call_accuracy`, and the chi-square test on the pooled share with Rao and Scott's
      first-order correction (divided by the design effect);
    - scores: Welch's t-test and its interval;
    - ``four_to_call_median``: a percentile bootstrap that resamples whole matches in each group, and a
      permutation test that moves whole matches between the groups.

    Resampling uses :data:`RESAMPLES` draws from a generator seeded by :data:`BOOTSTRAP_SEED` and the data. The
    scoring rule comes from ``scoring``, a ``rules.scoring`` column, or the pairs table (see
    :func:`~kemps_sim.stats._scoring.group_scorings`). With several ``by`` columns, ``a`` and ``b`` are tuples. A
    group found in none of the tables, an unknown metric or one the groups' scoring lacks raises ``ConfigError``;
    a group with nothing to measure gives NaN.
    """
    by_columns, confidence = as_by(by), check_confidence(confidence)
    metrics = _metrics(pair)
    if metric not in metrics:
        raise ConfigError(f"metric: {metric!r} is not known; allowed: {', '.join(METRICS)}")
    spec = metrics[metric]
    name = spec.table
    if name not in tables:
        raise ConfigError(f"metric {metric!r} needs the {name!r} table; tables given: {', '.join(map(str, tables))}")
    table = require(tables[name], name, by_columns, spec.columns)
    if "pair" in spec.columns and len(table) and pair not in set(table["pair"].astype(int)):
        known = ", ".join(str(p) for p in sorted(set(table["pair"].astype(int))))
        raise ConfigError(f"pair {pair!r}: no such pair in the pairs table; pairs are {known}")
    key_a, key_b = _key(a, by_columns), _key(b, by_columns)
    _check_present(tables, by_columns, (a, key_a), (b, key_b))
    _check_scoring(tables, by_columns, metric, spec, scoring, (a, key_a), (b, key_b))
    groups = split(with_matches(table), by_columns)
    empty = with_matches(table.iloc[:0])
    rows_a, rows_b = (_chosen(groups.get(key, empty), spec) for key in (key_a, key_b))
    units = _pairing(tables, name, by_columns, (a, key_a), (b, key_b), paired)
    if units is not None:
        outcome = _paired(rows_a, rows_b, units, spec.kind, confidence)
    else:
        kind = spec.kind
        if kind == "match_share" and any(rows[MATCH].duplicated().any() for rows in (rows_a, rows_b)):
            kind = "share"  # several cells of a group share seeds (common random numbers): cluster them too
        outcome = {"match_share": _fisher, "share": _clustered_shares, "mean": _welch,
                   "median": _median_by_matches}[kind](rows_a, rows_b, confidence)
    return Comparison(metric, a, b, **outcome, confidence=confidence, paired=units is not None,
                      n_pairs=len(units[1]) if units is not None else 0, unit=spec.unit)


def paired_difference(table: pd.DataFrame | Mapping[str, pd.DataFrame], by: str | Sequence[str], a: Any, b: Any,
                      metric: str, confidence: float = 0.95, pair: int = 0, paired: bool | None = None,
                      scoring: str | None = None) -> Comparison:
    """The difference ``a - b`` in ``metric`` between two groups, paired replicate by replicate when they can be.

    ``metric`` is one of :data:`METRICS` (then ``table`` is that metric's table, or a mapping of tables, and this
    is :func:`compare`), or any numeric or true/false column of ``table``, whose mean over the group's rows is
    compared (filter the rows first: the pairs table holds one row per pair). The result's ``difference``,
    ``se``, ``ci_low``/``ci_high``, ``n_pairs`` and ``paired`` answer the question; ``paired`` None pairs the
    groups when both hold the same set of ``(replicate, seed)``, as under common random numbers, True insists and
    False compares them as independent (to see what pairing saved).

    For a column, paired, the standard error is that of the mean per-replicate difference (rows of one replicate
    pooled, a linearised ratio when a replicate has several rows) with a t interval on ``pairs - 1`` degrees of
    freedom: with one row per replicate and group, exactly the paired t-test, so two identical cells give a
    standard error of 0. Unpaired, each side's variance is clustered by match and the test is Welch's.
    """
    if isinstance(table, Mapping):
        return compare(table, metric, a, b, by, confidence, pair, paired, scoring)
    if metric in METRICS:
        return compare({_metrics(pair)[metric].table: table}, metric, a, b, by, confidence, pair, paired, scoring)
    by_columns, confidence = as_by(by), check_confidence(confidence)
    table = require(table, "given", by_columns, (metric,))
    key_a, key_b = _key(a, by_columns), _key(b, by_columns)
    _check_present({"given": table}, by_columns, (a, key_a), (b, key_b))
    values = table[metric]
    if not (pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values)):
        raise ConfigError(f"metric {metric!r}: not a known metric ({', '.join(METRICS)}) nor a numeric column")
    rows = with_matches(table).assign(_value=pd.to_numeric(values).astype(float))
    rows = rows[rows["_value"].notna()]
    groups = split(rows, by_columns)
    empty = rows.iloc[:0]
    rows_a, rows_b = groups.get(key_a, empty), groups.get(key_b, empty)
    units = _pairing({"given": table}, "given", by_columns, (a, key_a), (b, key_b), paired)
    if units is not None:
        outcome = _paired(rows_a, rows_b, units, "mean", confidence)
    else:
        outcome = _ratio_outcome(unpaired_ratio_difference(_match_totals(rows_a), _match_totals(rows_b), confidence),
                                 rows_a, rows_b)
    return Comparison(metric, a, b, **outcome, confidence=confidence, paired=units is not None,
                      n_pairs=len(units[1]) if units is not None else 0)


def format_p(p_value: float) -> str:
    """A p-value as text: ``p < 1e-6`` below that, otherwise two significant digits (``p = 0.043``)."""
    if p_value is None or math.isnan(p_value):
        return "p not defined"
    if p_value < P_FLOOR:
        return f"p < {P_FLOOR:.0e}".replace("e-06", "e-6")
    return f"p = {float(f'{p_value:.2g}'):g}"


def format_comparison(result: Comparison, by: str | Sequence[str] = "cell") -> str:
    """A comparison as four lines: the metric, both groups and whether they were paired; each group's value and
    what it rests on; the difference with its interval (its level said) and the test with its p-value."""
    column = ", ".join(as_by(by))
    level = f"{100 * result.confidence:g}%"
    design = (f"paired: the same {result.n_pairs} replicates with the same seeds in both groups"
              if result.paired else "unpaired: the groups play different matches")
    lines = [f"{result.metric} by {column}: A = {result.a!r} vs B = {result.b!r} ({design})"]
    for label, value, n, matches in (("A", result.value_a, result.n_a, result.matches_a),
                                     ("B", result.value_b, result.n_b, result.matches_b)):
        where = f" in {matches} matches" if result.unit != "matches" and matches else ""
        lines.append(f"  {label} ({getattr(result, label.lower())!r}): {_number(value)} "
                     f"(n = {n} {result.unit}{where})")
    interval = f"{level} CI [{_number(result.ci_low, signed=True)}, {_number(result.ci_high, signed=True)}]"
    spec = _metrics(0).get(result.metric)
    if spec is not None and spec.kind in ("match_share", "share"):
        interval += " (Newcombe, from Wilson limits" + (" clustered by match)" if spec.kind == "share" else ")")
    else:
        interval += f", SE {_number(result.se)}"
    lines.append(f"  A - B = {_number(result.difference, signed=True)}, {interval}; "
                 f"{TEST_NAMES.get(result.test, result.test)}: {format_p(result.p_value)}")
    return "\n".join(lines)


def _number(value: float, signed: bool = False) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:+#.3g}" if signed else f"{value:#.3g}"


# --- groups, scoring and pairing ---------------------------------------------------------------------------------

def _key(value: Any, by: tuple[str, ...]) -> Key:
    key = key_of(value if len(by) > 1 else (value,))
    if len(key) != len(by):
        raise ConfigError(f"group {value!r} does not give one value per grouping column {', '.join(by)}")
    return key


def _check_present(tables: Mapping[str, pd.DataFrame], by: tuple[str, ...], *groups: tuple[Any, Key]) -> None:
    usable = [t for t in tables.values() if not is_blank(t) and all(column in t.columns for column in by)]
    known = group_keys(by, *usable)
    for value, key in groups:
        if key not in known:
            shown = ", ".join(repr(k[0] if len(k) == 1 else k) for k in known[:20])
            more = ", ..." if len(known) > 20 else ""
            raise ConfigError(f"group {value!r} of {', '.join(by)} is in none of the tables; groups: {shown}{more}")


def _check_scoring(tables: Mapping[str, pd.DataFrame], by: tuple[str, ...], metric: str, spec: _Metric,
                   scoring: str | None, *groups: tuple[Any, Key]) -> None:
    """Refuse a metric that the scoring rule of either group does not score, in one line."""
    if spec.scoring is None:
        return
    rules = group_scorings(tables, by, scoring)
    for value, key in groups:
        rule = rules.get(key)
        where = f"group {value!r} of {', '.join(by)}"
        if rule == MIXED:
            if spec.scoring is not None:
                raise ConfigError(f"metric {metric!r}: {where} mixes scoring rules, and {metric} is scored only "
                                  f"under scoring = {spec.scoring}; group by {SCORING_COLUMN} as well")
        elif rule is not None and spec.scoring is not None and rule != spec.scoring:
            raise ConfigError(f"metric {metric!r} is not scored under scoring = {rule} ({where}); allowed under "
                              f"{rule}: {', '.join(metrics_under(rule))}")


def _pairing(tables: Mapping[str, pd.DataFrame], metric_table: str, by: tuple[str, ...],
             first: tuple[Any, Key], second: tuple[Any, Key],
             wanted: bool | None) -> tuple[tuple[str, ...], list[Key]] | None:
    """The unit columns and the units (sorted) when the groups hold the same ``(replicate, seed)`` set, else None.

    The sets are read from the ``matches`` table when there is one (it lists every match, also one that left no
    row in the metric's table), else the ``pairs`` table, else the metric's own table; the metric's table must
    have the same unit columns, or its rows could not be matched to the units.
    """
    if wanted is False:
        return None
    own = unit_columns(tables[metric_table])
    source = next((tables[n] for n in ("matches", "pairs", metric_table) if n in tables
                   and not is_blank(tables[n]) and all(c in tables[n].columns for c in by)
                   and unit_columns(tables[n]) and set(unit_columns(tables[n])) <= set(own)), None)
    sets: list[set[Key]] = [set(), set()]
    columns: tuple[str, ...] = ()
    if source is not None:
        columns = unit_columns(source)
        groups = split(source, by)
        for i, (_, key) in enumerate((first, second)):
            rows = groups.get(key)
            if rows is not None:
                sets[i] = {key_of(u) for u in rows[list(columns)].drop_duplicates().itertuples(index=False, name=None)}
    if sets[0] and sets[0] == sets[1]:
        return columns, sorted(sets[0], key=lambda u: tuple(str(v) for v in u))
    if wanted:
        why = ("the tables have no seed column" if source is None
               else f"they do not hold the same replicates with the same seeds ({len(sets[0])} and {len(sets[1])} "
                    "matches; common random numbers give every cell replicate r's seed)")
        raise ConfigError(f"paired: groups {first[0]!r} and {second[0]!r} of {', '.join(by)} cannot be paired: {why}")
    return None


def _chosen(rows: pd.DataFrame, spec: _Metric) -> pd.DataFrame:
    """The rows the metric counts, with their values in ``_value`` (float, NaN rows dropped)."""
    chosen = rows[spec.select(rows).to_numpy(dtype=bool)] if len(rows) else rows
    values = spec.value(chosen) if len(chosen) else pd.Series(dtype=float)
    chosen = chosen.assign(_value=pd.to_numeric(values, errors="coerce").astype(float).to_numpy())
    return chosen[chosen["_value"].notna()]


def _match_totals(rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    return totals(rows["_value"].to_numpy(), rows[MATCH].to_numpy())


def _matches(rows: pd.DataFrame) -> int:
    """How many matches the rows came from: distinct (cell, replicate, seed), so that two cells of one group that
    share a seed (common random numbers) count as two matches here, though as one cluster in the variance."""
    if not len(rows):
        return 0
    columns = [c for c in ("cell", *unit_columns(rows)) if c in rows.columns] if unit_columns(rows) else []
    return len(rows[columns].drop_duplicates()) if columns else int(rows[MATCH].nunique())


# --- paired ------------------------------------------------------------------------------------------------------

def _unit_index(rows: pd.DataFrame, columns: tuple[str, ...], units: list[Key]) -> np.ndarray:
    """Each row's position in ``units``, -1 for a row of a unit not listed."""
    where = {unit: i for i, unit in enumerate(units)}
    return np.array([where.get(key_of(u), -1) for u in rows[list(columns)].itertuples(index=False, name=None)],
                    dtype=int)


def _paired(rows_a: pd.DataFrame, rows_b: pd.DataFrame, units: tuple[tuple[str, ...], list[Key]], kind: str,
            confidence: float) -> dict[str, Any]:
    columns, listed = units
    count = len(listed)
    index_a, index_b = _unit_index(rows_a, columns, listed), _unit_index(rows_b, columns, listed)
    if kind == "median":
        return _median_by_units(rows_a, rows_b, index_a, index_b, count, confidence)
    sums = []
    for rows, index in ((rows_a, index_a), (rows_b, index_b)):
        keep = index >= 0
        values = rows["_value"].to_numpy()[keep]
        sums.append((np.bincount(index[keep], weights=values, minlength=count),
                     np.bincount(index[keep], minlength=count).astype(float)))
    outcome = _ratio_outcome(paired_ratio_difference(sums[0], sums[1], confidence), rows_a, rows_b)
    if kind in ("match_share", "share"):
        outcome.update(_paired_share_interval(rows_a, rows_b, sums[0], sums[1], confidence))
        if kind == "match_share":
            outcome.update(_sign_test(sums[0], sums[1]))
    return outcome


def _paired_share_interval(rows_a: pd.DataFrame, rows_b: pd.DataFrame, a: tuple[np.ndarray, np.ndarray],
                           b: tuple[np.ndarray, np.ndarray], confidence: float) -> dict[str, float]:
    """Newcombe's (1998) interval for a difference of paired proportions (his method 10), on clustered limits.

    Each side of the difference widens by the matching half-widths of the two groups' clustered Wilson intervals
    (:func:`~kemps_sim.stats._clusters.clustered_share`), combined with the correlation ``phi`` of the two groups'
    per-unit residuals ``(y_r - R t_r) / T``: ``DL^2 = (p_a - l_a)^2 - 2 phi (p_a - l_a)(u_b - p_b) + (u_b - p_b)^2``
    and the mirror image for ``DU``. With one 0/1 value per unit and group, ``phi`` is the phi coefficient of the
    paired 2x2 table and this is Newcombe's method exactly. Unlike a t interval it stays honest at shares of 0 or
    1, where the units' differences have no spread.
    """
    found = [clustered_share(rows["_value"].to_numpy(), rows[MATCH].to_numpy(), confidence)
             for rows in (rows_a, rows_b)]
    est_a, est_b = found
    if not est_a.n or not est_b.n:
        return {"ci_low": NAN, "ci_high": NAN}
    residuals = [(y - (y.sum() / t.sum()) * t) / t.sum() for y, t in (a, b)]
    spread = math.sqrt(float((residuals[0] ** 2).sum() * (residuals[1] ** 2).sum()))
    phi = float((residuals[0] * residuals[1]).sum()) / spread if spread > 0 else 0.0
    phi = min(1.0, max(-1.0, phi))
    difference = est_a.value - est_b.value
    below = (est_a.value - est_a.ci_low, est_b.ci_high - est_b.value)
    above = (est_a.ci_high - est_a.value, est_b.value - est_b.ci_low)
    low = difference - math.sqrt(max(0.0, below[0] ** 2 - 2 * phi * below[0] * below[1] + below[1] ** 2))
    high = difference + math.sqrt(max(0.0, above[0] ** 2 - 2 * phi * above[0] * above[1] + above[1] ** 2))
    return {"ci_low": max(-1.0, low), "ci_high": min(1.0, high)}


def _sign_test(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> dict[str, Any]:
    """The exact sign test on the units' differences: with one 0/1 value per unit and group, the exact McNemar
    test (a binomial test of the units that favour A among those that differ)."""
    (ya, ta), (yb, tb) = a, b
    both = (ta > 0) & (tb > 0)
    differences = ya[both] / ta[both] - yb[both] / tb[both]
    favour_a, differ = int((differences > 1e-12).sum()), int((np.abs(differences) > 1e-12).sum())
    p_value = float(stats.binomtest(favour_a, differ).pvalue) if differ else 1.0
    return {"statistic": float(favour_a), "p_value": p_value, "test": "sign_test"}


def _ratio_outcome(found: Difference, rows_a: pd.DataFrame, rows_b: pd.DataFrame) -> dict[str, Any]:
    return {"value_a": found.value_a, "value_b": found.value_b, "difference": found.difference,
            "ci_low": found.ci_low, "ci_high": found.ci_high, "statistic": found.statistic,
            "p_value": found.p_value, "test": found.test, "n_a": len(rows_a), "n_b": len(rows_b), "se": found.se,
            "matches_a": _matches(rows_a), "matches_b": _matches(rows_b)}


# --- unpaired ----------------------------------------------------------------------------------------------------

def _fisher(rows_a: pd.DataFrame, rows_b: pd.DataFrame, confidence: float) -> dict[str, Any]:
    won_a, won_b = rows_a["_value"].to_numpy(), rows_b["_value"].to_numpy()
    ka, kb = int(won_a.sum()), int(won_b.sum())
    est_a, est_b = wilson(ka, len(won_a), confidence), wilson(kb, len(won_b), confidence)
    low, high = newcombe_difference(est_a, est_b)
    statistic = p_value = se = NAN
    if est_a.n and est_b.n:
        result = stats.fisher_exact([[ka, est_a.n - ka], [kb, est_b.n - kb]])
        statistic, p_value = float(result.statistic), float(result.pvalue)
        se = math.sqrt(est_a.value * (1 - est_a.value) / est_a.n + est_b.value * (1 - est_b.value) / est_b.n)
    return {"value_a": est_a.value, "value_b": est_b.value, "difference": est_a.value - est_b.value,
            "ci_low": low, "ci_high": high, "statistic": statistic, "p_value": p_value, "test": "fisher_exact",
            "n_a": est_a.n, "n_b": est_b.n, "se": se, "matches_a": _matches(rows_a), "matches_b": _matches(rows_b)}


def _clustered_shares(rows_a: pd.DataFrame, rows_b: pd.DataFrame, confidence: float) -> dict[str, Any]:
    """Newcombe's interval from the two clustered Wilson intervals; Rao–Scott's corrected chi-square test.

    The first-order Rao–Scott statistic is Pearson's chi-square of the 2x2 table (pooled share ``P``) with each
    group's binomial variance multiplied by its design effect: ``D^2 / (P (1 - P) (d_a / n_a + d_b / n_b))`` on
    one degree of freedom. With design effects of 1 it is Pearson's chi-square.
    """
    found = [clustered_share(rows["_value"].to_numpy(), rows[MATCH].to_numpy(), confidence)
             for rows in (rows_a, rows_b)]
    est_a, est_b = found
    low, high = newcombe_difference(*(Estimate(e.n, e.value, e.ci_low, e.ci_high) for e in found))
    statistic = p_value = se = NAN
    if est_a.n and est_b.n:
        pooled = (est_a.value * est_a.n + est_b.value * est_b.n) / (est_a.n + est_b.n)
        spread = pooled * (1 - pooled) * (est_a.design_effect / est_a.n + est_b.design_effect / est_b.n)
        difference = est_a.value - est_b.value
        statistic = difference**2 / spread if spread > 0 else 0.0
        p_value = float(stats.chi2.sf(statistic, 1)) if spread > 0 else 1.0
        se = math.sqrt(sum(e.design_effect * e.value * (1 - e.value) / e.n for e in found))
    return {"value_a": est_a.value, "value_b": est_b.value, "difference": est_a.value - est_b.value,
            "ci_low": low, "ci_high": high, "statistic": statistic, "p_value": p_value, "test": "rao_scott_chi2",
            "n_a": est_a.n, "n_b": est_b.n, "se": se, "matches_a": _matches(rows_a), "matches_b": _matches(rows_b)}


def _welch(rows_a: pd.DataFrame, rows_b: pd.DataFrame, confidence: float) -> dict[str, Any]:
    """Welch's t-test on the per-match values (one row per match); the same as scipy's ``ttest_ind``."""
    found = unpaired_ratio_difference(_match_totals(rows_a), _match_totals(rows_b), confidence)
    return _ratio_outcome(found, rows_a, rows_b)


# --- medians: resampling whole matches or whole units ------------------------------------------------------------

class _Pooled:
    """The values of many clusters, so that the median of any choice of clusters (with repeats) comes fast.

    A choice of clusters pools their values; a cluster chosen twice counts twice. ``medians`` takes a batch of
    choices at once (one per row) and finds each pooled median as a weighted median over the sorted values.
    """

    def __init__(self, clusters: list[np.ndarray]) -> None:
        values = np.concatenate(clusters) if clusters else np.zeros(0)
        owner = np.repeat(np.arange(len(clusters)), [len(c) for c in clusters])
        order = np.argsort(values, kind="stable")
        self.sorted, self.owner, self.count = values[order], owner[order], len(clusters)
        # Rows of a batch: at most about two million weights in memory at once.
        self.batch = max(1, min(1000, 2_000_000 // max(1, len(values))))

    def medians(self, chosen: np.ndarray) -> np.ndarray:
        """The pooled median of each row of ``chosen`` (cluster numbers on the last axis); NaN for no values."""
        chosen = np.asarray(chosen)
        rows = chosen.reshape(-1, chosen.shape[-1]).astype(int)
        out = np.full(len(rows), NAN)
        for start in range(0, len(rows), self.batch):
            part = rows[start:start + self.batch]
            times = np.zeros((len(part), self.count))
            np.add.at(times, (np.arange(len(part))[:, None], part), 1.0)
            running = np.cumsum(times[:, self.owner], axis=1)
            total = running[:, -1] if running.shape[1] else np.zeros(len(part))
            low = np.argmax(running >= ((total + 1) // 2)[:, None], axis=1)
            high = np.argmax(running >= (total // 2 + 1)[:, None], axis=1)
            found = (self.sorted[low] + self.sorted[high]) / 2 if len(self.sorted) else np.full(len(part), NAN)
            out[start:start + len(part)] = np.where(total > 0, found, NAN)
        return out.reshape(chosen.shape[:-1])

    def median(self, chosen: np.ndarray) -> float:
        return float(self.medians(np.asarray(chosen)))


def _rng(*arrays: np.ndarray) -> np.random.Generator:
    digest = hashlib.sha256()
    for array in arrays:
        digest.update(np.ascontiguousarray(array, dtype=float).tobytes())
        digest.update(b"|")
    return np.random.default_rng([BOOTSTRAP_SEED, int.from_bytes(digest.digest()[:8], "little")])


def _resampled(pool: _Pooled, first: np.ndarray, second: np.ndarray, paired: bool,
               confidence: float) -> tuple[float, float, float, float, float]:
    """Interval, standard error, statistic and p of the median difference by bootstrap and permutation test."""
    def difference(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
        return pool.medians(np.moveaxis(x, axis, -1)) - pool.medians(np.moveaxis(y, axis, -1))

    observed = float(difference(first, second))
    low = high = se = p_value = NAN
    rng = _rng(pool.sorted, pool.owner, first, second)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if len(first) and len(second) and not math.isnan(observed):
            test = stats.permutation_test((first, second), difference, vectorized=True, n_resamples=RESAMPLES,
                                          permutation_type="samples" if paired else "independent",
                                          batch=pool.batch, **{_PERMUTATION_RNG: rng})
            p_value = float(test.pvalue)
        if len(first) > 1 and len(second) > 1 and not math.isnan(observed):
            if paired:
                shift = int(second[0] - first[0])
                boot = stats.bootstrap((first,), lambda x, axis=-1: difference(x, x + shift, axis),
                                       vectorized=True, n_resamples=RESAMPLES, method="percentile",
                                       confidence_level=confidence, batch=pool.batch, **{_BOOTSTRAP_RNG: rng})
            else:
                boot = stats.bootstrap((first, second), difference, vectorized=True, n_resamples=RESAMPLES,
                                       method="percentile", confidence_level=confidence, batch=pool.batch,
                                       **{_BOOTSTRAP_RNG: rng})
            # A resample of only clusters without values has no median: the percentiles skip those resamples.
            drawn = boot.bootstrap_distribution[~np.isnan(boot.bootstrap_distribution)]
            if len(drawn) > 1:
                low, high = (float(v) for v in np.percentile(drawn, [50 * (1 - confidence), 50 * (1 + confidence)]))
                se = float(np.std(drawn, ddof=1))
    return low, high, se, observed, p_value


def _median_by_matches(rows_a: pd.DataFrame, rows_b: pd.DataFrame, confidence: float) -> dict[str, Any]:
    clusters = [np.asarray(values, dtype=float) for rows in (rows_a, rows_b)
                for _, values in rows.groupby(MATCH, sort=True)["_value"]]
    count_a = _matches(rows_a)
    pool = _Pooled(clusters)
    first, second = np.arange(count_a), np.arange(count_a, len(clusters))
    low, high, se, _, p_value = _resampled(pool, first, second, False, confidence)
    median_a, median_b = pool.median(first), pool.median(second)
    return {"value_a": median_a, "value_b": median_b, "difference": median_a - median_b, "ci_low": low,
            "ci_high": high, "statistic": median_a - median_b, "p_value": p_value, "test": "match_permutation",
            "n_a": len(rows_a), "n_b": len(rows_b), "se": se, "matches_a": count_a, "matches_b": _matches(rows_b)}


def _median_by_units(rows_a: pd.DataFrame, rows_b: pd.DataFrame, index_a: np.ndarray, index_b: np.ndarray,
                     count: int, confidence: float) -> dict[str, Any]:
    # Units without a value in either group add nothing to any pooled median; they are left out of the resampling.
    used = np.union1d(index_a[index_a >= 0], index_b[index_b >= 0])
    count = len(used)
    clusters = []
    for rows, index in ((rows_a, index_a), (rows_b, index_b)):
        values = rows["_value"].to_numpy()
        clusters += [values[index == unit] for unit in used]
    pool = _Pooled(clusters)
    first, second = np.arange(count), np.arange(count, 2 * count)
    low, high, se, _, p_value = _resampled(pool, first, second, True, confidence)
    median_a, median_b = pool.median(first), pool.median(second)
    return {"value_a": median_a, "value_b": median_b, "difference": median_a - median_b, "ci_low": low,
            "ci_high": high, "statistic": median_a - median_b, "p_value": p_value, "test": "paired_permutation",
            "n_a": len(rows_a), "n_b": len(rows_b), "se": se, "matches_a": _matches(rows_a),
            "matches_b": _matches(rows_b)}
