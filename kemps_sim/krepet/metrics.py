"""Krepet's metrics, defined once: the columns of its summary (:func:`kemps_sim.krepet.stats.krepet_summary`), each
with the tables it reads, its unit and direction, its words and its estimator. The Krepet record names this tuple
(its ``metrics`` part), so the metric registry knows them; the win rate is the catalogue's, shared with Kemps and
placed here among Krepet's own."""

from __future__ import annotations

from kemps_sim.metrics import Metric, get

GAME = ("krepet",)


def _metric(name: str, tables: tuple[str, ...], columns: tuple[str, ...], unit: str, direction: str,
            description: str, estimator: str, legend: str, *, per_side: bool = False, summary_ci: bool = False,
            counts: str = "games") -> Metric:
    """A column of the Krepet summary, named as its column (``pairN_``, a player's, for one about a player)."""
    column = f"pairN_{name}" if per_side else name
    return Metric(name, tables, columns, GAME, unit, direction, column, description, estimator, ("summary",),
                  column=column, per_side=per_side, summary_ci=summary_ci, counts=counts, legend=legend)


METRICS: tuple[Metric, ...] = (
    _metric("games", ("matches",), ("end_reason",), "games", "none", "Krepet games played", "count", "games played"),
    get("win_rate"),
    _metric("draw_share", ("matches",), ("end_reason", "winner"), "share", "none",
            "the share of Krepet games both players got stuck in with equal cards", "mean",
            "share of games both players got stuck in with equal cards"),
    _metric("timeouts", ("matches",), ("end_reason",), "games", "lower",
            "Krepet games stopped at the time cap, a count", "count", "of them, games stopped at the time cap"),
    _metric("misses", ("misses",), ("player",), "misses", "none", "a Krepet player's callable misses per game",
            "mean", "player N's callable misses per game", per_side=True),
    _metric("caught_share", ("misses",), ("player", "caught", "seed"), "share", "higher",
            "the share of a Krepet player's callable misses that the opponent caught with a right call",
            "clustered_share", "share of player N's callable misses the opponent caught", per_side=True,
            summary_ci=True, counts="callable misses"),
    _metric("false_alarms", ("calls",), ("verdict",), "calls", "lower",
            "Krepet calls when nothing was missed, per game (both players)", "mean",
            "calls when nothing was missed, per game"),
    _metric("too_late", ("calls",), ("verdict",), "calls", "lower",
            "Krepet calls on a real miss heard after it stopped being callable, per game", "mean",
            "calls on a miss heard after it stopped being callable, per game"),
    _metric("latency_median", ("calls",), ("verdict", "latency"), "seconds", "lower",
            "median seconds from the first Krepet miss a right call caught to the call heard", "median",
            "median seconds from the first miss a right call caught to the call heard", counts="right calls"),
    _metric("moves", ("matches",), ("moves",), "moves", "none", "Krepet moves per game, both players'", "mean",
            "moves per game, both players'"),
    _metric("minutes_median", ("matches",), ("duration",), "minutes", "none",
            "median length of a Krepet game in simulated minutes", "median", "median simulated minutes per game"),
)
