"""The payoff matrix of a tournament (kemps_sim.metagame.payoffs) and its stratified bootstrap (.bootstrap).

Hand-built pairs tables use the column names of real tournament tables (a real Kemps and a real Krepet round
robin, run in-process, check that they still match) and their expected matrices and standard errors are worked
out by hand in each test. The coverage test simulates tournaments whose true payoff matrix is known; its
tolerances are binomial and are derived where they are used from the number of simulated tournaments.
"""

from __future__ import annotations

import statistics

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from kemps_sim.errors import ConfigError
from kemps_sim.metagame.bootstrap import bootstrap
from kemps_sim.metagame.nash import nash_averaging
from kemps_sim.metagame.payoffs import MEASURES, payoff_table, require_complete, unit_groups
from kemps_sim.ratings import match_outcomes
from kemps_sim.sweep import load_results, run_sweep
from kemps_sim.sweep.tournament import tournament_spec

KEMPS_COLUMNS = ["cell", "lineup", "replicate", "rules.scoring", "seed", "pair", "seats", "agents", "letters",
                 "points", "rounds_won", "rank", "won", "win_share", "rounds", "end_reason"]
KREPET_COLUMNS = ["cell", "lineup", "replicate", "seed", "pair", "seats", "agents", "cards_left", "rank", "won",
                  "win_share", "rounds", "end_reason", "misses", "overlooked", "caught", "calls_right",
                  "calls_too_late", "calls_false_alarm"]


def kemps_match(lineup: str, replicate: int, seed: int, winner: int | str | None,
                rounds_won: tuple[int, int] = (0, 0), scoring: str = "letters") -> list[dict]:
    """The two rows of one Kemps match: ``winner`` 0 or 1 (a pair), "both" (a shared win) or None (round cap)."""
    agents = lineup.split(",")
    won = (winner in (0, "both"), winner in (1, "both"))
    rows = []
    for pair in (0, 1):
        share = 1.0 / sum(won) if won[pair] else 0.0
        rows.append({"cell": f"cell {lineup}", "lineup": lineup, "replicate": replicate, "rules.scoring": scoring,
                     "seed": seed, "pair": pair, "seats": "0,2" if pair == 0 else "1,3", "agents": agents[pair],
                     "letters": 5 - rounds_won[pair], "points": 0, "rounds_won": rounds_won[pair],
                     "rank": 1 if won[pair] else 2, "won": won[pair], "win_share": share,
                     "rounds": sum(rounds_won), "end_reason": "round_cap" if winner is None else "match_over"})
    return rows


def krepet_game(lineup: str, replicate: int, seed: int, winner: int | None, cards_left: tuple[int, int],
                reason: str = "out_of_cards") -> list[dict]:
    """The two rows of one Krepet game; ``winner`` None is a draw under ``both_stuck``, else no result."""
    agents = lineup.split(",")
    draw = winner is None and reason == "both_stuck"
    return [{"cell": f"cell {lineup}", "lineup": lineup, "replicate": replicate, "seed": seed, "pair": p,
             "seats": str(p), "agents": agents[p], "cards_left": cards_left[p], "rank": 1 if winner == p or draw
             else 2, "won": winner == p, "win_share": 1.0 if winner == p else 0.5 if draw else 0.0, "rounds": 1,
             "end_reason": reason, "misses": 0, "overlooked": 0, "caught": 0, "calls_right": 0, "calls_too_late": 0,
             "calls_false_alarm": 0} for p in (0, 1)]


def frame(rows: list[list[dict]], columns: list[str]) -> pd.DataFrame:
    """A pairs table with the real column order."""
    return pd.DataFrame([row for match in rows for row in match], columns=columns)


