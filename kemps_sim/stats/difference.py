"""The difference between two groups of a sweep (two cells, say) on one metric, with its interval and a test.

Two things decide how: what a metric's rows are, and whether the two groups are paired.

- **Paired** groups play the same matches: under common random numbers replicate r of every cell plays the same
  seed. A match of group A is paired with the match of group B that has its seed and the same values of every
  other parameter (when the groups pool several cells, ``--by rules.double_kemps`` over a grid that also varies
  the eye, each match meets its twin); where no such twin exists, the replicate (all matches of one seed) is the
  unit. Luck shared by both sides of a unit cancels, which is the point of common random numbers. A win rate of
  matched matches gets McNemar's test and Tango's interval; anything else the paired t-test on the units'
  (linearised) differences and its interval; a median a bootstrap of units.
- **Unpaired** groups play unrelated matches, and the match is the unit. Shares get Miettinen and Nurminen's score
  test and interval (on effective sizes when rows are clustered in matches); a score per match Welch's t-test;
  the median delay a bootstrap that resamples whole matches.

In every case the interval is the set of differences the test does not reject (:mod:`kemps_sim.stats._dual`), so
``p < 1 - confidence`` exactly when the interval leaves out 0. A metric that the groups' scoring rule does not
score (letters under rounds-won scoring, say) is refused; see :mod:`kemps_sim.stats._scoring` for where the rule
comes from.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.stats._clusters import (
    unpaired_ratio_difference,
    with_matches,
)
from kemps_sim.stats._compared import METRICS, _Metric, _metrics, metrics_under
from kemps_sim.stats._difference_tests import (
    match_totals,
    median_by_matches,
    paired_outcome,
    ratio_outcome,
    score_shares,
    welch,
)
from kemps_sim.stats._dual import alpha_of
from kemps_sim.stats._groups import Key, as_by, check_confidence, group_keys, is_blank, key_of, require, split
from kemps_sim.stats._intervals import NAN
from kemps_sim.stats._pairing import paired_fields, pairing
from kemps_sim.stats._scoring import MIXED, SCORING_COLUMN, group_scorings
from kemps_sim.suggest import did_you_mean

#: Stands for a space that wrapping must not break at, until the text is wrapped.
_UNBROKEN = "\u00a0"
#: A p-value below this prints as ``p < 1e-6``.
P_FLOOR = 1e-6
#: What each test is called in a sentence, and the interval that inverts it.
TEST_NAMES = {
    "mcnemar": "McNemar's test",
    "score": "Miettinen-Nurminen score test",
    "rao_scott_score": "Miettinen-Nurminen score test on sizes corrected for clustering in matches (Rao-Scott)",
    "welch_ttest": "Welch's t-test",
    "paired_ttest": "paired t-test",
    "sign_test": "sign test (the units' differences do not vary)",
    "exact_permutation": "exact permutation test (neither group varies)",
    "match_bootstrap": "bootstrap of matches",
    "paired_bootstrap": "bootstrap of the pairs",
}
#: The interval each test gives when inverted, as the text names it.
INTERVAL_NAMES = {
    "mcnemar": "Tango's score interval",
    "score": "Miettinen-Nurminen interval",
    "rao_scott_score": "Miettinen-Nurminen interval",
    "welch_ttest": "Welch's t interval",
    "paired_ttest": "paired t interval",
    "sign_test": "the sign test inverted",
    "exact_permutation": "the permutation test inverted",
    "match_bootstrap": "percentile interval",
    "paired_bootstrap": "percentile interval",
}


@dataclass(frozen=True)
class Comparison:
    """The outcome of ``compare`` and ``paired_difference``: two estimates, their difference with its interval and
    standard error, and the test.

    ``difference`` is ``value_a - value_b`` and ``ci_low``/``ci_high`` bound it at level ``confidence``;
    ``statistic`` and ``p_value`` are the test's (two-sided) and ``test`` names it; the interval is the test
    inverted, so ``p_value < 1 - confidence`` exactly when it leaves out 0. ``n_a``/``n_b`` count the rows behind
    each value (matches, calls or fours: ``unit`` says which) and ``matches_a``/``matches_b`` the matches they came
    from. ``paired`` says whether the groups were compared unit by unit and ``n_pairs`` how many units there were:
    with ``pairing == "match"`` each unit is one match of each group with the same seed and the same ``matched_on``
    values; with ``"replicate"`` it is every match of one seed in each group.
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
    pairing: str = ""
    matched_on: tuple[str, ...] = ()

    def to_frame(self) -> pd.DataFrame:
        """The comparison as a one-row DataFrame, columns in field order."""
        return pd.DataFrame([asdict(self)])


