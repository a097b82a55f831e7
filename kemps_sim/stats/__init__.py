"""Statistics of sweep result tables: shares, delays and scores per group with confidence intervals, tests of a
difference between two groups, and a one-row-per-group summary.

Every function groups by the ``by`` columns (``("cell",)`` unless told) and takes a ``confidence`` level. The
long outputs have the group columns first, then the function's key columns, then ``n``, ``value``, ``ci_low``,
``ci_high`` and ``ci_level`` (the level the interval is at); groups come sorted by ``by``. Intervals respect the
design: win rates and scores count matches (independent), while shares and delays of rounds, calls and fours of a
kind, several of which come from one match, get intervals clustered by match (with ``matches`` and
``design_effect`` columns). ``compare`` and ``paired_difference`` pair two groups replicate by replicate when they
played the same seeds (common random numbers). Intervals and tests come from ``scipy.stats`` where it has them.

One name per metric everywhere: ``win_rate``, ``kemps_precision``, ``stop_precision``, ``conversion_<fate>``,
``four_to_call`` (a delay; its median ``four_to_call_median``), ``letters``, ``points``, ``rounds_won``.

The sensitivity indices of a Sobol' or Morris sweep read its folder and its design, so they live with the sweeps
(:mod:`kemps_sim.sweep.sensitivity`); their checks (:mod:`kemps_sim.stats.sensitivity_checks`) stay here.
"""

from __future__ import annotations

from typing import Any

from kemps_sim.stats._clusters import clustered_share
from kemps_sim.stats._intervals import Estimate, wilson
from kemps_sim.stats._scoring import SCORING_COLUMN, SCORING_RULES
from kemps_sim.stats.difference import (
    METRICS,
    Comparison,
    compare,
    comparison_sentence,
    format_comparison,
    format_p,
    metrics_under,
    paired_difference,
)
from kemps_sim.stats.rates import ACCURACY_METRICS, FATES, call_accuracy, outcome_shares, win_rates
from kemps_sim.stats.standings import SCORE_MEASURES, scores
from kemps_sim.stats.summary import format_summary, summary_table
from kemps_sim.stats.text import apart, difference_text, estimate_text
from kemps_sim.stats.timing import TIMING_MEASURES, call_timings, kemps_calls

#: Names that moved to :mod:`kemps_sim.sweep.sensitivity` (they read sweep folders, which the statistics do not).
_MOVED = ("cell_metric", "morris_indices", "sobol_indices", "sobol_second_order")

__all__ = [
    "ACCURACY_METRICS",
    "FATES",
    "METRICS",
    "SCORE_MEASURES",
    "SCORING_COLUMN",
    "SCORING_RULES",
    "TIMING_MEASURES",
    "Comparison",
    "Estimate",
    "apart",
    "call_accuracy",
    "call_timings",
    "clustered_share",
    "compare",
    "comparison_sentence",
    "difference_text",
    "estimate_text",
    "format_comparison",
    "format_p",
    "format_summary",
    "kemps_calls",
    "metrics_under",
    "outcome_shares",
    "paired_difference",
    "scores",
    "summary_table",
    "wilson",
    "win_rates",
]


def __getattr__(name: str) -> Any:
    if name in _MOVED:  # an error, not a forward: the statistics sit below the sweeps and import nothing of them
        raise AttributeError(f"kemps_sim.stats.{name} has moved: use kemps_sim.sweep.sensitivity.{name} (also "
                             f"kemps_sim.sweep.{name})")
    raise AttributeError(f"module 'kemps_sim.stats' has no attribute {name!r}")