def small_kemps() -> pd.DataFrame:
    """Strategies a, b, c; a and b meet on four deals, a and c and b and c on two. Payoffs are a's (or b's)."""
    return frame([
        # a vs b. a's payoff as first: +,+,-,+ ; as second: -,+,-,+  -> deal units 0, .5, -.5, .5
        kemps_match("a,b", 0, 11, 0, (5, 2)), kemps_match("a,b", 1, 12, 0, (5, 1)),
        kemps_match("a,b", 2, 13, 1, (3, 5)), kemps_match("a,b", 3, 14, 0, (5, 4)),
        kemps_match("b,a", 0, 11, 0, (5, 0)), kemps_match("b,a", 1, 12, 1, (2, 5)),
        kemps_match("b,a", 2, 13, 0, (5, 3)), kemps_match("b,a", 3, 14, 1, (4, 5)),
        # a vs c: a wins all four matches
        kemps_match("a,c", 0, 11, 0, (5, 0)), kemps_match("a,c", 1, 12, 0, (5, 1)),
        kemps_match("c,a", 0, 11, 1, (2, 5)), kemps_match("c,a", 1, 12, 1, (0, 5)),
        # b vs c: a shared win on deal 11, then c wins on deal 12 in both seatings
        kemps_match("b,c", 0, 11, "both", (5, 5)), kemps_match("b,c", 1, 12, 1, (1, 5)),
        kemps_match("c,b", 0, 11, 0, (5, 3)), kemps_match("c,b", 1, 12, 0, (5, 2)),
    ], KEMPS_COLUMNS)


def test_matrix_of_a_hand_built_kemps_table_is_the_mean_of_its_deal_units():
    table = payoff_table(small_kemps())
    assert table.strategies == ("a", "b", "c")
    # a vs b: deal units (win share minus 1/2 of a, averaged over its two seatings) 0, .5, -.5, .5
    # a vs c: .5 .5; b vs c: (0 + -.5)/2 = -.25 on deal 11, (-.5 + -.5)/2 = -.5 on deal 12
    expected = np.array([[0.0, 0.125, 0.5], [-0.125, 0.0, -0.375], [-0.5, 0.375, 0.0]])
    np.testing.assert_allclose(table.matrix, expected, atol=1e-12)
    np.testing.assert_array_equal(table.counts, [[0, 4, 2], [4, 0, 2], [2, 2, 0]])
    assert (table.units["stratum"] == "both").all() and (table.dropped, table.unpaired) == (0, 0)
    ab = table.units[(table.units["strategy"] == "a") & (table.units["opponent"] == "b")]
    assert list(ab["as_first"]) == [0.5, 0.5, -0.5, 0.5] and list(ab["as_second"]) == [-0.5, 0.5, -0.5, 0.5]
    assert list(ab["seed"]) == [11, 12, 13, 14]


def test_standard_errors_are_the_sd_of_the_units_over_root_n():
    table = payoff_table(small_kemps())
    se_ab = statistics.stdev([0.0, 0.5, -0.5, 0.5]) / 2.0      # 0.4787 / sqrt(4)
    se_bc = statistics.stdev([-0.25, -0.5]) / 2 ** 0.5          # 0.1768 / sqrt(2)
    expected = np.array([[0.0, se_ab, 0.0], [se_ab, 0.0, se_bc], [0.0, se_bc, 0.0]])
    np.testing.assert_allclose(table.standard_errors, expected, atol=1e-12)
    assert se_ab == pytest.approx(0.2393567, abs=1e-6)


def test_score_measures_of_a_kemps_table():
    table = payoff_table(small_kemps(), measure="rounds_won")
    # a vs b, rounds won by a minus b's: first seat 3, 4, -2, 1; second seat -5, 3, -2, 1 -> units -1, 3.5, -2, 1
    assert table.matrix[0, 1] == pytest.approx(np.mean([-1, 3.5, -2, 1]))
    assert table.standard_errors[0, 1] == pytest.approx(statistics.stdev([-1, 3.5, -2, 1]) / 2)
    letters = payoff_table(small_kemps(), measure="letters")  # letters are 5 - rounds won here: the same payoff
    np.testing.assert_allclose(letters.matrix, table.matrix)
    with pytest.raises(ConfigError, match="measure = 'points': needs points scoring.*letters"):
        payoff_table(small_kemps(), measure="points")
    with pytest.raises(ConfigError, match="measure = 'cards_left': the pairs table has no 'cards_left' column"):
        payoff_table(small_kemps(), measure="cards_left")
    with pytest.raises(ConfigError, match="measure = 'elo': must be one of win, rounds_won"):
        payoff_table(small_kemps(), measure="elo")


