"""Intervals that respect the design: shares of calls clustered by match, paired comparisons under common random
numbers, metrics that follow the scoring rule, and p-values that never print as 0."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from kemps_sim import ConfigError
from kemps_sim.stats import (
    METRICS,
    SCORING_COLUMN,
    call_accuracy,
    call_timings,
    compare,
    format_comparison,
    format_p,
    format_summary,
    metrics_under,
    outcome_shares,
    paired_difference,
    summary_table,
)
from kemps_sim.stats._clusters import wilson_limits


def _wilson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return ci.low, ci.high


def _kemps_calls(right: np.ndarray, calls_per_match: np.ndarray | int, cell: str = "a",
                 seed_base: int = 0) -> pd.DataFrame:
    """A calls table of Kemps calls: ``right`` flattened, ``calls_per_match`` calls per match (seeds from 0)."""
    right = np.asarray(right, dtype=bool).ravel()
    sizes = np.broadcast_to(calls_per_match, (len(right) // int(np.max(calls_per_match)),)) \
        if np.ndim(calls_per_match) == 0 else np.asarray(calls_per_match)
    seeds = np.repeat(seed_base + np.arange(len(sizes)), sizes)
    return pd.DataFrame({"cell": cell, "seed": seeds, "replicate": seeds - seed_base, "call": "kemps",
                         "right": right, "four_to_signal": 1.0, "signal_to_call": 1.0, "four_to_call": 2.0})


def _no_fours() -> pd.DataFrame:
    return pd.DataFrame({"cell": pd.Series(dtype=str), "seed": pd.Series(dtype=int), "fate": pd.Series(dtype=str)})


def _precision(calls: pd.DataFrame) -> pd.Series:
    out = call_accuracy(calls, _no_fours())
    return out[out["metric"] == "kemps_precision"].iloc[0]


def _half_width(low: float, high: float) -> float:
    return (high - low) / 2


# --- clustered intervals of calls and fours ----------------------------------------------------------------------

def test_wilson_limits_on_fractional_counts_are_scipys_at_whole_counts():
    for k, n, level in [(0, 5, 0.95), (3, 4, 0.95), (7, 10, 0.8), (100, 200, 0.99), (20, 20, 0.9)]:
        assert wilson_limits(k / n, n, level) == pytest.approx(_wilson(k, n, level), abs=1e-12)


def test_clustered_interval_is_about_sqrt_m_wider_when_a_matchs_calls_all_agree():
    # 20 matches of 10 Kemps calls each; in 10 matches every call is right, in the other 10 every call is wrong.
    # The 200 calls carry the information of 20: the design effect is exactly 10.
    right = np.repeat(np.arange(20) % 2 == 0, 10)
    row = _precision(_kemps_calls(right, 10))
    assert (row["successes"], row["n"], row["matches"]) == (100, 200, 20)
    assert row["value"] == 0.5 and row["design_effect"] == pytest.approx(10.0)
    assert row["ci_level"] == 0.95
    naive = _half_width(*_wilson(100, 200))
    clustered = _half_width(row["ci_low"], row["ci_high"])
    # Wilson's half-width shrinks like 1/sqrt(n) up to its z^2/n terms (about 3% here), and Korn and Graubard's
    # few-matches factor (t_199 / t_19)^2 = 0.89 widens it by about 6%: the ratio lies within 15% of sqrt(10).
    assert clustered / naive == pytest.approx(math.sqrt(10), rel=0.15)
    # Exactly: the Wilson interval on the 20 matches' worth of calls, shrunk by the Korn–Graubard factor.
    factor = (stats.t.ppf(0.975, 199) / stats.t.ppf(0.975, 19)) ** 2
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(wilson_limits(0.5, 20 * factor, 0.95), abs=1e-12)
    # Without a seed column nothing says which calls came from one match: the naive interval.
    naive_row = _precision(_kemps_calls(right, 10).drop(columns=["seed", "replicate"]))
    assert (naive_row["ci_low"], naive_row["ci_high"]) == pytest.approx(_wilson(100, 200), abs=1e-12)


def test_clustered_and_naive_intervals_agree_when_calls_are_independent():
    rng = np.random.default_rng(20240611)
    right = rng.random(200 * 5) < 0.3  # 200 matches of 5 independent calls
    row = _precision(_kemps_calls(right, 5))
    k, n = int(right.sum()), len(right)
    ratio = _half_width(row["ci_low"], row["ci_high"]) / _half_width(*_wilson(k, n))
    # The design effect is estimated from 200 matches: its relative standard deviation is about sqrt(2 / 199),
    # 0.10, so its square root (the ratio of half-widths) is within 3 x 0.05 of 1; it is never below 1.
    assert 1.0 <= row["design_effect"] <= 1.3
    assert 0.99 <= ratio <= 1.15


def test_clustered_intervals_keep_their_coverage_where_naive_ones_lose_it():
    # 400 groups of 30 matches x 8 calls; each match has its own accuracy drawn from Beta(2.1, 0.9) (mean 0.7,
    # intra-match correlation 1 / (2.1 + 0.9 + 1) = 0.25), so the design effect is 1 + 7 x 0.25 = 2.75.
    rng = np.random.default_rng(7)
    groups, matches, calls, truth = 400, 30, 8, 0.7
    accuracy = rng.beta(2.1, 0.9, size=(groups, matches))
    right = rng.random((groups, matches, calls)) < accuracy[..., None]
    table = pd.DataFrame({"cell": np.repeat([f"g{g:03d}" for g in range(groups)], matches * calls),
                          "seed": np.tile(np.repeat(np.arange(matches), calls), groups),
                          "call": "kemps", "right": right.ravel()})
    out = call_accuracy(table, _no_fours())
    out = out[out["metric"] == "kemps_precision"]
    covered = ((out["ci_low"] <= truth) & (truth <= out["ci_high"])).mean()
    naive = [_wilson(int(k), matches * calls) for k in right.sum(axis=(1, 2))]
    naive_covered = np.mean([low <= truth <= high for low, high in naive])
    # The naive interval is sqrt(2.75) = 1.66 times too narrow: z = 1.96 / 1.66 = 1.18 covers about 76%. The
    # coverage of 400 groups has a standard deviation of about 0.011 at 95% and 0.021 at 76%.
    assert naive_covered < 0.85
    assert covered >= 0.91


def test_call_timings_and_outcome_shares_are_clustered_by_match_too():
    # 20 matches of 10 calls; every call of a match takes that match's delay.
    rng = np.random.default_rng(3)
    delays = np.repeat(rng.exponential(2.0, 20), 10)
    calls = _kemps_calls(np.ones(200, dtype=bool), 10).assign(four_to_call=delays)
    row = call_timings(calls).set_index("measure").loc["four_to_call"]
    naive = stats.ttest_1samp(delays, 0.0).confidence_interval(0.95)
    assert (row["n"], row["matches"], row["design_effect"]) == (200, 20, pytest.approx(10.0))
    # The clustered standard error is sqrt(10) times the naive one, on 19 degrees of freedom instead of 199.
    expected = math.sqrt(10) * stats.t.ppf(0.975, 19) / stats.t.ppf(0.975, 199)
    assert _half_width(row["ci_low"], row["ci_high"]) / _half_width(naive.low, naive.high) == pytest.approx(expected)
    rounds = pd.DataFrame({"cell": "a", "seed": np.repeat(np.arange(20), 10),
                           "outcome": np.repeat(np.where(np.arange(20) % 2 == 0, "kemps_right", "stop_right"), 10)})
    shares = outcome_shares(rounds).set_index("outcome")
    assert shares.loc["kemps_right", "design_effect"] == pytest.approx(10.0)
    assert shares.loc["kemps_right", "matches"] == 20


def test_a_share_of_all_right_calls_keeps_the_few_matches_factor():
    # Nothing varies, so the design effect is 0 / 0; as in Korn and Graubard (and the NCHS standards) it is taken
    # as 1, and the interval is still widened for resting on 20 matches rather than 60 independent calls.
    row = _precision(_kemps_calls(np.ones(60, dtype=bool), 3))
    assert row["value"] == 1.0 and row["ci_high"] == 1.0 and row["design_effect"] == 1.0
    factor = (stats.t.ppf(0.975, 59) / stats.t.ppf(0.975, 19)) ** 2
    assert row["ci_low"] == pytest.approx(wilson_limits(1.0, 60 * factor, 0.95)[0])
    assert row["ci_low"] < _wilson(60, 60)[0]
    # One match shows no variation between matches at all: it counts as a single call.
    single = _precision(_kemps_calls(np.array([True, True, False, True]), 4))
    assert single["matches"] == 1 and single["design_effect"] == 4.0
    assert (single["ci_low"], single["ci_high"]) == pytest.approx(wilson_limits(0.75, 1.0, 0.95))


# --- paired comparisons (common random numbers) ------------------------------------------------------------------

def _paired_pairs(won_a: np.ndarray, won_b: np.ndarray, shared_seeds: bool = True,
                  letters: tuple[np.ndarray, np.ndarray] | None = None) -> pd.DataFrame:
    """Pair 0's rows of two cells, replicate r of each playing seed 1000 + r (or cell b other seeds)."""
    frames = []
    for cell, won, offset in (("a", won_a, 0), ("b", won_b, 0 if shared_seeds else 500)):
        n = len(won)
        frames.append(pd.DataFrame({
            "cell": cell, "replicate": np.arange(n), "seed": 1000 + offset + np.arange(n), "pair": 0,
            "agents": "x", "won": np.asarray(won, dtype=bool),
            "letters": letters[0 if cell == "a" else 1] if letters is not None else 2.0,
            "points": 0, "rounds_won": 1, "rounds": 3}))
    return pd.concat(frames, ignore_index=True)


