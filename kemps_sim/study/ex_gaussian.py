"""The ex-Gaussian fit of a person's reaction or speech times: mu, sigma and tau by maximum likelihood, with
intervals of one of three kinds (:data:`INTERVALS`):

* ``"profile"`` (the default): likelihood-ratio intervals from the profile likelihood, {θ: 2(ℓ̂ − ℓ_p(θ)) ≤
  χ²₁(level)}, the other two parameters maximised out at each θ. They follow the likelihood's own shape, so they
  stay inside the parameters' range and reach down to 0 when sigma or tau sits at the edge (a fit whose sigma is
  near 0, common at a few dozen trials, has no curvature a Wald interval could use);
* ``"wald"``: from the observed information (the Hessian of the log-likelihood at the estimate), in mu, log sigma
  and log tau;
* ``"bootstrap"``: percentile intervals from :func:`scipy.stats.bootstrap`.

Coverage of nominal 95 % intervals of simulated people with speech times drawn as the recovery test draws them
(``python scripts/ex_gaussian_coverage.py --people 400``: mu, sigma and tau covered; an interval covering at exactly
0.95 lands in [0.927, 0.970] at 400 people 95 % of the time):

====== ======================== ========================
trials profile                  wald
====== ======================== ========================
30     0.850 0.815 0.907        0.885 0.745 0.950
50     0.902 0.905 0.927        0.920 0.887 0.955
70     0.927 0.927 0.927        0.938 0.922 0.948
150    0.970 0.965 0.945        0.953 0.955 0.948
====== ======================== ========================

(Wald intervals at an edge, where they cannot be found, are the bootstrap's: the script passes a generator.)

So below about :data:`WELL_COVERED` trials neither kind reaches its level. Sigma is the hardest: at 30 trials an
exponential tail of 0.2 s hides a Gaussian spread of 0.05-0.1 s, and the likelihood's maximum is often at sigma = 0
(the times look like a shifted exponential). The profile intervals cover sigma best; the Wald ones mu and tau a
little better. A fit from fewer trials says so in its ``note`` and ``method``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence

import numpy as np
from scipy import optimize, special, stats

from kemps_sim.errors import ConfigError
from kemps_sim.study.estimators import CONFIDENCE, MIN_TRIALS, Estimate, not_fitted, too_few

#: Bootstrap resamples (with ``intervals="bootstrap"``): enough for a 95 % percentile interval, few enough to refit
#: each resample (≈5 ms a fit) for a study's people in a minute or two.
N_RESAMPLES = 199
#: How the intervals are found (see the module's docstring).
INTERVALS = ("profile", "wald", "bootstrap")
#: Fewer trials than this and a fit's intervals cover less than their level (the table above): its note says so.
WELL_COVERED = 70
#: What the small-sample note says the intervals covered (the table above, profile intervals).
SMALL_SAMPLE_COVERAGE = "profile intervals covered 0.81-0.91 at 30, 0.90-0.93 at 50"
_SQRT2 = math.sqrt(2.0)


def log_likelihood(x: np.ndarray, mu: float, sigma: float, tau: float) -> float:
    """The ex-Gaussian log-likelihood of ``x`` (sigma, tau > 0): Σ −log τ + (μ − x)/τ + σ²/(2τ²) + log Φ(z), z = (x −
    μ)/σ − σ/τ. Where z < 0 the last three terms nearly cancel when σ/τ is large, so there it is computed as
    −a²/2 + log(erfcx(−z/√2)/2), a = (x − μ)/σ, the same value without the cancellation."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        a = (x - mu) / sigma
        z = a - sigma / tau
        upper = (mu - x) / tau + sigma * sigma / (2 * tau * tau) + special.log_ndtr(z)
        lower = -0.5 * a * a + np.log(special.erfcx(-z / _SQRT2) / 2)
        return float(np.sum(np.where(z >= 0, upper, lower))) - len(x) * math.log(tau)


