"""Every report metric of Kemps and every metric games share, once: the one place such a metric's name, tables, games,
scoring rule, unit, direction, label, words and estimator are written (a game's own metrics are defined in its
package and named by its record, as Krepet's are in :mod:`kemps_sim.krepet.metrics`). Everything else (the summary
and its legend, ``report --metric``, a spec's ``[compare]`` and ``until_metric``, the comparison machinery, the
figures' captions, the docs' table) reads them through :mod:`kemps_sim.metrics`.

The order of :data:`METRICS` is the order of the summary's columns and of every list of names printed in help
and errors.
"""

from __future__ import annotations

from kemps_sim.games import BUILT_IN, DEFAULT_GAME
from kemps_sim.metrics.metric import Metric

#: Kemps alone; every built-in game (Kemps and Krepet: each writes a pairs table with a row per side and match).
KEMPS = (DEFAULT_GAME,)
BOTH = tuple(BUILT_IN)
_ACCURACY_ROLES = ("compare", "target", "accuracy")

#: The summary legend's words for metrics explained together, in one entry (``Metric.group``).
LEGEND_GROUPS: dict[str, str] = {
    "precision": "share of Kemps calls (Double Kemps included) and of Stop Kemps calls that were right",
    "conversion": "share of fours of a kind called by their own pair, and stolen by a Stop Kemps of the other pair",
    "calls": "right and wrong Kemps calls, right and wrong Stop Kemps calls (counts)",
}
#: The printed label of a group whose metrics print as one column (the four call counts as ``K+/K-/S+/S-``).
GROUP_LABELS: dict[str, str] = {"calls": "K+/K-/S+/S-"}


def _count(name: str, description: str) -> Metric:
    """A count of calls of one outcome (the summary prints the four as one column)."""
    return Metric(name, ("calls",), ("call", "right"), KEMPS, "calls", "none", name, description, "count",
                  ("summary",), column=name, counts="calls", group="calls")


def _conversion(fate: str, label: str, description: str, caption: str, summary: bool) -> Metric:
    """The share of fours of a kind with one fate."""
    return Metric(f"conversion_{fate}", ("fours",), ("fate",), KEMPS, "share", "none", label, description,
                  "clustered_share", (*(("summary",) if summary else ()), *_ACCURACY_ROLES),
                  column=f"conversion_{fate}" if summary else None, counts="fours of a kind", caption=caption,
                  group="conversion" if summary else None)


METRICS: tuple[Metric, ...] = (
    Metric("matches", ("matches",), ("end_reason",), KEMPS, "matches", "none", "matches", "matches played",
           "count", ("summary",), column="matches", legend="matches played"),
    Metric("failures", ("matches",), ("end_reason",), KEMPS, "matches", "lower", "failures",
           "matches that ended in an agent error or a crash", "count", ("summary",), column="failures",
           legend="of them, matches that ended in an agent error or a crash"),
    Metric("rounds_per_match", ("pairs",), ("pair", "rounds"), KEMPS, "rounds", "none", "rounds",
           "mean rounds per match", "mean", ("summary",), column="rounds_per_match", legend="mean rounds per match"),
    Metric("win_rate", ("pairs",), ("pair", "won"), BOTH, "share", "higher", "pairN_win_rate",
           "the share of matches pair N won (co-winners each count)", "wilson", ("summary", "compare", "target"),
           column="pairN_win_rate", per_side=True, summary_ci=True,
           legend="share of {matches} {side} N won (co-wins count)"),
    Metric("kemps_precision", ("calls",), ("call", "right"), KEMPS, "share", "higher", "K_prec",
           "the share of Kemps (and Double Kemps) calls that were right", "clustered_share",
           ("summary", *_ACCURACY_ROLES), column="kemps_precision", counts="Kemps calls",
           caption="Kemps calls that were right", group="precision"),
    Metric("stop_precision", ("calls",), ("call", "right"), KEMPS, "share", "higher", "S_prec",
           "the share of Stop Kemps calls that were right", "clustered_share", ("summary", *_ACCURACY_ROLES),
           column="stop_precision", counts="Stop Kemps calls", caption="Stop Kemps calls that were right",
           group="precision"),
    _conversion("kemps", "conv_K", "the share of fours of a kind called by their own pair",
                "fours called Kemps by the partner", summary=True),
    _conversion("stolen", "stolen", "the share of fours of a kind stolen by a Stop Kemps",
                "fours stolen by a Stop Kemps", summary=True),
    _conversion("uncalled", "conversion_uncalled", "the share of fours of a kind still held when the round ended "
                "otherwise", "fours left uncalled", summary=False),
    _conversion("broken", "conversion_broken", "the share of fours of a kind broken up before any call",
                "fours broken before any call", summary=False),
    _count("kemps_right_calls", "right Kemps calls (Double Kemps included), a count"),
    _count("kemps_wrong_calls", "wrong Kemps calls (Double Kemps included), a count"),
    _count("stop_right_calls", "right Stop Kemps calls, a count"),
    _count("stop_wrong_calls", "wrong Stop Kemps calls, a count"),
    Metric("four_to_call_median", ("calls",), ("call", "right", "four_to_call"), KEMPS, "seconds", "lower",
           "t_call", "median seconds from four of a kind to a right Kemps call", "median", ("summary", "compare"),
           column="four_to_call_median", counts="right Kemps calls",
           legend="median seconds from four of a kind to a right Kemps call"),
    Metric("letters", ("pairs",), ("pair", "letters"), KEMPS, "letters", "lower", "p0_letters",
           "a pair's mean letters per match (pair 0's in the summary); letters are penalties", "t_mean",
           ("summary", "compare"), column="pair0_letters", scoring="letters", score_of="letters", per_side=True,
           legend="pair 0's mean letters per match (letters scoring); letters are penalties, fewer is better"),
    Metric("points", ("pairs",), ("pair", "points"), KEMPS, "points", "higher", "p0_points",
           "a pair's mean points per match (pair 0's in the summary)", "t_mean", ("summary", "compare"),
           column="pair0_points", scoring="points", score_of="points", per_side=True,
           legend="pair 0's mean points per match (points scoring); more is better"),
    Metric("rounds_won", ("pairs",), ("pair", "rounds_won"), KEMPS, "rounds", "higher", "p0_rounds_won",
           "a pair's mean rounds won per match (pair 0's in the summary; counted under every rule, the score "
           "under rounds-won scoring)", "t_mean", ("summary", "compare"), column="pair0_rounds_won",
           score_of="rounds_won", per_side=True,
           legend="pair 0's mean rounds won per match (rounds-won scoring); more is better"),
)
