"""The tests behind :func:`kemps_sim.stats.compare`, one per kind of metric and design: a paired test unit
by unit when both groups played the same matches (the same seeds), otherwise an unpaired one. Each returns its
statistic, p-value and the difference's interval as a mapping of :class:`~kemps_sim.stats.Comparison`
fields; the interval is always the set of differences its own test does not reject (:mod:`kemps_sim.stats._dual`),
so p < alpha exactly when the (1 - alpha) interval leaves out 0."""

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
    SHARE_BOUNDS,
    UNBOUNDED,
    Difference,
    clustered_share,
    effective_rows,
    paired_ratio_difference,
    totals,
    unit_columns,
    unpaired_ratio_difference,
)
from kemps_sim.stats._dual import bootstrap_dual, miettinen_nurminen, tango
from kemps_sim.stats._groups import Key, key_of
from kemps_sim.stats._intervals import NAN

#: The seed behind every resampling here, mixed with a hash of the data: the same tables give the same answer.
BOOTSTRAP_SEED = 20240601
#: Resamples of the bootstraps.
RESAMPLES = 9999


def _rng_keyword(function: Callable[..., Any]) -> str:
    """scipy 1.15 renamed the resampling functions' ``random_state`` to ``rng``; use whichever this scipy has."""
    return "rng" if "rng" in inspect.signature(function).parameters else "random_state"


_BOOTSTRAP_RNG = _rng_keyword(stats.bootstrap)


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
    """The paired comparison over ``units``: Tango's interval and McNemar's test for one 0/1 per unit and group
    (a win rate of matched matches), a bootstrap of units for medians, otherwise the paired t-test on the units'
    linearised differences with its own interval."""
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
    bounds = SHARE_BOUNDS if kind in ("match_share", "share") else UNBOUNDED
    outcome = ratio_outcome(paired_ratio_difference(sums[0], sums[1], confidence, bounds), rows_a, rows_b)
    (ya, ta), (yb, tb) = sums
    if kind == "match_share" and count and (ta == 1).all() and (tb == 1).all():
        favour_a, favour_b = int(((ya == 1) & (yb == 0)).sum()), int(((ya == 0) & (yb == 1)).sum())
        dual = tango(favour_a, favour_b, count, confidence)
        outcome.update(ci_low=dual.ci_low, ci_high=dual.ci_high, statistic=dual.statistic, p_value=dual.p_value,
                       test="mcnemar")
    return outcome


def ratio_outcome(found: Difference, rows_a: pd.DataFrame, rows_b: pd.DataFrame) -> dict[str, Any]:
    return {"value_a": found.value_a, "value_b": found.value_b, "difference": found.difference,
            "ci_low": found.ci_low, "ci_high": found.ci_high, "statistic": found.statistic,
            "p_value": found.p_value, "test": found.test, "n_a": len(rows_a), "n_b": len(rows_b), "se": found.se,
            "matches_a": _matches(rows_a), "matches_b": _matches(rows_b)}


# --- unpaired ----------------------------------------------------------------------------------------------------

