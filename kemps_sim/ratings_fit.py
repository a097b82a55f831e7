"""The Bradley–Terry likelihood of a tournament's results: its maximum, with the strategies split where one side
won every match, and profile-likelihood bounds on ratings and their differences (:mod:`kemps_sim.ratings` reports
them)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence

import numpy as np
from scipy import linalg, optimize, sparse, special
from scipy.sparse import csgraph

#: What the ``bound`` column of :func:`kemps_sim.ratings.bradley_terry` says about each interval.
TWO_SIDED, LOWER_ONLY, UPPER_ONLY, UNBOUNDED, REFERENCE = (
    "two-sided", "lower only", "upper only", "unbounded", "reference")


class BradleyTerryFit:
    """Grouped results of a tournament, who beat whom, the maximum likelihood and profile deviances.

    The parameter vector ``beta`` holds the k log-strengths then the seat term ``h`` (pinned at 0 without a
    seat advantage). Row ``i`` of the grouped results is ``n[i]`` matches of ``first[i]`` (pair 0) against
    ``second[i]`` in which pair 0 scored ``w[i]``. The object is immutable once built; pandas deep-copies a
    frame's attrs on every operation, so it hands itself out instead of a copy.
    """

    def __init__(self, names: Sequence[str], first: np.ndarray, second: np.ndarray, n: np.ndarray, w: np.ndarray,
                 seat_advantage: bool) -> None:
        self.names = list(names)
        k = self.k = len(self.names)
        self.first, self.second, self.n, self.w = first, second, n, w
        rows = np.arange(len(n))
        x = np.zeros((len(n), k + 1))
        np.add.at(x, (rows, first), 1.0)
        np.add.at(x, (rows, second), -1.0)  # a match against itself: only the seat term remains
        x[:, k] = 1.0
        self.x = x
        self._groups()
        self.seat_note: str | None = None
        self.seat = bool(seat_advantage)
        if self.seat and not self._seat_identified():
            self.seat = False
            self.seat_note = ("not estimable from these results (every match the ratings leave open went the way "
                              "one seat would explain); ratings fitted without it")
        self._choose_reference()
        fit = self._problem(frozenset(), None)
        self.nll_max, theta = fit.minimize(0.0, None)
        self.beta = fit.beta(0.0, theta)
        self.cov_beta = fit.covariance(theta)

    def __deepcopy__(self, memo: dict) -> BradleyTerryFit:
        return self

    # --- structure -------------------------------------------------------------------------------------------

    def _groups(self) -> None:
        """Strongly connected groups of "scored against" and their order (``reach[g, h]``: g is above or is h)."""
        k, first, second, n, w = self.k, self.first, self.second, self.n, self.w
        cross = first != second
        beat = np.zeros((k, k), dtype=bool)
        beat[first[cross & (w > 0)], second[cross & (w > 0)]] = True  # a shared win is an edge both ways
        beat[second[cross & (w < n)], first[cross & (w < n)]] = True
        m, comp = csgraph.connected_components(sparse.csr_matrix(beat), directed=True, connection="strong")
        step = np.eye(m, dtype=bool)
        step[comp[beat.nonzero()[0]], comp[beat.nonzero()[1]]] = True
        reach = step
        while True:
            wider = (reach.astype(int) @ reach.astype(int)) > 0
            if (wider == reach).all():
                break
            reach = wider
        self.m, self.comp, self.reach = int(m), comp, reach

    def _choose_reference(self) -> None:
        """The largest group; ties: nearest the middle of the order, then most matches, then first name."""
        sizes = np.bincount(self.comp, minlength=self.m)
        cross = self.first != self.second
        played = np.zeros(self.m)
        np.add.at(played, self.comp[self.first[cross]], self.n[cross])
        np.add.at(played, self.comp[self.second[cross]], self.n[cross])

        def key(g: int) -> tuple:
            others = np.arange(self.m) != g
            above = sizes[others & self.reach[:, g]].sum()
            below = sizes[others & self.reach[g, :]].sum()
            first_name = min(self.names[j] for j in np.flatnonzero(self.comp == g))
            return (-sizes[g], abs(int(above) - int(below)), -played[g], first_name)

        self.reference = min(range(self.m), key=key)
        self.reference_members = np.flatnonzero(self.comp == self.reference)

    def _seat_identified(self) -> bool:
        """False when some direction that moves ``h`` never makes any result less likely (a linear programme).

        Along such a direction the likelihood never falls, so ``h`` runs off to ±inf or is not pinned at all.
        """
        won = self.w >= self.n
        lost = self.w <= 0
        mixed = ~(won | lost)
        a_ub = np.vstack([-self.x[won], self.x[lost]])
        h = np.zeros((1, self.k + 1))
        h[0, -1] = 1.0
        a_eq = np.vstack([self.x[mixed], h])
        for sign in (1.0, -1.0):
            b_eq = np.zeros(len(a_eq))
            b_eq[-1] = sign
            result = optimize.linprog(np.zeros(self.k + 1), A_ub=a_ub if len(a_ub) else None,
                                      b_ub=np.zeros(len(a_ub)) if len(a_ub) else None, A_eq=a_eq, b_eq=b_eq,
                                      bounds=[(None, None)] * (self.k + 1), method="highs")
            if result.status == 0:
                return False
        return True

    def _problem(self, fixed: frozenset[int], contrast: np.ndarray | None) -> _Profile:
        """The likelihood to maximise with ``contrast @ beta`` held fixed (None: the unconstrained maximum).

        ``fixed`` are the groups the contrast involves. Groups that are above none of them or below none of them
        can still run off to ±inf, taking the matches between groups with them; what remains are every group's
        own matches and the matches among the groups between the fixed ones. Each group that runs off keeps its
        own internal scale (mean 0), the groups in between share one.
        """
        if fixed:
            ids = list(fixed)
            between = self.reach[ids, :].any(axis=0) & self.reach[:, ids].any(axis=1)
        else:
            between = np.zeros(self.m, dtype=bool)
        inside = between[self.comp]
        rows = (self.comp[self.first] == self.comp[self.second]) | (inside[self.first] & inside[self.second])
        constraints = []
        for g in range(self.m):
            if not between[g]:
                constraints.append(np.append(self.comp == g, 0.0).astype(float))
        if between.any():
            constraints.append(np.append(inside, 0.0).astype(float))
        if not self.seat:
            constraints.append(np.eye(self.k + 1)[-1])
        if contrast is not None:
            constraints.append(contrast)
        return _Profile(self.x[rows], self.n[rows], self.w[rows], np.vstack(constraints), contrast is not None)

    def _direction(self, g_plus: int, g_minus: int) -> float:
        """A contrast between groups: 0 when inside one group (finite), else ±inf by their order, NaN unrelated."""
        if g_plus == g_minus:
            return 0.0
        if self.reach[g_plus, g_minus]:
            return math.inf
        if self.reach[g_minus, g_plus]:
            return -math.inf
        return math.nan

    # --- estimates and intervals ---------------------------------------------------------------------------------

    def rating(self, j: int, q: float) -> tuple[float, float, float, float, str]:
        """(rating, se, low, high, bound) of strategy ``j`` relative to the reference group's mean."""
        members = self.reference_members
        contrast = np.zeros(self.k + 1)
        contrast[members] -= 1.0 / len(members)
        contrast[j] += 1.0
        if len(members) == 1 and members[0] == j:
            return 0.0, 0.0, 0.0, 0.0, REFERENCE
        return self._contrast(contrast, self.comp[j], self.reference, q)

    def difference(self, a: int, b: int, q: float) -> tuple[float, float, float]:
        """(rating(a) - rating(b), low, high)."""
        if a == b:
            return 0.0, 0.0, 0.0
        contrast = np.zeros(self.k + 1)
        contrast[a], contrast[b] = 1.0, -1.0
        estimate, _, low, high, _ = self._contrast(contrast, self.comp[a], self.comp[b], q)
        return estimate, low, high

    def seat_advantage(self, q: float) -> tuple[float, float, float, float]:
        """(h, se, low, high) of the first-seat advantage."""
        contrast = np.eye(self.k + 1)[-1]
        h = float(self.beta[-1])
        se = math.sqrt(max(float(self.cov_beta[-1, -1]), 0.0))
        low, high = self._interval(self._problem(frozenset(), contrast), h, se, q)
        return h, se, low, high

    def _contrast(self, contrast: np.ndarray, g_plus: int, g_minus: int,
                  q: float) -> tuple[float, float, float, float, str]:
        direction = self._direction(g_plus, g_minus)
        if math.isnan(direction):
            return math.nan, math.nan, -math.inf, math.inf, UNBOUNDED
        problem = self._problem(frozenset({g_plus, g_minus}), contrast)
        if math.isinf(direction):
            low, high = self._interval(problem, direction, math.nan, q)
            return direction, math.nan, low, high, LOWER_ONLY if direction > 0 else UPPER_ONLY
        estimate = float(contrast @ self.beta)
        se = math.sqrt(max(float(contrast @ self.cov_beta @ contrast), 0.0))
        low, high = self._interval(problem, estimate, se, q)
        return estimate, se, low, high, TWO_SIDED

    def _interval(self, problem: _Profile, estimate: float, se: float, q: float) -> tuple[float, float]:
        """Where the profile deviance crosses ``q`` on either side of the estimate (which may be ±inf).

        The profile of a convex negative log-likelihood is convex, so the deviance rises monotonically away from
        the estimate and each side crosses at most once; an infinite estimate leaves that side open.
        """
        warm: list[np.ndarray | None] = [None]

        def excess(t: float) -> float:
            value, theta = problem.minimize(t, warm[0])
            warm[0] = theta
            return 2.0 * (value - self.nll_max) - q

        if math.isinf(estimate):
            bound = _crossing_from_infinity(excess, estimate)
            return (-math.inf, bound) if estimate < 0 else (bound, math.inf)
        step = se if math.isfinite(se) and se > 1e-6 else 1.0
        low = _crossing(excess, estimate, -step)
        warm[0] = None
        high = _crossing(excess, estimate, step)
        return low, high

    def rating_covariance(self) -> np.ndarray:
        """Covariance of the ratings relative to the reference mean (observed information); NaN outside it."""
        members = self.reference_members
        rows = np.zeros((self.k, self.k + 1))
        rows[:, members] -= 1.0 / len(members)
        rows[np.arange(self.k), np.arange(self.k)] += 1.0
        cov = rows @ self.cov_beta @ rows.T
        outside = self.comp != self.reference
        cov[outside, :] = np.nan
        cov[:, outside] = np.nan
        return cov


