"""Nash averaging: the maximum-entropy Nash equilibrium of the meta-game and the ratings it gives every strategy.

Nash averaging (Balduzzi et al. 2018, "Re-evaluating evaluation") plays the payoff matrix as a two-player zero-sum
game: the row player picks a strategy ``i``, the column player a strategy ``j``, and the row player wins
``M[i, j]``. An equilibrium mixture ``p`` guarantees the game's value ``v`` against every reply,
``(M.T @ p)[j] >= v`` for all ``j``; among all such mixtures, which form a polytope when the game is degenerate,
the one of maximum entropy is unique and is the one reported. A strategy's rating is its expected payoff against
that mixture, ``(M @ p)[i]``: 0 for the strategies in the support of some equilibrium of an antisymmetric game,
negative for the rest, so the rating says how much a strategy loses against the best the zoo can field.

The point of the method: adding a copy of a strategy (a clone) leaves the ratings of the others unchanged when the
game has a unique equilibrium, the generic case for matrices estimated from matches, because the maximum-entropy
mixture splits the cloned strategy's mass evenly between the copies. When the equilibrium is not unique (exact
ties), the clone's extra entropy can move the maximum-entropy point within the polytope and with it the ratings
of strategies outside every equilibrium's support; the ratings of the support itself (``v``) never move.

For a Kemps payoff matrix, antisymmetric (``M[i, j] = -M[j, i]``), the game is symmetric and its value is 0. Any
other square matrix is accepted and solved as the zero-sum game of the row player: the mixture is then the row
player's maximum-entropy maximin strategy, ``value`` is generally not 0, and the column player's equilibrium
strategies (found along the way) need not be the same; pass :func:`~kemps_sim.metagame.structure.antisymmetric_part`
of the matrix to rate strategies by who beats whom only.

**Method.** The value comes from a linear program (:func:`scipy.optimize.linprog`, HiGHS). The strategies used by
some equilibrium, and the replies that every equilibrium holds exactly to the value, come from at most two small
linear programs per strategy, most of them settled by earlier ones (by the Goldman-Tucker theorem each strategy is
either in some equilibrium's support or strictly beaten by some equilibrium of the other player, never both). On
those supports the equilibrium conditions are linear equalities: when they pin the mixture down (a unique
equilibrium) it is their exact solution, otherwise the entropy is maximised over their solution set with
:func:`scipy.optimize.minimize` (SLSQP) under the remaining inequalities. Every step is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import linalg, optimize

from kemps_sim.errors import ConfigError
from kemps_sim.metagame.structure import as_payoff_matrix


@dataclass(frozen=True)
class NashAveraging:
    """The maximum-entropy Nash equilibrium of a payoff matrix and the ratings it gives.

    ``mixture`` is the equilibrium (non-negative, summing to 1, exactly 0 off the support); ``ratings`` is
    ``M @ mixture``, each strategy's expected payoff against it; ``value`` is the game value (0 for an
    antisymmetric matrix); ``support`` is a boolean mask of the strategies some equilibrium plays.
    """

    mixture: np.ndarray
    ratings: np.ndarray
    value: float
    support: np.ndarray


def nash_averaging(M: Any, *, tolerance: float = 1e-9) -> NashAveraging:
    """Nash averaging of payoff matrix ``M``: its maximum-entropy equilibrium mixture and the ratings ``M @ p``.

    ``tolerance`` settles what rounding leaves open: a matrix is antisymmetric (value exactly 0) when ``M + M.T``
    is within ``tolerance`` times the largest payoff, and while the supports are found a mass, or a margin over
    the value relative to the largest payoff, counts as positive above it. Rows and columns are strategies in the
    same order; a matrix with NaN (pairs that never met) or infinite entries, or not square, raises ConfigError.
    """
    matrix = as_payoff_matrix(M)
    if isinstance(tolerance, bool) or not isinstance(tolerance, int | float) or not 0.0 < tolerance < 1e-2:
        raise ConfigError(f"tolerance = {tolerance!r}: must be a positive number below 0.01, e.g. 1e-9")
    n = matrix.shape[0]
    scale = float(np.max(np.abs(matrix)))
    if scale == 0.0:  # a game of ties: every mixture is an equilibrium, the uniform one has the most entropy
        mixture = np.full(n, 1.0 / n)
        return NashAveraging(mixture=mixture, ratings=np.zeros(n), value=0.0, support=np.ones(n, dtype=bool))
    antisymmetric = float(np.max(np.abs(matrix + matrix.T))) <= tolerance * scale
    value = 0.0 if antisymmetric else _game_value(matrix)
    solutions: list[np.ndarray] = []
    row_support, column_support = _supports(matrix, value, scale, tolerance, antisymmetric, solutions)
    mixture = _max_entropy(matrix, value, row_support, column_support, solutions)
    worst = float(np.min(matrix.T @ mixture))
    if worst < value - 1e3 * tolerance * scale:
        raise RuntimeError(f"Nash averaging failed: the mixture guarantees {worst} < value {value}")
    return NashAveraging(mixture=mixture, ratings=matrix @ mixture, value=value, support=row_support)


def _game_value(matrix: np.ndarray) -> float:
    """The row player's maximin value: maximise ``v`` subject to ``M.T @ p >= v``, ``p`` a mixture."""
    n = matrix.shape[0]
    cost = np.zeros(n + 1)
    cost[-1] = -1.0
    upper = np.hstack([-matrix.T, np.ones((n, 1))])
    equal = np.hstack([np.ones((1, n)), np.zeros((1, 1))])
    result = optimize.linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0],
                              bounds=[(0.0, None)] * n + [(None, None)], method="highs")
    if result.status != 0:
        raise RuntimeError(f"the game value's linear program failed: {result.message}")
    return float(result.x[-1])


