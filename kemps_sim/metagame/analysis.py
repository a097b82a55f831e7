"""One meta-game analysis of a tournament's pairs table: the payoff matrix, its structure, Nash averaging, α-Rank and
the replicator dynamics, each with a bootstrap over the paired units for its uncertainty; and the same per variant.

:func:`analyse` runs every solver of :mod:`kemps_sim.metagame` on one payoff matrix and resamples the units of the
matrix (:func:`~kemps_sim.metagame.bootstrap.bootstrap`, one deal played in both seatings) for every result, with
one seed, so all intervals of one analysis come from the same resamples. :func:`analyse_variants` splits a pairs
table by the columns that name a variant (a rule preset, a swept knob) and analyses each part alone, so the
equilibria under each rule can be set side by side (:func:`variant_table`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.metagame.alpharank import DEFAULT_ALPHA, DEFAULT_POPULATION, alpha_rank, alpha_sweep
from kemps_sim.metagame.bootstrap import BootstrapResult, bootstrap
from kemps_sim.metagame.nash import NashAveraging, nash_averaging
from kemps_sim.metagame.payoffs import PayoffTable, payoff_table, require_complete
from kemps_sim.metagame.replicator import replicator
from kemps_sim.metagame.structure import HodgeDecomposition, hodge_decomposition

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: The selection intensities of the α sweep, by factors of about 3: with win payoffs (a gap of 0.1 or more) and
#: a population of 50, drift dominates below 0.01 and selection has settled by 1; the default α (100) is far past it.
DEFAULT_ALPHAS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
#: How long the replicator dynamics run, in units of the payoff: a payoff gap of 0.1 grows a share e-fold in 10.
DEFAULT_TIME = 500.0
#: The weight above which a strategy counts as in a resampled mixture's support.
SUPPORT_THRESHOLD = 1e-3


@dataclass(frozen=True, eq=False)
class MetagameAnalysis:
    """Every meta-game result of one payoff table, each with its bootstrap (the same ``resamples`` and ``seed``).

    ``nash`` is the full data's Nash averaging, ``mixture`` and ``ratings`` its bootstrapped equilibrium weights
    (with the share of resamples in which each strategy is in the support) and ratings; ``hodge`` the structure of
    the full matrix and ``transitive_share`` its bootstrap; ``alpha_masses`` the α sweep on the full matrix and
    ``alpha_rank`` the bootstrapped masses at ``alpha``; ``replicator_end`` the bootstrapped end of the replicator
    trajectory from ``start`` and ``trajectory`` the full data's trajectory.
    """

    variant: str
    table: PayoffTable
    nash: NashAveraging
    mixture: BootstrapResult
    ratings: BootstrapResult
    hodge: HodgeDecomposition
    transitive_share: BootstrapResult
    alpha: float
    population: int
    alpha_masses: pd.DataFrame
    alpha_rank: BootstrapResult
    start: np.ndarray
    trajectory: pd.DataFrame
    replicator_end: BootstrapResult
    matches: int

    @property
    def strategies(self) -> tuple[str, ...]:
        """The strategies, in the order of every array of the analysis."""
        return tuple(self.table.strategies)

    def strategy_table(self) -> pd.DataFrame:
        """One row per strategy: Nash weight, support share and rating, α-Rank mass and the replicator's end share,
        each with its interval (``_low``/``_high``); sorted by Nash rating, best first (equal ratings by name)."""
        rows = {"strategy": list(self.strategies)}
        for name, result in (("nash_weight", self.mixture), ("nash_rating", self.ratings),
                             ("alpha_rank", self.alpha_rank), ("replicator_end", self.replicator_end)):
            rows[name], rows[f"{name}_low"], rows[f"{name}_high"] = result.estimate, result.low, result.high
            if name == "nash_weight":
                rows["in_support"] = result.support if result.support is not None else np.full(len(rows["strategy"]),
                                                                                                np.nan)
        table = pd.DataFrame(rows)
        table.insert(0, "variant", self.variant)
        order = np.lexsort((table["strategy"].to_numpy(), -np.round(table["nash_rating"].to_numpy(), 9)))
        return table.iloc[order].reset_index(drop=True)  # best first; ratings equal to 1e-9 by name


def analyse(pairs: pd.DataFrame, *, measure: str = "win", alpha: float = DEFAULT_ALPHA,
            alphas: Sequence[float] = DEFAULT_ALPHAS, population: int = DEFAULT_POPULATION,
            start: ArrayLike | None = None, time: float = DEFAULT_TIME, resamples: int = 500, seed: int = 0,
            confidence: float = 0.95, variant: str = "") -> MetagameAnalysis:
    """The meta-game of one tournament's pairs table (see :func:`~kemps_sim.metagame.payoffs.payoff_table` for
    ``measure``): every pairing must have met in both seatings. ``start`` is the replicator's starting mixture
    (default: every strategy alike); every interval is a ``confidence`` percentile bootstrap over ``resamples``
    resamples of the units drawn from ``seed``."""
    table = payoff_table(pairs, measure=measure)
    if len(table.strategies) < 2:
        raise ConfigError(f"the pairs table holds {len(table.strategies)} strategy: a meta-game needs at least 2")
    matrix = require_complete(table)
    k = len(table.strategies)
    begin = np.full(k, 1.0 / k) if start is None else np.asarray(start, dtype=float)
    labelled = table.frame()
    options = {"resamples": resamples, "seed": seed, "confidence": confidence}
    nash = nash_averaging(matrix)
    mixture = bootstrap(table, lambda m: nash_averaging(m).mixture, support_threshold=SUPPORT_THRESHOLD, **options)
    ratings = bootstrap(table, lambda m: nash_averaging(m).ratings, **options)
    hodge = hodge_decomposition(matrix)
    transitive = bootstrap(table, lambda m: np.array([hodge_decomposition(m).transitive_share]), **options)
    masses = bootstrap(table, lambda m: alpha_rank(m, alpha=alpha, population=population), **options)
    trajectory = replicator(labelled, begin, time=time)
    end = bootstrap(table, lambda m: replicator(m, begin, time=time, points=2).to_numpy()[-1], **options)
    matches = int(2 * (table.units["stratum"] == "both").sum() + (table.units["stratum"] != "both").sum())
    return MetagameAnalysis(variant=variant, table=table, nash=nash, mixture=mixture, ratings=ratings, hodge=hodge,
                            transitive_share=transitive, alpha=float(alpha), population=int(population),
                            alpha_masses=alpha_sweep(labelled, alphas, population=population), alpha_rank=masses,
                            start=begin, trajectory=trajectory, replicator_end=end, matches=matches)


def variant_columns(pairs: pd.DataFrame, params: Sequence[str]) -> list[str]:
    """The columns of a tournament's pairs table that name a variant: its swept parameters other than the lineup
    (a tournament over rule presets or knobs), and ``folder`` when several folders were stacked."""
    found = [name for name in params if name != "lineup" and name in pairs.columns]
    return (["folder"] if "folder" in pairs.columns else []) + found


def analyse_variants(pairs: pd.DataFrame, by: Sequence[str] = (), levels: Mapping[str, Sequence[object]] | None = None,
                     **options: object) -> dict[str, MetagameAnalysis]:
    """:func:`analyse` for each variant of ``pairs``: each combination of the ``by`` columns (none: one analysis of
    the whole table), labelled ``column=value, ...``, in the order of each column's ``levels`` (a sweep's axis
    levels, as its spec lists them) and otherwise as they first appear; ``options`` go to every analysis."""
    missing = [column for column in by if column not in pairs.columns]
    if missing:
        raise ConfigError(f"by = {list(by)}: the pairs table has no column {missing[0]!r}; its columns: "
                          f"{', '.join(map(str, pairs.columns))}")
    if not by:
        return {"": analyse(pairs, **options)}  # type: ignore[arg-type]
    groups = [(key if isinstance(key, tuple) else (key,), part)
              for key, part in pairs.groupby(list(by), sort=False, dropna=False)]
    listed = levels or {}

    def place(values: tuple) -> tuple[int, ...]:
        return tuple(list(listed[c]).index(v) if c in listed and v in list(listed[c]) else len(listed.get(c, ()))
                     for c, v in zip(by, values, strict=True))

    found = {}
    for values, part in sorted(groups, key=lambda group: place(group[0])):  # stable: unlisted values keep order
        label = ", ".join(f"{column}={value}" for column, value in zip(by, values, strict=True))
        found[label] = analyse(part, variant=label, **options)  # type: ignore[arg-type]
    return found


def variant_table(analyses: Mapping[str, MetagameAnalysis]) -> pd.DataFrame:
    """Every variant's strategy table stacked: one row per variant and strategy
    (:meth:`MetagameAnalysis.strategy_table`)."""
    return pd.concat([analysis.strategy_table() for analysis in analyses.values()], ignore_index=True)
