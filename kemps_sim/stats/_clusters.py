"""Rows grouped into the matches they came from, and estimates whose intervals count matches, not rows.

The calls, fours of a kind and rounds of one match are not independent draws: the same agents hold the same seats
over the same deals, and an agent that learns carries what it learnt from one round into the next. A share of
calls is therefore a ratio estimator, a sum over matches divided by a count over matches, and its variance is the
cluster-robust (linearisation) variance of that ratio: the spread of the matches' residuals ``s_g - R t_g``, not
the spread of single calls. When the calls of a match agree with one another that variance is several times the
naive binomial one; when they are independent the two agree.

A row's match (its cluster) is its ``(replicate, seed)``: under common random numbers replicate r of every cell
plays the same seed, so rows of two cells with the same seed share their deal and their luck and belong together
in one cluster; otherwise every match has its own seed. A table without a ``seed`` column cannot say which rows
came from one match, and each of its rows counts as a match of its own (the naive reading).
"""

from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from kemps_sim.stats._dual import constant_dual, t_dual
from kemps_sim.stats._intervals import NAN, z_value

#: The values a difference of two means can take, and of two shares.
UNBOUNDED, SHARE_BOUNDS = (-math.inf, math.inf), (-1.0, 1.0)

#: The columns that name the match a row came from (and, across cells, the matches that share a seed).
UNIT_COLUMNS = ("replicate", "seed")
#: The column of match ids that :func:`with_matches` adds.
MATCH = "_match"
#: The estimate columns of an output clustered by match, in order.
CLUSTERED_COLUMNS = ("n", "value", "ci_low", "ci_high", "ci_level", "matches", "design_effect")


class Clustered(NamedTuple):
    """A share or mean over rows, its interval from the variance between matches, and what it rests on.

    ``n`` counts rows (calls, fours, rounds), ``matches`` the independent matches they came from (distinct
    seeds: under common random numbers the cells of a group that share a seed count once), and ``design_effect``
    how many times the naive variance the between-match variance is (at least 1; see :func:`clustered_share`).
    """

    n: int
    value: float
    ci_low: float
    ci_high: float
    matches: int
    design_effect: float

    def fields(self, confidence: float) -> dict[str, float]:
        """The estimate as the :data:`CLUSTERED_COLUMNS` of an output row."""
        return {"n": self.n, "value": self.value, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "ci_level": confidence, "matches": self.matches, "design_effect": self.design_effect}


def unit_columns(table: pd.DataFrame) -> tuple[str, ...]:
    """The columns of :data:`UNIT_COLUMNS` the table has; none when it has no ``seed`` (matches unknown)."""
    if "seed" not in table.columns:
        return ()
    return tuple(c for c in UNIT_COLUMNS if c in table.columns)


def with_matches(table: pd.DataFrame) -> pd.DataFrame:
    """A copy of the table with the column :data:`MATCH`: one integer per match (per row without a ``seed``)."""
    columns = unit_columns(table)
    if not columns or not len(table):
        ids = np.arange(len(table))
    else:
        ids = table.groupby(list(columns), sort=False, dropna=False).ngroup().to_numpy()
    return table.assign(**{MATCH: ids})


