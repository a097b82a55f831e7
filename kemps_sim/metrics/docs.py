"""The docs' metric tables, written from the registry: ``docs/statistics.md`` holds their text between marker
comments, and a test compares it with :func:`metric_tables`, so that the docs cannot drift from the metrics."""

from __future__ import annotations

from kemps_sim.games import BUILT_IN
from kemps_sim.metrics.catalogue import GROUP_LABELS, METRICS
from kemps_sim.metrics.estimators import ESTIMATORS
from kemps_sim.metrics.metric import Metric
from kemps_sim.metrics.registry import every, legend_text, own_metrics

#: The comments around the generated text in ``docs/statistics.md``.
BEGIN = "<!-- metric tables: written from kemps_sim.metrics (kemps_sim.metrics.docs.metric_tables) -->"
END = "<!-- end of metric tables -->"
_NONE = "–"
_BETTER = {"higher": "higher", "lower": "lower", "none": _NONE}


def _code(*names: str) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _summary_row(metric: Metric) -> str:
    printed = GROUP_LABELS.get(metric.group or "", metric.label)
    column = metric.column or ""
    csv = _code(column, "_ci_low", "_ci_high") if metric.summary_ci else _code(column)
    interval = ESTIMATORS[metric.estimator].interval if metric.summary_ci else _NONE
    return (f"| `{printed}` | {csv} | {metric.description} | {metric.unit} | {_BETTER[metric.direction]} | "
            f"{interval} |")


def _named_row(metric: Metric) -> str:
    estimator = ESTIMATORS[metric.estimator]
    interval = estimator.interval if estimator.interval != "-" else _NONE
    scoring = f"{metric.scoring} only" if metric.scoring else "any"
    uses = [word for role, word in (("compare", "`--compare`, `[compare]`"), ("target", "`until_metric`"))
            if role in metric.roles]
    return (f"| `{metric.name}` | {metric.description} | {', '.join(metric.games)} | {scoring} | "
            f"{metric.tables[0]} ({metric.counts}) | {interval} | {'; '.join(uses)} |")


def metric_tables() -> str:
    """The tables of ``docs/statistics.md``: every column of a Kemps summary, every metric a comparison or a
    precision target names, and every column of the summary of each built-in game with metrics of its own
    (Krepet's), each with what it measures and how it is estimated."""
    summary = [
        "| printed | in summary.csv | what it measures | unit | better | interval in the summary |",
        "|---|---|---|---|---|---|",
        *(_summary_row(metric) for metric in every("kemps", "summary")),
    ]
    named = [
        "| metric | what it measures | games | scoring rule | rows (what n counts) | interval of a value | named by |",
        "|---|---|---|---|---|---|---|",
        *(_named_row(metric) for metric in _named()),
    ]
    return "\n".join([BEGIN, "", *summary, "", "Metrics a comparison or a precision target names (`pairN_` columns "
                      "above are `win_rate`, and scores are `letters`, `points`, `rounds_won`, of `--pair N`):",
                      "", *named, *(line for name in BUILT_IN for line in _game_table(name)), "", END])


def _game_table(name: str) -> list[str]:
    """The columns of the summary of a built-in game with metrics of its own (Krepet's), as a table."""
    from kemps_sim.games import game

    record = game(name)
    mine = [metric for metric in own_metrics(name) if "summary" in metric.roles]
    if not mine:
        return []
    return ["", f"The columns of a {record.title} summary (`{record.unit}N_` for each {record.unit}):", "",
            "| in summary.csv | what it measures | unit | better | interval in the summary |", "|---|---|---|---|---|",
            *(_game_row(metric, record.unit, record.count_word) for metric in mine)]


def _game_row(metric: Metric, unit: str, count_word: str) -> str:
    column = metric.columns_for(("N",), unit=unit)[0]
    csv = _code(column, "_ci_low", "_ci_high") if metric.summary_ci else _code(column)
    interval = ESTIMATORS[metric.estimator].interval if metric.summary_ci else _NONE
    shared = any(metric is m for m in METRICS)  # the catalogue's, in words for every game: say it in this game's
    words = legend_text(metric, unit, count_word) if shared else metric.description
    return f"| {csv} | {words} | {metric.unit} | {_BETTER[metric.direction]} | {interval} |"


def _named() -> tuple[Metric, ...]:
    """The metrics a comparison or a precision target may name, in registry order."""
    return tuple(m for m in every() if "compare" in m.roles or "target" in m.roles)
