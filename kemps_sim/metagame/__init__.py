"""Meta-game analysis of a zoo of strategies: which mixture of strategies survives, and how to rate each one.

Every function takes a square payoff matrix ``M`` (a NumPy array or a DataFrame), ``M[i, j]`` being what strategy
``i`` scores against strategy ``j``; for Kemps it is antisymmetric, for instance ``P(i beats j) - 1/2`` with both
seatings pooled. The solvers:

- :func:`nash_averaging` (Balduzzi et al. 2018): the maximum-entropy Nash equilibrium and each strategy's payoff
  against it, ratings that adding copies of a strategy does not change;
- :func:`alpha_rank` and :func:`alpha_sweep` (Omidshafiei et al. 2019): where a finite population evolving under
  selection spends its time, as defined by OpenSpiel;
- :func:`replicator` and :func:`replicator_rest_point`: the replicator dynamics of an infinite population;
- :func:`hodge_decomposition` and :func:`response_graph`: how much of the game is transitive (one rating explains
  it) and how much cyclic, and who beats whom.

From a tournament's pairs table, :func:`payoff_table` builds that matrix from paired units (one deal played in both
seatings), with its standard errors, and :func:`bootstrap` resamples the same units to give any of the solvers'
results an interval (and a mixture the share of resamples in which each strategy is in its support).
"""

from kemps_sim.metagame.alpharank import alpha_rank, alpha_sweep, fixation_probability, transition_matrix
from kemps_sim.metagame.bootstrap import BootstrapResult, bootstrap
from kemps_sim.metagame.nash import NashAveraging, nash_averaging
from kemps_sim.metagame.payoffs import MEASURES, PayoffTable, payoff_table, require_complete
from kemps_sim.metagame.replicator import RestPoint, replicator, replicator_rest_point, velocity
from kemps_sim.metagame.structure import (
    HodgeDecomposition,
    antisymmetric_part,
    as_payoff_matrix,
    hodge_decomposition,
    response_graph,
)

__all__ = [
    "MEASURES",
    "BootstrapResult",
    "HodgeDecomposition",
    "NashAveraging",
    "PayoffTable",
    "RestPoint",
    "alpha_rank",
    "alpha_sweep",
    "antisymmetric_part",
    "as_payoff_matrix",
    "bootstrap",
    "fixation_probability",
    "hodge_decomposition",
    "nash_averaging",
    "payoff_table",
    "replicator",
    "replicator_rest_point",
    "require_complete",
    "response_graph",
    "transition_matrix",
    "velocity",
]