def test_a_seat_advantage_does_not_leak_into_the_matrix():
    """The first seat wins every match: the matrix is 0 whether the unit is a deal or a lone match, and even when
    one seating was played three times as often as the other (pooling the matches would give a +1/4 there)."""
    deals = frame([kemps_match(lineup, r, 100 + r, 0) for lineup in ("a,b", "b,a", "a,c", "c,a", "b,c", "c,b")
                   for r in range(3)], KEMPS_COLUMNS)
    np.testing.assert_array_equal(payoff_table(deals).matrix, np.zeros((3, 3)))
    lone = frame([kemps_match("a,b", r, 200 + r, 0) for r in range(6)]
                 + [kemps_match("b,a", r, 300 + r, 0) for r in range(2)], KEMPS_COLUMNS)
    pooled = lone.loc[lone["agents"] == "a", "win_share"].mean() - 0.5
    assert pooled == pytest.approx(0.25)
    table = payoff_table(lone)
    assert table.matrix[0, 1] == 0.0 and set(table.units["stratum"]) == {"first", "second"}
    assert table.counts[0, 1] == 8 and table.standard_errors[0, 1] == 0.0


def test_lone_matches_use_the_stratified_standard_error():
    """No seed is shared, so each match is a unit and the two seatings are strata: se = sqrt(s1²/n1 + s2²/n2) / 2."""
    rows = [kemps_match("a,b", r, 400 + r, w) for r, w in enumerate([0, 0, 1])]
    rows += [kemps_match("b,a", r, 500 + r, w) for r, w in enumerate([0, 1, 1, 0])]
    table = payoff_table(frame(rows, KEMPS_COLUMNS))
    first, second = [0.5, 0.5, -0.5], [-0.5, 0.5, 0.5, -0.5]   # a's payoff sitting first, sitting second
    assert table.matrix[0, 1] == pytest.approx((np.mean(first) + np.mean(second)) / 2)
    expected = (statistics.variance(first) / 3 + statistics.variance(second) / 4) ** 0.5 / 2
    assert table.standard_errors[0, 1] == pytest.approx(expected)
    groups = unit_groups(table)  # the two seatings are strata of half weight each
    assert list(groups.weight) == [0.5, 0.5] and [len(m) for m in groups.members] == [3, 4]
    assert list(unit_groups(payoff_table(small_kemps())).weight) == [1.0, 1.0, 1.0]


def test_antisymmetric_with_zero_diagonal():
    rng = np.random.default_rng(3)
    names = ["w", "x", "y", "z"]
    rows = [kemps_match(f"{a},{b}", r, r, int(rng.integers(2)), tuple(rng.integers(0, 6, 2)))
            for a in names for b in names if a != b for r in range(5)]
    for measure in ("win", "rounds_won", "letters"):
        table = payoff_table(frame(rows, KEMPS_COLUMNS), measure=measure)
        np.testing.assert_array_equal(table.matrix, -table.matrix.T)
        np.testing.assert_array_equal(np.diag(table.matrix), np.zeros(4))
        np.testing.assert_array_equal(table.standard_errors, table.standard_errors.T)
    assert np.abs(payoff_table(frame(rows, KEMPS_COLUMNS)).matrix).max() <= 0.5
    assert not table.matrix.flags.writeable


def test_krepet_table_with_a_draw_and_a_game_without_result():
    rows = [
        # deal 1: greedy wins as first (careful 5 cards left), careful wins as first (greedy 7 left)
        krepet_game("greedy,careful", 0, 1, 0, (0, 5)), krepet_game("careful,greedy", 0, 1, 0, (0, 7)),
        # deal 2: a draw with 3 cards each, then careful wins with greedy 4 left
        krepet_game("greedy,careful", 1, 2, None, (3, 3), "both_stuck"),
        krepet_game("careful,greedy", 1, 2, 0, (0, 4)),
        # deal 3: the first game timed out (no result), so its seat-swapped partner is set aside
        krepet_game("greedy,careful", 2, 3, None, (10, 12), "timeout"), krepet_game("careful,greedy", 2, 3, 0, (0, 2)),
    ]
    pairs = frame(rows, KREPET_COLUMNS)
    win = payoff_table(pairs)
    assert win.strategies == ("careful", "greedy")
    assert (win.dropped, win.unpaired, int(win.counts[0, 1])) == (1, 1, 2)
    # careful's units: deal 1 (-1/2 + 1/2) / 2 = 0, deal 2 (0 + 1/2) / 2 = 1/4
    assert win.matrix[0, 1] == pytest.approx(0.125)
    assert win.standard_errors[0, 1] == pytest.approx(statistics.stdev([0.0, 0.25]) / 2 ** 0.5)
    cards = payoff_table(pairs, measure="cards_left")
    # careful's advantage in cards (greedy's left minus careful's): deal 1 (-5 + 7) / 2, deal 2 (0 + 4) / 2
    assert cards.matrix[0, 1] == pytest.approx(np.mean([1.0, 2.0]))
    with pytest.raises(ConfigError, match="measure = 'rounds_won'.*supports win, cards_left"):
        payoff_table(pairs, measure="rounds_won")


