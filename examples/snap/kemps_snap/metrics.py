"""Snap's metrics, defined once: the columns of its summary, each with the tables it reads, its unit and direction,
its words and its estimator. The record names this tuple (its ``metrics`` part), so that kemps-sim's metric
registry knows them; the win rate is the catalogue's, shared with the built-in games and placed here among Snap's
own."""

from __future__ import annotations

from kemps_sim.metrics import Metric, get

GAME = ("snap",)


def _metric(name: str, tables: tuple[str, ...], columns: tuple[str, ...], unit: str, direction: str,
            description: str, estimator: str, legend: str, column: str | None = None, summary_ci: bool = False,
            counts: str = "matches") -> Metric:
    """A column of the Snap summary (:func:`kemps_snap.stats.snap_summary`)."""
    column = column or name
    return Metric(name, tables, columns, GAME, unit, direction, column, description, estimator, ("summary",),
                  column=column, summary_ci=summary_ci, counts=counts, legend=legend)


METRICS: tuple[Metric, ...] = (
    _metric("played", ("matches",), ("end_reason",), "matches", "none", "Snap matches played", "count",
            "matches played", column="matches"),
    get("win_rate"),
    _metric("draw_share", ("matches",), ("end_reason", "winner"), "share", "none",
            "the share of Snap matches stopped at max_seconds with a tie for most cards", "mean",
            "stopped at max_seconds with a tie for most cards"),
    _metric("timeouts", ("matches",), ("end_reason",), "matches", "none", "Snap matches stopped at max_seconds",
            "count", "of them, matches stopped at max_seconds"),
    _metric("right", ("calls",), ("verdict",), "calls", "higher", "right Snap calls per match, every player's",
            "mean", "right calls per match"),
    _metric("late", ("calls",), ("verdict",), "calls", "lower", "Snap calls heard after the match was taken, per "
            "match", "mean", "late calls per match"),
    _metric("false", ("calls",), ("verdict",), "calls", "lower", "Snap calls when no match showed, per match",
            "mean", "false calls per match"),
    _metric("right_share", ("calls",), ("verdict", "seed"), "share", "higher",
            "the share of Snap calls heard that were right", "clustered_share",
            "share of calls that were right (interval clustered by match)", summary_ci=True, counts="calls"),
    _metric("latency_median", ("calls",), ("verdict", "latency"), "seconds", "lower",
            "median seconds from a match showing to the right Snap call heard", "median",
            "median seconds from a match showing to the right call heard", counts="right calls"),
    _metric("minutes_median", ("matches",), ("duration",), "minutes", "none",
            "median length of a Snap match in simulated minutes", "median", "median simulated minutes per match"),
)
