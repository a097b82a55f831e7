"""Single-population α-Rank: which strategies a finite population evolving under strong selection spends its time on.

α-Rank (Omidshafiei et al. 2019, "α-Rank: Multi-Agent Evaluation by Evolution") follows a population of ``m``
players that is almost always monomorphic: every player uses one strategy ``s``. Now and then a mutant ``r``
appears (each other strategy equally likely, ``η = 1 / (n - 1)``) and either takes over the whole population, with
the fixation probability ``ρ(r, s)`` of a Moran process under the Fermi (logistic) imitation rule of selection
intensity ``α``, or dies out. The strategies are the states of a Markov chain with transition probabilities
``C[s, r] = η ρ(r, s)`` (and ``C[s, s]`` the rest); its stationary distribution is the α-Rank mass of each
strategy, and sorting by mass ranks them.

Two fitness models are offered, with the same definitions as OpenSpiel's ``open_spiel/python/egt/alpharank.py``
(``compute`` with a single payoff table), so the numbers agree with it on the same inputs:

- ``selection="local"`` (OpenSpiel's default, ``use_local_selection_model=True``): the mutant and the resident are
  compared on their head-to-head payoffs only, ``u = α (M[r, s] - M[s, r])``, and
  ``ρ = (1 - e^{-u}) / (1 - e^{-m u})``; for an antisymmetric matrix ``u = 2 α M[r, s]``;
- ``selection="population"`` (the paper's model): a player's fitness is its mean payoff against the ``m - 1``
  others, so with ``k`` mutants ``f_r(k) = ((k-1) M[r, r] + (m-k) M[r, s]) / (m-1)`` and
  ``f_s(k) = ((m-k-1) M[s, s] + k M[s, r]) / (m-1)``, and
  ``ρ = 1 / (1 + Σ_{l=1}^{m-1} Π_{k=1}^{l} e^{-α (f_r(k) - f_s(k))})``.

A neutral mutant (``u = 0``, or equal fitness at every ``k``) fixes with probability exactly ``1 / m``. Both
formulas are evaluated in a form that neither overflows nor loses digits for large ``α``.

**The default α = 100** is OpenSpiel's own default for ``compute``. On the win-probability scale of a Kemps
payoff matrix (``|M| ≤ 1/2``), a payoff of 0.01 (a 51 % win rate) with ``m = 50`` already gives the winning
mutant ``ρ ≈ 0.86`` and the losing one ``ρ ≈ 2e-43``, so every gap of a percentage point or more has reached its
large-α behaviour and the ranking has converged, the regime the paper recommends. Smaller gaps are within the
sampling noise of most tournaments; :func:`alpha_sweep` shows how the masses move with α, and ``alpha=math.inf``
gives the limit directly (local selection only).

**The infinite-α limit.** As ``α → ∞`` a better mutant fixes with probability 1, a tied one with ``1 / m`` and a
worse one with 0; the chain with these probabilities has a single closed class (every pair of strategies is
joined in at least one direction), so its stationary distribution, the limit of the finite-α masses, is unique.
OpenSpiel's ``use_inf_alpha`` instead keeps a small ``ε`` on every losing move and gives ties ``1/2``; it agrees
with this limit when ``ε → 0`` and no two strategies tie.

The stationary distribution is computed by state reduction rather than as an eigenvector, and in log space (see
``_stationary``): the same numbers where both are accurate, and still accurate where fixation probabilities span
hundreds of orders of magnitude, or more than a float can hold. At the default α a losing mutant's ``ρ`` is often
far below the smallest float (``e^{-980}`` for a payoff of 0.1), so the chain's transition probabilities are kept
as logarithms from the start: a transition too rare to be a float is still a transition, and the masses of the
strategies it leads to are still found.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import special
from scipy.sparse import csgraph

from kemps_sim.errors import ConfigError
from kemps_sim.metagame.structure import as_payoff_matrix, strategy_labels

#: OpenSpiel's default selection intensity; see the module docstring for why it suits Kemps payoff matrices.
DEFAULT_ALPHA = 100.0
#: OpenSpiel's and the paper's default population size.
DEFAULT_POPULATION = 50
SELECTION_MODELS = ("local", "population")


def alpha_rank(M: Any, *, alpha: float = DEFAULT_ALPHA, population: int = DEFAULT_POPULATION,
               selection: Literal["local", "population"] = "local") -> np.ndarray:
    """α-Rank masses of the strategies of payoff matrix ``M``: the stationary distribution of the evolution chain.

    ``alpha`` is the selection intensity (``math.inf`` for the large-α limit, local selection only; 0 for neutral
    drift, which gives equal masses), ``population`` the population size ``m``, ``selection`` the fitness model
    (see the module docstring). The masses are non-negative, sum to 1 and come in the order of ``M``'s rows.
    """
    return _stationary(_log_transitions(M, alpha=alpha, population=population, selection=selection))


def alpha_sweep(M: Any, alphas: Iterable[float], *, population: int = DEFAULT_POPULATION,
                selection: Literal["local", "population"] = "local") -> pd.DataFrame:
    """α-Rank masses for each α in ``alphas``: a wide table, one row per α (index ``alpha``), one column per strategy.

    The columns are the strategies' names when ``M`` is a DataFrame whose index equals its columns, else
    ``0 .. n-1``. The rows keep the order of ``alphas``; a sweep over a wide range (OpenSpiel sweeps from 1e-4 up
    by factors of 2) shows where the ranking settles. ``df.stack()`` gives the long form.
    """
    values = list(alphas)
    if not values:
        raise ConfigError("alphas = []: give at least one selection intensity")
    rows = [alpha_rank(M, alpha=alpha, population=population, selection=selection) for alpha in values]
    table = pd.DataFrame(rows, index=pd.Index([float(a) for a in values], name="alpha"),
                         columns=strategy_labels(M))
    table.columns.name = "strategy"
    return table


def fixation_probability(u: float, population: int) -> float:
    """Probability that one mutant with Fermi advantage ``u`` takes over a population of ``population`` players.

    ``(1 - e^{-u}) / (1 - e^{-m u})``, exactly ``1 / m`` at ``u = 0``, 1 and 0 in the limits ``u → ±∞``; written
    with ``expm1`` so that it neither overflows for large ``|u|`` nor loses digits near 0.
    """
    m = _check_population(population)
    if u == 0.0:
        return 1.0 / m
    if math.isinf(u):
        return 1.0 if u > 0 else 0.0
    if u > 0.0:
        return math.expm1(-u) / math.expm1(-m * u)
    a = -u  # (1 - e^a) / (1 - e^{ma}) = e^{-(m-1) a} (1 - e^{-a}) / (1 - e^{-ma})
    return math.exp(-(m - 1) * a) * math.expm1(-a) / math.expm1(-m * a)


def transition_matrix(M: Any, *, alpha: float = DEFAULT_ALPHA, population: int = DEFAULT_POPULATION,
                      selection: Literal["local", "population"] = "local") -> np.ndarray:
    """The α-Rank Markov chain over monomorphic populations: ``C[s, r] = ρ(r, s) / (n - 1)`` off the diagonal.

    Rows sum to 1; the diagonal is the chance that no mutant fixes. Exposed so that figures can draw the chain
    and tests can check it entry by entry.
    """
    matrix, alpha, m = _check(M, alpha, population, selection)
    n = matrix.shape[0]
    chain = np.zeros((n, n))
    if n == 1:
        return np.ones((1, 1))
    eta = 1.0 / (n - 1)
    for s in range(n):
        for r in range(n):
            if r != s:
                chain[s, r] = eta * _rho(matrix, r, s, alpha, m, selection)
        chain[s, s] = 0.0
        chain[s, s] = 1.0 - chain[s].sum()
    return chain


def _log_transitions(M: Any, *, alpha: float, population: int, selection: str) -> np.ndarray:
    """The logarithms of :func:`transition_matrix`'s off-diagonal entries (``-inf`` on the diagonal, which the
    stationary distribution does not need, and for a move that never happens): finite however small the
    probability, where the probability itself would underflow to 0."""
    matrix, alpha, m = _check(M, alpha, population, selection)
    n = matrix.shape[0]
    logs = np.full((n, n), -np.inf)
    if n == 1:
        return np.zeros((1, 1))
    log_eta = -math.log(n - 1)
    for s in range(n):
        for r in range(n):
            if r != s:
                logs[s, r] = log_eta + _log_rho(matrix, r, s, alpha, m, selection)
    return logs


def _check(M: Any, alpha: float, population: int, selection: str) -> tuple[np.ndarray, float, int]:
    matrix = as_payoff_matrix(M)
    m = _check_population(population)
    alpha = _check_alpha(alpha)
    if selection not in SELECTION_MODELS:
        raise ConfigError(f"selection = {selection!r}: must be one of {', '.join(SELECTION_MODELS)}")
    if math.isinf(alpha) and selection != "local":
        raise ConfigError(f"alpha = inf with selection = {selection!r}: the infinite-α limit is only given for "
                          "local selection")
    return matrix, alpha, m


def _rho(matrix: np.ndarray, r: int, s: int, alpha: float, m: int, selection: str) -> float:
    """Fixation probability of one ``r`` mutant in a population of ``s`` players."""
    if selection == "local":
        gap = matrix[r, s] - matrix[s, r]
        if math.isinf(alpha):
            return 1.0 if gap > 0 else 0.0 if gap < 0 else 1.0 / m
        return fixation_probability(alpha * gap, m)
    return math.exp(_log_rho(matrix, r, s, alpha, m, selection))


def _log_rho(matrix: np.ndarray, r: int, s: int, alpha: float, m: int, selection: str) -> float:
    """``log ρ(r, s)``: finite at every finite α, however far ``ρ`` is below the smallest float."""
    if selection == "local":
        gap = matrix[r, s] - matrix[s, r]
        if math.isinf(alpha):
            return 0.0 if gap > 0 else -math.inf if gap < 0 else -math.log(m)
        return _log_fixation_probability(alpha * gap, m)
    k = np.arange(1, m)
    f_r = ((k - 1) * matrix[r, r] + (m - k) * matrix[r, s]) / (m - 1)
    f_s = ((m - k - 1) * matrix[s, s] + k * matrix[s, r]) / (m - 1)
    gaps = f_r - f_s
    if alpha == 0.0 or not np.any(gaps):
        return -math.log(m)
    exponents = np.concatenate(([0.0], -alpha * np.cumsum(gaps)))
    return -float(special.logsumexp(exponents))


def _log_fixation_probability(u: float, m: int) -> float:
    """``log`` of :func:`fixation_probability`: ``log(1 - e^{-u}) - log(1 - e^{-m u})``, and for ``u = -a < 0``
    ``-(m-1) a + log(1 - e^{-a}) - log(1 - e^{-m a})``, which stays finite where ``ρ ≈ e^{-(m-1) a}`` underflows."""
    if u == 0.0:
        return -math.log(m)
    if math.isinf(u):
        return 0.0 if u > 0 else -math.inf
    if u > 0.0:
        return _log1mexp(u) - _log1mexp(m * u)
    a = -u
    return -(m - 1) * a + _log1mexp(a) - _log1mexp(m * a)


def _log1mexp(x: float) -> float:
    """``log(1 - e^{-x})`` for ``x > 0`` to full relative accuracy (Mächler 2012): ``expm1`` near 0, ``log1p`` far."""
    return math.log(-math.expm1(-x)) if x <= math.log(2.0) else math.log1p(-math.exp(-x))


def _stationary(logs: np.ndarray) -> np.ndarray:
    """The unique stationary distribution ``π = π C`` of the chain whose off-diagonal transition probabilities have
    the logarithms ``logs`` (``-inf`` for a move that never happens), non-negative and summing to 1.

    Strategies the chain leaves for good (outside its single closed class, found with
    :func:`scipy.sparse.csgraph.connected_components`) get exactly 0; at a finite α every move has a positive
    probability, so that happens only in the infinite-α limit. On the closed class the distribution comes from
    Grassmann-Taksar-Heyman state reduction (``_state_reduction``), a Gaussian elimination without subtractions that
    keeps every mass to full relative accuracy. An eigenvector or null space of ``C.T - I`` (OpenSpiel uses
    :func:`scipy.linalg.eig`) is only accurate to about the machine precision over the chain's spectral gap, which
    fails when fixation probabilities span many orders of magnitude: under population selection at α = 5, the
    null space of a 4x4 chain with transition probabilities down to 1e-23 is off by 3e-6.
    """
    n = logs.shape[0]
    moves = np.isfinite(logs)
    np.fill_diagonal(moves, False)
    count, labels = csgraph.connected_components(moves, directed=True, connection="strong")
    leaves = np.zeros(count, dtype=bool)
    for s, r in zip(*np.nonzero(moves), strict=True):
        leaves[labels[s]] |= labels[s] != labels[r]
    closed = np.flatnonzero(~leaves)
    if len(closed) != 1:  # the limit chain has one (see the module docstring); an α so large that α·gap overflows
        raise ConfigError(f"the α-Rank chain has {len(closed)} closed classes at this alpha (selection so strong "
                          "that log fixation probabilities overflowed), so no single stationary distribution: "
                          "lower alpha, or use alpha=math.inf with local selection")
    members = labels == closed[0]
    masses = np.zeros(n)
    masses[members] = _state_reduction(logs[np.ix_(members, members)])
    return masses


def _state_reduction(logs: np.ndarray) -> np.ndarray:
    """Stationary distribution of an irreducible chain by Grassmann-Taksar-Heyman elimination, last state first,
    on the logarithms of its off-diagonal transition probabilities.

    The elimination only adds, multiplies and divides non-negative numbers, so it carries over to logarithms
    unchanged (sums by log-sum-exp) and none of its intermediate numbers can overflow or underflow: the masses of a
    chain whose transition probabilities span more than a float's range (1e-170 and 1e-149 beside 0.25, at the
    default α) would otherwise grow past 1e308 before the normalisation and come out NaN.
    """
    reduced = np.array(logs, dtype=float)
    n = reduced.shape[0]
    if n == 1:
        return np.ones(1)
    np.fill_diagonal(reduced, -np.inf)  # the chance of staying put plays no part
    for k in range(n - 1, 0, -1):
        leaving = special.logsumexp(reduced[k, :k])  # finite: the chain is irreducible
        reduced[:k, k] -= leaving
        reduced[:k, :k] = np.logaddexp(reduced[:k, :k], reduced[:k, k, None] + reduced[None, k, :k])
    log_masses = np.zeros(n)
    for k in range(1, n):
        log_masses[k] = special.logsumexp(log_masses[:k] + reduced[:k, k])
    return np.exp(log_masses - special.logsumexp(log_masses))


def _check_alpha(alpha: float) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, int | float | np.floating | np.integer) or not alpha >= 0:
        raise ConfigError(f"alpha = {alpha!r}: must be a non-negative number (math.inf for the large-α limit)")
    return float(alpha)


def _check_population(population: int) -> int:
    if isinstance(population, bool) or not isinstance(population, int | np.integer) or population < 2:
        raise ConfigError(f"population = {population!r}: must be a whole number of players, at least 2")
    return int(population)
