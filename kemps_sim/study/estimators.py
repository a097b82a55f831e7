"""The estimators ``kemps-sim calibrate`` fits a person's trials with, each giving a point estimate, an interval and
a standard error per parameter (:class:`Estimate`), and the random-effects pooling of several people's estimates.

* an ex-Gaussian (reaction and speech times): in :mod:`kemps_sim.study.ex_gaussian`;
* a log-normal (reach times): median = exp(mean log), sigma = sd of log, with exact intervals (t for the mean log,
  chi-square for sigma);
* an equal-variance observer (detection trials): a probit regression, Φ(β0 + β1·signal), with statsmodels, giving
  d' = β1 and c = −(β0 + β1/2) (the closed forms Φ⁻¹(H) − Φ⁻¹(F) and −(Φ⁻¹(H) + Φ⁻¹(F))/2) with Wald intervals;
* pooling: DerSimonian-Laird random effects (statsmodels ``combine_effects``) for the group mean and the
  between-person variance tau², and each person's empirical-Bayes (partially pooled) estimate.

A parameter with fewer than :data:`MIN_TRIALS` trials is returned as not fitted (NaN) with the reason, not raised.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

#: Fewer trials than this and a parameter is reported as not fitted (the profile keeps its default).
MIN_TRIALS = 10
#: The level of every interval.
CONFIDENCE = 0.95
@dataclass(frozen=True)
class Estimate:
    """One parameter fitted to ``n`` trials: the estimate, its interval and standard error (NaN when not fitted),
    how it was found (``method``), and a ``note``: why it was not fitted, or what to keep in mind when reading
    it (an ex-Gaussian's intervals from few trials cover less than their level)."""

    parameter: str
    estimate: float
    lower: float
    upper: float
    n: int
    method: str
    se: float = math.nan
    note: str = ""

    @property
    def fitted(self) -> bool:
        """Whether there is an estimate (enough trials, a fit that converged)."""
        return math.isfinite(self.estimate)

    def shifted(self, by: float, method: str) -> Estimate:
        """The same estimate moved by ``by`` (estimate and bounds), its method described as ``method``."""
        return Estimate(self.parameter, self.estimate + by, self.lower + by, self.upper + by, self.n, method,
                        self.se, self.note)


def not_fitted(parameters: Sequence[str], n: int, note: str) -> list[Estimate]:
    """``parameters`` reported as not fitted, from ``n`` trials, for the reason ``note``."""
    return [Estimate(name, math.nan, math.nan, math.nan, n, f"not fitted: {note}", note=note) for name in parameters]


def too_few(n: int, what: str = "trials") -> str:
    """The reason a parameter with ``n`` trials is not fitted."""
    return f"{n} {what} (fewer than {MIN_TRIALS})"


def fit_lognormal(times: Sequence[float] | np.ndarray, parameters: Sequence[str],
                  confidence: float = CONFIDENCE, what: str = "trials") -> list[Estimate]:
    """median and sigma (named ``parameters``) of a log-normal fitted to the positive ``times``: median = exp(mean
    log), sigma = sd of log (n − 1), with exact intervals (the t interval of the mean log, the chi-square one of
    the variance of the log) and delta-method standard errors."""
    x = np.asarray(times, dtype=float)
    x = x[np.isfinite(x) & (x > 0)]
    n = len(x)
    if n < MIN_TRIALS:
        return not_fitted(parameters, n, too_few(n, what))
    logs = np.log(x)
    mean, sd = float(logs.mean()), float(logs.std(ddof=1))
    low, high = stats.ttest_1samp(logs, 0.0).confidence_interval(confidence)
    tail = (1 - confidence) / 2
    chi_low, chi_high = stats.chi2.ppf([1 - tail, tail], n - 1)
    median = math.exp(mean)
    return [Estimate(parameters[0], median, math.exp(low), math.exp(high), n, "log-normal, exact t interval",
                     median * sd / math.sqrt(n)),
            Estimate(parameters[1], sd, sd * math.sqrt((n - 1) / chi_low), sd * math.sqrt((n - 1) / chi_high), n,
                     "log-normal, exact chi-square interval", sd / math.sqrt(2 * (n - 1)))]


def fit_observer(signal: Sequence[bool] | np.ndarray, response: Sequence[bool] | np.ndarray,
                 parameters: Sequence[str], confidence: float = CONFIDENCE) -> list[Estimate]:
    """d' and criterion c (named ``parameters``) from detection trials: a probit regression of ``response`` on
    ``signal`` (statsmodels GLM, binomial with the probit link, over the four cells of hits, misses, false alarms
    and correct rejections as frequency weights: the trial-level likelihood), d' = β1 and c = −(β0 + β1/2), with
    Wald intervals (the delta method from the fit's covariance for c).

    A hit or false-alarm rate of 0 or 1 has no finite estimate (perfect separation); then 0.5 is added to each of
    the four cells (the log-linear correction, Hautus 1995), which pulls both rates a little towards 1/2, and the
    method says so. Each kind of gesture (meant, idle) needs :data:`MIN_TRIALS` trials.
    """
    import statsmodels.api as sm  # deferred: only fitting an observer needs statsmodels

    signal = np.asarray(signal, dtype=bool)
    response = np.asarray(response, dtype=bool)
    meant, idle = int(signal.sum()), int((~signal).sum())
    if min(meant, idle) < MIN_TRIALS:
        return not_fitted(parameters, meant + idle,
                          f"{meant} meant and {idle} idle gestures (each needs {MIN_TRIALS} or more)")
    hits, false_alarms = int((signal & response).sum()), int((~signal & response).sum())
    cells = np.array([hits, meant - hits, false_alarms, idle - false_alarms], dtype=float)
    method = "probit regression (statsmodels GLM), Wald interval"
    if hits in (0, meant) or false_alarms in (0, idle):
        cells += 0.5
        method += (f"; hit rate {hits}/{meant}, false alarms {false_alarms}/{idle}: 0.5 added to each cell "
                   "(log-linear correction, Hautus 1995)")
    outcome = np.array([1.0, 0.0, 1.0, 0.0])
    design = np.array([[1.0, 1.0], [1.0, 1.0], [1.0, 0.0], [1.0, 0.0]])
    family = sm.families.Binomial(link=sm.families.links.Probit())
    fit = sm.GLM(outcome, design, family=family, freq_weights=cells).fit()
    b0, b1 = (float(v) for v in fit.params)
    cov = np.asarray(fit.cov_params())
    gradient = np.array([-1.0, -0.5])  # of c = −(β0 + β1/2)
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    values = ((b1, math.sqrt(cov[1, 1])), (-(b0 + b1 / 2), math.sqrt(float(gradient @ cov @ gradient))))
    return [Estimate(name, value, value - z * se, value + z * se, meant + idle, method, se)
            for name, (value, se) in zip(parameters, values, strict=True)]


@dataclass(frozen=True)
class Pooled:
    """One parameter pooled over people: the group's estimate (the random-effects mean), the between-person
    variance ``tau2``, and each person's partially pooled estimate."""

    group: Estimate
    tau2: float
    shrunken: Mapping[str, Estimate]


def pool(estimates: Mapping[str, Estimate], confidence: float = CONFIDENCE) -> Pooled:
    """Pool one parameter's per-person ``estimates`` (by participant): DerSimonian-Laird random effects
    (statsmodels ``combine_effects``) give the group mean μ with its interval and the between-person variance tau²
    (at least 0, as DerSimonian and Laird define it; with 0 the people are pooled completely);
    each person's empirical-Bayes estimate is θ* = w·θ + (1 − w)·μ with w = tau² / (tau² + se²), so it lies
    between the person's own estimate and μ, nearer μ the less the person's data say. Its interval is
    θ* ± z·√(w·se² + (1 − w)²·se(μ)²) (the normal-normal posterior, with μ's own uncertainty).

    People without an estimate (or without its standard error) are left out; with one person left the group
    estimate is that person's.
    """
    from statsmodels.stats.meta_analysis import combine_effects  # deferred: only pooling needs statsmodels

    fitted = {who: e for who, e in estimates.items() if e.fitted and math.isfinite(e.se) and e.se > 0}
    name = next(iter(estimates.values())).parameter if estimates else ""
    total = sum(e.n for e in fitted.values())
    if not fitted:
        return Pooled(not_fitted([name], 0, "no participant has an estimate")[0], math.nan, {})
    if len(fitted) == 1:
        (who, only), = fitted.items()
        group = Estimate(name, only.estimate, only.lower, only.upper, only.n, f"one participant ({who}): not pooled",
                         only.se)
        return Pooled(group, math.nan, {who: only})
    effects = np.array([e.estimate for e in fitted.values()])
    ses = np.array([e.se for e in fitted.values()])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the square root of a negative tau² (see below)
        combined = combine_effects(effects, ses**2, method_re="dl")
    tau2 = float(combined.tau2)
    if tau2 > 0:
        mean, mean_se = float(combined.mean_effect_re), float(combined.sd_eff_w_re)
    else:  # DerSimonian-Laird's tau² is max(0, ...): statsmodels leaves it negative; at 0 the random-effects mean
        tau2 = 0.0  # is the fixed-effect one
        mean, mean_se = float(combined.mean_effect_fe), float(combined.sd_eff_w_fe)
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    group = Estimate(name, mean, mean - z * mean_se, mean + z * mean_se, total,
                     f"random effects (DerSimonian-Laird), {len(fitted)} participants, tau² = {tau2:.3g}", mean_se)
    shrunken = {}
    for (who, own), se in zip(fitted.items(), ses, strict=True):
        weight = tau2 / (tau2 + se**2)
        value = weight * own.estimate + (1 - weight) * mean
        spread = math.sqrt(weight * se**2 + (1 - weight) ** 2 * mean_se**2)
        shrunken[who] = Estimate(name, value, value - z * spread, value + z * spread, own.n,
                                 f"partially pooled (empirical Bayes), weight on own data {weight:.2f}", spread)
    return Pooled(group, tau2, shrunken)