def test_pairings_that_never_met_are_nan_and_refused_where_a_solver_needs_them():
    rows = [kemps_match(lineup, r, r, 0) for lineup in ("a,b", "b,a") for r in range(2)]
    rows += [kemps_match("a,c", r, r, 1) for r in range(2)]  # a and c met in one seating only
    table = payoff_table(frame(rows, KEMPS_COLUMNS))
    assert np.isnan(table.matrix[0, 2]) and np.isnan(table.matrix[1, 2]) and np.isnan(table.matrix[2, 1])
    assert table.counts[0, 2] == 0 and table.unpaired == 2
    with pytest.raises(ConfigError, match=r"2 of 3 pairings have no decided matches in both seatings \(a vs c, b vs c"):
        require_complete(table)
    np.testing.assert_array_equal(require_complete(payoff_table(small_kemps())), payoff_table(small_kemps()).matrix)
    assert list(table.pairings()["unit"]) == ["deal", "", ""]


def test_round_cap_matches_are_dropped_with_their_partner_and_counted():
    rows = [kemps_match("a,b", 0, 1, 0), kemps_match("b,a", 0, 1, 1),
            kemps_match("a,b", 1, 2, None), kemps_match("b,a", 1, 2, 0),
            kemps_match("a,b", 2, 3, 1), kemps_match("b,a", 2, 3, 0)]
    table = payoff_table(frame(rows, KEMPS_COLUMNS))
    assert (table.dropped, table.unpaired, int(table.counts[0, 1])) == (1, 1, 2)
    assert table.matrix[0, 1] == pytest.approx(np.mean([0.5, -0.5]))
    assert match_outcomes(frame(rows, KEMPS_COLUMNS)).attrs["dropped"] == table.dropped


def test_outcomes_frames_are_accepted():
    pairs = small_kemps()
    outcomes = match_outcomes(pairs)  # keyed by cell and replicate: no seed, so lone matches
    lone = payoff_table(outcomes)
    assert set(lone.units["stratum"]) == {"first", "second"}
    np.testing.assert_allclose(lone.matrix, payoff_table(pairs).matrix)  # equal seatings: the same means
    with_seed = outcomes.assign(seed=outcomes["replicate"] + 11)  # here replicate r was played on seed 11 + r
    np.testing.assert_allclose(payoff_table(with_seed).standard_errors, payoff_table(pairs).standard_errors)
    with pytest.raises(ConfigError, match="an outcomes frame holds only who won"):
        payoff_table(outcomes, measure="rounds_won")


def test_bad_tables_are_refused():
    with pytest.raises(ConfigError, match="must be a pandas DataFrame"):
        payoff_table([1, 2])  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="pairs table lacks columns"):
        payoff_table(small_kemps().drop(columns=["agents"]))
    three = frame([kemps_match("a,b", 0, 1, 0)], KEMPS_COLUMNS)
    three = pd.concat([three, three.iloc[[0]].assign(pair=2)], ignore_index=True)
    with pytest.raises(ConfigError, match="has 3 sides; a payoff matrix needs two-sided matches"):
        payoff_table(three)
    assert set(MEASURES) == {"win", "rounds_won", "points", "letters", "cards_left"}