def compare(tables: Mapping[str, pd.DataFrame], metric: str, a: Any, b: Any, by: str | Sequence[str] = "cell",
            confidence: float = 0.95, pair: int = 0, paired: bool | None = None,
            scoring: str | None = None, within: Sequence[str] | None = None) -> Comparison:
    """The difference between groups ``a`` and ``b`` (values of the ``by`` column) in ``metric``, tested.

    Metrics: ``win_rate`` (the share of matches pair ``pair`` won, co-wins counting as wins);
    ``kemps_precision``, ``stop_precision`` (the share of Kemps and Double Kemps, or Stop Kemps, calls that were
    right); ``conversion_kemps``, ``conversion_stolen``, ``conversion_uncalled``, ``conversion_broken`` (the share
    of fours of a kind with that fate); ``four_to_call_median`` (the median delay from four of a kind to a right
    Kemps call); ``letters``, ``points``, ``rounds_won`` (pair ``pair``'s mean per match; letters only under
    letters scoring, points only under points scoring, rounds won under every rule, which records them).

    ``paired`` None pairs the groups when they hold the same set of ``(replicate, seed)`` (read from the
    ``matches`` table, else ``pairs``, else the metric's table), as common random numbers make them; True insists
    (an error if they are not pairable), False compares them as independent. Paired, the unit is a pair of matches
    with the same seed and the same values of the ``within`` columns (the other swept parameters: by default
    ``tables.params`` of a :class:`~kemps_sim.sweep.SweepResults`, else the columns a sweep's tables put between
    ``cell`` and ``replicate``), or, when the groups cannot be matched match by match, a replicate. Everything
    comes from the units (``se`` is the standard error of the mean per-unit difference, a linearised ratio for
    shares of calls, so 0 for two identical cells):

    - ``win_rate`` of matched matches: McNemar's asymptotic test and Tango's score interval, which inverts it;
    - shares of calls and fours, and win rates of replicates: the paired t-test on the linearised units and its
      interval;
    - scores: the paired t-test and its interval (exactly scipy's ``ttest_rel`` with one match per unit);
    - ``four_to_call_median``: a percentile bootstrap of the units, its p from the share of resampled differences
      beyond 0.

    Unpaired (the match is the unit):

    - ``win_rate``: Miettinen and Nurminen's score test and interval;
    - shares of calls and fours: the same on effective sizes (rows over their design effect, as in the clustered
      Wilson intervals of :func:`~kemps_sim.stats.call_accuracy`): Rao and Scott's correction;
    - scores: Welch's t-test and its interval;
    - ``four_to_call_median``: a percentile bootstrap that resamples whole matches in each group, its p as above.

    Units whose differences do not vary at all get the sign test (paired) or the exact permutation test
    (unpaired), inverted. Every interval is its test inverted: ``p_value < 1 - confidence`` exactly when the
    interval leaves out 0.

    ``tables`` maps table names to frames; a :class:`~kemps_sim.sweep.SweepResults` also serves, and then its
    ``params`` are the default ``within``. Resampling uses :data:`RESAMPLES` draws from a generator seeded by
    :data:`BOOTSTRAP_SEED` and the data. The scoring rule comes from ``scoring``, a ``rules.scoring`` column, or
    the pairs table (see :func:`~kemps_sim.stats._scoring.group_scorings`). With several ``by`` columns, ``a``
    and ``b`` are tuples. A group found in none of the tables, an unknown metric or one the groups' scoring lacks
    raises ``ConfigError``; a group with nothing to measure gives NaN.
    """
    if within is None:
        within = getattr(tables, "params", None)
    tables = getattr(tables, "tables", tables)  # a SweepResults: its tables
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
    units = pairing(tables, name, by_columns, (a, key_a), (b, key_b), paired, within)
    if units is not None:
        outcome = paired_outcome(rows_a, rows_b, units[:2], spec.kind, confidence)
    else:
        kind = "share" if spec.kind == "match_share" else spec.kind  # matches of cells sharing seeds cluster
        outcome = {"share": score_shares, "mean": welch, "median": median_by_matches}[kind](rows_a, rows_b,
                                                                                            confidence)
    return Comparison(metric, a, b, **outcome, confidence=confidence, unit=spec.unit, **paired_fields(units))