def _maximise(objective: np.ndarray, constraint: np.ndarray, bound: float) -> np.ndarray:
    """The vertex mixture ``p`` maximising ``objective @ p`` subject to ``constraint @ p >= bound`` (elementwise)."""
    n = constraint.shape[1]
    result = optimize.linprog(-objective, A_ub=-constraint, b_ub=np.full(constraint.shape[0], -bound),
                              A_eq=np.ones((1, n)), b_eq=[1.0], bounds=[(0.0, None)] * n, method="highs")
    if result.status != 0:
        raise RuntimeError(f"an equilibrium linear program failed: {result.message}")
    return np.clip(result.x, 0.0, None)


def _supports(matrix: np.ndarray, value: float, scale: float, tolerance: float, antisymmetric: bool,
              solutions: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Which strategies some row equilibrium plays, and which replies some column equilibrium plays.

    By Goldman-Tucker, strategy ``i`` is played by some row equilibrium (``max p_i > 0``) exactly when no column
    equilibrium holds it strictly below the value (``max v - (M q)_i > 0``), and the other way round. The row
    player's equilibria are ``{p: M.T @ p >= v}``, the column player's ``{q: -M @ q >= -v}`` (the same set when
    ``M`` is antisymmetric). The row equilibria the linear programs find are appended to ``solutions``: their
    average is a point where every played strategy has mass and every other reply is strictly held.
    """
    row_side, column_side = (matrix.T, value), (-matrix, -value)
    rows, own, other = _support_side(row_side, column_side, scale, tolerance)
    solutions.extend(own)
    if antisymmetric:
        solutions.extend(other)
        return rows, rows.copy()
    columns, _, other = _support_side(column_side, row_side, scale, tolerance)
    solutions.extend(other)
    return rows, columns


def _support_side(own: tuple[np.ndarray, float], other: tuple[np.ndarray, float], scale: float,
                  tolerance: float) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """The support of one player's equilibria ``{p: A @ p >= a}`` (``own = (A, a)``) against the other player's
    ``{q: B @ q >= b}`` (``other = (B, b)``, row ``i`` of ``B`` being what ``q`` concedes to strategy ``i``).

    Strategy ``i`` is in it when some ``p`` has ``p_i > tolerance`` and no ``q`` holds it further below the value.
    Each program's optimum bounds every strategy's maxima from below, so most strategies are settled by earlier
    programs. Returns the support and the optimal mixtures of both players that were found.
    """
    (own_matrix, own_bound), (other_matrix, other_bound) = own, other
    n = own_matrix.shape[1]
    mass, slack = np.zeros(n), np.zeros(n)
    own_found: list[np.ndarray] = []
    other_found: list[np.ndarray] = []
    for i in range(n):
        if mass[i] <= tolerance and slack[i] <= tolerance:
            p = _maximise(np.eye(n)[i], own_matrix, own_bound)
            np.maximum(mass, p, out=mass)
            own_found.append(p)
    for i in range(n):
        if mass[i] <= tolerance and slack[i] <= tolerance:
            q = _maximise(other_matrix[i], other_matrix, other_bound)
            np.maximum(slack, (other_matrix @ q - other_bound) / scale, out=slack)
            other_found.append(q)
    return (mass > tolerance) & (mass >= slack), own_found, other_found


def _max_entropy(matrix: np.ndarray, value: float, rows: np.ndarray, columns: np.ndarray,
                 solutions: list[np.ndarray]) -> np.ndarray:
    """The maximum-entropy mixture on ``rows`` holding every reply in ``columns`` to the value and the rest above."""
    n = matrix.shape[0]
    block = matrix[np.ix_(rows, columns)].T
    equations = np.vstack([block, np.ones((1, block.shape[1]))])
    targets = np.concatenate([np.full(block.shape[0], value), [1.0]])
    base = linalg.lstsq(equations, targets)[0]
    free = linalg.null_space(equations)
    reduced = base
    if free.shape[1]:
        others = matrix[np.ix_(rows, ~columns)].T
        start = np.mean(solutions, axis=0)[rows] if solutions else np.full(int(rows.sum()), 1.0 / rows.sum())
        reduced = _entropy_over(base, free, others, value, free.T @ (start - base))
    mixture = np.zeros(n)
    mixture[rows] = np.clip(reduced, 0.0, None)
    return mixture / mixture.sum()


def _entropy_over(base: np.ndarray, free: np.ndarray, others: np.ndarray, value: float,
                  start: np.ndarray) -> np.ndarray:
    """Maximise the entropy of ``p = base + free @ z`` subject to ``p >= 0`` and ``others @ p >= value``."""

    def negative_entropy(z: np.ndarray) -> tuple[float, np.ndarray]:
        p = base + free @ z
        logs = np.log(np.clip(p, 1e-300, None))
        return float(p @ logs), free.T @ (logs + 1.0)

    constraints = [optimize.LinearConstraint(free, -base, np.inf)]
    if others.shape[0]:
        constraints.append(optimize.LinearConstraint(others @ free, value - others @ base, np.inf))
    result = optimize.minimize(negative_entropy, start, jac=True, method="SLSQP", constraints=constraints,
                               options={"ftol": 1e-15, "maxiter": 1000})
    # status 8 ("positive directional derivative for linesearch") means no step improves the entropy any further
    # at this precision: the optimum, provided the point is feasible (checked by the caller against the value)
    if result.status not in (0, 8):
        raise RuntimeError(f"the maximum-entropy equilibrium did not converge: {result.message}")
    return base + free @ result.x
