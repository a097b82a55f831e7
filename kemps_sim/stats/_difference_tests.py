"""The tests behind :func:`kemps_sim.stats.compare.compare`, one per kind of metric and design: a paired test unit
by unit when both groups played the same replicates with the same seeds, otherwise an unpaired one; each returns
its statistic, p-value and the difference's interval as a mapping of :class:`~kemps_sim.stats.compare.Comparison`
fields."""

from __future__ import annotations

import hashlib
import inspect
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from kemps_sim.stats._clusters import (
    MATCH,
    Difference,
    clustered_share,
    paired_ratio_difference,
    totals,
    unit_columns,
    unpaired_ratio_difference,
)
from kemps_sim.stats._groups import Key, key_of
from kemps_sim.stats._intervals import NAN, Estimate, newcombe_difference, wilson

#: The seed behind every resampling here, mixed with a hash of the data: the same tables give the same answer.
BOOTSTRAP_SEED = 20240601
#: Resamples of the bootstraps and permutation tests (a permutation test with fewer arrangements is exact).
RESAMPLES = 9999


def _rng_keyword(function: Callable[..., Any]) -> str:
    """scipy 1.15 renamed the resampling functions' ``random_state`` to ``rng``; use whichever this scipy has."""
    return "rng" if "rng" in inspect.signature(function).parameters else "random_state"


_BOOTSTRAP_RNG, _PERMUTATION_RNG = _rng_keyword(stats.bootstrap), _rng_keyword(stats.permutation_test)


