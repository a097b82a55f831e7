"""The estimators a metric names: how its rows (a 0/1 per match, 0/1 rows clustered in matches, numbers per match,
delays) make one value, and its interval.

The interval estimators are the statistics package's own functions, named by reference (imported when first
called); the three without an interval (a count, a plain mean, a median of the known values) are defined here,
importing numpy only when called, so that this module, like the rest of :mod:`kemps_sim.metrics`, loads nothing
but the standard library.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from kemps_sim.metrics.metric import Estimator

_ESTIMATORS = (
    Estimator("wilson", "kemps_sim.stats._intervals:wilson", "Wilson",
              "(successes, trials, confidence): a 0/1 outcome per match, matches independent", "match_share"),
    Estimator("clustered_share", "kemps_sim.stats._clusters:clustered_share", "clustered by match",
              "(0/1 per row, the match of each row, confidence): a Wilson interval on the rows over their design "
              "effect (Korn and Graubard for few matches)", "share"),
    Estimator("t_mean", "kemps_sim.stats._intervals:mean_t", "t",
              "(one number per match, confidence): the mean with a Student t interval", "mean"),
    Estimator("median", "kemps_sim.metrics.estimators:median_of_known", "-",
              "(numbers, NaN for unknown): the median of the known ones, NaN with none", "median"),
    Estimator("count", "kemps_sim.metrics.estimators:count", "-", "(0/1 per row): how many are 1"),
    Estimator("mean", "kemps_sim.metrics.estimators:mean", "-", "(one number per match): the plain mean"),
)
#: Every estimator by name.
ESTIMATORS: dict[str, Estimator] = {estimator.name: estimator for estimator in _ESTIMATORS}


def median_of_known(values: Iterable[float]) -> float:
    """The median of the values that are not NaN (NaN when none is)."""
    import numpy as np

    known = np.asarray(list(values) if not hasattr(values, "__array__") else values, dtype=float)
    known = known[~np.isnan(known)]
    return float(np.median(known)) if len(known) else math.nan


def count(flags: Iterable[Any]) -> int:
    """How many of the flags are true."""
    return int(sum(bool(flag) for flag in flags))


def mean(values: Iterable[float]) -> float:
    """The mean of the values (NaN for none)."""
    import numpy as np

    values = np.asarray(list(values) if not hasattr(values, "__array__") else values, dtype=float)
    return float(values.mean()) if len(values) else math.nan