def totals(values: np.ndarray, matches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per match: the sum of ``values`` and the number of rows (matches in order of first id)."""
    _, inverse = np.unique(matches, return_inverse=True)
    return (np.bincount(inverse, weights=np.asarray(values, dtype=float)),
            np.bincount(inverse).astype(float))


def between_match_variance(sums: np.ndarray, counts: np.ndarray) -> tuple[float, float]:
    """The ratio ``R = sum(sums) / sum(counts)`` and its linearisation variance ``sum((s - R t)^2) / T^2``.

    This is the cluster-robust variance without the small-sample factor ``G / (G - 1)``, so that with one row per
    match it equals the naive variance of a mean exactly (the small-sample correction is made on the degrees of
    freedom instead; see :func:`clustered_share`).
    """
    total = float(counts.sum())
    ratio = float(sums.sum()) / total
    return ratio, float(((sums - ratio * counts) ** 2).sum()) / total**2


def _korn_graubard(n: int, matches: int, confidence: float) -> float:
    """Korn and Graubard's (1998) factor shrinking an effective sample size for having few matches: the squared
    ratio of the t quantiles on ``n - 1`` and on ``matches - 1`` degrees of freedom (1 when every row is a match)."""
    if matches >= n or matches < 2:
        return 1.0
    q = 0.5 + confidence / 2.0
    return float((stats.t.ppf(q, n - 1) / stats.t.ppf(q, matches - 1)) ** 2)


def wilson_limits(share: float, n_effective: float, confidence: float) -> tuple[float, float]:
    """The Wilson score limits of ``share`` seen on ``n_effective`` trials, which need not be a whole number.

    The formula of ``scipy.stats.binomtest(...).proportion_ci(method="wilson")``, written out because scipy takes
    only whole counts; at whole counts the two agree (see the tests).
    """
    z = z_value(confidence)
    z2n = z * z / n_effective
    centre = (share + z2n / 2.0) / (1.0 + z2n)
    half = z * math.sqrt(share * (1.0 - share) / n_effective + z2n / (4.0 * n_effective)) / (1.0 + z2n)
    # Rounding must not put the share outside its own interval (at 0 or 1 the limit is the share itself).
    return min(share, max(0.0, centre - half)), max(share, min(1.0, centre + half))


def clustered_share(successes: np.ndarray, matches: np.ndarray, confidence: float) -> Clustered:
    """A share of rows (0/1 ``successes``) with a Wilson interval on the effective number of rows.

    The design effect ``d`` is the between-match variance of the share over the naive binomial one, never below 1
    (Korn and Graubard 1998: a chance value under 1 must not make an interval narrower than the naive one). The
    Wilson interval is then taken on ``n / d`` rows, further shrunk by the factor of :func:`_korn_graubard` for a
    variance estimated from few matches. When every row has the same outcome (a share of 0 or 1) the variance
    ratio is 0 / 0 and ``d`` is 1, as in Korn and Graubard and the NCHS standards for proportions; the few-matches
    factor still applies. A single match cannot show any variation between matches and counts as one row
    (``d = n``).
    """
    y = np.asarray(successes, dtype=float)
    n = len(y)
    if n == 0:
        return Clustered(0, NAN, NAN, NAN, 0, NAN)
    sums, counts = totals(y, matches)
    groups = len(sums)
    share, between = between_match_variance(sums, counts)
    naive = share * (1.0 - share) / n
    # One match: nothing to compare it with, so it counts as one row. A share of 0 or 1: 0 / 0, taken as 1.
    effect = float(n) if groups == 1 else (max(1.0, between / naive) if naive > 0.0 else 1.0)
    n_effective = n / effect * _korn_graubard(n, groups, confidence)
    low, high = wilson_limits(share, n_effective, confidence)
    return Clustered(n, share, low, high, groups, effect)


def effective_rows(found: Clustered, confidence: float) -> float:
    """How many independent rows a clustered share is worth: its rows over the design effect, times the
    few-matches factor (the ``n`` its Wilson interval is taken on in :func:`clustered_share`)."""
    if not found.n:
        return 0.0
    return found.n / found.design_effect * _korn_graubard(found.n, found.matches, confidence)


def clustered_mean(values: np.ndarray, matches: np.ndarray, confidence: float) -> Clustered:
    """The mean of the non-NaN ``values`` with a t interval whose variance counts matches.

    The variance is the between-match variance of the mean (never below the naive ``s^2 / n``) and the t quantile
    has ``matches - 1`` degrees of freedom; with one row per match this is exactly the Student t interval. A
    constant sample gets a zero-width interval at its value; a single match or a single row gets NaN.
    """
    x = np.asarray(values, dtype=float)
    keep = ~np.isnan(x)
    x, ids = x[keep], np.asarray(matches)[keep]
    n = len(x)
    if n == 0:
        return Clustered(0, NAN, NAN, NAN, 0, NAN)
    sums, counts = totals(x, ids)
    groups = len(sums)
    mean, between = between_match_variance(sums, counts)
    naive = float(((x - mean) ** 2).sum()) / n**2
    if naive <= 0.0:
        return Clustered(n, mean, mean, mean, groups, 1.0) if n > 1 else Clustered(n, mean, NAN, NAN, groups, NAN)
    effect = max(1.0, between / naive)
    if groups < 2:
        return Clustered(n, mean, NAN, NAN, groups, effect)
    se = math.sqrt(effect * float(np.var(x, ddof=1)) / n)
    q = float(stats.t.ppf(0.5 + confidence / 2.0, groups - 1))
    return Clustered(n, mean, mean - q * se, mean + q * se, groups, effect)


class Difference(NamedTuple):
    """A difference ``value_a - value_b`` of two ratio estimates, its standard error, interval and t test."""

    value_a: float
    value_b: float
    difference: float
    se: float
    ci_low: float
    ci_high: float
    df: float
    statistic: float
    p_value: float
    test: str


def paired_ratio_difference(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray],
                            confidence: float, bounds: tuple[float, float] = UNBOUNDED) -> Difference:
    """The difference of two ratios measured on the same units (matched matches or replicates).

    ``a`` and ``b`` are (sums, counts) per unit, aligned: unit r of ``a`` and of ``b`` played the same seed. The
    variance is the linearisation variance of ``R_a - R_b`` over units, ``G / (G - 1) sum(e_r^2)`` with
    ``e_r = (y_ar - R_a t_ar) / T_a - (y_br - R_b t_br) / T_b``, and the t quantile has ``G - 1`` degrees of
    freedom; with one row per unit in each group this is exactly the paired t-test on the per-unit differences,
    and the interval is that test's. When those differences do not vary (a zero standard error) the t statistic
    does not exist: the sign test on the units and its inversion take over
    (:func:`~kemps_sim.stats._dual.constant_dual`; ``bounds`` are the values a difference can take).
    """
    (ya, ta), (yb, tb) = a, b
    units = len(ya)
    total_a, total_b = float(ta.sum()), float(tb.sum())
    if units == 0 or total_a == 0 or total_b == 0:
        return Difference(NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, "paired_ttest")
    ratio_a, ratio_b = float(ya.sum()) / total_a, float(yb.sum()) / total_b
    difference = ratio_a - ratio_b
    if units < 2:
        return Difference(ratio_a, ratio_b, difference, NAN, NAN, NAN, NAN, NAN, NAN, "paired_ttest")
    residuals = (ya - ratio_a * ta) / total_a - (yb - ratio_b * tb) / total_b
    se = math.sqrt(units / (units - 1) * float((residuals**2).sum()))
    if se < 1e-12 * max(1.0, abs(difference)):
        dual = constant_dual(difference, 2.0 * 0.5**units, bounds, confidence)
        return Difference(ratio_a, ratio_b, difference, 0.0, dual.ci_low, dual.ci_high, units - 1, dual.statistic,
                          dual.p_value, "sign_test")
    dual = t_dual(difference, se, units - 1, confidence)
    return Difference(ratio_a, ratio_b, difference, se, dual.ci_low, dual.ci_high, units - 1, dual.statistic,
                      dual.p_value, "paired_ttest")


def unpaired_ratio_difference(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray],
                              confidence: float, bounds: tuple[float, float] = UNBOUNDED) -> Difference:
    """The difference of two ratios from independent matches.

    Each side's variance is its cluster-robust ``G / (G - 1) sum((y_g - R t_g)^2) / T^2`` and the degrees of
    freedom are Welch–Satterthwaite's; with one row per match this is exactly Welch's t-test, and the interval is
    that test's. Two groups without any spread have no t statistic: the exact permutation test of two fully
    separated groups of matches, ``p = 2 / C(G_a + G_b, G_a)``, and its inversion take over
    (:func:`~kemps_sim.stats._dual.constant_dual`).
    """
    parts = []
    for sums, counts in (a, b):
        groups, total = len(sums), float(counts.sum())
        if groups == 0 or total == 0:
            return Difference(NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, "welch_ttest")
        ratio = float(sums.sum()) / total
        variance = NAN
        if groups > 1:
            variance = groups / (groups - 1) * float(((sums - ratio * counts) ** 2).sum()) / total**2
        parts.append((ratio, variance, groups))
    (ratio_a, var_a, groups_a), (ratio_b, var_b, groups_b) = parts
    difference = ratio_a - ratio_b
    if math.isnan(var_a) or math.isnan(var_b):
        return Difference(ratio_a, ratio_b, difference, NAN, NAN, NAN, NAN, NAN, NAN, "welch_ttest")
    se = math.sqrt(var_a + var_b)
    if se < 1e-12 * max(1.0, abs(difference)):
        dual = constant_dual(difference, 2.0 / math.comb(groups_a + groups_b, groups_a), bounds, confidence)
        return Difference(ratio_a, ratio_b, difference, 0.0, dual.ci_low, dual.ci_high, NAN, dual.statistic,
                          dual.p_value, "exact_permutation")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        df = (var_a + var_b) ** 2 / (var_a**2 / (groups_a - 1) + var_b**2 / (groups_b - 1))
    dual = t_dual(difference, se, df, confidence)
    return Difference(ratio_a, ratio_b, difference, se, dual.ci_low, dual.ci_high, df, dual.statistic,
                      dual.p_value, "welch_ttest")
