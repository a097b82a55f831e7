"""The meta-game solvers of kemps_sim.metagame against closed forms and against independent implementations.

The reference values in tests/metagame_references.json come from OpenSpiel's α-Rank and nashpy (support
enumeration, replicator dynamics); the JSON records their versions. To regenerate them, in an environment that is
not kemps-sim's::

    python3 -m venv /tmp/refvenv && /tmp/refvenv/bin/pip install open_spiel nashpy matplotlib
    /tmp/refvenv/bin/python scripts/metagame_references.py

Tolerances: α-Rank agrees with OpenSpiel to 1e-6 as asked (in practice to about 1e-13; OpenSpiel's infinite-α
references carry a noise ε = 1e-9, so they are within n·ε of the limit); nashpy's equilibria solve the same linear
equations, so 1e-9; nashpy's trajectory comes from odeint at its default tolerance (1.5e-8 per step), so 1e-6.
Closed forms are held to a few hundred ulps unless a solver tolerance sets the bound, as said at each test.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

from kemps_sim.errors import ConfigError
from kemps_sim.metagame import (
    alpha_rank,
    alpha_sweep,
    antisymmetric_part,
    bootstrap,
    fixation_probability,
    hodge_decomposition,
    nash_averaging,
    payoff_table,
    replicator,
    replicator_rest_point,
    response_graph,
    transition_matrix,
    velocity,
)

REFERENCES = json.loads((Path(__file__).parent / "metagame_references.json").read_text())
MATRICES = {name: np.array(matrix) for name, matrix in REFERENCES["matrices"].items()}
RPS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
STRENGTHS = np.array([0.1, 0.4, -0.2, 0.25])
TRANSITIVE = STRENGTHS[:, None] - STRENGTHS[None, :]


def with_clone(matrix: np.ndarray, k: int) -> np.ndarray:
    """The matrix with a copy of strategy ``k`` appended as the last row and column."""
    order = [*range(len(matrix)), k]
    return matrix[np.ix_(order, order)]


def random_antisymmetric(seed: int, n: int) -> np.ndarray:
    upper = np.triu(np.random.default_rng(seed).uniform(-0.5, 0.5, (n, n)), 1)
    return upper - upper.T


# --- Nash averaging -------------------------------------------------------------------------------------------


def test_rock_paper_scissors_has_the_uniform_equilibrium_and_zero_ratings():
    result = nash_averaging(RPS)
    np.testing.assert_allclose(result.mixture, np.full(3, 1 / 3), rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.ratings, 0.0, rtol=0, atol=1e-12)
    assert result.value == 0.0
    assert result.support.tolist() == [True, True, True]


def test_a_transitive_game_puts_all_mass_on_the_strongest_strategy():
    result = nash_averaging(TRANSITIVE)
    assert result.mixture.tolist() == [0.0, 1.0, 0.0, 0.0]
    assert result.support.tolist() == [False, True, False, False]
    # against the pure strongest strategy, each strategy's rating is its strength gap to it
    np.testing.assert_allclose(result.ratings, STRENGTHS - STRENGTHS.max(), rtol=0, atol=1e-15)


@pytest.mark.parametrize("entry", REFERENCES["nash"], ids=lambda entry: entry["matrix"])
def test_nash_averaging_matches_nashpy_where_the_equilibrium_is_unique(entry):
    assert len(entry["row_equilibria"]) == 1  # every reference game is generic: one equilibrium, no entropy choice
    matrix = MATRICES[entry["matrix"]]
    reference = np.array(entry["row_equilibria"][0])
    result = nash_averaging(matrix)
    np.testing.assert_allclose(result.mixture, reference, rtol=0, atol=1e-9)
    np.testing.assert_allclose(result.ratings, matrix @ reference, rtol=0, atol=1e-9)
    # the value is what the equilibrium guarantees against the best reply
    assert result.value == pytest.approx(float(np.min(matrix.T @ reference)), abs=1e-9)
    assert result.support.tolist() == (reference > 0).tolist()


def test_the_game_value_of_an_antisymmetric_matrix_is_zero_and_of_a_shifted_one_the_shift():
    matrix = MATRICES["biased_rps"]
    assert nash_averaging(matrix).value == 0.0
    # adding a constant to every payoff shifts the value by it and leaves the equilibrium alone
    shifted = nash_averaging(matrix + 0.25)
    assert shifted.value == pytest.approx(0.25, abs=1e-12)
    np.testing.assert_allclose(shifted.mixture, nash_averaging(matrix).mixture, rtol=0, atol=1e-9)


def test_a_clone_leaves_the_ratings_unchanged_and_splits_its_mass_evenly():
    matrix = MATRICES["biased_rps"]
    original = nash_averaging(matrix)
    cloned = nash_averaging(with_clone(matrix, 1))
    np.testing.assert_allclose(cloned.ratings[:3], original.ratings, rtol=0, atol=1e-12)
    assert cloned.ratings[3] == pytest.approx(original.ratings[1], abs=1e-12)
    # the equilibria of the cloned game split strategy 1's mass in any proportion; maximum entropy halves it. The
    # split comes from SLSQP (ftol 1e-15), whose iterate is accurate to about the square root: 1e-7 is ample.
    assert cloned.mixture[1] == pytest.approx(original.mixture[1] / 2, abs=1e-7)
    assert cloned.mixture[3] == pytest.approx(original.mixture[1] / 2, abs=1e-7)
    np.testing.assert_allclose(cloned.mixture[[0, 2]], original.mixture[[0, 2]], rtol=0, atol=1e-7)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(0, 4))
def test_a_clone_leaves_the_ratings_of_a_random_game_unchanged(seed, k):
    # uniform random payoffs give a unique equilibrium with probability 1, the case the invariance is about
    matrix = random_antisymmetric(seed, 5)
    original = nash_averaging(matrix)
    cloned = nash_averaging(with_clone(matrix, k))
    np.testing.assert_allclose(cloned.ratings[:5], original.ratings, rtol=0, atol=1e-9)
    assert cloned.mixture[k] + cloned.mixture[5] == pytest.approx(original.mixture[k], abs=1e-9)
    assert cloned.mixture[k] == pytest.approx(cloned.mixture[5], abs=1e-7)


def test_maximum_entropy_picks_the_even_mixture_of_a_degenerate_game_and_a_clone_can_move_it():
    # strategy 0 beats 2, everything else ties: the equilibria are (a, 1 - a, 0), the most even is a = 1/2
    degenerate = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [-1.0, 0.0, 0.0]])
    result = nash_averaging(degenerate)
    np.testing.assert_allclose(result.mixture, [0.5, 0.5, 0.0], rtol=0, atol=1e-7)
    assert result.ratings[2] == pytest.approx(-0.5, abs=1e-7)
    # with strategy 0 cloned, maximising H(a/2, a/2, 1 - a) gives 1 - a = a/2, a = 2/3: a non-unique
    # equilibrium is where the invariance ends, and the strategy outside every support is rated -2/3, not -1/2
    cloned = nash_averaging(with_clone(degenerate, 0))
    np.testing.assert_allclose(cloned.mixture, [1 / 3, 1 / 3, 0.0, 1 / 3], rtol=0, atol=1e-7)
    assert cloned.ratings[2] == pytest.approx(-2 / 3, abs=1e-7)
    np.testing.assert_allclose(cloned.ratings[[0, 1, 3]], 0.0, atol=1e-12)


def test_a_game_of_ties_gives_the_uniform_mixture():
    result = nash_averaging(np.zeros((4, 4)))
    assert result.mixture.tolist() == [0.25] * 4
    assert result.ratings.tolist() == [0.0] * 4


def test_the_equilibrium_guarantees_the_value_on_a_large_random_game():
    matrix = random_antisymmetric(7, 30)
    result = nash_averaging(matrix)
    assert result.mixture.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.all(result.mixture >= 0.0)
    assert np.min(matrix.T @ result.mixture) >= -1e-9
    # Kaplansky: a generic antisymmetric game's unique equilibrium has an odd support, where every rating is 0
    assert result.support.sum() % 2 == 1
    np.testing.assert_allclose(result.ratings[result.support], 0.0, atol=1e-12)
    assert np.all(result.ratings[~result.support] < 0.0)


# --- α-Rank ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.0, 0.01, 1.0, 100.0, 1e4, 1e8, math.inf])
def test_rock_paper_scissors_gives_every_strategy_a_third_at_every_alpha(alpha):
    np.testing.assert_allclose(alpha_rank(RPS, alpha=alpha), np.full(3, 1 / 3), rtol=0, atol=1e-12)
    if not math.isinf(alpha):
        np.testing.assert_allclose(alpha_rank(RPS, alpha=alpha, selection="population"), np.full(3, 1 / 3),
                                   rtol=0, atol=1e-12)


@pytest.mark.parametrize("alpha", [0.01, 0.1, 0.5, 1.0, 3.0])
@pytest.mark.parametrize("population", [2, 10, 50])
def test_alpha_rank_of_a_transitive_game_is_the_gibbs_distribution_of_the_strengths(alpha, population):
    # with M = s_i - s_j the chain is reversible: ρ(r,s) / ρ(s,r) = exp((m-1) u), u = 2 α (s_r - s_s) under local
    # selection and u = α m (s_r - s_s) / (m-1) under population selection, so π_i ∝ exp(2 α (m-1) s_i) and
    # π_i ∝ exp(α m s_i)
    local = np.exp(2 * alpha * (population - 1) * STRENGTHS)
    np.testing.assert_allclose(alpha_rank(TRANSITIVE, alpha=alpha, population=population), local / local.sum(),
                               rtol=1e-9, atol=1e-14)
    shared = np.exp(alpha * population * STRENGTHS)
    np.testing.assert_allclose(alpha_rank(TRANSITIVE, alpha=alpha, population=population, selection="population"),
                               shared / shared.sum(), rtol=1e-9, atol=1e-14)


def test_alpha_rank_mass_concentrates_on_the_strongest_strategy_as_alpha_grows():
    sweep = alpha_sweep(TRANSITIVE, [0.0, 0.001, 0.01, 0.03, 0.1, 1.0, 100.0, math.inf])
    top = sweep[1].to_numpy()
    assert top[0] == pytest.approx(0.25, abs=1e-12)  # α = 0: neutral drift, every strategy alike
    assert np.all(np.diff(top[:6]) > 0)
    assert top[-2] == pytest.approx(1.0, abs=1e-12)
    assert sweep.loc[math.inf].tolist() == [0.0, 1.0, 0.0, 0.0]


@pytest.mark.parametrize("entry", REFERENCES["alpha_rank"],
                         ids=lambda e: f"{e['matrix']}-{e['selection']}-{e['alpha']}")
def test_alpha_rank_matches_openspiel(entry):
    masses = alpha_rank(MATRICES[entry["matrix"]], alpha=entry["alpha"], population=entry["population"],
                        selection=entry["selection"])
    np.testing.assert_allclose(masses, entry["masses"], rtol=0, atol=1e-6)


@pytest.mark.parametrize("entry", REFERENCES["alpha_rank_infinite"], ids=lambda e: e["matrix"])
def test_the_infinite_alpha_limit_matches_openspiel_at_vanishing_noise(entry):
    matrix = MATRICES[entry["matrix"]]
    limit = alpha_rank(matrix, alpha=math.inf)
    np.testing.assert_allclose(limit, entry["masses"], rtol=0, atol=1e-6)
    # and it is the limit of the finite-α masses: without ties a losing mutant's ρ ≤ e^{-(m-1) u} vanishes
    np.testing.assert_allclose(alpha_rank(matrix, alpha=1e6), limit, rtol=0, atol=1e-12)


def test_a_tie_fixes_with_probability_one_over_m_in_the_infinite_alpha_limit():
    # 0 and 1 tie, both beat 2: the limit chain moves 0 <-> 1 with probability η/m each way, so they share the mass
    tied = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [-1.0, -1.0, 0.0]])
    chain = transition_matrix(tied, alpha=math.inf, population=50)
    assert chain[0, 1] == chain[1, 0] == 0.5 / 50
    assert chain[2, 0] == chain[2, 1] == 0.5
    assert chain[0, 2] == 0.0
    np.testing.assert_allclose(alpha_rank(tied, alpha=math.inf), [0.5, 0.5, 0.0], rtol=0, atol=1e-15)


def test_fixation_probability_is_neutral_at_zero_and_obeys_the_ratio_rule():
    for m in (2, 7, 50, 1000):
        assert fixation_probability(0.0, m) == 1.0 / m
        for u in (1e-12, 1e-6, 0.3, 2.0, 10.0):
            if (m - 1) * u > 700:
                continue  # ρ(-u) underflows
            # (1 - e^{-u}) / (1 - e^{-mu}) over (1 - e^{u}) / (1 - e^{mu}) is e^{(m-1)u}
            ratio = fixation_probability(u, m) / fixation_probability(-u, m)
            assert ratio == pytest.approx(math.exp((m - 1) * u), rel=1e-12)
        # near 0 the first-order expansion 1/m + u (m-1) / (2m) holds to a relative (m u)^2 <= 1e-10
        assert fixation_probability(1e-8, m) == pytest.approx(1 / m + 1e-8 * (m - 1) / (2 * m), rel=1e-9)
    assert fixation_probability(1e4, 50) == 1.0
    assert fixation_probability(-1e4, 50) == 0.0
    assert fixation_probability(math.inf, 50) == 1.0


def test_transition_rows_sum_to_one_and_the_masses_are_stationary():
    matrix = MATRICES["random_antisymmetric"]
    chain = transition_matrix(matrix, alpha=3.0)
    np.testing.assert_allclose(chain.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    masses = alpha_rank(matrix, alpha=3.0)
    np.testing.assert_allclose(masses @ chain, masses, rtol=0, atol=1e-15)


@pytest.mark.parametrize("alpha", [1.0, 5.0, 10.0, 20.0])
def test_population_selection_matches_its_closed_form_when_fixation_probabilities_span_many_orders(alpha):
    # Under population selection ρ(r,s) / ρ(s,r) = exp(α Σ_k (f_r(k) - f_s(k))), and the sum is
    # (m-2)/2 (M_rr - M_ss) + m/2 (M_rs - M_sr). When the antisymmetric part is transitive, (t_r - t_s), the chain
    # is reversible with π_i ∝ exp(α ((m-2)/2 M_ii + m/2 t_i)), whatever the symmetric part, which here sets
    # barriers that make some transition probabilities as small as 1e-87 at α = 20 (solved by state reduction).
    t = np.array([0.0, 0.1, 0.05, -0.1])
    diagonal = np.array([0.3, 0.2, 0.25, 0.1])
    symmetric = np.array([[0, -0.2, -0.1, 0.3], [-0.2, 0, 0.2, -0.3], [-0.1, 0.2, 0, 0.1], [0.3, -0.3, 0.1, 0]])
    matrix = symmetric + np.diag(diagonal) + (t[:, None] - t[None, :]) / 2
    m = 50
    weights = alpha * ((m - 2) / 2 * diagonal + m / 2 * t)
    expected = np.exp(weights - weights.max()) / np.exp(weights - weights.max()).sum()
    masses = alpha_rank(matrix, alpha=alpha, population=m, selection="population")
    np.testing.assert_allclose(masses, expected, rtol=1e-9, atol=1e-15)


# A resample of the tournament of experiments/metagame.toml without Double Kemps (rounded to the deal): the last
# strategy beats every other, and among the first, second and last the losing moves have ρ of 1e-149 and 1e-170 at
# α = 100 beside winning ones of 0.25, so the unnormalised masses of a state reduction on the probabilities exceed
# 1e308 and came out NaN, and with them every bootstrap interval of the α-Rank mass.
SINK_RESAMPLE = np.array([[0.0, -0.035, 0.265, 0.19, -0.1],
                          [0.035, 0.0, 0.29, 0.28, -0.04],
                          [-0.265, -0.29, 0.0, 0.155, -0.335],
                          [-0.19, -0.28, -0.155, 0.0, -0.28],
                          [0.1, 0.04, 0.335, 0.28, 0.0]])


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("selection", ["local", "population"])
@pytest.mark.parametrize("order", [[0, 1, 2, 3], [1, 3, 0, 2], [3, 2, 1, 0]])
def test_alpha_rank_keeps_its_closed_form_when_the_masses_span_more_than_a_float(selection, order):
    # The transitive closed form (π_i ∝ exp(2 α (m-1) s_i) locally, exp(α m s_i) under population selection) at the
    # default α = 100, m = 50, with strengths a step apart that puts the log-masses 500 apart: the masses run from 1
    # through 7e-218 to below the smallest float, while a losing move one step down (ρ ≈ e^{-500}) is still a
    # float. The smaller masses must come out to full relative accuracy, and none of them NaN.
    alpha, m = 100.0, 50
    scale = 2 * alpha * (m - 1) if selection == "local" else alpha * m
    strengths = np.arange(4)[order] * 500 / scale
    matrix = strengths[:, None] - strengths[None, :]
    weights = scale * strengths
    expected = np.exp(weights - special.logsumexp(weights))
    assert 1e-300 < np.sort(expected)[-2] < 1e-200  # the check reaches far below what the old overflow allowed
    masses = alpha_rank(matrix, alpha=alpha, population=m, selection=selection)
    np.testing.assert_allclose(masses, expected, rtol=1e-9, atol=0)


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_at_a_large_alpha_the_mass_is_on_the_sink_of_the_response_graph():
    # no two strategies tie, so the finite-α masses tend to the infinite-α limit: all on the strategy that beats
    # every other; by α = 100 the others hold less than e^{-300}
    limit = alpha_rank(SINK_RESAMPLE, alpha=math.inf)
    assert limit.tolist() == [0.0, 0.0, 0.0, 0.0, 1.0]
    for alpha in (30.0, 100.0, 1e4):
        np.testing.assert_allclose(alpha_rank(SINK_RESAMPLE, alpha=alpha), limit, rtol=0, atol=1e-12)
    sweep = alpha_sweep(SINK_RESAMPLE, [0.001, 0.1, 1.0, 10.0, 100.0])
    assert np.all(np.isfinite(sweep.to_numpy())) and np.allclose(sweep.sum(axis=1), 1.0, rtol=0, atol=1e-12)


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_bootstrap_intervals_of_the_alpha_rank_masses_are_finite_and_hold_the_estimate():
    # 40 deals in both seatings of each pairing of three strategies 0.04 apart in win probability (seeded); at the
    # default α some resamples span more than a float's range, which made every percentile interval NaN
    strengths = np.array([0.0, 0.04, 0.08])
    rng = np.random.default_rng(0)
    rows = []
    for i, j in ((0, 1), (0, 2), (1, 2)):
        luck = rng.random(40)  # one number per deal: i wins a seating when it falls below i's chance
        won = (luck < 0.5 + strengths[i] - strengths[j]).astype(float)
        rows += [(f"s{i}", f"s{j}", w, d) for d, w in enumerate(won)]
        rows += [(f"s{j}", f"s{i}", 1.0 - w, d) for d, w in enumerate(won)]
    table = payoff_table(pd.DataFrame(rows, columns=["first", "second", "score", "seed"]))
    np.testing.assert_allclose(table.matrix[2], [0.05, 0.2, 0.0])  # strategy 2 beats both: the sink
    result = bootstrap(table, alpha_rank, resamples=200, seed=1)
    np.testing.assert_allclose(result.estimate, alpha_rank(table.matrix, alpha=math.inf), rtol=0, atol=1e-12)
    assert np.all(np.isfinite(result.values)) and np.all(np.isfinite(result.low)) and np.all(np.isfinite(result.high))
    np.testing.assert_allclose(result.values.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert np.all((result.low <= result.estimate) & (result.estimate <= result.high))
    assert result.low[2] < 1.0 == result.high[2]  # some resamples lose the sink: the interval is not a point


def test_alpha_sweep_is_one_row_per_alpha_labelled_by_the_strategies():
    frame = pd.DataFrame(RPS, index=["rock", "paper", "scissors"], columns=["rock", "paper", "scissors"])
    sweep = alpha_sweep(frame, [1.0, 10.0])
    assert sweep.index.name == "alpha" and sweep.index.tolist() == [1.0, 10.0]
    assert sweep.columns.tolist() == ["rock", "paper", "scissors"]
    np.testing.assert_allclose(sweep.to_numpy(), 1 / 3, rtol=0, atol=1e-12)
    assert alpha_sweep(RPS, [1.0]).columns.tolist() == [0, 1, 2]


# --- Hodge decomposition and the response graph ---------------------------------------------------------------


def test_rock_paper_scissors_is_purely_cyclic():
    parts = hodge_decomposition(RPS)
    assert parts.transitive_share == pytest.approx(0.0, abs=1e-15)
    assert parts.cyclic_share == pytest.approx(1.0, abs=1e-15)
    np.testing.assert_allclose(parts.ratings, 0.0, atol=1e-15)
    np.testing.assert_allclose(parts.cyclic, RPS, atol=1e-15)


def test_a_transitive_game_is_purely_transitive_and_its_ratings_are_the_centred_strengths():
    parts = hodge_decomposition(TRANSITIVE)
    assert parts.transitive_share == pytest.approx(1.0, abs=1e-15)
    assert parts.cyclic_share == pytest.approx(0.0, abs=1e-15)
    np.testing.assert_allclose(parts.ratings, STRENGTHS - STRENGTHS.mean(), atol=1e-15)
    assert parts.symmetric_share == 0.0


def test_a_mixed_game_splits_into_orthogonal_parts_whose_shares_sum_to_one():
    matrix = 0.5 * RPS + np.array([[0.0, 0.2, 0.3], [-0.2, 0.0, 0.1], [-0.3, -0.1, 0.0]])
    parts = hodge_decomposition(matrix)
    assert parts.transitive_share + parts.cyclic_share == pytest.approx(1.0, abs=1e-15)
    assert 0.0 < parts.transitive_share < 1.0
    np.testing.assert_allclose(parts.transitive + parts.cyclic + parts.symmetric, matrix, atol=1e-15)
    assert float(np.sum(parts.transitive * parts.cyclic)) == pytest.approx(0.0, abs=1e-15)
    np.testing.assert_allclose(parts.cyclic.sum(axis=1), 0.0, atol=1e-15)
    # the added matrix is s_i - s_j with s = (0.3, 0.1, 0) and RPS has zero row sums: the ratings are s centred,
    # the transitive part is the added matrix and the cyclic part 0.5 RPS, so the shares are 0.28 : 1.5
    np.testing.assert_allclose(parts.ratings, [0.5 / 3, -0.1 / 3, -0.4 / 3], atol=1e-15)
    np.testing.assert_allclose(parts.cyclic, 0.5 * RPS, atol=1e-15)
    assert parts.transitive_share == pytest.approx(0.28 / 1.78, rel=1e-12)


def test_the_symmetric_part_of_a_non_antisymmetric_matrix_has_its_own_share():
    # [[0, 2], [0, 0]] = [[0, 1], [-1, 0]] + [[0, 1], [1, 0]]: half the squared norm is symmetric
    parts = hodge_decomposition(np.array([[0.0, 2.0], [0.0, 0.0]]))
    assert parts.symmetric_share == pytest.approx(0.5, abs=1e-15)
    assert parts.transitive_share == pytest.approx(1.0, abs=1e-15)  # two strategies are always transitive
    np.testing.assert_array_equal(antisymmetric_part([[0.0, 2.0], [0.0, 0.0]]), [[0.0, 1.0], [-1.0, 0.0]])
    ties = hodge_decomposition(np.zeros((3, 3)))
    assert math.isnan(ties.transitive_share) and math.isnan(ties.cyclic_share)


def test_the_response_graph_points_from_the_beaten_strategy_to_its_better_reply():
    assert response_graph(RPS) == [(0, 1), (1, 2), (2, 0)]  # paper beats rock, scissors paper, rock scissors
    # strengths 0.1, 0.4, -0.2, 0.25: every strategy points to every stronger one
    assert response_graph(TRANSITIVE) == [(0, 1), (0, 3), (2, 0), (2, 1), (2, 3), (3, 1)]
    # the gaps of 0.15 (0 to 3, 3 to 1) count as ties at tolerance 0.2; the others are 0.3 or more
    assert response_graph(TRANSITIVE, tolerance=0.2) == [(0, 1), (2, 0), (2, 1), (2, 3)]


# --- replicator dynamics --------------------------------------------------------------------------------------


def test_replicator_dynamics_of_rock_paper_scissors_conserve_the_product_of_the_shares():
    path = replicator(RPS, [0.5, 0.3, 0.2], time=50.0, points=101)
    # d/dt log(x1 x2 x3) = sum_i (M x)_i - 3 x·Mx = 0 for this M; the solver keeps the logits to rtol 1e-10
    # relative (|y| stays below 5), so the product holds to about 1e-9 of its value
    np.testing.assert_allclose(path.prod(axis=1).to_numpy(), 0.03, rtol=1e-8, atol=0)
    np.testing.assert_allclose(path.sum(axis=1).to_numpy(), 1.0, rtol=0, atol=1e-15)
    assert path.index.name == "time" and path.index[-1] == 50.0 and len(path) == 101
    assert not replicator_rest_point(RPS, [0.5, 0.3, 0.2], time=50.0).at_rest


def test_two_strategies_follow_the_logistic_curve():
    # M = [[0, a], [-a, 0]]: x' = a x (1 - x), so x(t) = 1 / (1 + (1 - x0) / x0 e^{-a t})
    a, x0 = 0.7, 0.1
    path = replicator([[0.0, a], [-a, 0.0]], [x0, 1 - x0], time=20.0, points=41)
    times = path.index.to_numpy()
    np.testing.assert_allclose(path[0].to_numpy(), 1 / (1 + (1 - x0) / x0 * np.exp(-a * times)), rtol=1e-9)


def test_a_strictly_dominated_strategy_dies_out():
    # strategy 2 does at least δ = 0.4 worse than strategy 0 against everything: (M x)_0 - (M x)_2 >= 0.4, so
    # d/dt log(x_2 / x_0) <= -0.4 and x_2 / x_0 <= 3 e^{-0.4 t} from the start (0.6 / 0.2)
    matrix = np.array([[0.0, 0.3, 0.4], [-0.3, 0.0, 0.2], [-0.4, -0.2, 0.0]])
    assert (matrix[0] - matrix[2]).min() == pytest.approx(0.4)
    path = replicator(matrix, [0.2, 0.2, 0.6], time=200.0, points=21)
    ratio = (path[2] / path[0]).to_numpy()
    assert np.all(ratio <= 3.0 * np.exp(-0.4 * path.index.to_numpy()) * (1 + 1e-8))
    assert path[2].iloc[-1] < 1e-15
    rest = replicator_rest_point(matrix, [0.2, 0.2, 0.6], time=400.0)
    assert rest.at_rest and rest.mixture[0] == pytest.approx(1.0, abs=1e-12)


def test_a_strategy_absent_at_the_start_stays_absent():
    path = replicator(RPS, [0.5, 0.5, 0.0], time=10.0, points=5)
    assert path[2].tolist() == [0.0] * 5
    # rock against paper only: paper takes over logistically, x_rock = 1 / (1 + e^{t})
    np.testing.assert_allclose(path[0].to_numpy(), 1 / (1 + np.exp(path.index.to_numpy())), rtol=1e-9)
    assert velocity(RPS, [1 / 3, 1 / 3, 1 / 3]) == pytest.approx([0.0, 0.0, 0.0], abs=1e-16)


@pytest.mark.parametrize("entry", REFERENCES["replicator"], ids=lambda e: e["matrix"])
def test_replicator_dynamics_match_nashpy(entry):
    times = np.array(entry["times"])
    path = replicator(MATRICES[entry["matrix"]], entry["start"], time=float(times[-1]), points=len(times))
    np.testing.assert_allclose(path.index.to_numpy(), times, rtol=0, atol=1e-15)
    np.testing.assert_allclose(path.to_numpy(), entry["trajectory"], rtol=0, atol=1e-6)


# --- bad input --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("matrix, match", [
    (np.zeros((2, 3)), r"M has shape \(2, 3\)"),
    (np.zeros((0, 0)), r"M has shape \(0, 0\)"),
    (np.zeros(3), r"M has shape \(3,\)"),
    ([[0.0, np.nan], [0.0, 0.0]], r"M\[0, 1\] = nan"),
    ([[0.0, 1.0], [-np.inf, 0.0]], r"M\[1, 0\] = -inf"),
    ([["a", "b"], ["c", "d"]], r"M = .*square matrix of numbers"),
])
def test_every_solver_refuses_a_bad_matrix(matrix, match):
    for solve in (nash_averaging, alpha_rank, hodge_decomposition, response_graph,
                  lambda m: replicator(m, [0.5, 0.5])):
        with pytest.raises(ConfigError, match=match):
            solve(matrix)


@pytest.mark.parametrize("call, match", [
    (lambda: nash_averaging(RPS, tolerance=0.0), "tolerance = 0.0"),
    (lambda: alpha_rank(RPS, alpha=-1.0), "alpha = -1.0: must be a non-negative number"),
    (lambda: alpha_rank(RPS, alpha=float("nan")), "alpha = nan"),
    (lambda: alpha_rank(RPS, population=1), "population = 1: must be a whole number"),
    (lambda: alpha_rank(RPS, population=2.5), "population = 2.5"),
    (lambda: alpha_rank(RPS, population=True), "population = True"),
    (lambda: alpha_rank(RPS, selection="global"), "selection = 'global': must be one of local, population"),
    (lambda: alpha_rank(RPS, alpha=math.inf, selection="population"), "alpha = inf with selection"),
    (lambda: alpha_sweep(RPS, []), r"alphas = \[\]"),
    (lambda: response_graph(RPS, tolerance=-0.1), "tolerance = -0.1: must be a non-negative number"),
    (lambda: replicator(RPS, [0.5, 0.5]), r"start has shape \(2,\): must be a vector of 3 shares"),
    (lambda: replicator(RPS, [0.5, 0.7, -0.2]), "every share must be a finite non-negative number"),
    (lambda: replicator(RPS, [0.5, 0.3, 0.3]), "start sums to 1.1"),
    (lambda: replicator(RPS, [0.5, 0.3, 0.2 + 2e-9]), "start sums to"),
    (lambda: replicator(RPS, [1 / 3] * 3, time=0.0), "time = 0.0: must be a positive finite number"),
    (lambda: replicator(RPS, [1 / 3] * 3, points=1), "points = 1: must be a whole number, at least 2"),
    (lambda: replicator(RPS, [1 / 3] * 3, rtol=0.0), "rtol = 0.0"),
    (lambda: replicator_rest_point(RPS, [1 / 3] * 3, tolerance=-1.0), "tolerance = -1.0"),
])
def test_bad_arguments_raise_config_error_naming_them(call, match):
    with pytest.raises(ConfigError, match=match):
        call()


def test_a_start_that_sums_to_one_within_rounding_is_accepted():
    path = replicator(RPS, [0.1, 0.2, 0.7 + 5e-10], time=1.0, points=2)
    assert path.iloc[-1].sum() == pytest.approx(1.0, abs=1e-15)
