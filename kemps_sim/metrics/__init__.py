"""One definition per report metric: the :class:`Metric` records (:mod:`kemps_sim.metrics.catalogue`), the
estimators they name (:mod:`kemps_sim.metrics.estimators`), and the registry every layer asks
(:mod:`kemps_sim.metrics.registry`): ``get(name, game)``, ``names(game, role)``.

Standard library only at import: the command line's help and a sweep spec's checks list metrics without loading
pandas, numpy or SciPy; an estimator imports them when it is called.
"""

from __future__ import annotations

from kemps_sim.metrics.catalogue import GROUP_LABELS, LEGEND_GROUPS, METRICS
from kemps_sim.metrics.estimators import ESTIMATORS
from kemps_sim.metrics.metric import DIRECTIONS, ROLES, SCORING_RULES, Estimator, Metric
from kemps_sim.metrics.registry import (
    KNOWN_GAMES,
    estimator,
    every,
    get,
    legend_text,
    names,
    own_metrics,
    score_metrics,
    scored_only_under,
    side_target,
    target_names,
)

__all__ = [
    "DIRECTIONS",
    "ESTIMATORS",
    "GROUP_LABELS",
    "KNOWN_GAMES",
    "LEGEND_GROUPS",
    "METRICS",
    "ROLES",
    "SCORING_RULES",
    "Estimator",
    "Metric",
    "estimator",
    "every",
    "get",
    "legend_text",
    "names",
    "own_metrics",
    "score_metrics",
    "scored_only_under",
    "side_target",
    "target_names",
]