def score_shares(rows_a: pd.DataFrame, rows_b: pd.DataFrame, confidence: float) -> dict[str, Any]:
    """Two independent shares of rows: Miettinen and Nurminen's score interval and the score test it inverts.

    Rows clustered in matches (calls, fours of a kind, or the matches of several cells that share seeds) enter
    with their effective sizes, ``n / d`` for design effect ``d`` and the few-matches factor of
    :func:`~kemps_sim.stats._clusters.clustered_share` (Rao and Scott's first-order correction); with one row per
    match and many matches that is ``n``, and the test is Pearson's chi-square times ``(N - 1) / N``.
    """
    found = [clustered_share(rows["_value"].to_numpy(), rows[MATCH].to_numpy(), confidence)
             for rows in (rows_a, rows_b)]
    est_a, est_b = found
    sizes = [effective_rows(e, confidence) for e in found]
    dual = miettinen_nurminen(est_a.value, sizes[0], est_b.value, sizes[1], confidence)
    se = NAN
    if est_a.n and est_b.n:
        se = math.sqrt(sum(e.value * (1 - e.value) / size for e, size in zip(found, sizes, strict=True)))
    clustered = any(e.n > e.matches for e in found)
    return {"value_a": est_a.value, "value_b": est_b.value, "difference": est_a.value - est_b.value,
            "ci_low": dual.ci_low, "ci_high": dual.ci_high, "statistic": dual.statistic, "p_value": dual.p_value,
            "test": "rao_scott_score" if clustered else "score", "n_a": est_a.n, "n_b": est_b.n, "se": se,
            "matches_a": _matches(rows_a), "matches_b": _matches(rows_b)}


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
        if not len(self.sorted):
            return np.full(chosen.shape[:-1], NAN)
        rows = chosen.reshape(math.prod(chosen.shape[:-1]), chosen.shape[-1]).astype(int)
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
               confidence: float) -> tuple[float, float, float, float]:
    """Interval, standard error and p of the median difference, all from one bootstrap distribution (resampling
    units when ``paired``, else each group's matches), so that the test and the interval agree."""
    def difference(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
        return pool.medians(np.moveaxis(x, axis, -1)) - pool.medians(np.moveaxis(y, axis, -1))

    observed = float(difference(first, second))
    if len(first) < 2 or len(second) < 2 or math.isnan(observed):
        return NAN, NAN, NAN, NAN
    rng = _rng(pool.sorted, pool.owner, first, second)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if paired:
            shift = int(second[0] - first[0])
            boot = stats.bootstrap((first,), lambda x, axis=-1: difference(x, x + shift, axis),
                                   vectorized=True, n_resamples=RESAMPLES, method="percentile",
                                   confidence_level=confidence, batch=pool.batch, **{_BOOTSTRAP_RNG: rng})
        else:
            boot = stats.bootstrap((first, second), difference, vectorized=True, n_resamples=RESAMPLES,
                                   method="percentile", confidence_level=confidence, batch=pool.batch,
                                   **{_BOOTSTRAP_RNG: rng})
    # A resample of only clusters without values has no median: those resamples are left out.
    drawn = boot.bootstrap_distribution[~np.isnan(boot.bootstrap_distribution)]
    dual = bootstrap_dual(drawn, confidence)
    se = float(np.std(drawn, ddof=1)) if len(drawn) > 1 else NAN
    return dual.ci_low, dual.ci_high, se, dual.p_value


def median_by_matches(rows_a: pd.DataFrame, rows_b: pd.DataFrame, confidence: float) -> dict[str, Any]:
    # Each group's own matches are its clusters (two cells of a group that share a seed make one cluster).
    per_group = [[np.asarray(values, dtype=float) for _, values in rows.groupby(MATCH, sort=True)["_value"]]
                 for rows in (rows_a, rows_b)]
    clusters, count_a = per_group[0] + per_group[1], len(per_group[0])
    pool = _Pooled(clusters)
    first, second = np.arange(count_a), np.arange(count_a, len(clusters))
    low, high, se, p_value = _resampled(pool, first, second, False, confidence)
    median_a, median_b = pool.median(first), pool.median(second)
    return {"value_a": median_a, "value_b": median_b, "difference": median_a - median_b, "ci_low": low,
            "ci_high": high, "statistic": median_a - median_b, "p_value": p_value, "test": "match_bootstrap",
            "n_a": len(rows_a), "n_b": len(rows_b), "se": se, "matches_a": _matches(rows_a),
            "matches_b": _matches(rows_b)}


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
    low, high, se, p_value = _resampled(pool, first, second, True, confidence)
    median_a, median_b = pool.median(first), pool.median(second)
    return {"value_a": median_a, "value_b": median_b, "difference": median_a - median_b, "ci_low": low,
            "ci_high": high, "statistic": median_a - median_b, "p_value": p_value, "test": "paired_bootstrap",
            "n_a": len(rows_a), "n_b": len(rows_b), "se": se, "matches_a": _matches(rows_a),
            "matches_b": _matches(rows_b)}