def test_compare_pairs_groups_that_share_their_replicates_seeds_and_uses_mcnemar():
    rng = np.random.default_rng(5)
    won_a = rng.random(60) < 0.6
    won_b = np.where(rng.random(60) < 0.8, won_a, ~won_a)  # agrees with a on most replicates
    paired = compare({"pairs": _paired_pairs(won_a, won_b)}, "win_rate", "a", "b")
    assert paired.paired and paired.n_pairs == 60 and paired.test == "mcnemar" and paired.pairing == "match"
    only_a, only_b = int((won_a & ~won_b).sum()), int((won_b & ~won_a).sum())
    # McNemar's asymptotic statistic, the one Tango's interval inverts.
    assert paired.statistic == pytest.approx((only_a - only_b) / math.sqrt(only_a + only_b))
    assert paired.p_value == pytest.approx(2 * stats.norm.sf(abs(paired.statistic)))
    assert paired.difference == pytest.approx(won_a.mean() - won_b.mean())
    assert paired.se == pytest.approx(np.std(won_a.astype(float) - won_b, ddof=1) / math.sqrt(60))
    assert paired.ci_low < paired.difference < paired.ci_high
    unpaired = compare({"pairs": _paired_pairs(won_a, won_b, shared_seeds=False)}, "win_rate", "a", "b")
    assert not unpaired.paired and unpaired.test == "score" and unpaired.n_pairs == 0
    # Pairing removes the luck both sides share: the paired interval is the narrower one.
    assert paired.ci_high - paired.ci_low < unpaired.ci_high - unpaired.ci_low
    forced = compare({"pairs": _paired_pairs(won_a, won_b)}, "win_rate", "a", "b", paired=False)
    assert not forced.paired and forced.p_value == pytest.approx(unpaired.p_value)
    with pytest.raises(ConfigError, match="cannot be paired") as info:
        compare({"pairs": _paired_pairs(won_a, won_b, shared_seeds=False)}, "win_rate", "a", "b", paired=True)
    assert "\n" not in str(info.value)


