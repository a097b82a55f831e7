"""The metric registry: a metric by name (:func:`get`), the names of a game's metrics in a role (:func:`names`),
and the few views of them that several layers share (the spelling of an ``--until-ci`` target, the metrics a
scoring rule alone records).

A game defines its own metrics in its package and names them in its record (the ``metrics`` part: a tuple of
:class:`Metric`, each naming the game, among which it may place the catalogue's it shares, such as ``win_rate``); a
third-party game also shares the catalogue's that its record's ``compare_metrics`` lists. A game's own names are its
own, so they may repeat a name another game's metric has. A third-party game with neither gets every metric of the
role, as before there was a registry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kemps_sim.errors import ConfigError
from kemps_sim.metrics.catalogue import METRICS
from kemps_sim.metrics.estimators import ESTIMATORS
from kemps_sim.metrics.metric import ROLES, Estimator, Metric
from kemps_sim.suggest import did_you_mean

_BY_NAME: dict[str, Metric] = {metric.name: metric for metric in METRICS}
#: Every game some metric names.
KNOWN_GAMES: tuple[str, ...] = tuple(dict.fromkeys(game for metric in METRICS for game in metric.games))
#: An ``--until-ci`` target about one side, spelled with its side: ``pair1.win_rate``.
_SIDE_TARGET = re.compile(r"(pair|player)(\d+)\.([a-z_]+)")


def _check(metrics: Iterable[Metric]) -> None:
    """Every metric's estimator exists and every name is defined once."""
    seen: set[str] = set()
    for metric in metrics:
        if metric.name in seen:
            raise ConfigError(f"metric {metric.name!r}: defined twice")
        seen.add(metric.name)
        if metric.estimator not in ESTIMATORS:
            raise ConfigError(f"metric {metric.name!r}: estimator {metric.estimator!r} unknown; estimators are "
                              f"{', '.join(ESTIMATORS)}")


_check(METRICS)


def every(game: str | None = None, role: str | None = None) -> tuple[Metric, ...]:
    """The metrics of ``game`` (None: the catalogue's and every built-in game's own) in ``role`` (None: every role):
    the game's own metrics in their order (its record's ``metrics``: the catalogue's it lists are placed there), then
    the catalogue's that apply to it."""
    if role is not None and role not in ROLES:
        raise ConfigError(f"role {role!r}: unknown; roles are {', '.join(ROLES)}")
    if game is None:
        from kemps_sim.games import BUILT_IN

        found = [*METRICS, *(m for name in BUILT_IN for m in own_metrics(name) if m.name not in _BY_NAME)]
        return tuple(metric for metric in found if role is None or role in metric.roles)
    chosen = [metric for metric in METRICS if role is None or role in metric.roles]
    own = [metric for metric in own_metrics(game) if role is None or role in metric.roles]
    if game not in KNOWN_GAMES:
        return tuple(_foreign(game, chosen, own, role))
    return tuple([*own, *(metric for metric in chosen if metric.applies_to(game) and metric not in own)])


def _foreign(game: str, chosen: list[Metric], own: list[Metric], role: str | None) -> list[Metric]:
    """A game the catalogue does not name: its own metrics, then the catalogue's that its record's
    ``compare_metrics`` shares; with neither, every metric of the role (as before there was a registry)."""
    from kemps_sim.games import game as game_record

    listed = game_record(game).compare_metrics
    if not own_metrics(game):
        if listed is None or role not in ("compare", "target"):
            return chosen
        return [metric for metric in chosen if metric.name in listed]
    return [*own, *(metric for metric in chosen if metric.name in (listed or ()) and metric not in own)]


def own_metrics(game: str) -> tuple[Metric, ...]:
    """The metrics a game's record defines (its ``metrics`` part; none without one), checked: a tuple of
    :class:`Metric`, each the catalogue's own (shared, and placed here) or one naming the game with a known
    estimator, no name twice."""
    from kemps_sim.games import game as game_record

    found = game_record(game).hook("metrics") or ()
    if not isinstance(found, tuple) or not all(isinstance(metric, Metric) for metric in found):
        raise ConfigError(f"game {game!r}: its metrics must be a tuple of kemps_sim.metrics.Metric")
    _check(found)
    for metric in found:
        if _BY_NAME.get(metric.name) is not metric and game not in metric.games:
            raise ConfigError(f"metric {metric.name!r} of game {game!r}: its games {metric.games} must name {game!r}")
    return found


def names(game: str | None = None, role: str | None = None) -> tuple[str, ...]:
    """The names of :func:`every` metric of ``game`` in ``role``."""
    return tuple(metric.name for metric in every(game, role))


def get(name: str, game: str | None = None) -> Metric:
    """The metric called ``name``; with ``game``, one that applies to it. Otherwise a one-line ConfigError that
    suggests a name and lists the allowed ones."""
    metric = _BY_NAME.get(name) if isinstance(name, str) else None
    if game is not None and isinstance(name, str):  # a game's own names come first
        metric = next((m for m in every(game) if m.name == name), metric)
    elif metric is None and isinstance(name, str):
        metric = next((m for m in every() if m.name == name), None)
    if metric is None:
        allowed = names(game)
        raise ConfigError(f"metric {name!r}: unknown{did_you_mean(str(name), allowed)}; allowed: "
                          f"{', '.join(allowed)}")
    if game is not None and metric not in every(game):
        raise ConfigError(f"metric {name!r}: does not apply to a {game} sweep; its metrics: "
                          f"{', '.join(names(game))}")
    return metric


def estimator(metric: Metric | str) -> Estimator:
    """The :class:`Estimator` of a metric (or of the metric called so)."""
    found = metric if isinstance(metric, Metric) else get(metric)
    return ESTIMATORS[found.estimator]


def target_names(game: str | None = None) -> tuple[str, ...]:
    """How an ``--until-ci`` target may be written: each target metric, and after a metric about one side its
    spelling for side N (``pairN.win_rate``)."""
    spelled: list[str] = []
    for metric in every(game, "target"):
        spelled.append(metric.name)
        if metric.per_side:
            spelled.append(f"pairN.{metric.name}")
    return tuple(spelled)


def side_target(text: str) -> tuple[Metric, int] | None:
    """The metric and side of a target spelled for one side (``pair1.win_rate``), or None if ``text`` is not
    spelled so or names no metric about one side."""
    found = _SIDE_TARGET.fullmatch(text) if isinstance(text, str) else None
    if found is None or found.group(1) != "pair":
        return None
    metric = _BY_NAME.get(found.group(3))
    if metric is None or not metric.per_side or "target" not in metric.roles:
        return None
    return metric, int(found.group(2))


def scored_only_under(role: str = "compare") -> dict[str, str]:
    """The metrics of ``role`` that exist under one scoring rule alone, with that rule (``letters`` ->
    ``letters``)."""
    return {metric.name: metric.scoring for metric in every(None, role) if metric.scoring is not None}


def score_metrics() -> dict[str, Metric]:
    """The metric that is the score of each scoring rule, by rule (``rounds_won`` -> the rounds_won metric)."""
    return {metric.score_of: metric for metric in METRICS if metric.score_of is not None}


def legend_text(metric: Metric, side: str = "pair", matches: str = "matches") -> str:
    """A summary metric's words in the legend: its group's, else its own, in the words of the game (``side``: a
    side of it, ``pair`` or ``player``; ``matches``: what its sweep counts, ``matches`` or ``games``)."""
    from kemps_sim.metrics.catalogue import LEGEND_GROUPS

    return (LEGEND_GROUPS[metric.group] if metric.group else metric.legend).format(side=side, matches=matches)
