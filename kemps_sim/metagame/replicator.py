"""Replicator dynamics of the meta-game: how a large population's mixture of strategies drifts when each strategy
grows in proportion to how much better it does than the average.

The mixture ``x`` follows ``x_i' = x_i ((M x)_i - x · M x)``, the infinite-population, deterministic counterpart of
α-Rank's evolution. Strategies that do better than the population average grow; a strictly dominated strategy
dies out; in rock-paper-scissors the mixture circles the uniform point for ever (the product ``x_1 x_2 x_3`` is
conserved). A strategy absent at the start stays absent.

The mixture is integrated in logit coordinates: with ``x = softmax(y)``, ``y_i' = (M x)_i`` gives exactly the
replicator equation, so every computed point lies on the simplex (non-negative, summing to 1 up to rounding) and a
dying strategy's share falls smoothly towards 0 instead of being pushed negative by the solver. The solver is
:func:`scipy.integrate.solve_ivp` (DOP853); ``rtol`` and ``atol`` bound the error of ``y``, so ``atol`` is about
the relative error of every share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import integrate, special

from kemps_sim.errors import ConfigError
from kemps_sim.metagame.structure import as_payoff_matrix, strategy_labels

#: Default relative and absolute tolerances of the solver (on the logits of the shares).
RTOL = 1e-10
ATOL = 1e-12


@dataclass(frozen=True)
class RestPoint:
    """Where a replicator trajectory ends: ``mixture`` at ``time``, its ``speed`` (largest ``|x_i'|`` there) and
    whether that is within the tolerance asked for (``at_rest``). A cycle, as in rock-paper-scissors, never rests.
    """

    mixture: np.ndarray
    time: float
    speed: float
    at_rest: bool


def replicator(M: Any, start: Any, *, time: float = 100.0, points: int = 201, rtol: float = RTOL,
               atol: float = ATOL) -> pd.DataFrame:
    """The replicator trajectory from mixture ``start`` over ``[0, time]``, sampled at ``points`` equally spaced times.

    Returns a wide table: index ``time`` (``points`` values from 0 to ``time``), one column per strategy (named as
    the strategies of a DataFrame ``M`` whose index equals its columns, else ``0 .. n-1``), each row a mixture.
    The end point is the last row (``table.iloc[-1]``); :func:`replicator_rest_point` also says whether it rests.
    """
    matrix = as_payoff_matrix(M)
    mixture = check_mixture(start, matrix.shape[0])
    times = _times(time, points)
    path = _integrate(matrix, mixture, times, rtol, atol)
    table = pd.DataFrame(path, index=pd.Index(times, name="time"), columns=strategy_labels(M))
    table.columns.name = "strategy"
    return table


def replicator_rest_point(M: Any, start: Any, *, time: float = 1000.0, tolerance: float = 1e-8,
                          rtol: float = RTOL, atol: float = ATOL) -> RestPoint:
    """Run the replicator dynamics from ``start`` for ``time`` and report the end point and whether it is at rest.

    ``at_rest`` is true when no share moves faster than ``tolerance`` per unit time there. Interior rest points of
    a zero-sum game are centres, not attractors, so a trajectory that does not rest may still circle one.
    """
    matrix = as_payoff_matrix(M)
    mixture = check_mixture(start, matrix.shape[0])
    if isinstance(tolerance, bool) or not isinstance(tolerance, int | float) or not tolerance > 0.0:
        raise ConfigError(f"tolerance = {tolerance!r}: must be a positive number")
    end = _integrate(matrix, mixture, _times(time, 2), rtol, atol)[-1]
    speed = float(np.max(np.abs(velocity(matrix, end))))
    return RestPoint(mixture=end, time=float(time), speed=speed, at_rest=speed <= tolerance)


def velocity(M: Any, mixture: Any) -> np.ndarray:
    """The replicator field at ``mixture``: ``x_i ((M x)_i - x · M x)``; zero at every rest point."""
    matrix = as_payoff_matrix(M)
    x = check_mixture(mixture, matrix.shape[0])
    payoffs = matrix @ x
    return x * (payoffs - x @ payoffs)


def check_mixture(mixture: Any, n: int, name: str = "start") -> np.ndarray:
    """``mixture`` as a float vector of ``n`` non-negative shares summing to 1 within 1e-9, or ConfigError."""
    try:
        x = np.array(mixture, dtype=float)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} = {mixture!r}: must be a vector of {n} shares") from None
    if x.shape != (n,):
        raise ConfigError(f"{name} has shape {x.shape}: must be a vector of {n} shares, one per strategy")
    if not np.all(np.isfinite(x)) or np.any(x < 0.0):
        raise ConfigError(f"{name} = {x.tolist()}: every share must be a finite non-negative number")
    if abs(x.sum() - 1.0) > 1e-9:
        raise ConfigError(f"{name} sums to {float(x.sum())!r}: the shares must sum to 1 (within 1e-9)")
    return x


def _times(time: float, points: int) -> np.ndarray:
    if isinstance(time, bool) or not isinstance(time, int | float) or not 0.0 < time < np.inf:
        raise ConfigError(f"time = {time!r}: must be a positive finite number")
    if isinstance(points, bool) or not isinstance(points, int | np.integer) or points < 2:
        raise ConfigError(f"points = {points!r}: must be a whole number, at least 2")
    return np.linspace(0.0, float(time), int(points))


def _integrate(matrix: np.ndarray, start: np.ndarray, times: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    """Shares at ``times`` (rows) from ``start``, integrating the logits of the strategies present at the start."""
    for name, value in (("rtol", rtol), ("atol", atol)):
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 < value < 1.0:
            raise ConfigError(f"{name} = {value!r}: must be a positive number below 1")
    present = start > 0.0
    block = matrix[np.ix_(present, present)]

    def logits_velocity(_: float, y: np.ndarray) -> np.ndarray:
        return block @ special.softmax(y)

    solution = integrate.solve_ivp(logits_velocity, (times[0], times[-1]), np.log(start[present]), method="DOP853",
                                   t_eval=times, rtol=rtol, atol=atol)
    if not solution.success:
        raise RuntimeError(f"the replicator dynamics did not integrate: {solution.message}")
    path = np.zeros((len(times), len(start)))
    path[:, present] = special.softmax(solution.y.T, axis=1)
    return path
