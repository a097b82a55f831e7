"""The uncertainty of anything computed from a tournament's payoff matrix, by a stratified bootstrap over its units.

:func:`bootstrap` redraws the units of :func:`kemps_sim.metagame.payoffs.payoff_table` (the seat-swapped pairs of
matches on one deal, or lone matches per seating) with replacement *within each pairing and stratum*, each keeping
its count, rebuilds the matrix from each redraw and applies a statistic to it: the Nash averaging mixture, the
alpha-rank, a single entry. Resampling the unit the standard errors come from keeps the interval and the test on
the same footing; resampling within pairings keeps the design (every two strategies met a fixed number of times).

The resampling is :func:`scipy.stats.bootstrap`'s: each stratum is one of its samples, resampled independently
(``paired=False``), and the statistic receives them all and returns a vector, so the percentile interval is
SciPy's. SciPy refuses a sample of one observation; a stratum of one unit redraws itself every time, so it is held
fixed, which is the same thing. Randomness comes only from ``numpy.random.default_rng(seed)``.

The pairings are resampled independently of one another. In a tournament under common random numbers replicate r
of *every* pairing plays the same deal, so units of different pairings that share a deal need not be independent;
averaging the two seatings of a deal removes the main shared part (which seat the deal favours), and what is left
is taken as negligible. A statistic that combines many entries is where this assumption matters most.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from kemps_sim.errors import ConfigError
from kemps_sim.metagame.payoffs import PayoffTable, unit_groups

#: Largest number of unit payoffs held at once while resampling (batches of resamples stay under it).
_BATCH_VALUES = 4_000_000


@dataclass(frozen=True, eq=False)
class BootstrapResult:
    """A statistic of the payoff matrix with its bootstrap distribution and percentile interval.

    ``estimate`` is the statistic of the full data's matrix; ``values`` its value on each resample (shape
    ``(resamples, *estimate.shape)``); ``low`` and ``high`` the ``confidence`` percentile interval of each
    component. ``support`` is, when the statistic is a mixture over the strategies (non-negative, summing to 1),
    the share of resamples in which each strategy's weight exceeds ``support_threshold``; None otherwise.
    """

    estimate: np.ndarray
    values: np.ndarray
    low: np.ndarray
    high: np.ndarray
    confidence: float
    seed: int
    support: np.ndarray | None
    support_threshold: float

    @property
    def resamples(self) -> int:
        """How many resamples the distribution holds."""
        return int(self.values.shape[0])

    @property
    def standard_errors(self) -> np.ndarray:
        """The bootstrap standard error of each component: the standard deviation of its resampled values."""
        return self.values.std(axis=0, ddof=1) if self.resamples > 1 else np.full(self.estimate.shape, np.nan)


def bootstrap(table: PayoffTable, statistic: Callable[[np.ndarray], np.ndarray], *, resamples: int = 1000,
              seed: int = 0, confidence: float = 0.95, vectorized: bool = False,
              support_threshold: float = 1e-6) -> BootstrapResult:
    """Percentile bootstrap of ``statistic(M)`` over the units of ``table``, stratified by pairing and stratum.

    ``statistic`` takes a k x k payoff matrix (strategies in ``table.strategies`` order) and returns a number or
    an array, e.g. ``lambda M: nash_averaging(M).mixture``; with ``vectorized`` it takes a stack ``(n, k, k)``
    and returns ``(n, ...)``, which saves a Python call per resample. A pairing that never met is NaN in every
    resample; a statistic that needs every entry should start from
    :func:`~kemps_sim.metagame.payoffs.require_complete`. The same table, statistic and ``seed`` give the same
    result.
    """
    if not isinstance(table, PayoffTable):
        raise ConfigError(f"table = {type(table).__name__}: must be a PayoffTable from payoff_table")
    if not callable(statistic):
        raise ConfigError(f"statistic = {statistic!r}: must be a function of the payoff matrix")
    if isinstance(resamples, bool) or not isinstance(resamples, int | np.integer) or resamples < 2:
        raise ConfigError(f"resamples = {resamples!r}: must be a whole number >= 2")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ConfigError(f"seed = {seed!r}: must be a whole number >= 0")
    if not 0.0 < confidence < 1.0:
        raise ConfigError(f"confidence = {confidence!r}: must be between 0 and 1 (exclusive), e.g. 0.95")
    if not 0.0 <= support_threshold < 1.0:
        raise ConfigError(f"support_threshold = {support_threshold!r}: must be at least 0 and below 1")

    groups = unit_groups(table)
    payoffs = table.units["payoff"].to_numpy(dtype=float)
    means = np.array([payoffs[m].mean() for m in groups.members])
    varying = [g for g, m in enumerate(groups.members) if len(m) > 1]

    def apply(matrices: np.ndarray) -> np.ndarray:
        """The statistic of each matrix in a stack ``(n, k, k)``, as ``(n, m)`` floats."""
        if vectorized:
            out = np.asarray(statistic(matrices), dtype=float)
            return out.reshape(len(matrices), -1)
        return np.stack([np.atleast_1d(np.asarray(statistic(m), dtype=float)).ravel() for m in matrices])

    full = groups.matrices(means)
    raw = np.asarray(statistic(full[None]) if vectorized else statistic(full), dtype=float)
    raw = raw[0] if vectorized else raw
    shape, estimate = raw.shape, raw.ravel()
    rng = np.random.default_rng(int(seed))
    if varying:
        def resampled(*samples: np.ndarray, axis: int = -1) -> np.ndarray:
            """SciPy's view: one sample per varying stratum, batches in the leading axes; outputs lead."""
            batch = samples[0].shape[:-1]
            drawn = np.broadcast_to(means, (*batch, len(means))).copy()
            for g, sample in zip(varying, samples, strict=True):
                drawn[..., g] = sample.mean(axis=axis)
            values = apply(groups.matrices(drawn.reshape(-1, len(means))))
            return np.moveaxis(values.reshape(*batch, -1), -1, 0)

        with warnings.catch_warnings():  # SciPy's warning on NaN values speaks of BCa; NaN bounds say it here
            warnings.simplefilter("ignore", stats.DegenerateDataWarning)
            result = stats.bootstrap([payoffs[groups.members[g]] for g in varying], resampled,
                                     n_resamples=resamples,
                                     batch=max(1, min(resamples, _BATCH_VALUES // max(1, len(payoffs)))),
                                     vectorized=True, paired=False, confidence_level=confidence,
                                     method="percentile", rng=rng)
        values = np.asarray(result.bootstrap_distribution, dtype=float).reshape(len(estimate), resamples).T
        low = np.asarray(result.confidence_interval.low, dtype=float).reshape(shape)
        high = np.asarray(result.confidence_interval.high, dtype=float).reshape(shape)
    else:  # no stratum has two units: every resample is the data itself
        values = np.tile(estimate, (resamples, 1))
        low, high = estimate.reshape(shape).copy(), estimate.reshape(shape).copy()
    values = values.reshape(resamples, *shape)
    estimate = estimate.reshape(shape)
    support = None
    if _is_mixture(estimate, values, len(table.strategies)):
        support = (values > support_threshold).mean(axis=0)
    return BootstrapResult(estimate=estimate, values=values, low=low, high=high, confidence=float(confidence),
                           seed=int(seed), support=support, support_threshold=float(support_threshold))


def _is_mixture(estimate: np.ndarray, values: np.ndarray, k: int) -> bool:
    """Whether the statistic is a probability vector over the k strategies, on the data and every resample."""
    if estimate.shape != (k,) or not np.all(np.isfinite(values)):
        return False
    tolerance = 1e-6
    return bool(np.all(values >= -tolerance) and np.all(np.abs(values.sum(axis=1) - 1.0) <= tolerance)
                and np.all(estimate >= -tolerance) and abs(estimate.sum() - 1.0) <= tolerance)
