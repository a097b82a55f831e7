"""Statistics of sweep result tables: shares, delays and scores per group with confidence intervals, tests of a
difference between two groups, and a one-row-per-group summary.

Every function groups by the ``by`` columns (``("cell",)`` unless told) and takes a ``confidence`` level. The
long outputs have the group columns first, then the function's key columns, then ``n``, ``value``, ``ci_low``
and ``ci_high``; groups come sorted by ``by``. All intervals and tests are computed by ``scipy.stats``.
"""

from __future__ import annotations

from kemps_sim.stats.compare import METRICS, Comparison, compare
from kemps_sim.stats.rates import ACCURACY_METRICS, FATES, call_accuracy, outcome_shares, win_rates
from kemps_sim.stats.standings import SCORE_MEASURES, scores
from kemps_sim.stats.summary import format_summary, summary_table
from kemps_sim.stats.timing import TIMING_MEASURES, call_timings, kemps_calls

__all__ = [
    "ACCURACY_METRICS",
    "FATES",
    "METRICS",
    "SCORE_MEASURES",
    "TIMING_MEASURES",
    "Comparison",
    "call_accuracy",
    "call_timings",
    "compare",
    "format_summary",
    "kemps_calls",
    "outcome_shares",
    "scores",
    "summary_table",
    "win_rates",
]