def test_paired_win_rate_is_tangos_interval_with_its_published_value():
    # Fagerland, Lydersen and Laake (2014), Stat Methods Med Res 23:411, the airway data: 1 pair favours A, 7
    # favour B, 21 pairs: Tango's asymptotic score interval -0.517 to -0.026 and McNemar's asymptotic p = 0.034.
    won_a = np.array([True, True] + [False] * 7 + [False] * 12)
    won_b = np.array([True, False] + [True] * 7 + [False] * 12)
    result = compare({"pairs": _paired_pairs(won_a, won_b)}, "win_rate", "a", "b")
    assert result.test == "mcnemar" and result.n_pairs == 21
    assert (result.ci_low, result.ci_high) == pytest.approx((-0.517, -0.026), abs=5e-4)
    assert result.p_value == pytest.approx(0.034, abs=5e-4)


def test_tangos_interval_limits_solve_the_score_equation_with_the_restricted_likelihood():
    # Each limit d is where the score statistic, with P(A = 0, B = 1) at its maximum-likelihood value under
    # "difference = d" (found here numerically), equals the normal quantile.
    from scipy import optimize

    from kemps_sim.stats._dual import tango

    favour_a, favour_b, n = 13, 4, 40
    found = tango(favour_a, favour_b, n, 0.9)
    for limit in (found.ci_low, found.ci_high):
        def minus_log_likelihood(p01: float, d: float = limit) -> float:
            p10, rest = p01 + d, 1 - 2 * p01 - d
            return -(favour_a * math.log(p10) + favour_b * math.log(p01) + (n - favour_a - favour_b) * math.log(rest))

        upper = (1 - limit) / 2
        p01 = optimize.minimize_scalar(minus_log_likelihood, bounds=(max(0, -limit) + 1e-12, upper - 1e-12),
                                       method="bounded", options={"xatol": 1e-12}).x
        z = (favour_a - favour_b - n * limit) / math.sqrt(n * (2 * p01 + limit * (1 - limit)))
        assert abs(z) == pytest.approx(stats.norm.ppf(0.95), abs=1e-5)


