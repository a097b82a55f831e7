"""How long calls take: from four of a kind to the signal, from the signal to the call, and end to end.

The intervals measure the partnership's speed, so by default only right Kemps calls count: a wrong call has no
four of a kind behind it and its times are NaN anyway. The calls of one match are not independent draws, so the
interval of a mean delay is clustered by match (see :mod:`kemps_sim.stats._clusters`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from kemps_sim.stats._clusters import CLUSTERED_COLUMNS, MATCH, clustered_mean, with_matches
from kemps_sim.stats._groups import as_by, check_confidence, frame, group_fields, group_keys, require, split, truthy
from kemps_sim.stats.rates import KEMPS_CALLS

#: The delays of ``call_timings``, in their output order (seconds of simulated time).
TIMING_MEASURES = ("four_to_signal", "signal_to_call", "four_to_call")


def kemps_calls(calls: pd.DataFrame, right_only: bool = True) -> pd.DataFrame:
    """The Kemps and Double Kemps calls of a calls table, only the right ones unless ``right_only`` is False."""
    chosen = calls["call"].isin(KEMPS_CALLS)
    if right_only:
        chosen &= truthy(calls["right"])
    return calls[chosen]


def call_timings(calls: pd.DataFrame, by: Sequence[str] = ("cell",), right_only: bool = True,
                 confidence: float = 0.95) -> pd.DataFrame:
    """The mean and median delays of Kemps calls per group, the mean with a t interval clustered by match.

    ``four_to_signal`` is the time from the holder's four of a kind to its pair's signal, ``signal_to_call`` from
    the signal to the partner's call being heard, and ``four_to_call`` the two together. ``n`` counts the calls with
    that delay known (a call answering no signal has no ``four_to_signal``) and ``matches`` the matches they came
    from. The interval's variance is the between-match variance of the mean (never below the naive one, and
    ``design_effect`` times it) on ``matches - 1`` degrees of freedom; with one call per match it is the Student t
    interval. Every group of the calls table appears, with NaN if it has no such call. Delays are skewed to the
    right, so read ``median`` beside the mean.

    Columns: ``by``..., ``measure``, ``n``, ``value``, ``ci_low``, ``ci_high``, ``ci_level``, ``matches``,
    ``design_effect``, ``median``.
    """
    by, confidence = as_by(by), check_confidence(confidence)
    calls = with_matches(require(calls, "calls", by, ("call", "right", *TIMING_MEASURES)))
    chosen = split(kemps_calls(calls, right_only), by)
    empty = calls.iloc[:0]
    rows = []
    for key in group_keys(by, calls):
        made = chosen.get(key, empty)
        for measure in TIMING_MEASURES:
            values = made[measure].to_numpy(dtype=float)
            known = values[~np.isnan(values)]
            median = float(np.median(known)) if len(known) else np.nan
            estimate = clustered_mean(values, made[MATCH].to_numpy(), confidence)
            rows.append({**group_fields(by, key), "measure": measure, **estimate.fields(confidence),
                         "median": median})
    return frame(rows, [*by, "measure", *CLUSTERED_COLUMNS, "median"])
