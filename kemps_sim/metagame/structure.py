"""The structure of a meta-game payoff matrix: its checks, its antisymmetric part, its Hodge decomposition and its
response graph.

A meta-game payoff matrix ``M`` is square: ``M[i, j]`` is what strategy ``i`` scores against strategy ``j``. For
Kemps it is antisymmetric (``M[i, j] == -M[j, i]``), for instance ``P(i beats j) - 1/2`` or a mean score
difference with both seatings pooled. An antisymmetric matrix on the complete graph of strategies splits into two
orthogonal parts (combinatorial Hodge theory, as in Balduzzi et al. 2018, "Re-evaluating evaluation"):

- the **transitive** part ``r_i - r_j``, the gradient of one rating per strategy (``r`` the row means), which is the
  least-squares fit of a single scale to the matrix;
- the **cyclic** part, the rest: rock-paper-scissors style cycles no rating can express.

Their squared Frobenius norms say how much of the game one number per strategy explains. A matrix that is not
antisymmetric also has a symmetric part ``(M + M.T) / 2`` (what both strategies get alike, such as a shared-win
rate), which says nothing about who beats whom; :func:`hodge_decomposition` reports its share separately.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from kemps_sim.errors import ConfigError


def as_payoff_matrix(M: Any, name: str = "M") -> np.ndarray:
    """``M`` as a square float matrix with finite entries, copied, or :class:`ConfigError` naming what is wrong.

    Every meta-game function checks its input here, so a NaN from a pair of strategies that never met is caught
    before it silently turns into a wrong equilibrium. A pandas DataFrame is accepted (its labels are dropped).
    """
    try:
        matrix = np.array(M, dtype=float)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} = {M!r}: must be a square matrix of numbers") from None
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] == 0:
        raise ConfigError(f"{name} has shape {matrix.shape}: must be a square matrix with at least one row")
    bad = np.argwhere(~np.isfinite(matrix))
    if len(bad):
        i, j = (int(k) for k in bad[0])
        raise ConfigError(f"{name}[{i}, {j}] = {matrix[i, j]}: every payoff must be a finite number "
                          f"({len(bad)} entries are not; fill pairs that never met before solving)")
    return matrix


def strategy_labels(M: Any) -> list[Any]:
    """The strategies' names: a DataFrame's index when it equals its columns, else ``0 .. n-1``.

    Used to label the tables this package returns, so a matrix from :func:`kemps_sim.ratings.head_to_head` keeps
    its strategy names.
    """
    index, columns = getattr(M, "index", None), getattr(M, "columns", None)
    if index is not None and columns is not None and list(index) == list(columns):
        return list(index)
    return list(range(np.shape(M)[0]))


def antisymmetric_part(M: Any) -> np.ndarray:
    """``(M - M.T) / 2``: the part of the payoffs that says who beats whom (``M`` itself when antisymmetric)."""
    matrix = as_payoff_matrix(M)
    return (matrix - matrix.T) / 2.0


@dataclass(frozen=True)
class HodgeDecomposition:
    """The split of a payoff matrix into its transitive, cyclic and symmetric parts.

    ``transitive + cyclic + symmetric`` is the input matrix; ``transitive[i, j] = ratings[i] - ratings[j]``.
    ``transitive_share + cyclic_share == 1``: the shares of the antisymmetric part's squared Frobenius norm (both
    NaN when the antisymmetric part is zero, a game of ties). ``symmetric_share`` is the symmetric part's share of
    the whole matrix's squared norm (0 for an antisymmetric input, NaN for the zero matrix).
    """

    transitive: np.ndarray
    cyclic: np.ndarray
    symmetric: np.ndarray
    ratings: np.ndarray
    transitive_share: float
    cyclic_share: float
    symmetric_share: float


def hodge_decomposition(M: Any) -> HodgeDecomposition:
    """Split ``M`` into a transitive (gradient) part, a cyclic part and a symmetric part, with their shares.

    The ratings are the row means of the antisymmetric part ``A``, ``r = A @ 1 / n``; on the complete graph
    ``r_i - r_j`` is the orthogonal projection of ``A`` onto gradient flows, so the cyclic rest ``A - (r_i - r_j)``
    has zero row sums and is orthogonal to it. A share near 1 for the transitive part means one rating per
    strategy tells the whole story; a large cyclic share means the zoo has strategies that beat each other in
    circles, where Nash averaging and α-Rank say more than a ranking.
    """
    matrix = as_payoff_matrix(M)
    n = matrix.shape[0]
    antisymmetric = (matrix - matrix.T) / 2.0
    symmetric = (matrix + matrix.T) / 2.0
    ratings = antisymmetric.sum(axis=1) / n
    transitive = ratings[:, None] - ratings[None, :]
    cyclic = antisymmetric - transitive
    game = float(np.sum(antisymmetric**2))
    whole = float(np.sum(matrix**2))
    if game > 0.0:
        transitive_norm, cyclic_norm = float(np.sum(transitive**2)), float(np.sum(cyclic**2))
        # the two parts are orthogonal, so their norms add up to the game's up to rounding: share by their own sum
        transitive_share = transitive_norm / (transitive_norm + cyclic_norm)
        cyclic_share = cyclic_norm / (transitive_norm + cyclic_norm)
    else:
        transitive_share = cyclic_share = float("nan")
    symmetric_share = float(np.sum(symmetric**2)) / whole if whole > 0.0 else float("nan")
    return HodgeDecomposition(transitive=transitive, cyclic=cyclic, symmetric=symmetric, ratings=ratings,
                              transitive_share=transitive_share, cyclic_share=cyclic_share,
                              symmetric_share=symmetric_share)


def response_graph(M: Any, *, tolerance: float = 0.0) -> list[tuple[int, int]]:
    """The edges ``(i, j)`` of the response graph: ``j`` beats ``i`` by more than ``tolerance``, sorted.

    "Beats" reads the antisymmetric part: ``(M[j, i] - M[i, j]) / 2 > tolerance``. An edge points from the beaten
    strategy to the one a population playing it would switch to; the figures draw it, and its sink components are
    where α-Rank's mass ends up for large α. Pairs within ``tolerance`` of a tie get no edge.
    """
    if isinstance(tolerance, bool) or not isinstance(tolerance, int | float) or not tolerance >= 0.0:
        raise ConfigError(f"tolerance = {tolerance!r}: must be a non-negative number")
    antisymmetric = antisymmetric_part(M)
    beaten, winner = np.nonzero(np.greater(antisymmetric.T, tolerance))
    return sorted((int(i), int(j)) for i, j in zip(beaten, winner, strict=True))