def test_paired_win_rate_interval_stays_honest_when_every_replicate_goes_one_way():
    # Five replicates, a wins each and b loses each: the differences have no spread, but five pairs prove little.
    result = compare({"pairs": _paired_pairs(np.ones(5, bool), np.zeros(5, bool))}, "win_rate", "a", "b")
    assert result.paired and result.difference == 1.0 and result.se == 0.0
    assert result.p_value == pytest.approx(2 * stats.norm.sf(math.sqrt(5)))  # McNemar: 5 of 5 pairs favour a
    assert result.ci_low < 0.6 and result.ci_high == 1.0  # Tango's interval reaches well below 1


def test_paired_scores_are_scipys_paired_t_test():
    rng = np.random.default_rng(12)
    shared = rng.normal(0, 2, 40)  # the replicate's luck, the same in both cells
    letters_a, letters_b = 3 + shared + rng.normal(0, 0.5, 40), 2.7 + shared + rng.normal(0, 0.5, 40)
    pairs = _paired_pairs(np.zeros(40, bool), np.zeros(40, bool), letters=(letters_a, letters_b))
    result = compare({"pairs": pairs}, "letters", "a", "b", scoring="letters")
    expected = stats.ttest_rel(letters_a, letters_b)
    ci = expected.confidence_interval(0.95)
    assert result.paired and result.test == "paired_ttest"
    assert (result.statistic, result.p_value, result.ci_low, result.ci_high) == pytest.approx(
        (expected.statistic, expected.pvalue, ci.low, ci.high))
    unpaired = compare({"pairs": pairs}, "letters", "a", "b", scoring="letters", paired=False)
    welch = stats.ttest_ind(letters_a, letters_b, equal_var=False)
    assert (unpaired.statistic, unpaired.p_value) == pytest.approx((welch.statistic, welch.pvalue))
    assert result.se < unpaired.se / 3  # the shared luck (sd 2) cancels, the rest (sd 0.5 x sqrt 2) stays