@pytest.mark.parametrize(("game", "strategies", "columns", "score"), [
    ("kemps", ["random", "naive"], KEMPS_COLUMNS, "rounds_won"),
    ("krepet", ["greedy", "careful"], KREPET_COLUMNS, "cards_left"),
])
def test_a_real_tournament(tmp_path, game, strategies, columns, score):
    """A tiny round robin: its tables have the hand-built columns and its seatings share seeds (common random
    numbers), so every unit is a deal played in both seatings."""
    spec = tournament_spec(strategies, matches=2, output=str(tmp_path / game), game=game)
    pairs = load_results(run_sweep(spec, workers=1, progress=False).folder, tables=["pairs"])["pairs"]
    assert list(pairs.columns) == columns
    table = payoff_table(pairs)
    assert (table.units["stratum"] == "both").all() and table.counts[0, 1] == 2
    assert (table.dropped, table.unpaired) == (0, 0)
    row = table.strategies[0]
    assert table.matrix[0, 1] == pytest.approx(pairs.loc[pairs["agents"] == row, "win_share"].mean() - 0.5)
    assert np.isfinite(payoff_table(pairs, measure=score).matrix).all()


# ---------------------------------------------------------------------------------------------------- bootstrap

def test_bootstrap_is_reproducible_from_its_seed():
    table = payoff_table(small_kemps(), measure="rounds_won")
    first = bootstrap(table, lambda m: m[0], resamples=300, seed=5)
    again = bootstrap(table, lambda m: m[0], resamples=300, seed=5)
    other = bootstrap(table, lambda m: m[0], resamples=300, seed=6)
    np.testing.assert_array_equal(first.values, again.values)
    assert not np.array_equal(first.values, other.values)
    stacked = bootstrap(table, lambda m: m[:, 0], resamples=300, seed=5, vectorized=True)
    np.testing.assert_array_equal(first.values, stacked.values)
    assert first.values.shape == (300, 3) and first.resamples == 300
    np.testing.assert_array_equal(first.estimate, table.matrix[0])


def test_bootstrap_resamples_within_pairings_and_seatings():
    """A constant stratum never varies: the first seat wins every lone match (seatings resampled together would
    move M), and a pairing whose deals all gave the same payoff stays put while another pairing varies."""
    lone = frame([kemps_match("a,b", r, 200 + r, 0) for r in range(6)]
                 + [kemps_match("b,a", r, 300 + r, 0) for r in range(4)], KEMPS_COLUMNS)
    result = bootstrap(payoff_table(lone), lambda m: m[0, 1], resamples=200)
    assert np.all(result.values == 0.0)
    mixed = bootstrap(payoff_table(small_kemps()), lambda m: np.array([m[0, 2], m[0, 1]]), resamples=200)
    assert np.all(mixed.values[:, 0] == 0.5) and mixed.values[:, 1].std() > 0
    assert np.all(np.isin(mixed.values[:, 1] * 8, np.arange(-4, 5)))  # a mean of 4 units in steps of 1/8


def test_a_single_unit_is_held_fixed():
    rows = [kemps_match("a,b", 0, 1, 0), kemps_match("b,a", 0, 1, 0)]
    result = bootstrap(payoff_table(frame(rows, KEMPS_COLUMNS)), lambda m: m[0, 1], resamples=50)
    assert np.all(result.values == 0.0) and result.low == result.high == 0.0


def test_bootstrap_interval_is_the_percentile_interval_and_its_spread_matches_the_standard_error():
    """With B resamples the bootstrap sd estimates se·sqrt((n-1)/n) (the plug-in variance) with a relative error of
    about 1/sqrt(2B): 4 of those is the tolerance."""
    rng = np.random.default_rng(11)
    n, resamples = 60, 4000
    wins = rng.random((2, n)) < 0.6
    rows = [kemps_match("a,b", r, r, 0 if wins[0, r] else 1) for r in range(n)]
    rows += [kemps_match("b,a", r, r, 1 if wins[1, r] else 0) for r in range(n)]
    table = payoff_table(frame(rows, KEMPS_COLUMNS))
    result = bootstrap(table, lambda m: m[0, 1], resamples=resamples, seed=2, confidence=0.9)
    np.testing.assert_allclose([result.low, result.high], np.quantile(result.values, [0.05, 0.95]))
    plug_in = table.standard_errors[0, 1] * ((n - 1) / n) ** 0.5
    assert result.standard_errors == pytest.approx(plug_in, rel=4 / (2 * resamples) ** 0.5)