def fit_ex_gaussian(times: Sequence[float] | np.ndarray, parameters: Sequence[str],
                    rng: np.random.Generator | None = None, *, intervals: str = "profile",
                    n_resamples: int = N_RESAMPLES, confidence: float = CONFIDENCE,
                    what: str = "trials") -> list[Estimate]:
    """mu, sigma and tau (named ``parameters``) of an ex-Gaussian fitted to ``times`` by maximum likelihood, with
    intervals of the kind ``intervals`` and standard errors (for pooling: the interval's half-width over z for
    profile intervals, the observed information's or the resamples' otherwise).

    The maximum is the best of an interior one (``scipy.stats.exponnorm.fit``, polished in (mu, log sigma, log
    tau) by Nelder-Mead) and the two edges, found in closed form: sigma = 0 (a shifted exponential: mu = min,
    tau = mean − min) and tau = 0 (a normal). At a few dozen trials the sigma = 0 edge is often the maximum, and
    the estimate is then sigma = 0. Bootstrap resamples are drawn with ``rng`` (needed then); a Wald interval that
    cannot be found (at an edge) is replaced by the bootstrap's if ``rng`` is given. Fewer than
    :data:`MIN_TRIALS` times, or fewer than three distinct ones (the likelihood has no maximum), are not fitted;
    ``what`` names the trials in the reason.
    """
    if intervals not in INTERVALS:
        raise ConfigError(f"intervals = {intervals!r}: must be one of {', '.join(INTERVALS)}")
    x = np.asarray(times, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) < MIN_TRIALS:
        return not_fitted(parameters, len(x), too_few(len(x), what))
    if len(distinct := np.unique(x)) < 3:
        return not_fitted(parameters, len(x), f"{len(x)} {what} of {len(distinct)} distinct values (an "
                                              "ex-Gaussian needs at least 3)")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # the optimisers' trial steps overflow now and then
        values, top, inside = _maximum(x)
        if intervals == "profile":
            low, high, se, method = _profile(x, values, top, inside, confidence)
        elif intervals == "bootstrap":
            low, high, se, method = _bootstrap(x, values, rng, n_resamples, confidence)
        else:
            low, high, se, method = _observed_information(x, values, confidence)
            if not np.all(np.isfinite(low)) and rng is not None:  # at the edge (sigma near 0) the curvature fails
                low, high, se, fallback = _bootstrap(x, values, rng, n_resamples, confidence)
                method = f"{method}; so {fallback}"
    note = (f"{len(x)} {what}: below {WELL_COVERED} an ex-Gaussian's {confidence:.0%} intervals cover less than "
            f"that ({SMALL_SAMPLE_COVERAGE})") if len(x) < WELL_COVERED else ""
    method = "; ".join(part for part in (f"ex-Gaussian MLE, {method}", note) if part)
    return [Estimate(name, float(value), float(lo), float(hi), len(x), method, float(error), note)
            for name, value, lo, hi, error in zip(parameters, values, low, high, se, strict=True)]


def _natural(point: np.ndarray) -> tuple[float, float, float]:
    """(mu, sigma, tau) from (mu, log sigma, log tau)."""
    return float(point[0]), math.exp(point[1]), math.exp(point[2])


def _floor(x: np.ndarray) -> float:
    """The least sigma or tau an optimiser starts from (a twentieth of the times' spread): the edge values 0
    have no logarithm."""
    return 0.05 * float(np.std(x))


