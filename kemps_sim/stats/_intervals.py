"""Point estimates with confidence intervals, each a thin wrapper over ``scipy.stats``.

The wrappers only add what a table of many groups needs: no exception for a group with nothing in it (NaN
instead), no warnings for degenerate samples, and plain floats out.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
from scipy import stats

NAN = math.nan


class Estimate(NamedTuple):
    """A point estimate with its sample size and confidence interval."""

    n: int
    value: float
    ci_low: float
    ci_high: float


@functools.lru_cache(maxsize=4096)
def _wilson_limits(successes: int, trials: int, confidence: float) -> tuple[float, float]:
    # binomtest also computes an exact p-value we do not need, so the limits of a count seen before are reused.
    ci = stats.binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def z_value(confidence: float) -> float:
    """The two-sided normal quantile of a confidence level (1.96 at 0.95)."""
    return float(stats.norm.ppf(0.5 + float(confidence) / 2.0))


def wilson(successes: int, trials: int, confidence: float) -> Estimate:
    """The share ``successes / trials`` with the Wilson score interval from ``scipy.stats.binomtest``.

    Wilson is used because it stays inside [0, 1] and keeps close to its nominal coverage for small ``trials`` and
    shares near 0 or 1, where the normal approximation fails. Zero trials give NaN.
    """
    k, n = int(successes), int(trials)
    if n <= 0:
        return Estimate(0, NAN, NAN, NAN)
    low, high = _wilson_limits(k, n, float(confidence))
    return Estimate(n, k / n, low, high)


def clean(values: Iterable[float]) -> np.ndarray:
    """The values as a float array without NaN."""
    array = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=float)
    return array[~np.isnan(array)]


def mean_t(values: Iterable[float], confidence: float) -> Estimate:
    """The mean of the non-NaN values with its Student t interval from ``scipy.stats.ttest_1samp``.

    A constant sample of two or more gives a zero-width interval at that value (scipy's answer, kept explicit so
    no warning escapes); a single value has no spread to estimate from and gets a NaN interval; none gives NaN.
    """
    x = clean(values)
    n = len(x)
    if n == 0:
        return Estimate(0, NAN, NAN, NAN)
    mean = float(np.mean(x))
    if n == 1:
        return Estimate(1, mean, NAN, NAN)
    if np.ptp(x) == 0:
        return Estimate(n, mean, mean, mean)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ci = stats.ttest_1samp(x, popmean=0.0).confidence_interval(confidence_level=confidence)
    return Estimate(n, mean, float(ci.low), float(ci.high))