def match_totals(rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    return totals(rows["_value"].to_numpy(), rows[MATCH].to_numpy())


def _matches(rows: pd.DataFrame) -> int:
    """How many matches the rows came from: distinct (cell, replicate, seed), so that two cells of one group that
    share a seed (common random numbers) count as two matches here, though as one cluster in the variance."""
    if not len(rows):
        return 0
    columns = [c for c in ("cell", *unit_columns(rows)) if c in rows.columns] if unit_columns(rows) else []
    return len(rows[columns].drop_duplicates()) if columns else int(rows[MATCH].nunique())


# --- paired ------------------------------------------------------------------------------------------------------

def _unit_index(rows: pd.DataFrame, columns: tuple[str, ...], units: list[Key]) -> np.ndarray:
    """Each row's position in ``units``, -1 for a row of a unit not listed."""
    where = {unit: i for i, unit in enumerate(units)}
    return np.array([where.get(key_of(u), -1) for u in rows[list(columns)].itertuples(index=False, name=None)],
                    dtype=int)


def paired_outcome(rows_a: pd.DataFrame, rows_b: pd.DataFrame, units: tuple[tuple[str, ...], list[Key]],
                   kind: str, confidence: float) -> dict[str, Any]:
    columns, listed = units
    count = len(listed)
    index_a, index_b = _unit_index(rows_a, columns, listed), _unit_index(rows_b, columns, listed)
    if kind == "median":
        return _median_by_units(rows_a, rows_b, index_a, index_b, count, confidence)
    sums = []
    for rows, index in ((rows_a, index_a), (rows_b, index_b)):
        keep = index >= 0
        values = rows["_value"].to_numpy()[keep]
        sums.append((np.bincount(index[keep], weights=values, minlength=count),
                     np.bincount(index[keep], minlength=count).astype(float)))
    outcome = ratio_outcome(paired_ratio_difference(sums[0], sums[1], confidence), rows_a, rows_b)
    if kind in ("match_share", "share"):
        outcome.update(_paired_share_interval(rows_a, rows_b, sums[0], sums[1], confidence))
        if kind == "match_share":
            outcome.update(_sign_test(sums[0], sums[1]))
    return outcome


def _paired_share_interval(rows_a: pd.DataFrame, rows_b: pd.DataFrame, a: tuple[np.ndarray, np.ndarray],
                           b: tuple[np.ndarray, np.ndarray], confidence: float) -> dict[str, float]:
    """Newcombe's (1998) interval for a difference of paired proportions (his method 10), on clustered limits.

    Each side of the difference widens by the matching half-widths of the two groups' clustered Wilson intervals
    (:func:`~kemps_sim.stats._clusters.clustered_share`), combined with the correlation ``phi`` of the two groups'
    per-unit residuals ``(y_r - R t_r) / T``: ``DL^2 = (p_a - l_a)^2 - 2 phi (p_a - l_a)(u_b - p_b) + (u_b - p_b)^2``
    and the mirror image for ``DU``. With one 0/1 value per unit and group, ``phi`` is the phi coefficient of the
    paired 2x2 table and this is Newcombe's method exactly. Unlike a t interval it stays honest at shares of 0 or
    1, where the units' differences have no spread.
    """
    found = [clustered_share(rows["_value"].to_numpy(), rows[MATCH].to_numpy(), confidence)
             for rows in (rows_a, rows_b)]
    est_a, est_b = found
    if not est_a.n or not est_b.n:
        return {"ci_low": NAN, "ci_high": NAN}
    residuals = [(y - (y.sum() / t.sum()) * t) / t.sum() for y, t in (a, b)]
    spread = math.sqrt(float((residuals[0] ** 2).sum() * (residuals[1] ** 2).sum()))
    phi = float((residuals[0] * residuals[1]).sum()) / spread if spread > 0 else 0.0
    phi = min(1.0, max(-1.0, phi))
    difference = est_a.value - est_b.value
    below = (est_a.value - est_a.ci_low, est_b.ci_high - est_b.value)
    above = (est_a.ci_high - est_a.value, est_b.value - est_b.ci_low)
    low = difference - math.sqrt(max(0.0, below[0] ** 2 - 2 * phi * below[0] * below[1] + below[1] ** 2))
    high = difference + math.sqrt(max(0.0, above[0] ** 2 - 2 * phi * above[0] * above[1] + above[1] ** 2))
    return {"ci_low": max(-1.0, low), "ci_high": min(1.0, high)}


def _sign_test(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> dict[str, Any]:
    """The exact sign test on the units' differences: with one 0/1 value per unit and group, the exact McNemar
    test (a binomial test of the units that favour A among those that differ)."""
    (ya, ta), (yb, tb) = a, b
    both = (ta > 0) & (tb > 0)
    differences = ya[both] / ta[both] - yb[both] / tb[both]
    favour_a, differ = int((differences > 1e-12).sum()), int((np.abs(differences) > 1e-12).sum())
    p_value = float(stats.binomtest(favour_a, differ).pvalue) if differ else 1.0
    return {"statistic": float(favour_a), "p_value": p_value, "test": "sign_test"}


def ratio_outcome(found: Difference, rows_a: pd.DataFrame, rows_b: pd.DataFrame) -> dict[str, Any]:
    return {"value_a": found.value_a, "value_b": found.value_b, "difference": found.difference,
            "ci_low": found.ci_low, "ci_high": found.ci_high, "statistic": found.statistic,
            "p_value": found.p_value, "test": found.test, "n_a": len(rows_a), "n_b": len(rows_b), "se": found.se,
            "matches_a": _matches(rows_a), "matches_b": _matches(rows_b)}


# --- unpaired ----------------------------------------------------------------------------------------------------

def fisher(rows_a: pd.DataFrame, rows_b: pd.DataFrame, confidence: float) -> dict[str, Any]:
    won_a, won_b = rows_a["_value"].to_numpy(), rows_b["_value"].to_numpy()
    ka, kb = int(won_a.sum()), int(won_b.sum())
    est_a, est_b = wilson(ka, len(won_a), confidence), wilson(kb, len(won_b), confidence)
    low, high = newcombe_difference(est_a, est_b)
    statistic = p_value = se = NAN
    if est_a.n and est_b.n:
        result = stats.fisher_exact([[ka, est_a.n - ka], [kb, est_b.n - kb]])
        statistic, p_value = float(result.statistic), float(result.pvalue)
        se = math.sqrt(est_a.value * (1 - est_a.value) / est_a.n + est_b.value * (1 - est_b.value) / est_b.n)
    return {"value_a": est_a.value, "value_b": est_b.value, "difference": est_a.value - est_b.value,
            "ci_low": low, "ci_high": high, "statistic": statistic, "p_value": p_value, "test": "fisher_exact",
            "n_a": est_a.n, "n_b": est_b.n, "se": se, "matches_a": _matches(rows_a), "matches_b": _matches(rows_b)}


def clustered_shares(rows_a: pd.DataFrame, rows_b: pd.DataFrame, confidence: float) -> dict[str, Any]:
    """Newcombe's interval from the two clustered Wilson intervals; Rao–Scott's corrected chi-square test.

    The first-order Rao–Scott statistic is Pearson's chi-square of the 2x2 table (pooled share ``P``) with each
    group's binomial variance multiplied by its design effect: ``D^2 / (P (1 - P) (d_a / n_a + d_b / n_b))`` on
    one degree of freedom. With design effects of 1 it is Pearson's chi-square.
    """
    found = [clustered_share(rows["_value"].to_numpy(), rows[MATCH].to_numpy(), confidence)
             for rows in (rows_a, rows_b)]
    est_a, est_b = found
    low, high = newcombe_difference(*(Estimate(e.n, e.value, e.ci_low, e.ci_high) for e in found))
    statistic = p_value = se = NAN
    if est_a.n and est_b.n:
        pooled = (est_a.value * est_a.n + est_b.value * est_b.n) / (est_a.n + est_b.n)
        spread = pooled * (1 - pooled) * (est_a.design_effect / est_a.n + est_b.design_effect / est_b.n)
        difference = est_a.value - est_b.value
        statistic = difference**2 / spread if spread > 0 else 0.0
        p_value = float(stats.chi2.sf(statistic, 1)) if spread > 0 else 1.0
        se = math.sqrt(sum(e.design_effect * e.value * (1 - e.value) / e.n for e in found))
    return {"value_a": est_a.value, "value_b": est_b.value, "difference": est_a.value - est_b.value,
            "ci_low": low, "ci_high": high, "statistic": statistic, "p_value": p_value, "test": "rao_scott_chi2",
            "n_a": est_a.n, "n_b": est_b.n, "se": se, "matches_a": _matches(rows_a), "matches_b": _matches(rows_b)}


def welch(rows_a: pd.DataFrame, rows_b: pd.DataFrame, confidence: float) -> dict[str, Any]:
    """Welch's t-test on the per-match values (one row per match); the same as scipy's ``ttest_ind``."""
    found = unpaired_ratio_difference(match_totals(rows_a), match_totals(rows_b), confidence)
    return ratio_outcome(found, rows_a, rows_b)


# --- medians: resampling whole matches or whole units ------------------------------------------------------------

class _Pooled:
    """The values of many clusters, so that the median of any choice of clusters (with repeats) comes fast.

    A choice of clusters pools their values; a cluster chosen twice counts twice. ``medians`` takes a batch of
    choices at once (one per row) and finds each pooled median as a weighted median over the sorted values.
    """

    def __init__(self, clusters: list[np.ndarray]) -> None:
        values = np.concatenate(clusters) if clusters else np.zeros(0)
        owner = np.repeat(np.arange(len(clusters)), [len(c) for c in clusters])
        order = np.argsort(values, kind="stable")
        self.sorted, self.owner, self.count = values[order], owner[order], len(clusters)
        # Rows of a batch: at most about two million weights in memory at once.
        self.batch = max(1, min(1000, 2_000_000 // max(1, len(values))))

    def medians(self, chosen: np.ndarray) -> np.ndarray:
        """The pooled median of each row of ``chosen`` (cluster numbers on the last axis); NaN for no values."""
        chosen = np.asarray(chosen)
        rows = chosen.reshape(-1, chosen.shape[-1]).astype(int)
        out = np.full(len(rows), NAN)
        for start in range(0, len(rows), self.batch):
            part = rows[start:start + self.batch]
            times = np.zeros((len(part), self.count))
            np.add.at(times, (np.arange(len(part))[:, None], part), 1.0)
            running = np.cumsum(times[:, self.owner], axis=1)
            total = running[:, -1] if running.shape[1] else np.zeros(len(part))
            low = np.argmax(running >= ((total + 1) // 2)[:, None], axis=1)
            high = np.argmax(running >= (total // 2 + 1)[:, None], axis=1)
            found = (self.sorted[low] + self.sorted[high]) / 2 if len(self.sorted) else np.full(len(part), NAN)
            out[start:start + len(part)] = np.where(total > 0, found, NAN)
        return out.reshape(chosen.shape[:-1])

    def median(self, chosen: np.ndarray) -> float:
        return float(self.medians(np.asarray(chosen)))


def _rng(*arrays: np.ndarray) -> np.random.Generator:
    digest = hashlib.sha256()
    for array in arrays:
        digest.update(np.ascontiguousarray(array, dtype=float).tobytes())
        digest.update(b"|")
    return np.random.default_rng([BOOTSTRAP_SEED, int.from_bytes(digest.digest()[:8], "little")])


def _resampled(pool: _Pooled, first: np.ndarray, second: np.ndarray, paired: bool,
               confidence: float) -> tuple[float, float, float, float, float]:
    """Interval, standard error, statistic and p of the median difference by bootstrap and permutation test."""
    def difference(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
        return pool.medians(np.moveaxis(x, axis, -1)) - pool.medians(np.moveaxis(y, axis, -1))

    observed = float(difference(first, second))
    low = high = se = p_value = NAN
    rng = _rng(pool.sorted, pool.owner, first, second)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if len(first) and len(second) and not math.isnan(observed):
            test = stats.permutation_test((first, second), difference, vectorized=True, n_resamples=RESAMPLES,
                                          permutation_type="samples" if paired else "independent",
                                          batch=pool.batch, **{_PERMUTATION_RNG: rng})
            p_value = float(test.pvalue)
        if len(first) > 1 and len(second) > 1 and not math.isnan(observed):
            if paired:
                shift = int(second[0] - first[0])
                boot = stats.bootstrap((first,), lambda x, axis=-1: difference(x, x + shift, axis),
                                       vectorized=True, n_resamples=RESAMPLES, method="percentile",
                                       confidence_level=confidence, batch=pool.batch, **{_BOOTSTRAP_RNG: rng})
            else:
                boot = stats.bootstrap((first, second), difference, vectorized=True, n_resamples=RESAMPLES,
                                       method="percentile", confidence_level=confidence, batch=pool.batch,
                                       **{_BOOTSTRAP_RNG: rng})
            # A resample of only clusters without values has no median: the percentiles skip those resamples.
            drawn = boot.bootstrap_distribution[~np.isnan(boot.bootstrap_distribution)]
            if len(drawn) > 1:
                low, high = (float(v) for v in np.percentile(drawn, [50 * (1 - confidence), 50 * (1 + confidence)]))
                se = float(np.std(drawn, ddof=1))
    return low, high, se, observed, p_value


def median_by_matches(rows_a: pd.DataFrame, rows_b: pd.DataFrame, confidence: float) -> dict[str, Any]:
    clusters = [np.asarray(values, dtype=float) for rows in (rows_a, rows_b)
                for _, values in rows.groupby(MATCH, sort=True)["_value"]]
    count_a = _matches(rows_a)
    pool = _Pooled(clusters)
    first, second = np.arange(count_a), np.arange(count_a, len(clusters))
    low, high, se, _, p_value = _resampled(pool, first, second, False, confidence)
    median_a, median_b = pool.median(first), pool.median(second)
    return {"value_a": median_a, "value_b": median_b, "difference": median_a - median_b, "ci_low": low,
            "ci_high": high, "statistic": median_a - median_b, "p_value": p_value, "test": "match_permutation",
            "n_a": len(rows_a), "n_b": len(rows_b), "se": se, "matches_a": count_a, "matches_b": _matches(rows_b)}


def _median_by_units(rows_a: pd.DataFrame, rows_b: pd.DataFrame, index_a: np.ndarray, index_b: np.ndarray,
                     count: int, confidence: float) -> dict[str, Any]:
    # Units without a value in either group add nothing to any pooled median; they are left out of the resampling.
    used = np.union1d(index_a[index_a >= 0], index_b[index_b >= 0])
    count = len(used)
    clusters = []
    for rows, index in ((rows_a, index_a), (rows_b, index_b)):
        values = rows["_value"].to_numpy()
        clusters += [values[index == unit] for unit in used]
    pool = _Pooled(clusters)
    first, second = np.arange(count), np.arange(count, 2 * count)
    low, high, se, _, p_value = _resampled(pool, first, second, True, confidence)
    median_a, median_b = pool.median(first), pool.median(second)
    return {"value_a": median_a, "value_b": median_b, "difference": median_a - median_b, "ci_low": low,
            "ci_high": high, "statistic": median_a - median_b, "p_value": p_value, "test": "paired_permutation",
            "n_a": len(rows_a), "n_b": len(rows_b), "se": se, "matches_a": _matches(rows_a),
            "matches_b": _matches(rows_b)}
