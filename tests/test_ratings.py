"""Tournament ratings: round-robin lineups, head-to-head tables and Bradley-Terry fits checked against known truth.

Synthetic tournaments draw each match from the Bradley-Terry model itself with a fixed numpy Generator, so the
true strengths are known; tolerances are stated where they are used and follow from the number of matches.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from kemps_sim import ConfigError, simulate_match
from kemps_sim.lineup import split_lineup
from kemps_sim.ratings import (
    ELO_PER_LOG,
    bradley_terry,
    head_to_head,
    head_to_head_long,
    match_outcomes,
    rating_difference,
    tournament_summary,
)
from kemps_sim.records import tables
from kemps_sim.sweep.tournament import pairings

NAMES = ["a", "b", "c"]
TRUTH = np.array([-0.5, 0.0, 0.7])  # log-strengths of a, b, c; mean 0.067, centred below


def synthetic_outcomes(rng: np.random.Generator, per_lineup: int, seat: float = 0.0,
                       strengths: np.ndarray = TRUTH) -> pd.DataFrame:
    """Matches of every lineup of a round robin, each won by pair 0 with the Bradley-Terry probability."""
    index = {name: i for i, name in enumerate(NAMES)}
    firsts, seconds = [], []
    for lineup in pairings(NAMES):
        first, second = lineup.split(",")
        firsts += [first] * per_lineup
        seconds += [second] * per_lineup
    eta = strengths[[index[f] for f in firsts]] - strengths[[index[s] for s in seconds]] + seat
    score = (rng.random(len(firsts)) < 1.0 / (1.0 + np.exp(-eta))).astype(float)
    return pd.DataFrame({"seed": np.arange(len(firsts)), "first": firsts, "second": seconds, "score": score})


def as_pairs_table(outcomes: pd.DataFrame) -> pd.DataFrame:
    """The stacked records pairs table those outcomes would have come from (two rows per match)."""
    rows = []
    for seed, first, second, score in outcomes[["seed", "first", "second", "score"]].itertuples(index=False):
        for pair, agents, share in ((0, first, score), (1, second, 1.0 - score)):
            rows.append({"seed": seed, "pair": pair, "agents": agents, "won": share > 0, "win_share": share,
                         "end_reason": "match_over"})
    return pd.DataFrame(rows)


def hand_pairs(matches: list[tuple[str, str, float | None]], **extra: list) -> pd.DataFrame:
    """A pairs table from (first, second, pair 0's win_share or None for no winner), one seed per match."""
    rows = []
    for seed, (first, second, share) in enumerate(matches):
        for pair, agents in ((0, first), (1, second)):
            mine = None if share is None else (share if pair == 0 else 1.0 - share)
            if share == 0.5:
                mine = 0.5
            rows.append({"seed": seed, "pair": pair, "agents": agents, "won": bool(mine),
                         "win_share": mine or 0.0, "end_reason": "round_cap" if share is None else "match_over",
                         **{k: v[seed] for k, v in extra.items()}})
    return pd.DataFrame(rows)


def expected_rating_se(per_lineup: int, seat: float, strengths: np.ndarray = TRUTH) -> np.ndarray:
    """Standard errors of the sum-zero ratings from the expected Fisher information at the truth.

    Written independently of the module: full k-dimensional design, the seat term profiled out by a Schur
    complement, and the Moore-Penrose inverse, which is the covariance under the mean-zero constraint.
    """
    k = len(NAMES)
    info = np.zeros((k + 1, k + 1))
    for lineup in pairings(NAMES):
        first, second = (NAMES.index(s) for s in lineup.split(","))
        x = np.zeros(k + 1)
        x[first], x[second], x[k] = 1.0, -1.0, 1.0
        p = 1.0 / (1.0 + math.exp(-(strengths[first] - strengths[second] + seat)))
        info += per_lineup * p * (1 - p) * np.outer(x, x)
    schur = info[:k, :k] - np.outer(info[:k, k], info[k, :k]) / info[k, k]
    return np.sqrt(np.diag(np.linalg.pinv(schur)))


# --- pairings -------------------------------------------------------------------------------------------------


def test_pairings_list_every_ordered_pair_once():
    strategies = ["collector", "random", "watcher(threshold=0.9, x=1)"]
    lineups = pairings(strategies)
    assert len(lineups) == 6
    assert lineups[:2] == ["collector,random", "random,collector"]
    ordered = [tuple(split_lineup(lineup)) for lineup in lineups]
    assert sorted(ordered) == sorted((a, b) for a in strategies for b in strategies if a != b)
    assert pairings(strategies) == lineups  # deterministic


@pytest.mark.parametrize("bad", [[], ["collector"], ["collector", "collector"], ["collector", ""],
                                 "collector,random", ["collector,random", "watcher"], ["collector", "w(x=1"]])
def test_pairings_reject_bad_input_in_one_line(bad):
    with pytest.raises(ConfigError) as info:
        pairings(bad)
    assert "\n" not in str(info.value)


# --- match outcomes and head-to-head on hand-built data ------------------------------------------------------

Z = "z(k=1, j=2)"
HAND = [("x", "y", 1.0), ("x", "y", 1.0), ("y", "x", 1.0), ("y", "x", 0.0),  # x scores 3 of 4 against y
        ("x", Z, 0.0), (Z, "x", 0.0),                                         # one each
        ("y", Z, 1.0), ("y", Z, 1.0), (Z, "y", 0.0),                          # y always beats z
        ("y", Z, None)]                                                       # nobody won: dropped


def test_match_outcomes_one_row_per_match_and_drop_the_unwon():
    outcomes = match_outcomes(hand_pairs(HAND))
    assert len(outcomes) == 9 and outcomes.attrs["dropped"] == 1
    assert list(outcomes.columns) == ["seed", "occurrence", "first", "second", "score"]
    assert list(outcomes["score"]) == [m[2] for m in HAND[:-1]]
    assert list(outcomes["first"]) == [m[0] for m in HAND[:-1]]


def test_match_outcomes_use_cell_and_replicate_and_tell_reused_seeds_apart():
    matches = [("x", "y", 1.0), ("y", "x", 1.0), ("x", "y", 0.0)]
    sweep = hand_pairs(matches, cell=[0, 1, 1], replicate=[0, 0, 1])
    sweep["seed"] = 5  # every match reused one seed; the (cell, replicate) id still tells them apart
    outcomes = match_outcomes(sweep)
    assert list(outcomes[["cell", "replicate"]].itertuples(index=False, name=None)) == [(0, 0), (1, 0), (1, 1)]
    plain = hand_pairs(matches)
    plain["seed"] = 5
    stacked = match_outcomes(plain)
    assert list(stacked["occurrence"]) == [0, 1, 2]
    assert list(stacked["score"]) == [1.0, 1.0, 0.0] and list(stacked["second"]) == ["y", "x", "y"]


def test_match_outcomes_reject_more_than_two_pairs_and_missing_columns():
    six = pd.DataFrame({"seed": [1, 1, 1], "pair": [0, 1, 2], "agents": ["x", "y", "z"],
                        "won": [True, False, False], "win_share": [1.0, 0.0, 0.0]})
    with pytest.raises(ConfigError, match="has 3 sides; ratings need two-sided matches") as info:
        match_outcomes(six)
    assert "\n" not in str(info.value)
    with pytest.raises(ConfigError, match="lacks columns"):
        match_outcomes(six.drop(columns="win_share"))


def test_head_to_head_has_exact_means_and_complementary_entries():
    matrix = head_to_head(hand_pairs(HAND))
    assert list(matrix.index) == list(matrix.columns) == sorted(["x", "y", Z])
    assert matrix.loc["x", "y"] == 0.75 and matrix.loc["y", "x"] == 0.25
    assert matrix.loc["x", Z] == 0.5 and matrix.loc[Z, "x"] == 0.5
    assert matrix.loc["y", Z] == 1.0 and matrix.loc[Z, "y"] == 0.0
    values = matrix.to_numpy()
    assert np.isnan(np.diag(values)).all()
    off = ~np.eye(3, dtype=bool)
    assert np.array_equal((values + values.T)[off], np.ones(6))


def test_head_to_head_long_counts_and_wilson_intervals():
    long = head_to_head_long(hand_pairs(HAND))
    row = long[(long["strategy"] == "x") & (long["opponent"] == "y")].iloc[0]
    assert (row["n"], row["wins"], row["value"]) == (4, 3.0, 0.75)
    wilson = stats.binomtest(3, 4).proportion_ci(0.95, method="wilson")
    assert math.isclose(row["ci_low"], wilson.low) and math.isclose(row["ci_high"], wilson.high)
    assert len(long) == 6 and list(long.columns) == ["strategy", "opponent", "n", "wins", "value", "ci_low",
                                                     "ci_high"]


def test_shared_wins_are_half_points_with_a_widened_mirror_interval():
    long = head_to_head_long(hand_pairs([("x", "y", 0.5), ("y", "x", 0.0)]), confidence=0.9).set_index(
        ["strategy", "opponent"])
    x, y = long.loc[("x", "y")], long.loc[("y", "x")]
    assert (x["wins"], x["value"], y["wins"]) == (1.5, 0.75, 0.5)
    assert math.isclose(x["ci_low"], stats.binomtest(1, 2).proportion_ci(0.9, method="wilson").low)
    assert math.isclose(x["ci_high"], stats.binomtest(2, 2).proportion_ci(0.9, method="wilson").high)
    assert math.isclose(x["ci_low"], 1 - y["ci_high"]) and math.isclose(x["ci_high"], 1 - y["ci_low"])
    matrix = head_to_head(hand_pairs([("x", "y", 0.5), ("y", "x", 0.0)]))
    assert matrix.loc["x", "y"] + matrix.loc["y", "x"] == 1.0


# --- Bradley-Terry ----------------------------------------------------------------------------------------------


def test_bradley_terry_recovers_known_strengths_within_their_intervals():
    per_lineup = 500  # 3,000 matches; se of each rating is about 0.04
    outcomes = synthetic_outcomes(np.random.default_rng(20240501), per_lineup)
    fit = bradley_terry(as_pairs_table(outcomes), confidence=0.999, seat_advantage=False).set_index("strategy")
    truth = pd.Series(TRUTH - TRUTH.mean(), index=NAMES)
    # 99.9% intervals: a correct fit misses one of the three truths with probability under 0.3%.
    assert ((fit.loc[NAMES, "ci_low"] <= truth) & (truth <= fit.loc[NAMES, "ci_high"])).all()
    # se at the estimate vs the expected-information se at the truth: they differ by O(1/sqrt(n)), a few %.
    expected = pd.Series(expected_rating_se(per_lineup, 0.0), index=NAMES)
    assert np.allclose(fit.loc[NAMES, "se"], expected, rtol=0.05)
    assert list(fit.index) == ["c", "b", "a"]
    assert fit.attrs["seat_advantage"] is None and fit.attrs["matches"] == 3000


def test_bradley_terry_columns_elo_scale_and_mean_zero():
    fit = bradley_terry(synthetic_outcomes(np.random.default_rng(3), 50))
    assert list(fit.columns) == ["strategy", "rating", "se", "ci_low", "ci_high", "bound", "matches", "score",
                                 "elo", "elo_low", "elo_high"]
    assert abs(fit["rating"].sum()) < 1e-9 and fit.attrs["reference"] == NAMES
    assert np.allclose(fit["elo"], fit["rating"] * 400 / math.log(10)) and math.isclose(ELO_PER_LOG, 173.7178,
                                                                                        rel_tol=1e-6)
    # Profile-likelihood intervals need not be symmetric, but every one here is finite and holds its estimate.
    assert np.allclose(fit["elo_low"], fit["ci_low"] * ELO_PER_LOG)
    assert np.allclose(fit["elo_high"], fit["ci_high"] * ELO_PER_LOG)
    assert (fit["elo_low"] < fit["elo"]).all() and (fit["elo"] < fit["elo_high"]).all()
    assert (fit["bound"] == "two-sided").all()
    assert (fit["matches"] == 200).all()  # 50 matches in each of 4 lineups involving a strategy
    assert list(fit["rating"]) == sorted(fit["rating"], reverse=True)


def test_bradley_terry_maximum_satisfies_the_score_equations():
    # The MLE matches each strategy's total score to its fitted expectation, and the first seat's total score
    # to the fitted expectation of the seat term.
    outcomes = synthetic_outcomes(np.random.default_rng(11), 40, seat=0.3)
    fit = bradley_terry(outcomes).set_index("strategy")
    h = fit.attrs["seat_advantage"][0]
    p = 1 / (1 + np.exp(-(fit.loc[outcomes["first"], "rating"].to_numpy()
                          - fit.loc[outcomes["second"], "rating"].to_numpy() + h)))
    assert math.isclose(p.sum(), outcomes["score"].sum(), rel_tol=1e-6)
    for name in NAMES:
        observed = outcomes.loc[outcomes["first"] == name, "score"].sum() + (
            1 - outcomes.loc[outcomes["second"] == name, "score"]).sum()
        fitted = p[outcomes["first"] == name].sum() + (1 - p[outcomes["second"] == name]).sum()
        assert math.isclose(observed, fitted, rel_tol=1e-6)


def test_rating_difference_intervals_cover_the_truth_at_the_nominal_rate():
    # 200 tournaments of 600 matches each (100 per lineup), fixed seeds. If the 95% intervals are right, the
    # number that cover the true difference c - a is Binomial(200, 0.95): mean 190, sd 3.1. Accept the
    # central 99.8% range of that distribution, so a calibrated method fails this by chance with p < 0.002.
    trials, true_diff = 200, TRUTH[2] - TRUTH[0]
    covered = 0
    for seed in range(trials):
        fit = bradley_terry(synthetic_outcomes(np.random.default_rng(1000 + seed), 100), seat_advantage=False)
        _, low, high = rating_difference(fit, "c", "a")
        covered += low <= true_diff <= high
    low_ok, high_ok = stats.binom.ppf([0.001, 0.999], trials, 0.95)
    assert low_ok <= covered <= high_ok, (covered, low_ok, high_ok)


def test_bradley_terry_recovers_a_known_seat_advantage():
    seat, per_lineup = 0.4, 500
    outcomes = synthetic_outcomes(np.random.default_rng(77), per_lineup, seat=seat)
    fit = bradley_terry(outcomes, confidence=0.999)
    estimate, low, high = fit.attrs["seat_advantage"]
    # se of the seat term with 3,000 matches is about 1/sqrt(3000 * 0.24) = 0.037; 99.9% interval is ± 0.12.
    assert low <= seat <= high and low > 0.2
    assert abs(estimate - seat) < 4 * fit.attrs["seat_advantage_se"]
    by_name = fit.set_index("strategy")
    truth = pd.Series(TRUTH - TRUTH.mean(), index=NAMES)
    assert ((by_name.loc[NAMES, "ci_low"] <= truth) & (truth <= by_name.loc[NAMES, "ci_high"])).all()
    expected = expected_rating_se(per_lineup, seat)
    assert np.allclose(by_name.loc[NAMES, "se"], expected, rtol=0.05)


def test_a_strategy_that_always_wins_is_rated_plus_infinity_with_only_a_lower_bound():
    rng = np.random.default_rng(5)
    outcomes = synthetic_outcomes(rng, 30)
    outcomes["score"] = np.where(outcomes["first"] == "c", 1.0, outcomes["score"])
    outcomes["score"] = np.where(outcomes["second"] == "c", 0.0, outcomes["score"])
    fit = bradley_terry(as_pairs_table(outcomes))
    top, rest = fit.iloc[0], fit.iloc[1:]
    assert top["strategy"] == "c" and top["score"] == 1.0 and top["bound"] == "lower only"
    assert top["rating"] == math.inf and top["ci_high"] == math.inf and top["elo"] == math.inf
    assert math.isfinite(top["ci_low"]) and math.isnan(top["se"])
    assert (top["ci_low"] > rest["ci_high"]).all()  # above every strategy it beat, by its own interval
    assert np.isfinite(rest[["rating", "se", "ci_low", "ci_high", "elo"]].to_numpy()).all()
    assert fit.attrs["reference"] == ["a", "b"] and abs(rest["rating"].sum()) < 1e-9
    assert head_to_head(outcomes).loc["c"].drop("c").eq(1.0).all()


def test_only_shared_wins_give_equal_ratings():
    fit = bradley_terry(hand_pairs([("x", "y", 0.5), ("y", "x", 0.5), ("x", "y", 0.5)]))
    assert np.allclose(fit["rating"], 0.0, atol=1e-9) and (fit["score"] == 0.5).all()


def test_bad_confidence_and_too_few_strategies():
    with pytest.raises(ConfigError, match="confidence"):
        bradley_terry(hand_pairs(HAND), confidence=1.5)
    with pytest.raises(ConfigError, match="confidence"):
        head_to_head_long(hand_pairs(HAND), confidence=0)
    with pytest.raises(ConfigError, match="at least 2"):
        bradley_terry(hand_pairs([("x", "x", 1.0)]))


def test_summary_names_every_strategy_and_the_seat_advantage():
    text = tournament_summary(hand_pairs(HAND))
    for needle in ("Bradley-Terry", "1 without a winner", "First-seat advantage", "Head-to-head", Z, "0.750"):
        assert needle in text


# --- a real tournament through the engine ------------------------------------------------------------------


def test_a_small_engine_tournament_rates_collector_above_random():
    # Checked beforehand over seeds 0-19 in both seatings: collector won all 40 matches against random.
    lineups = pairings(["collector", "random"])
    results = [simulate_match("standard", lineup, seed=seed) for lineup in lineups for seed in range(4)]
    pairs = tables(results)["pairs"]
    outcomes = match_outcomes(pairs)
    assert len(outcomes) + outcomes.attrs["dropped"] == 8  # the reused seeds are still eight matches
    fit = bradley_terry(pairs)
    assert list(fit["strategy"]) == ["collector", "random"]
    assert fit["rating"].iloc[0] > fit["rating"].iloc[1]
    assert head_to_head(pairs).loc["collector", "random"] > 0.5
    assert "collector" in tournament_summary(pairs)


def test_pairings_treat_equal_agent_specs_as_one_strategy():
    assert pairings(["watcher()", "cautious(threshold = 0.9)"]) == [
        "watcher,cautious(threshold=0.9)", "cautious(threshold=0.9),watcher"]
    with pytest.raises(ConfigError, match="each strategy must appear once"):
        pairings(["watcher", "watcher()"])


def test_pairings_moved_with_a_message_naming_their_new_home():
    """Ratings take outcomes: the round robin's lineups are planned with the tournament, and the old name says where."""
    import kemps_sim.ratings as ratings

    with pytest.raises(AttributeError, match=r"^kemps_sim.ratings.pairings has moved: use kemps_sim.sweep.tournament"):
        ratings.pairings  # noqa: B018