def paired_difference(table: pd.DataFrame | Mapping[str, pd.DataFrame], by: str | Sequence[str], a: Any, b: Any,
                      metric: str, confidence: float = 0.95, pair: int = 0, paired: bool | None = None,
                      scoring: str | None = None, within: Sequence[str] | None = None) -> Comparison:
    """The difference ``a - b`` in ``metric`` between two groups, paired replicate by replicate when they can be.

    ``metric`` is one of :data:`METRICS` (then ``table`` is that metric's table, or a mapping of tables, and this
    is :func:`compare`), or any numeric or true/false column of ``table``, whose mean over the group's rows is
    compared (filter the rows first: the pairs table holds one row per pair). The result's ``difference``,
    ``se``, ``ci_low``/``ci_high``, ``n_pairs`` and ``paired`` answer the question; ``paired`` None pairs the
    groups when both hold the same set of ``(replicate, seed)``, as under common random numbers, True insists and
    False compares them as independent (to see what pairing saved); units are matched matches where they can be,
    as in :func:`compare` (``within``: the columns a matched pair shares besides its seed).

    For a column, paired, the standard error is that of the mean per-replicate difference (rows of one replicate
    pooled, a linearised ratio when a replicate has several rows) with a t interval on ``pairs - 1`` degrees of
    freedom: with one row per replicate and group, exactly the paired t-test, so two identical cells give a
    standard error of 0. Unpaired, each side's variance is clustered by match and the test is Welch's.
    """
    if isinstance(table, Mapping):
        return compare(table, metric, a, b, by, confidence, pair, paired, scoring, within)
    if metric in METRICS:
        return compare({_metrics(pair)[metric].table: table}, metric, a, b, by, confidence, pair, paired, scoring,
                       within)
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
    units = pairing({"given": table}, "given", by_columns, (a, key_a), (b, key_b), paired, within)
    if units is not None:
        outcome = paired_outcome(rows_a, rows_b, units[:2], "mean", confidence)
    else:
        outcome = ratio_outcome(unpaired_ratio_difference(match_totals(rows_a), match_totals(rows_b), confidence),
                                 rows_a, rows_b)
    return Comparison(metric, a, b, **outcome, confidence=confidence, **paired_fields(units))


def format_p(p_value: float, alpha: float | None = None) -> str:
    """A p-value as text: ``p < 1e-6`` below that, otherwise two significant digits (``p = 0.043``).

    Given ``alpha``, more digits are shown where two would round the p-value onto or across ``alpha``
    (``p = 0.0496`` rather than ``p = 0.05`` at 0.05), so the text stays on the side of ``alpha`` the test is on.
    """
    if p_value is None or math.isnan(p_value):
        return "p not defined"
    if p_value < P_FLOOR:
        return f"p < {P_FLOOR:.0e}".replace("e-06", "e-6")
    for digits in range(2, 9):
        text = f"{p_value:.{digits}g}"
        if alpha is None or ((float(text) < alpha) == (p_value < alpha) and (float(text) != alpha or p_value == alpha)):
            break
    return f"p = {text}"


def design_text(result: Comparison) -> str:
    """What the comparison's units are and how many, in a few words."""
    if not result.paired:
        return "unpaired: the groups play different matches, each match a unit"
    if result.pairing == "replicate":
        return (f"paired by replicate: {result.n_pairs} replicates, each the matches of one seed in both groups")
    same = "the same seed" + (f" and {', '.join(result.matched_on)}" if result.matched_on else "")
    return f"paired: {result.n_pairs} pairs of matches, each pair with {same}"


