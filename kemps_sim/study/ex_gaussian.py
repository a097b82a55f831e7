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
30     0.882 0.853 0.922        0.858 0.820 0.940
50     0.920 0.930 0.938        0.905 0.917 0.950
70     0.938 0.940 0.935        0.912 0.925 0.943
150    0.973 0.965 0.945        0.953 0.955 0.950
====== ======================== ========================

So below about :data:`WELL_COVERED` trials no kind reaches its level (sigma is the hardest: at 30 trials an
exponential tail of 0.2 s hides a Gaussian spread of 0.05-0.1 s), and such a fit says so in its ``note`` and
``method``.
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
_PARAMETERS = ("mu", "sigma", "tau")


def log_likelihood(x: np.ndarray, mu: float, sigma: float, tau: float) -> float:
    """The ex-Gaussian log-likelihood of ``x``: Σ −log τ + (μ − x)/τ + σ²/(2τ²) + log Φ((x − μ)/σ − σ/τ)."""
    return float(np.sum((mu - x) / tau + special.log_ndtr((x - mu) / sigma - sigma / tau))
                 + len(x) * (sigma * sigma / (2 * tau * tau) - math.log(tau)))


def fit_ex_gaussian(times: Sequence[float] | np.ndarray, parameters: Sequence[str],
                    rng: np.random.Generator | None = None, *, intervals: str = "profile",
                    n_resamples: int = N_RESAMPLES, confidence: float = CONFIDENCE,
                    what: str = "trials") -> list[Estimate]:
    """mu, sigma and tau (named ``parameters``) of an ex-Gaussian fitted to ``times`` by maximum likelihood, with
    intervals of the kind ``intervals`` and standard errors (for pooling: the interval's half-width over z for
    profile intervals, the observed information's or the resamples' otherwise).

    The maximum is found by ``scipy.stats.exponnorm.fit`` and polished in (mu, log sigma, log tau) by Nelder-Mead,
    so that the profile's ℓ̂ is the maximum. Bootstrap resamples are drawn with ``rng`` (needed then); a Wald
    interval that cannot be found (the estimate at the edge) is replaced by the bootstrap's if ``rng`` is given.
    ``what`` names the trials in the reason a parameter was not fitted.
    """
    if intervals not in INTERVALS:
        raise ConfigError(f"intervals = {intervals!r}: must be one of {', '.join(INTERVALS)}")
    x = np.asarray(times, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) < MIN_TRIALS:
        return not_fitted(parameters, len(x), too_few(len(x), what))
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # the optimisers' trial steps overflow now and then
        values, top = _maximum(x)
        if intervals == "profile":
            low, high, se, method = _profile(x, values, top, confidence)
        elif intervals == "bootstrap":
            low, high, se, method = _bootstrap(x, values, rng, n_resamples, confidence)
        else:
            low, high, se, method = _observed_information(x, values, confidence)
            if not np.all(np.isfinite(low)) and rng is not None:  # at the edge (sigma near 0) the curvature fails
                low, high, se, fallback = _bootstrap(x, values, rng, n_resamples, confidence)
                method = f"{method}; so {fallback}"
    note = (f"{len(x)} {what}: below {WELL_COVERED} an ex-Gaussian's {confidence:.0%} intervals cover less than "
            "that (0.85-0.92 at 30, 0.92-0.94 at 50)") if len(x) < WELL_COVERED else ""
    method = "; ".join(part for part in (f"ex-Gaussian MLE, {method}", note) if part)
    return [Estimate(name, float(value), float(lo), float(hi), len(x), method, float(error), note)
            for name, value, lo, hi, error in zip(parameters, values, low, high, se, strict=True)]


def _natural(point: np.ndarray) -> tuple[float, float, float]:
    """(mu, sigma, tau) from (mu, log sigma, log tau)."""
    return float(point[0]), math.exp(point[1]), math.exp(point[2])


def _maximum(x: np.ndarray) -> tuple[np.ndarray, float]:
    """The maximum-likelihood (mu, sigma, tau) and the log-likelihood there."""
    shape, loc, scale = stats.exponnorm.fit(x)
    start = np.array([loc, math.log(max(scale, 1e-9)), math.log(max(shape * scale, 1e-9))])
    found = optimize.minimize(lambda point: -log_likelihood(x, *_natural(point)), start, method="Nelder-Mead",
                              options={"xatol": 1e-8, "fatol": 1e-9, "maxfev": 4000})
    best = found.x if found.fun <= -log_likelihood(x, *_natural(start)) else start
    return np.array(_natural(best)), log_likelihood(x, *_natural(best))


