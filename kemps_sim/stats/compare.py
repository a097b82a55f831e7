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

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.results import FATES
from kemps_sim.stats._clusters import (
    MATCH,
    unit_columns,
    unpaired_ratio_difference,
    with_matches,
)
from kemps_sim.stats._difference_tests import (
    clustered_shares,
    fisher,
    match_totals,
    median_by_matches,
    paired_outcome,
    ratio_outcome,
    welch,
)
from kemps_sim.stats._groups import Key, as_by, check_confidence, group_keys, is_blank, key_of, require, split, truthy
from kemps_sim.stats._intervals import NAN
from kemps_sim.stats._scoring import MIXED, SCORING_COLUMN, group_scorings
from kemps_sim.stats.rates import KEMPS_CALLS
from kemps_sim.suggest import did_you_mean

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
        raise ConfigError(f"metric: {metric!r} is not known{did_you_mean(metric, METRICS)}; allowed: "
                          f"{', '.join(METRICS)}")
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
        outcome = paired_outcome(rows_a, rows_b, units, spec.kind, confidence)
    else:
        kind = spec.kind
        if kind == "match_share" and any(rows[MATCH].duplicated().any() for rows in (rows_a, rows_b)):
            kind = "share"  # several cells of a group share seeds (common random numbers): cluster them too
        outcome = {"match_share": fisher, "share": clustered_shares, "mean": welch,
                   "median": median_by_matches}[kind](rows_a, rows_b, confidence)
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
        outcome = paired_outcome(rows_a, rows_b, units, "mean", confidence)
    else:
        outcome = ratio_outcome(unpaired_ratio_difference(match_totals(rows_a), match_totals(rows_b), confidence),
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