def _test_units(result: Comparison) -> str:
    if result.paired:
        return f"{result.n_pairs} {'replicates' if result.pairing == 'replicate' else 'pairs of matches'}"
    return f"{result.matches_a} + {result.matches_b} matches"


def format_comparison(result: Comparison, by: str | Sequence[str] = "cell", who: str = "", width: int = 100) -> str:
    """A comparison as four statements, each wrapped to ``width`` columns: the metric (``who``: whose it is, such as
    "pair 0 (collector)"), both groups and the design (its unit and how many); each group's value and what it
    rests on; the difference with its interval (level and method said) and the test with its p-value and the units
    it counted. The interval is the test inverted, so they always agree."""
    column = ", ".join(as_by(by))
    level = f"{100 * result.confidence:g}%"
    of = f" of {who}" if who else ""
    lines = [f"{result.metric}{of} by {column}: A = {result.a!r} vs B = {result.b!r} ({design_text(result)})"]
    for label, value, n, matches in (("A", result.value_a, result.n_a, result.matches_a),
                                     ("B", result.value_b, result.n_b, result.matches_b)):
        where = f" in {matches} matches" if result.unit != "matches" and matches else ""
        lines.append(f"  {label} ({getattr(result, label.lower())!r}): {_number(value)} "
                     f"(n = {n} {result.unit}{where})")
    keep = str.maketrans(" ", _UNBROKEN)  # numbers stay with what they are: "CI [a, b]", "p = x" on one line
    interval = f"{level} CI [{_number(result.ci_low, signed=True)}, {_number(result.ci_high, signed=True)}]"
    interval = interval.translate(keep)
    method = INTERVAL_NAMES.get(result.test)
    interval += f" ({method})" if method else ""
    if not math.isnan(result.se):
        interval += f", SE {_number(result.se)}"
    lines.append(f"  A - B = {_number(result.difference, signed=True)}, {interval}; "
                 f"{TEST_NAMES.get(result.test, result.test)} on {_test_units(result)}: "
                 + format_p(result.p_value, alpha_of(result.confidence)).translate(keep))
    return "\n".join(textwrap.fill(line, width, subsequent_indent="      ", break_long_words=False,
                                   break_on_hyphens=False).replace(_UNBROKEN, " ") for line in lines)


def comparison_sentence(result: Comparison, by: str | Sequence[str] = "cell", who: str = "") -> str:
    """The comparison in one sentence, for the end of a summary: both values, the difference with its interval,
    the test's p-value and the units it counted, and what that says at the interval's level (``who``: whose
    metric it is, such as "pair 0 (collector)")."""
    column = ", ".join(as_by(by))
    of = f" of {who}" if who else ""
    level = f"{100 * result.confidence:g}%"
    verdict = (f"a difference at the {level} level" if result.p_value < alpha_of(result.confidence)
               else f"not told apart from no difference at the {level} level")
    return (f"{result.metric}{of} is {_number(result.value_a)} with {column} = {result.a!r} and "
            f"{_number(result.value_b)} with {column} = {result.b!r}: A - B = "
            f"{_number(result.difference, signed=True)} ({level} CI {_number(result.ci_low, signed=True)} to "
            f"{_number(result.ci_high, signed=True)}; {TEST_NAMES.get(result.test, result.test)} on "
            f"{_test_units(result)}, {format_p(result.p_value, alpha_of(result.confidence))}), {verdict}.")


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


def _chosen(rows: pd.DataFrame, spec: _Metric) -> pd.DataFrame:
    """The rows the metric counts, with their values in ``_value`` (float, NaN rows dropped)."""
    chosen = rows[spec.select(rows).to_numpy(dtype=bool)] if len(rows) else rows
    values = spec.value(chosen) if len(chosen) else pd.Series(dtype=float)
    chosen = chosen.assign(_value=pd.to_numeric(values, errors="coerce").astype(float).to_numpy())
    return chosen[chosen["_value"].notna()]
