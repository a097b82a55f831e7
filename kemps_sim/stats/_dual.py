"""Tests and intervals that come from one statistic each, so that they always agree.

A comparison prints a difference with a ``(1 - alpha)`` interval and a p-value. A reader takes "p < alpha" and "the
interval leaves out 0" as the same claim, so here each pair is built from one statistic ``z(delta)`` of the
hypothesis "the true difference is ``delta``": the p-value is that statistic's at ``delta = 0`` and the interval is
every ``delta`` it does not reject at level ``alpha`` (a test inverted). Then ``p < alpha`` exactly when 0 lies
outside the interval, for every sample:

- :func:`tango` for paired proportions, one 0/1 per unit and group (Tango 1998): at 0 the statistic is McNemar's
  ``(b - c) / sqrt(b + c)``, so the test is McNemar's asymptotic test, which Fagerland, Lydersen and Laake (2013)
  recommend over the exact one;
- :func:`miettinen_nurminen` for two independent proportions (Miettinen and Nurminen 1985), on effective sample
  sizes ``n / d`` when rows are clustered in matches with design effect ``d`` (Rao and Scott's first-order
  correction): at 0 its square is Pearson's chi-square times ``(N - 1) / N``;
- :func:`t_dual` for a difference over its standard error (paired t, Welch);
- :func:`bootstrap_dual` for a bootstrap distribution of the difference (percentile limits read at order
  statistics, p from the share of resampled differences on the far side of 0);
- :func:`constant_dual` for differences without spread: the sign test or exact permutation test and its inversion.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from scipy import optimize, stats

NAN = math.nan
#: A variance under this counts as none (the statistic is then ``difference / floor``, finite and huge).
_VARIANCE_FLOOR = 1e-300


def alpha_of(confidence: float) -> float:
    """The test level that goes with an interval's confidence, ``1 - confidence`` without its rounding error
    (0.05, not 0.050000000000000044, for 0.95), so that a p-value of exactly 0.05 does not count as below it."""
    return round(1.0 - float(confidence), 12)


class Dual(NamedTuple):
    """An interval of a difference and the two-sided test of ``difference = 0`` that agrees with it."""

    ci_low: float
    ci_high: float
    statistic: float
    p_value: float


def invert(z: Callable[[float], float], estimate: float, bounds: tuple[float, float],
           confidence: float) -> tuple[float, float]:
    """The interval ``{delta in bounds : |z(delta)| <= q}`` for the normal quantile ``q`` of ``confidence``.

    ``z(delta)`` must fall through 0 at ``estimate`` as ``delta`` grows. Each limit is a root of ``|z| = q`` on its
    side of the estimate, found with the bracket split at 0, so a limit lies beyond 0 exactly when ``|z(0)| > q``:
    the interval and the test of 0 agree even where the root finder's tolerance would blur them.
    """
    q = float(stats.norm.ppf(0.5 + confidence / 2.0))
    low_bound, high_bound = bounds

    def limit(side: float, bound: float) -> float:
        # side = +1 for the lower limit (z > 0 below the estimate), -1 for the upper one.
        def excess(delta: float) -> float:
            return side * z(delta) - q

        if excess(bound) <= 0.0:
            return bound
        near, far = estimate, bound
        if min(near, far) < 0.0 < max(near, far):
            if excess(0.0) > 0.0:  # 0 is rejected: the limit lies between 0 and the estimate, never on 0
                far = 0.0
                root = float(optimize.brentq(excess, min(near, far), max(near, far), xtol=1e-13, rtol=1e-13))
                return root if root != 0.0 else math.copysign(5e-324, side)
            near = 0.0  # 0 is kept: the limit lies between 0 and the bound
        return float(optimize.brentq(excess, min(near, far), max(near, far), xtol=1e-13, rtol=1e-13))

    return limit(1.0, low_bound), limit(-1.0, high_bound)


def _normal_dual(z: Callable[[float], float], estimate: float, confidence: float) -> Dual:
    statistic = z(0.0)
    low, high = invert(z, estimate, (-1.0, 1.0), confidence)
    return Dual(low, high, statistic, float(2.0 * stats.norm.sf(abs(statistic))))


def tango(favour_a: int, favour_b: int, units: int, confidence: float) -> Dual:
    """Tango's score interval for a difference of paired proportions and McNemar's asymptotic test, which it inverts.

    ``favour_a`` units have a 1 for A and a 0 for B, ``favour_b`` the reverse, of ``units`` in all. With no unit
    that differs the statistic at 0 is 0 / 0, taken as 0 (p = 1).
    """
    b, c, n = float(favour_a), float(favour_b), float(units)
    if n <= 0:
        return Dual(NAN, NAN, NAN, NAN)

    def z(delta: float) -> float:
        # The restricted maximum-likelihood estimate of P(A = 0, B = 1) given the difference delta (Tango 1998).
        a2, b2, c2 = 2.0 * n, -b - c + (2.0 * n - b + c) * delta, -c * delta * (1.0 - delta)
        p01 = (math.sqrt(max(0.0, b2 * b2 - 4.0 * a2 * c2)) - b2) / (2.0 * a2)
        variance = n * (2.0 * p01 + delta * (1.0 - delta))
        top = b - c - n * delta
        return 0.0 if top == 0.0 else top / math.sqrt(max(variance, _VARIANCE_FLOOR))

    return _normal_dual(z, (b - c) / n, confidence)


def restricted_shares(share_a: float, share_b: float, ratio: float, delta: float) -> tuple[float, float]:
    """The maximum-likelihood shares of two independent binomials given ``p_a - p_b = delta``.

    ``ratio`` is ``n_b / n_a``. The closed form of the cubic's root is Farrington and Manning's (1990), the one
    Miettinen and Nurminen's interval uses.
    """
    a = 1.0 + ratio
    b = -(1.0 + ratio + share_a + ratio * share_b + delta * (ratio + 2.0))
    c = delta * delta + delta * (2.0 * share_a + ratio + 1.0) + share_a + ratio * share_b
    d = -share_a * delta * (1.0 + delta)
    v = b**3 / (3.0 * a) ** 3 - b * c / (6.0 * a * a) + d / (2.0 * a)
    u = math.copysign(math.sqrt(max(0.0, b * b / (3.0 * a) ** 2 - c / (3.0 * a))), v)
    if u == 0.0:
        p_a = -b / (3.0 * a)
    else:
        w = (math.pi + math.acos(min(1.0, max(-1.0, v / u**3)))) / 3.0
        p_a = 2.0 * u * math.cos(w) - b / (3.0 * a)
    p_a = min(1.0, max(0.0, p_a))
    return p_a, min(1.0, max(0.0, p_a - delta))


def miettinen_nurminen(share_a: float, n_a: float, share_b: float, n_b: float, confidence: float) -> Dual:
    """Miettinen and Nurminen's score interval for ``p_a - p_b`` and the score test it inverts.

    ``n_a`` and ``n_b`` are the (effective) numbers of independent rows: a group's rows over its design effect when
    they are clustered in matches, which is Rao and Scott's first-order correction of the score statistic. Two
    groups with the same share of 0 or 1 have a statistic of 0 / 0 at 0, taken as 0 (p = 1).
    """
    if not (n_a > 0 and n_b > 0) or math.isnan(share_a) or math.isnan(share_b):
        return Dual(NAN, NAN, NAN, NAN)
    ratio, total = n_b / n_a, n_a + n_b
    correction = total / (total - 1.0) if total > 1.0 else 1.0
    estimate = share_a - share_b

    def z(delta: float) -> float:
        p_a, p_b = restricted_shares(share_a, share_b, ratio, delta)
        variance = (p_a * (1.0 - p_a) / n_a + p_b * (1.0 - p_b) / n_b) * correction
        top = estimate - delta
        return 0.0 if top == 0.0 else top / math.sqrt(max(variance, _VARIANCE_FLOOR))

    return _normal_dual(z, estimate, confidence)


def t_dual(difference: float, se: float, df: float, confidence: float) -> Dual:
    """The t interval ``difference +- t_q se`` on ``df`` degrees of freedom and the t test of 0 (``se > 0``)."""
    q = float(stats.t.ppf(0.5 + confidence / 2.0, df))
    statistic = difference / se
    return Dual(difference - q * se, difference + q * se, statistic, float(2.0 * stats.t.sf(abs(statistic), df)))


def constant_dual(difference: float, p_elsewhere: float, bounds: tuple[float, float], confidence: float) -> Dual:
    """A difference whose units all say the same: the test of any other value gives ``p_elsewhere``.

    That is the sign test on paired units that all differ by ``difference`` (``2 * 0.5 ** units``) or the exact
    permutation test of two groups of matches without spread (``2 / C(G_a + G_b, G_a)``). Inverted, the interval is
    the single value when such a p rejects, and everything within ``bounds`` when it does not; the test of 0 gives
    p = 1 when the difference is 0 and ``p_elsewhere`` otherwise.
    """
    rejects = p_elsewhere < alpha_of(confidence)
    low, high = (difference, difference) if rejects else bounds
    return Dual(low, high, NAN, 1.0 if difference == 0.0 else min(1.0, p_elsewhere))


def bootstrap_dual(drawn: np.ndarray, confidence: float) -> Dual:
    """The percentile interval and the two-sided p of 0 from one bootstrap distribution of a difference.

    With ``B`` resampled differences and ``k`` the fewer of those at or below 0 and those at or above it, p is
    ``2 (k + 1) / (B + 1)`` (at most 1; like a permutation test's, never 0). The limits are the ``(j + 1)``-th
    smallest and largest draws, where ``j`` is the largest whole number with ``2 (j + 1) / (B + 1) < alpha``: the
    lower limit lies above 0 exactly when at most ``j`` draws are at or below 0, that is when p < alpha.
    """
    drawn = np.sort(np.asarray(drawn, dtype=float)[~np.isnan(drawn)])
    count = len(drawn)
    if count < 2:
        return Dual(NAN, NAN, NAN, NAN)
    alpha = alpha_of(confidence)
    far = min(int((drawn <= 0.0).sum()), int((drawn >= 0.0).sum()))

    def p_of(k: int) -> float:
        return min(1.0, 2.0 * (k + 1) / (count + 1))

    # The largest j whose p_of(j) is below alpha, found with the very expression p is computed with.
    j = max(-1, math.ceil(alpha * (count + 1) / 2.0) - 3)
    while p_of(j + 1) < alpha:
        j += 1
    if j < 0:  # too few draws for any p below alpha: the interval keeps 0
        return Dual(min(float(drawn[0]), 0.0), max(float(drawn[-1]), 0.0), NAN, p_of(far))
    return Dual(float(drawn[j]), float(drawn[count - 1 - j]), NAN, p_of(far))
