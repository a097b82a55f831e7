"""How call accuracy changes with how well players see: the Kemps precision at the highest swept d' less that at the
lowest, paired by match.

A sweep that varies one factor (``profile.observer.acuity``, every seen d' times a factor) and keeps everything else
fixed plays replicate r of
every cell with the same seed (common random numbers), so the two levels' matches pair up: the difference of the
two precisions gets the paired linearisation interval over matches (:func:`kemps_sim.stats._clusters.
paired_ratio_difference`), the interval of the paired t-test on the per-match contributions. People call more
accurately the better they see (the acceptance of the realism work: "Kemps precision rises visibly with d'"); a
model whose errors do not depend on what is seen would show no gain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from kemps_sim.calibration.statistics import COLUMNS
from kemps_sim.errors import ConfigError
from kemps_sim.stats._clusters import SHARE_BOUNDS, paired_ratio_difference
from kemps_sim.stats._groups import check_confidence, frame

#: The swept factor the gain is measured along, as a sweep's results name it: how well every seat sees.
ACUITY = "profile.observer.acuity"
#: The statistic's name in a statistics table.
GAIN = "kemps_precision_gain"
KEMPS_CALLS = ("kemps", "double_kemps")


def precision_gain(tables: Mapping[str, pd.DataFrame] | Any, factor: str = ACUITY, by: Sequence[str] = (),
                   confidence: float = 0.95) -> pd.DataFrame:
    """Per group of ``by`` (columns of the calls table other than ``factor``): the Kemps precision at the highest
    level of ``factor`` less that at the lowest, paired by match seed, as a statistics row (:data:`COLUMNS`:
    ``count`` is the number of Kemps calls at the two levels, ``n`` the matches paired). Matches played at only one
    level are left out; a group with no Kemps call at a level has NaN.
    """
    calls = getattr(tables, "tables", tables)["calls"]
    confidence = check_confidence(confidence)
    missing = [c for c in (factor, "seed", "call", "right", *by) if c not in calls.columns]
    if missing:
        raise ConfigError(f"calls table: no column {missing[0]!r}: the precision gain needs a sweep over {factor}")
    kemps = calls[calls["call"].astype(str).isin(KEMPS_CALLS)]
    groups = [((), kemps)] if not by else list(kemps.groupby(list(by), sort=True, dropna=False))
    rows = []
    for key, chosen in groups:
        fields = dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True))
        levels = sorted(chosen[factor].dropna().unique())
        if len(levels) < 2:
            rows.append({**fields, **_row(np.nan, np.nan, np.nan, 0, 0)})
            continue
        low, high = (chosen[chosen[factor] == level] for level in (levels[0], levels[-1]))
        seeds = np.intersect1d(low["seed"].unique(), high["seed"].unique())
        found = paired_ratio_difference(_per_match(high, seeds), _per_match(low, seeds), confidence, SHARE_BOUNDS)
        count = int(low["seed"].isin(seeds).sum() + high["seed"].isin(seeds).sum())
        rows.append({**fields, **_row(found.difference, found.ci_low, found.ci_high, count, len(seeds))})
    return frame(rows, [*by, *COLUMNS])


def _per_match(calls: pd.DataFrame, seeds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(right Kemps calls, Kemps calls) of each match in ``seeds``, in that order."""
    mine = calls[calls["seed"].isin(seeds)]
    right = mine["right"].fillna(False).astype(bool)
    made = mine.groupby("seed").size().reindex(seeds, fill_value=0)
    hits = right.groupby(mine["seed"]).sum().reindex(seeds, fill_value=0)
    return hits.to_numpy(dtype=float), made.to_numpy(dtype=float)


def _row(estimate: float, low: float, high: float, count: int, matches: int) -> dict[str, Any]:
    return {"statistic": GAIN, "estimate": estimate, "low": low, "high": high, "count": count, "n": matches,
            "matches": matches, "basis": "tables"}