def _profile(x: np.ndarray, values: np.ndarray, top: float,
             confidence: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """Likelihood-ratio intervals of mu, sigma and tau from their profile likelihoods."""
    drop = float(stats.chi2.ppf(confidence, 1)) / 2
    low, high = np.empty(3), np.empty(3)
    for index in range(3):
        excess = _profile_excess(x, values, top, index, drop)
        step = max(abs(float(values[index])) * 0.1, 0.01)
        low[index] = _crossing(excess, float(values[index]), -step, positive=index > 0)
        high[index] = _crossing(excess, float(values[index]), step, positive=index > 0)
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    se = np.where(np.isfinite(high - low), (high - low) / (2 * z), math.nan)
    return low, high, se, "profile-likelihood interval (likelihood ratio, chi-square 1)"


def _profile_excess(x: np.ndarray, values: np.ndarray, top: float, index: int,
                    drop: float) -> Callable[[float], float]:
    """θ ↦ (ℓ̂ − ℓ_p(θ)) − drop for parameter ``index``: negative inside the interval, positive outside. Each
    maximisation over the other two parameters starts where the one at the nearest θ already tried ended, and
    each θ is maximised once."""
    others = [i for i in range(3) if i != index]
    tried = {float(values[index]): np.array([values[i] if i == 0 else math.log(values[i]) for i in others])}

    found: dict[float, float] = {}

    def excess(theta: float) -> float:
        if theta in found:  # the same answer for the same θ (the root finder looks at its bracket's ends again)
            return found[theta]

        def negative(point: np.ndarray) -> float:
            full = [0.0, 0.0, 0.0]
            full[index] = theta
            for i, coordinate in zip(others, point, strict=True):
                full[i] = float(coordinate) if i == 0 else math.exp(coordinate)
            return -log_likelihood(x, *full)

        point = tried[min(tried, key=lambda known: abs(known - theta))]
        for _ in range(2):  # a second start where the first ended: Nelder-Mead's simplex can stall short of it
            best = optimize.minimize(negative, point, method="Nelder-Mead",
                                     options={"xatol": 1e-5, "fatol": 1e-6, "maxfev": 2000})
            point = best.x
        tried[theta] = point
        found[theta] = top + float(best.fun) - drop
        return found[theta]

    return excess


def _crossing(excess: Callable[[float], float], estimate: float, step: float, positive: bool) -> float:
    """Where ``excess`` crosses 0 going from ``estimate`` in the direction of ``step`` (doubling the step until it
    does): 0 when a positive parameter's likelihood never falls far enough before 0, ±inf when it never does."""
    near = estimate
    for _ in range(40):
        far = near + step
        if positive and far <= 0:
            far = near * 1e-6
            if excess(far) <= 0:
                return 0.0
        elif excess(far) <= 0:
            near, step = far, step * 2
            continue
        return float(optimize.brentq(excess, min(near, far), max(near, far), xtol=abs(step) * 1e-3))
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
    point = np.array([mu, math.log(sigma), math.log(tau)])
    found = hessian(loglikelihood, point, initial_step=0.05, order=4, tolerances={"rtol": 1e-5})
    nan = np.full(3, math.nan)
    method = "Wald interval from the observed information (log scale for sigma and tau)"
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
    ``scipy.stats.exponnorm.fit`` from the whole sample's estimate."""
    if rng is None:
        raise ConfigError("rng = None: bootstrap intervals need a numpy Generator to resample with")
    mu, sigma, tau = (float(v) for v in values)

    def mu_sigma_tau(sample: np.ndarray) -> np.ndarray:
        k, m, s = stats.exponnorm.fit(sample, tau / sigma, loc=mu, scale=sigma)
        return np.array([m, s, k * s])

    boot = stats.bootstrap((x,), mu_sigma_tau, n_resamples=n_resamples, confidence_level=confidence,
                           method="percentile", vectorized=False, rng=rng)
    return (np.asarray(boot.confidence_interval.low), np.asarray(boot.confidence_interval.high),
            np.asarray(boot.standard_error), f"{n_resamples} bootstrap resamples (percentile)")
