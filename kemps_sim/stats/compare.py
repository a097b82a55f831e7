"""A test of the difference between two groups of a sweep (two cells, say) on one metric.

Each metric comes with the test that suits its data: Fisher's exact test for shares, Mann–Whitney U for skewed
delays and Welch's t-test for per-match scores. The result also carries both estimates, their difference and an
interval for the difference, so a reader sees the size of an effect beside its p-value.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from kemps_sim.errors import ConfigError
from kemps_sim.stats._groups import Key, as_by, check_confidence, group_keys, is_blank, key_of, require, split, truthy
from kemps_sim.stats._intervals import NAN, clean, newcombe_difference, wilson
from kemps_sim.stats.rates import KEMPS_CALLS
from kemps_sim.stats.timing import kemps_calls

#: The seed of the bootstrap behind the ``four_to_call`` interval, fixed so the same tables give the same answer.
BOOTSTRAP_SEED = 20240601
#: scipy 1.15 renamed the bootstrap's ``random_state`` to ``rng``; use whichever this scipy has.
_RNG_KEYWORD = "rng" if "rng" in inspect.signature(stats.bootstrap).parameters else "random_state"


@dataclass(frozen=True)
class Comparison:
    """The outcome of ``compare``: the two estimates, their difference with its interval, and the test.

    ``difference`` is ``value_a - value_b`` and ``ci_low``/``ci_high`` bound it; ``statistic`` and ``p_value``
    are the test's (two-sided), ``test`` names it, and ``n_a``/``n_b`` are the sample sizes behind each value.
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

    def to_frame(self) -> pd.DataFrame:
        """The comparison as a one-row DataFrame, columns in field order."""
        return pd.DataFrame([asdict(self)])


class _Metric(NamedTuple):
    """What a metric reads: its table and columns, how a group's rows become a sample, and which test applies."""

    table: str
    kind: str  # "share" (Fisher), "ranks" (Mann–Whitney) or "means" (Welch)
    pick: Callable[[pd.DataFrame], pd.Series]
    columns: tuple[str, ...]


def _pair_rows(rows: pd.DataFrame, pair: int) -> pd.DataFrame:
    return rows[rows["pair"] == pair]


def _metrics(pair: int) -> dict[str, _Metric]:
    """The metrics ``compare`` knows, for pair ``pair`` where a metric is about one pair."""
    return {
        "win_rate": _Metric("pairs", "share", lambda rows: truthy(_pair_rows(rows, pair)["won"]), ("pair", "won")),
        "kemps_precision": _Metric("calls", "share",
                                   lambda rows: truthy(rows.loc[rows["call"].isin(KEMPS_CALLS), "right"]),
                                   ("call", "right")),
        "stop_precision": _Metric("calls", "share",
                                  lambda rows: truthy(rows.loc[rows["call"] == "stop_kemps", "right"]),
                                  ("call", "right")),
        "four_to_call": _Metric("calls", "ranks", lambda rows: kemps_calls(rows)["four_to_call"],
                                ("call", "right", "four_to_call")),
        "letters": _Metric("pairs", "means", lambda rows: _pair_rows(rows, pair)["letters"], ("pair", "letters")),
        "points": _Metric("pairs", "means", lambda rows: _pair_rows(rows, pair)["points"], ("pair", "points")),
    }


#: The metrics ``compare`` knows, in the order its error message lists them.
METRICS = tuple(_metrics(0))