def test_support_shares_of_a_mixture():
    table = payoff_table(small_kemps(), measure="rounds_won")

    def softmax(m: np.ndarray) -> np.ndarray:
        weights = np.exp(m.sum(axis=1) / 4)
        return weights / weights.sum()

    result = bootstrap(table, softmax, resamples=400, support_threshold=0.2)
    np.testing.assert_allclose(result.support, (result.values > 0.2).mean(axis=0))
    assert result.support_threshold == 0.2 and 0 < result.support.min() < 1
    assert bootstrap(table, lambda m: m[0], resamples=10).support is None


@pytest.mark.parametrize(("options", "message"), [
    ({"resamples": 1}, "resamples = 1: must be a whole number >= 2"),
    ({"seed": -1}, "seed = -1: must be a whole number >= 0"),
    ({"confidence": 1.0}, "confidence = 1.0: must be between 0 and 1"),
    ({"support_threshold": 1.0}, "support_threshold = 1.0: must be at least 0 and below 1"),
])
def test_bootstrap_bad_options(options, message):
    with pytest.raises(ConfigError, match=message):
        bootstrap(payoff_table(small_kemps()), lambda m: m[0], **options)
    with pytest.raises(ConfigError, match="must be a PayoffTable"):
        bootstrap(small_kemps(), lambda m: m[0])  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------------- coverage

#: P[i, j]: the chance that i beats j, averaged over the two seatings; the first seat adds SEAT to it. Strategies
#: 0, 1, 2 beat one another in a cycle (an interior equilibrium, 1/3 each) and all three beat strategy 3.
P = np.array([[0.5, 0.7, 0.3, 0.8], [0.3, 0.5, 0.7, 0.75], [0.7, 0.3, 0.5, 0.85], [0.2, 0.25, 0.15, 0.5]])
SEAT = 0.1
TRUE_M = P - 0.5
UPPER = np.triu_indices(4, 1)


def simulated_tournament(rng: np.random.Generator, deals: int) -> pd.DataFrame:
    """An outcomes frame with seeds: every pairing plays ``deals`` deals in both seatings. One uniform number per
    deal decides both matches, seat 0 winning when it falls below seat 0's chance, so the deal's luck goes to the
    same seat (to i in one match, to j in the other) and the two matches of a deal are correlated, as in a real
    tournament. Pairings are independent (the bootstrap's assumption)."""
    i, j = UPPER
    u = rng.random((len(i), deals))
    i_first = u < (P[i, j] + SEAT)[:, None]     # i wins sitting first
    j_first = u < (P[j, i] + SEAT)[:, None]     # j wins sitting first on the same deal
    shape = u.shape
    column = lambda a: np.broadcast_to(a[:, None], shape).ravel()  # noqa: E731
    seed = np.broadcast_to(np.arange(deals), shape).ravel()
    names = np.array(["s0", "s1", "s2", "s3"])
    return pd.DataFrame({"first": names[np.concatenate([column(i), column(j)])],
                         "second": names[np.concatenate([column(j), column(i)])],
                         "score": np.concatenate([i_first.ravel(), j_first.ravel()]).astype(float),
                         "seed": np.concatenate([seed, seed])})


def equilibrium_statistic(stack: np.ndarray) -> np.ndarray:
    """The six entries above the diagonal, then the Nash equilibrium of the cycle 0, 1, 2 in closed form (the
    kernel of the antisymmetric 3 x 3 block, (M12, -M02, M01) normalised) and strategy 3's Nash rating against it
    (M p)_3: smooth functions of M while the cycle holds. Vectorised over a stack (n, 4, 4)."""
    cycle = np.stack([stack[:, 1, 2], -stack[:, 0, 2], stack[:, 0, 1]], axis=1)
    mixture = cycle / cycle.sum(axis=1, keepdims=True)
    rating = (stack[:, 3, :3] * mixture).sum(axis=1)
    return np.column_stack([stack[:, UPPER[0], UPPER[1]], mixture, rating])


def acceptance(trials: int, level: float = 0.999) -> tuple[float, float]:
    """The central ``level`` region of the covered share when the true coverage is 0.95 and ``trials``
    independent intervals are checked: binomial quantiles."""
    tail = (1 - level) / 2
    return (stats.binom.ppf(tail, trials, 0.95) / trials, stats.binom.isf(tail, trials, 0.95) / trials)