def _crossing(excess: Callable[[float], float], start: float, step: float) -> float:
    """The root of ``excess`` beyond ``start`` (where it is negative) in the direction of ``step``."""
    inner = start
    for i in range(64):
        outer = start + step * 2.0**i
        if excess(outer) > 0:
            lo, hi = sorted((inner, outer))
            return float(optimize.brentq(excess, lo, hi, xtol=1e-8))
        inner = outer
    return math.copysign(math.inf, step)  # the deviance never reached the threshold: this side is open


def _crossing_from_infinity(excess: Callable[[float], float], estimate: float) -> float:
    """The finite bound of an interval whose estimate is ``estimate`` (±inf): the deviance tends to 0 there."""
    toward = math.copysign(1.0, estimate)
    if excess(0.0) <= 0:
        return _crossing(excess, 0.0, -toward)
    inner = 0.0
    for i in range(64):
        outer = toward * 2.0**i
        if excess(outer) <= 0:
            return float(optimize.brentq(excess, *sorted((inner, outer)), xtol=1e-8))
        inner = outer
    return math.nan


class _Profile:
    """Negative log-likelihood of some grouped rows under linear constraints ``C beta = (0, ..., 0, t)``.

    ``beta = t p + N theta`` with ``N`` an orthonormal basis of the constraints' null space; Newton's method
    with a backtracking line search finds the best ``theta``. With ``targeted`` false the last constraint is
    an ordinary one too (and ``t`` is ignored).
    """

    def __init__(self, x: np.ndarray, n: np.ndarray, w: np.ndarray, constraints: np.ndarray,
                 targeted: bool) -> None:
        self.null = linalg.null_space(constraints)
        rhs = np.zeros(len(constraints))
        if targeted:
            rhs[-1] = 1.0
        self.particular = np.linalg.lstsq(constraints, rhs, rcond=None)[0]
        self.a = x @ self.null
        self.unit = x @ self.particular
        self.n, self.w = n, w

    def value(self, eta: np.ndarray) -> float:
        return float(np.sum(self.w * np.logaddexp(0.0, -eta) + (self.n - self.w) * np.logaddexp(0.0, eta)))

    def minimize(self, t: float, theta: np.ndarray | None) -> tuple[float, np.ndarray]:
        """(minimal negative log-likelihood, theta) with the target held at ``t``; ``theta`` is a warm start."""
        a, offset = self.a, t * self.unit
        theta = np.zeros(a.shape[1]) if theta is None else theta
        best = self.value(offset + a @ theta)
        for _ in range(200):
            if a.shape[1] == 0:
                break
            p = special.expit(offset + a @ theta)
            gradient = a.T @ (self.n * p - self.w)
            hessian = (a.T * (self.n * p * (1.0 - p))) @ a
            try:
                step = np.linalg.solve(hessian, gradient)
            except np.linalg.LinAlgError:
                step = np.linalg.lstsq(hessian, gradient, rcond=None)[0]
            decrement = float(gradient @ step)  # twice the predicted gain of a full step
            if not decrement > 1e-11:
                break
            scale = 1.0
            while scale > 1e-12:
                trial = theta - scale * step
                value = self.value(offset + a @ trial)
                if value <= best - 0.25 * scale * decrement:
                    theta, best = trial, value
                    break
                scale /= 2.0
            else:
                break  # no step improves any more: at the minimum to rounding
        else:
            warnings.warn("bradley_terry: Newton's method did not converge in 200 steps", RuntimeWarning,
                          stacklevel=2)
        return best, theta

    def beta(self, t: float, theta: np.ndarray) -> np.ndarray:
        return t * self.particular + self.null @ theta

    def covariance(self, theta: np.ndarray) -> np.ndarray:
        """Covariance of ``beta`` from the observed information at ``theta`` (singular directions left out)."""
        p = special.expit(self.a @ theta)
        hessian = (self.a.T * (self.n * p * (1.0 - p))) @ self.a
        return self.null @ np.linalg.pinv(hessian) @ self.null.T