def test_paired_difference_of_identical_cells_has_zero_standard_error():
    rng = np.random.default_rng(2)
    won = rng.random(30) < 0.5
    letters = rng.poisson(3, 30).astype(float)
    pairs = _paired_pairs(won, won, letters=(letters, letters))
    for metric in ("won", "letters"):
        same = paired_difference(pairs, "cell", "a", "b", metric)
        assert same.paired and same.n_pairs == 30
        assert (same.difference, same.se, same.ci_low, same.ci_high, same.p_value) == (0.0, 0.0, 0.0, 0.0, 1.0)
    unpaired = paired_difference(pairs, "cell", "a", "b", "letters", paired=False)
    assert not unpaired.paired and unpaired.se == pytest.approx(math.sqrt(2 / 30) * np.std(letters, ddof=1))
    named = paired_difference({"pairs": pairs}, "cell", "a", "b", "win_rate")
    assert named.paired and named.difference == 0.0 and named.se == 0.0
    assert named.ci_low <= 0.0 <= named.ci_high


def test_paired_shares_of_calls_pool_each_replicates_calls():
    # Replicate r plays seed 1000 + r in both cells; each plays 4 Kemps calls per replicate whose rightness
    # follows a replicate-level luck shared by both cells, and cell a is a little more often right.
    rng = np.random.default_rng(9)
    luck = rng.random(50)
    frames = []
    for cell, edge in (("a", 0.1), ("b", 0.0)):
        right = rng.random((50, 4)) < np.clip(luck + edge, 0, 1)[:, None]
        frames.append(_kemps_calls(right, 4, cell=cell, seed_base=1000))
    calls = pd.concat(frames, ignore_index=True)
    paired = compare({"calls": calls}, "kemps_precision", "a", "b")
    unpaired = compare({"calls": calls}, "kemps_precision", "a", "b", paired=False)
    assert paired.paired and paired.n_pairs == 50 and paired.test == "paired_ttest"
    assert not unpaired.paired and unpaired.test == "rao_scott_score"
    assert paired.difference == pytest.approx(unpaired.difference)
    # Per replicate the share is (right calls) / 4 in both cells, so the linearised ratio is the paired t-test
    # on the replicates' shares.
    shares = calls.groupby(["cell", "replicate"])["right"].mean()
    expected = stats.ttest_rel(shares["a"], shares["b"])
    ci = expected.confidence_interval(0.95)
    assert (paired.p_value, paired.ci_low, paired.ci_high) == pytest.approx((expected.pvalue, ci.low, ci.high))
    assert paired.ci_high - paired.ci_low < unpaired.ci_high - unpaired.ci_low


def test_paired_median_resamples_replicates():
    rng = np.random.default_rng(4)
    base = rng.exponential(2.0, 30)
    frames = []
    for cell, extra in (("a", 1.0), ("b", 0.0)):
        calls = _kemps_calls(np.ones(30, bool), 1, cell=cell, seed_base=1000)
        frames.append(calls.assign(four_to_call=base + extra + rng.normal(0, 0.05, 30)))
    calls = pd.concat(frames, ignore_index=True)
    result = compare({"calls": calls}, "four_to_call_median", "a", "b")
    assert result.paired and result.test == "paired_bootstrap"
    assert result.ci_low < 1.0 < result.ci_high and result.ci_low > 0
    assert result.p_value < 0.001 and result == compare({"calls": calls}, "four_to_call_median", "a", "b")


# --- the scoring rule decides which scores exist -----------------------------------------------------------------

def _scored_pairs(rule_by_cell: dict[str, str], matches: int = 6) -> pd.DataFrame:
    rows = []
    for cell, rule in rule_by_cell.items():
        for seed in range(matches):
            for pair in (0, 1):
                rows.append({"cell": cell, "seed": 100 * len(rows) + seed, "pair": pair, "agents": f"agent{pair}",
                             "won": (seed + pair) % 2 == 0, "rounds": 3,
                             "letters": (seed + pair) % 5 if rule == "letters" else 0,
                             "points": (seed + pair) % 4 if rule == "points" else 0,
                             "rounds_won": (seed + pair) % 3})
    return pd.DataFrame(rows)