def _maximum(x: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """The maximum-likelihood (mu, sigma, tau), the log-likelihood there (the best of the interior maximum and
    the two edges, sigma = 0 and tau = 0), and the interior maximum."""
    shape, loc, scale = stats.exponnorm.fit(x)
    floor = _floor(x)
    start = np.array([loc, math.log(max(scale, floor)), math.log(max(shape * scale, floor))])
    found = optimize.minimize(lambda point: -log_likelihood(x, *_natural(point)), start, method="Nelder-Mead",
                              options={"xatol": 1e-8, "fatol": 1e-9, "maxfev": 4000})
    best = found.x if found.fun <= -log_likelihood(x, *_natural(start)) else start
    low, mean = float(x.min()), float(x.mean())
    candidates = [(log_likelihood(x, *_natural(best)), _natural(best)),
                  (_edge(x, 1, 0.0), (low, 0.0, mean - low)),
                  (_edge(x, 2, 0.0), (mean, float(np.std(x)), 0.0))]
    top, values = max(candidates, key=lambda candidate: candidate[0])
    return np.array(values), top, np.array(_natural(best))


def _edge(x: np.ndarray, index: int, theta: float) -> float:
    """The most the likelihood reaches at an edge with parameter ``index`` held at ``theta`` (closed forms):
    sigma = 0 is a shifted exponential (mu at most the least time), tau = 0 a normal; sigma or tau held at 0 is
    that edge's maximum."""
    n, low, mean = len(x), float(x.min()), float(x.mean())
    if index > 0 and theta <= 0:  # the edge itself: a shifted exponential (sigma 0) or a normal (tau 0), at best
        return -n * (1 + math.log(mean - low)) if index == 1 else -n / 2 * (1 + math.log(2 * math.pi * float(
            np.mean((x - mean) ** 2))))
    if index == 0:
        normal = -n / 2 * (1 + math.log(2 * math.pi * float(np.mean((x - theta) ** 2))))
        return max(normal, -n * (1 + math.log(mean - theta))) if theta <= low else normal
    if index == 1:
        return -n * math.log(theta) - n / 2 * math.log(2 * math.pi) - float(np.sum((x - mean) ** 2)) / (2 * theta**2)
    return -n * math.log(theta) - n * (mean - low) / theta


def _profile(x: np.ndarray, values: np.ndarray, top: float, inside: np.ndarray,
             confidence: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """Likelihood-ratio intervals of mu, sigma and tau from their profile likelihoods, searched in steps of
    about a standard error of the mean (so that they do not depend on where the times' zero is)."""
    drop = float(stats.chi2.ppf(confidence, 1)) / 2
    step = float(np.std(x)) / math.sqrt(len(x))
    low, high = np.empty(3), np.empty(3)
    for index in range(3):
        excess = _profile_excess(x, values, top, inside, index, drop)
        low[index] = _crossing(excess, float(values[index]), -step, positive=index > 0)
        high[index] = _crossing(excess, float(values[index]), step, positive=index > 0)
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    se = np.where(np.isfinite(high - low), (high - low) / (2 * z), math.nan)
    return low, high, se, "profile-likelihood interval (likelihood ratio, chi-square 1)"


def _profile_excess(x: np.ndarray, values: np.ndarray, top: float, inside: np.ndarray, index: int,
                    drop: float) -> Callable[[float], float]:
    """θ ↦ (ℓ̂ − ℓ_p(θ)) − drop for parameter ``index``: negative inside the interval, positive outside. ℓ_p(θ) is
    the best of the edges at θ and of Nelder-Mead searches over the other two parameters from where the search at
    the nearest θ already tried ended, from the estimate and from the interior maximum (the profile can have an
    interior and an edge branch, and a search stays on the branch it starts on); each θ is maximised once."""
    others = [i for i in range(3) if i != index]
    floor = _floor(x)

    def nuisance(point: np.ndarray) -> np.ndarray:
        return np.array([point[i] if i == 0 else math.log(max(point[i], floor)) for i in others])

    estimate, interior = nuisance(values), nuisance(inside)
    tried = {float(values[index]): estimate}
    found: dict[float, float] = {}

    def excess(theta: float) -> float:
        if theta in found:  # the same answer for the same θ (the root finder looks at its bracket's ends again)
            return found[theta]
        if index > 0 and theta <= 0:
            found[theta] = top - _edge(x, index, theta) - drop
            return found[theta]

        def negative(point: np.ndarray) -> float:
            full = [0.0, 0.0, 0.0]
            full[index] = theta
            for i, coordinate in zip(others, point, strict=True):
                full[i] = float(coordinate) if i == 0 else math.exp(coordinate)
            return -log_likelihood(x, *full)

        nearest = tried[min(tried, key=lambda known: abs(known - theta))]
        searches = [optimize.minimize(negative, start, method="Nelder-Mead",
                                      options={"xatol": 1e-6, "fatol": 1e-7, "maxfev": 2000})
                    for start in _distinct((nearest, estimate, interior))]
        best = min(searches, key=lambda search: search.fun)
        tried[theta] = best.x
        found[theta] = top - max(-float(best.fun), _edge(x, index, theta)) - drop
        return found[theta]

    return excess


def _distinct(points: tuple[np.ndarray, ...]) -> list[np.ndarray]:
    """``points`` without repeats, in order."""
    kept: list[np.ndarray] = []
    for point in points:
        if not any(np.array_equal(point, other) for other in kept):
            kept.append(point)
    return kept


def _crossing(excess: Callable[[float], float], estimate: float, step: float, positive: bool) -> float:
    """Where ``excess`` crosses 0 going from ``estimate`` in the direction of ``step`` (doubling the step until it
    does): 0 when a positive parameter's likelihood never falls far enough before 0, ±inf when it never does,
    NaN if the root cannot be bracketed."""
    near, tolerance = estimate, abs(step) * 1e-3
    for _ in range(40):
        far = near + step
        if positive and far <= 0:
            if near <= 0:
                return 0.0
            far = near * 1e-6
            if excess(far) <= 0:
                return 0.0
        elif excess(far) <= 0:
            near, step = far, step * 2
            continue
        try:
            return float(optimize.brentq(excess, min(near, far), max(near, far), xtol=tolerance))
        except ValueError:  # the profile is not a function the root finder can follow here
            return math.nan
    return math.copysign(math.inf, step)


def _observed_information(x: np.ndarray, values: np.ndarray,
                          confidence: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """Wald intervals of mu, sigma and tau from the observed information in (mu, log sigma, log tau); NaN when
    the likelihood is flat or not curved down there (no interval)."""
    from scipy.differentiate import hessian

    def loglikelihood(point: np.ndarray) -> np.ndarray:
        sigma, tau = np.exp(point[1]), np.exp(point[2])
        at = x.reshape((-1,) + (1,) * (np.ndim(point) - 1))
        return stats.exponnorm.logpdf(at, tau / sigma, point[0], sigma).sum(axis=0)

    mu, sigma, tau = values
    nan = np.full(3, math.nan)
    method = "Wald interval from the observed information (log scale for sigma and tau)"
    if sigma <= 0 or tau <= 0:
        return nan, nan, nan, f"{method}: none, the estimate is at an edge (sigma or tau 0)"
    point = np.array([mu, math.log(sigma), math.log(tau)])
    found = hessian(loglikelihood, point, initial_step=0.05, order=4, tolerances={"rtol": 1e-5})
    if not np.all(found.success) or not np.all(np.isfinite(found.ddf)):
        return nan, nan, nan, f"{method}: none, the likelihood's curvature could not be found"
    try:
        covariance = np.linalg.inv(-found.ddf)
    except np.linalg.LinAlgError:
        return nan, nan, nan, f"{method}: none, the likelihood is flat in some direction"
    variances = np.diag(covariance)
    if not np.all(variances > 0) or np.any(np.linalg.eigvalsh(-found.ddf) <= 0):
        return nan, nan, nan, f"{method}: none, the estimate is not a maximum the information can describe"
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    spread = np.sqrt(variances)
    low, high = point - z * spread, point + z * spread
    scale = np.array([1.0, sigma, tau])  # the delta method: the standard error of exp(y) is exp(y) times y's
    return (np.array([low[0], math.exp(low[1]), math.exp(low[2])]),
            np.array([high[0], math.exp(high[1]), math.exp(high[2])]), spread * scale, method)


def _bootstrap(x: np.ndarray, values: np.ndarray, rng: np.random.Generator | None,
               n_resamples: int, confidence: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """Percentile bootstrap intervals and standard errors of mu, sigma and tau, each resample refitted by
    ``scipy.stats.exponnorm.fit`` from the whole sample's estimate (sigma and tau at least :func:`_floor`)."""
    if rng is None:
        raise ConfigError("rng = None: bootstrap intervals need a numpy Generator to resample with")
    floor = _floor(x)  # each refit starts inside, not at an edge it could not leave
    mu, sigma, tau = float(values[0]), max(float(values[1]), floor), max(float(values[2]), floor)

    def mu_sigma_tau(sample: np.ndarray) -> np.ndarray:
        k, m, s = stats.exponnorm.fit(sample, tau / sigma, loc=mu, scale=sigma)
        return np.array([m, s, k * s])

    boot = stats.bootstrap((x,), mu_sigma_tau, n_resamples=n_resamples, confidence_level=confidence,
                           method="percentile", vectorized=False, rng=rng)
    return (np.asarray(boot.confidence_interval.low), np.asarray(boot.confidence_interval.high),
            np.asarray(boot.standard_error), f"{n_resamples} bootstrap resamples (percentile)")