def compare(tables: Mapping[str, pd.DataFrame], metric: str, a: Any, b: Any, by: str | Sequence[str] = "cell",
            confidence: float = 0.95, pair: int = 0) -> Comparison:
    """Test whether groups ``a`` and ``b`` (values of the ``by`` column) differ on ``metric``.

    - ``win_rate``: the share of matches pair ``pair`` (0 by default) won, co-wins counting as wins; Fisher's exact
      test on the 2x2 table of wins and losses, its sample odds ratio as ``statistic``.
    - ``kemps_precision``, ``stop_precision``: the share of Kemps (and Double Kemps) or Stop Kemps calls that were
      right; Fisher's exact test likewise.
    - ``four_to_call``: the delay from four of a kind to a right Kemps call; Mann–Whitney U test (``statistic`` is
      U of ``a``), values are medians and the interval of their difference is a percentile bootstrap from
      ``scipy.stats.bootstrap`` with a fixed seed.
    - ``letters``, ``points``: pair ``pair``'s mean per match; Welch's t-test, with scipy's interval of the
      difference of means.

    For the three shares scipy has no interval of a difference of proportions (``scipy.stats.contingency`` offers
    the odds ratio and relative risk only, ``barnard_exact`` a p-value only), so their interval is Newcombe's hybrid
    score interval, built from the two Wilson intervals scipy's ``binomtest`` gives.

    With several ``by`` columns, ``a`` and ``b`` are tuples of values. A group value found in none of the tables,
    or an unknown metric, raises ``ConfigError``; a group with nothing to measure gives NaN.
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
    key_a, key_b = _key(a, by_columns), _key(b, by_columns)
    _check_present(tables, by_columns, (a, key_a), (b, key_b))
    groups = split(table, by_columns)
    empty = table.iloc[:0]
    sample_a = spec.pick(groups.get(key_a, empty))
    sample_b = spec.pick(groups.get(key_b, empty))
    test = {"share": _fisher, "ranks": _mann_whitney, "means": _welch}[spec.kind]
    return Comparison(metric, a, b, **test(sample_a, sample_b, confidence), confidence=confidence)


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


def _fisher(won_a: pd.Series, won_b: pd.Series, confidence: float) -> dict[str, Any]:
    ka, kb = int(won_a.sum()), int(won_b.sum())
    est_a, est_b = wilson(ka, len(won_a), confidence), wilson(kb, len(won_b), confidence)
    low, high = newcombe_difference(est_a, est_b)
    statistic = p_value = NAN
    if est_a.n and est_b.n:
        result = stats.fisher_exact([[ka, est_a.n - ka], [kb, est_b.n - kb]])
        statistic, p_value = float(result.statistic), float(result.pvalue)
    return {"value_a": est_a.value, "value_b": est_b.value, "difference": est_a.value - est_b.value,
            "ci_low": low, "ci_high": high, "statistic": statistic, "p_value": p_value, "test": "fisher_exact",
            "n_a": est_a.n, "n_b": est_b.n}


def _median_difference(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.median(x, axis=axis) - np.median(y, axis=axis)


def _mann_whitney(values_a: pd.Series, values_b: pd.Series, confidence: float) -> dict[str, Any]:
    x, y = clean(values_a.to_numpy(dtype=float)), clean(values_b.to_numpy(dtype=float))
    median_a = float(np.median(x)) if len(x) else NAN
    median_b = float(np.median(y)) if len(y) else NAN
    statistic = p_value = low = high = NAN
    if len(x) and len(y):
        result = stats.mannwhitneyu(x, y, alternative="two-sided")
        statistic, p_value = float(result.statistic), float(result.pvalue)
    if len(x) > 1 and len(y) > 1:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            boot = stats.bootstrap((x, y), _median_difference, vectorized=True, method="percentile",
                                   confidence_level=confidence, n_resamples=9999, batch=500,
                                   **{_RNG_KEYWORD: np.random.default_rng(BOOTSTRAP_SEED)})
        low, high = float(boot.confidence_interval.low), float(boot.confidence_interval.high)
    return {"value_a": median_a, "value_b": median_b, "difference": median_a - median_b, "ci_low": low,
            "ci_high": high, "statistic": statistic, "p_value": p_value, "test": "mannwhitneyu",
            "n_a": len(x), "n_b": len(y)}


def _welch(values_a: pd.Series, values_b: pd.Series, confidence: float) -> dict[str, Any]:
    x, y = clean(values_a.to_numpy(dtype=float)), clean(values_b.to_numpy(dtype=float))
    mean_a = float(np.mean(x)) if len(x) else NAN
    mean_b = float(np.mean(y)) if len(y) else NAN
    statistic = p_value = low = high = NAN
    if len(x) > 1 and len(y) > 1:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            result = stats.ttest_ind(x, y, equal_var=False)
            ci = result.confidence_interval(confidence_level=confidence)
        statistic, p_value, low, high = (float(v) for v in (result.statistic, result.pvalue, ci.low, ci.high))
    return {"value_a": mean_a, "value_b": mean_b, "difference": mean_a - mean_b, "ci_low": low, "ci_high": high,
            "statistic": statistic, "p_value": p_value, "test": "welch_ttest", "n_a": len(x), "n_b": len(y)}