def test_summary_columns_follow_the_scoring_rule():
    pairs = _scored_pairs({"a": "rounds_won", "b": "rounds_won"})
    summary = summary_table({"pairs": pairs})
    assert "pair0_rounds_won" in summary.columns
    assert not {"pair0_letters", "pair0_points"} & set(summary.columns)
    text = format_summary(summary)
    assert "letters" not in text and "points" not in text and "p0_rounds_won" in text
    first = pairs[(pairs["cell"] == "a") & (pairs["pair"] == 0)]
    assert summary.loc[0, "pair0_rounds_won"] == pytest.approx(first["rounds_won"].mean())
    # Two rules in one sweep, said by a rules.scoring column: each group shows its own score only.
    labelled = _scored_pairs({"a": "letters", "b": "points"})
    labelled[SCORING_COLUMN] = labelled["cell"].map({"a": "letters", "b": "points"})
    mixed = summary_table({"pairs": labelled}).set_index("cell")
    assert not math.isnan(mixed.loc["a", "pair0_letters"]) and math.isnan(mixed.loc["a", "pair0_points"])
    assert math.isnan(mixed.loc["b", "pair0_letters"]) and not math.isnan(mixed.loc["b", "pair0_points"])
    assert "pair0_rounds_won" not in mixed.columns
    told = summary_table({"pairs": pairs}, scoring="points")
    assert "pair0_points" in told.columns and "pair0_rounds_won" not in told.columns


def test_compare_refuses_a_score_the_rule_lacks_in_one_line():
    pairs = _scored_pairs({"a": "rounds_won", "b": "rounds_won"})
    with pytest.raises(ConfigError) as info:
        compare({"pairs": pairs}, "letters", "a", "b")
    message = str(info.value)
    assert "\n" not in message and "'letters'" in message and "scoring = rounds_won" in message
    assert "allowed under rounds_won: " + ", ".join(metrics_under("rounds_won")) in message
    assert "letters" not in metrics_under("rounds_won") and "points" not in metrics_under("rounds_won")
    assert compare({"pairs": pairs}, "rounds_won", "a", "b").metric == "rounds_won"
    with pytest.raises(ConfigError, match="'points' is not scored under scoring = letters"):
        compare({"pairs": _scored_pairs({"a": "letters", "b": "letters"})}, "points", "a", "b")
    labelled = _scored_pairs({"a": "letters", "b": "points"})
    labelled[SCORING_COLUMN] = labelled["cell"].map({"a": "letters", "b": "points"})
    with pytest.raises(ConfigError, match="scoring = points"):
        compare({"pairs": labelled}, "letters", "a", "b")
    labelled["everything"] = "all"
    labelled.loc[labelled.index[0], "everything"] = "other"
    with pytest.raises(ConfigError, match="mixes scoring rules"):
        compare({"pairs": labelled}, "letters", "all", "other", by="everything")
    with pytest.raises(ConfigError, match="scoring: 'goals'"):
        compare({"pairs": pairs}, "letters", "a", "b", scoring="goals")
    assert set(metrics_under(None)) == set(METRICS)


# --- printing ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("p", "text"), [
    (0.0, "p < 1e-6"), (3e-7, "p < 1e-6"), (1e-6, "p = 1e-06"), (1.234e-5, "p = 1.2e-05"), (0.04321, "p = 0.043"),
    (0.5, "p = 0.5"), (1.0, "p = 1"), (math.nan, "p not defined")])
def test_p_values_print_with_two_significant_digits_and_never_as_zero(p, text):
    assert format_p(p) == text


def test_a_comparison_names_both_groups_the_design_and_the_level():
    won = np.arange(40) % 8 != 0  # a wins 35 of 40 replicates, b loses all 40
    result = compare({"pairs": _paired_pairs(won, np.zeros(40, bool))}, "win_rate", "a", "b", confidence=0.9)
    assert result.p_value == pytest.approx(2 * stats.norm.sf(math.sqrt(35)))
    text = " ".join(format_comparison(result, by="cell").split())  # wrapped to 100 columns
    assert "A = 'a' vs B = 'b'" in text and "A ('a')" in text and "B ('b')" in text
    assert "paired: 40 pairs of matches, each pair with the same seed" in text and "90% CI [" in text
    assert "McNemar's test on 40 pairs of matches" in text and "(Tango's score interval)" in text
    assert not re.search(r"p = 0(?![.\d])", text) and "p < 1e-6" in text
