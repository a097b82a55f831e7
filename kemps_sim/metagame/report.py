"""The plain-text report of a meta-game analysis: which mixture of strategies is stable, how sure that is, and, with
several variants, how the answer changes with the rules.

:func:`metagame_text` writes one analysis (:class:`~kemps_sim.metagame.analysis.MetagameAnalysis`) as a few short
tables; :func:`variants_text` sets the variants' equilibria side by side and names, per variant, the strategies in
the support of most resamples.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from kemps_sim.metagame.analysis import MetagameAnalysis
from kemps_sim.metagame.payoffs import MEASURES

#: A strategy "survives" in a report when it is in the equilibrium's support in at least this share of resamples.
SURVIVES = 0.5


def metagame_text(analysis: MetagameAnalysis) -> str:
    """The report of one analysis: the data, the payoff matrix, its structure, Nash averaging, α-Rank and the
    replicator's end point, every number with its percentile bootstrap interval."""
    level = f"{analysis.mixture.confidence:.0%}"
    table = analysis.table
    title = f"Meta-game{f' ({analysis.variant})' if analysis.variant else ''}: {len(table.strategies)} strategies, " \
            f"{analysis.matches} matches in {len(table.units)} units"
    lines = [title, "=" * len(title),
             f"payoff: {MEASURES[table.measure].description}; {level} intervals: percentile bootstrap over the units "
             f"({analysis.mixture.resamples} resamples, seed {analysis.mixture.seed})"]
    if table.dropped or table.unpaired:
        lines.append(f"left out: {table.dropped} matches nobody won, {table.unpaired} whose other seating was "
                     "missing")
    lines += ["", "Payoff matrix (row against column, ± standard error):", _matrix_text(analysis), ""]
    share = analysis.transitive_share
    symmetric = analysis.hodge.symmetric_share
    lines.append(f"Structure: transitive share {analysis.hodge.transitive_share:.2f} "
                 f"[{share.low[0]:.2f}, {share.high[0]:.2f}], cyclic {analysis.hodge.cyclic_share:.2f} "
                 "(a transitive game is ranked by one number; a cyclic part means someone beats the best); "
                 + ("antisymmetric (zero-sum)" if symmetric < 1e-12 else f"symmetric part {symmetric:.2f} of the "
                    "matrix (not zero-sum: the shares are of its antisymmetric part)"))
    strategies = analysis.strategy_table()
    lines += ["", f"Nash averaging (maximum-entropy equilibrium) and α-Rank (α = {analysis.alpha:g}, population "
                  f"{analysis.population}); replicator from {_mixture_text(analysis.start)} to time "
                  f"{float(analysis.trajectory.index[-1]):g}:",
              _strategies_text(strategies)]
    survivors = strategies.loc[strategies["in_support"] >= SURVIVES, "strategy"].tolist()
    lines += ["", f"Stable mixture: {_stable_text(strategies)}; in the support of at least {SURVIVES:.0%} of "
                  f"resamples: {', '.join(survivors) if survivors else 'none'}."]
    return "\n".join(lines)


def variants_text(analyses: Mapping[str, MetagameAnalysis]) -> str:
    """The variants side by side: each strategy's Nash weight (its interval) and support share under each variant,
    then one line per variant naming its stable mixture."""
    names = sorted({name for analysis in analyses.values() for name in analysis.strategies})
    cells = {}
    for label, analysis in analyses.items():
        rows = analysis.strategy_table().set_index("strategy")
        cells[label] = [f"{rows.at[name, 'nash_weight']:.2f} [{rows.at[name, 'nash_weight_low']:.2f}, "
                        f"{rows.at[name, 'nash_weight_high']:.2f}] ({rows.at[name, 'in_support']:.0%})"
                        if name in rows.index else "not played" for name in names]
    frame = pd.DataFrame(cells, index=pd.Index(names, name="strategy"))
    lines = ["Nash weight by variant (interval; share of resamples with the strategy in the support):",
             frame.to_string(), ""]
    lines += [f"{label}: {_stable_text(analysis.strategy_table())}" for label, analysis in analyses.items()]
    return "\n".join(lines)


def _matrix_text(analysis: MetagameAnalysis) -> str:
    table = analysis.table
    k = len(table.strategies)
    text = [[("" if i == j else f"{table.matrix[i, j]:+.3f} ± {table.standard_errors[i, j]:.3f}") for j in range(k)]
            for i in range(k)]
    return pd.DataFrame(text, index=list(table.strategies), columns=list(table.strategies)).to_string()


def _strategies_text(strategies: pd.DataFrame) -> str:
    def number(value: float, digits: int) -> str:  # a rounding error below zero is shown as 0, not -0
        return f"{round(float(value), digits) + 0.0:.{digits}f}"

    def interval(row: pd.Series, name: str, digits: int = 2) -> str:
        return f"{number(row[name], digits)} [{number(row[name + '_low'], digits)}, " \
               f"{number(row[name + '_high'], digits)}]"

    shown = pd.DataFrame({
        "Nash weight": [interval(row, "nash_weight") for _, row in strategies.iterrows()],
        "in support": [f"{row['in_support']:.0%}" if np.isfinite(row["in_support"]) else "" for _, row in
                       strategies.iterrows()],
        "Nash rating": [interval(row, "nash_rating", 3) for _, row in strategies.iterrows()],
        "α-Rank mass": [interval(row, "alpha_rank") for _, row in strategies.iterrows()],
        "replicator end": [interval(row, "replicator_end") for _, row in strategies.iterrows()],
    }, index=pd.Index(strategies["strategy"], name="strategy"))
    return shown.to_string()


def _stable_text(strategies: pd.DataFrame) -> str:
    """The equilibrium as ``a 0.62 + b 0.38`` (strategies with weight, heaviest first)."""
    held = strategies[strategies["nash_weight"] > 1e-3]
    held = held.iloc[np.argsort(-np.round(held["nash_weight"].to_numpy(), 9), kind="stable")]
    return " + ".join(f"{row['strategy']} {row['nash_weight']:.2f}" for _, row in held.iterrows())


def _mixture_text(mixture: np.ndarray) -> str:
    values = np.asarray(mixture, dtype=float)
    return "every strategy alike" if np.allclose(values, values[0]) else \
        "(" + ", ".join(f"{v:.2f}" for v in values) + ")"