def test_coverage_of_bootstrap_intervals_and_standard_errors():
    """300 simulated tournaments of 4 strategies, 50 deals per pairing, 1000 resamples each.

    - The six entries are 6 independent intervals per tournament (the pairings are independent), so their covered
      share is Binomial(1800, 0.95) / 1800 if the intervals are right: the central 99.9 % of that is 0.95 ± 0.017.
    - The equilibrium weights and strategy 3's rating are single intervals: Binomial(300, 0.95) / 300, central
      99.9 %: 0.95 ± 0.04.
    - Standard errors: the variance of M over the tournaments against the mean of se². Each entry's ratio has a
      relative error of about sqrt(2 / 299) = 0.082; the mean of the six independent ones about 0.082 / sqrt(6) =
      0.033, and 4 of those (0.13) is the tolerance. Treating the two matches of a deal as independent (the naive
      se, which the data would give without seeds) would put that ratio near 0.7, outside it.
    """
    tournaments, deals = 300, 50
    rng = np.random.default_rng(20240611)
    truth = equilibrium_statistic(TRUE_M[None])[0]
    np.testing.assert_allclose(truth[6:], [1 / 3, 1 / 3, 1 / 3, -0.3])
    covered = np.zeros(len(truth))
    estimates, variances, naive = [], [], []
    for t in range(tournaments):
        outcomes = simulated_tournament(rng, deals)
        table = payoff_table(outcomes)
        result = bootstrap(table, equilibrium_statistic, resamples=1000, seed=t, vectorized=True)
        covered += (result.low <= truth) & (truth <= result.high)
        estimates.append(table.matrix[UPPER])
        variances.append(table.standard_errors[UPPER] ** 2)
        units = table.units
        naive.append([(units.loc[units["i"].eq(i) & units["j"].eq(j), ["as_first", "as_second"]]
                       .var(ddof=1).sum() / deals) / 4 for i, j in zip(*UPPER, strict=True)])
    share = covered / tournaments
    low, high = acceptance(6 * tournaments)
    assert low <= share[:6].mean() <= high, share[:6]
    low, high = acceptance(tournaments)
    assert np.all((low <= share[6:]) & (share[6:] <= high)), share[6:]
    spread = np.var(np.array(estimates), axis=0, ddof=1)
    ratio = spread / np.mean(variances, axis=0)
    tolerance = 4 * (2 / (tournaments - 1)) ** 0.5 / 6 ** 0.5
    assert abs(ratio.mean() - 1) <= tolerance, ratio
    assert abs((spread / np.mean(naive, axis=0)).mean() - 1) > tolerance  # the wrong unit would fail the check


def test_nash_averaging_on_every_resample_is_the_closed_form_of_the_coverage_test():
    """The solver's ratings and mixture equal :func:`equilibrium_statistic` on the true matrix and on each of 300
    resamples of a simulated tournament, so the coverage established above holds for ``nash_averaging(M)``; its
    support share is 1 for the cycle and 0 for strategy 3, which every equilibrium leaves out."""
    truth = nash_averaging(TRUE_M)
    np.testing.assert_allclose(truth.mixture, [1 / 3, 1 / 3, 1 / 3, 0], atol=1e-9)
    np.testing.assert_allclose(truth.ratings, [0, 0, 0, -0.3], atol=1e-9)
    table = payoff_table(simulated_tournament(np.random.default_rng(8), 50))

    def solved(m: np.ndarray) -> np.ndarray:
        result = nash_averaging(m)  # raises on NaN: every pairing met in every resample
        return np.concatenate([result.mixture, result.ratings])

    by_solver = bootstrap(table, solved, resamples=300, seed=4)
    closed = bootstrap(table, equilibrium_statistic, resamples=300, seed=4, vectorized=True)
    np.testing.assert_allclose(by_solver.values[:, :3], closed.values[:, 6:9], atol=1e-7)
    np.testing.assert_allclose(by_solver.values[:, 7], closed.values[:, 9], atol=1e-7)
    np.testing.assert_allclose(by_solver.values[:, 4:7], 0.0, atol=1e-7)
    mixture = bootstrap(table, lambda m: nash_averaging(m).mixture, resamples=300, seed=4)
    np.testing.assert_array_equal(mixture.support, [1.0, 1.0, 1.0, 0.0])

