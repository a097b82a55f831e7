"""Tests of kemps_sim.stats: known counts on hand-built tables, scipy's own numbers, closed forms, coverage."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from kemps_sim import ConfigError, records, simulate_match
from kemps_sim.stats import (
    ACCURACY_METRICS,
    METRICS,
    TIMING_MEASURES,
    call_accuracy,
    call_timings,
    compare,
    format_summary,
    metrics_under,
    outcome_shares,
    scores,
    summary_table,
    win_rates,
)

GROUPED_COLUMNS = ("n", "value", "ci_low", "ci_high", "ci_level")
#: The columns of an output whose intervals are clustered by match.
CLUSTERED_COLUMNS = (*GROUPED_COLUMNS, "matches", "design_effect")


def _wilson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return ci.low, ci.high


def _pairs(rows: list[tuple[str, int, int, bool]]) -> pd.DataFrame:
    """A pairs table from (cell, seed, pair, won) rows, with letters/points/rounds that follow the seed."""
    return pd.DataFrame([
        {"cell": cell, "seed": seed, "pair": pair, "agents": f"agent{pair}", "won": won, "letters": seed % 3,
         "points": 0, "rounds_won": 2 * pair, "rounds": 5 + seed % 2}
        for cell, seed, pair, won in rows])


def _calls(rows: list[tuple[str, str, bool, float]]) -> pd.DataFrame:
    """A calls table from (cell, call, right, four_to_call) rows; the other delays are halves of it."""
    return pd.DataFrame([
        {"cell": cell, "call": call, "right": right, "four_to_signal": t / 2, "signal_to_call": t / 2,
         "four_to_call": t}
        for cell, call, right, t in rows])


# --- win rates ---------------------------------------------------------------------------------------------------

def test_win_rates_counts_groups_and_pairs_with_scipy_wilson_intervals():
    # cell b: 10 matches, pair 0 wins 7; cell a: 4 matches, pair 0 wins 1, and one match with co-winners.
    rows = [("b", s, 0, s < 7) for s in range(10)] + [("b", s, 1, s >= 7) for s in range(10)]
    rows += [("a", 0, 0, True), ("a", 0, 1, True)]  # co-winners: a win for each
    rows += [("a", s, 0, False) for s in (1, 2, 3)] + [("a", s, 1, True) for s in (1, 2, 3)]
    out = win_rates(_pairs(rows))
    assert list(out.columns) == ["cell", "pair", "agents", "wins", *GROUPED_COLUMNS]
    assert list(zip(out["cell"], out["pair"], strict=True)) == [("a", 0), ("a", 1), ("b", 0), ("b", 1)]
    assert list(out["wins"]) == [1, 4, 7, 3]
    assert list(out["n"]) == [4, 4, 10, 10]
    assert list(out["agents"]) == ["agent0", "agent1", "agent0", "agent1"]
    for _, row in out.iterrows():
        low, high = _wilson(row["wins"], row["n"])
        assert row["value"] == row["wins"] / row["n"]
        assert row["ci_low"] == pytest.approx(low, abs=1e-12)
        assert row["ci_high"] == pytest.approx(high, abs=1e-12)
        assert row["ci_low"] <= row["value"] <= row["ci_high"]


def test_win_rates_confidence_level_and_row_order_do_not_depend_on_input_order():
    rows = [("x", s, p, (s + p) % 3 == 0) for s in range(12) for p in (0, 1)] + [("w", 0, 0, True)]
    table = _pairs(rows)
    shuffled = table.sample(frac=1.0, random_state=3)
    pd.testing.assert_frame_equal(win_rates(table, confidence=0.8), win_rates(shuffled, confidence=0.8))
    out = win_rates(table, confidence=0.8)
    row = out[(out["cell"] == "x") & (out["pair"] == 0)].iloc[0]
    assert (row["wins"], row["n"]) == (4, 12)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(_wilson(4, 12, 0.8), abs=1e-12)
    wide = _wilson(4, 12, 0.95)
    assert wide[0] < row["ci_low"] and row["ci_high"] < wide[1]


def test_win_rates_groups_by_several_columns_or_none():
    rows = [("a", s, 0, s % 2 == 0) for s in range(6)]
    table = _pairs(rows).assign(replicate=[0, 1, 0, 1, 0, 1])
    out = win_rates(table, by=("cell", "replicate"))
    assert list(out["replicate"]) == [0, 1]
    assert list(out["wins"]) == [3, 0]
    overall = win_rates(table, by=())
    assert list(overall.columns) == ["pair", "agents", "wins", *GROUPED_COLUMNS]
    assert (overall["wins"].item(), overall["n"].item()) == (3, 6)


def test_win_rate_interval_covers_the_true_share_at_its_nominal_rate():
    p, n, groups, nominal = 0.3, 50, 400, 0.95
    rng = np.random.default_rng(20240601)
    won = rng.random((groups, n)) < p
    table = pd.DataFrame({"cell": np.repeat([f"g{i:03d}" for i in range(groups)], n), "pair": 0,
                          "agents": "synthetic", "won": won.ravel()})
    out = win_rates(table)
    assert len(out) == groups and (out["n"] == n).all()
    covered = float(((out["ci_low"] <= p) & (p <= out["ci_high"])).mean())
    # The Wilson interval's true coverage at (n, p) is a finite sum over the binomial outcomes; it differs from
    # the nominal level only by the discreteness of k (known to stay within about 0.02 at n = 50).
    exact = sum(stats.binom.pmf(k, n, p) for k in range(n + 1) if _wilson(k, n)[0] <= p <= _wilson(k, n)[1])
    assert abs(exact - nominal) < 0.02
    # Each group covers p independently with probability `exact`, so the share of covering groups has standard
    # deviation sqrt(exact (1 - exact) / groups) ~ 0.010 for 400 groups; 4 SD is missed with probability ~6e-5.
    tolerance = 4 * math.sqrt(exact * (1 - exact) / groups)
    assert abs(covered - exact) <= tolerance


# --- call accuracy -----------------------------------------------------------------------------------------------

def test_call_accuracy_on_hand_built_tables():
    calls = _calls([
        ("a", "kemps", True, 1.0), ("a", "kemps", True, 2.0), ("a", "kemps", False, math.nan),
        ("a", "double_kemps", True, 3.0), ("a", "stop_kemps", True, 1.0), ("a", "stop_kemps", False, math.nan),
        ("b", "stop_kemps", False, math.nan),
    ])
    fours = pd.DataFrame({"cell": ["a"] * 5 + ["c"] * 2,
                          "fate": ["kemps", "kemps", "stolen", "uncalled", "kemps", "broken", "broken"]})
    out = call_accuracy(calls, fours)
    assert list(out.columns) == ["cell", "metric", "successes", *CLUSTERED_COLUMNS]
    assert list(out["cell"]) == ["a"] * 6 + ["b"] * 6 + ["c"] * 6  # c has fours and no calls, b the reverse
    assert list(out["metric"][:6]) == list(ACCURACY_METRICS) == [
        "kemps_precision", "stop_precision", "conversion_kemps", "conversion_stolen", "conversion_uncalled",
        "conversion_broken"]
    got = {(r.cell, r.metric): (r.successes, r.n) for r in out.itertuples()}
    assert got[("a", "kemps_precision")] == (3, 4)
    assert got[("a", "stop_precision")] == (1, 2)
    assert got[("a", "conversion_kemps")] == (3, 5)
    assert got[("a", "conversion_stolen")] == (1, 5)
    assert got[("a", "conversion_uncalled")] == (1, 5)
    assert got[("a", "conversion_broken")] == (0, 5)
    assert got[("b", "stop_precision")] == (0, 1)
    assert got[("c", "conversion_broken")] == (2, 2)
    a = out[out["cell"] == "a"].set_index("metric")
    assert a.loc["kemps_precision", "value"] == 0.75
    assert (a.loc["kemps_precision", "ci_low"], a.loc["kemps_precision", "ci_high"]) == pytest.approx(_wilson(3, 4))
    assert a.loc[[m for m in ACCURACY_METRICS if m.startswith("conversion")], "value"].sum() == pytest.approx(1.0)
    empty = out[(out["cell"] == "c") & (out["metric"] == "kemps_precision")].iloc[0]
    assert empty["n"] == 0 and empty["successes"] == 0
    assert math.isnan(empty["value"]) and math.isnan(empty["ci_low"]) and math.isnan(empty["ci_high"])
    b_fours = out[(out["cell"] == "b") & out["metric"].str.startswith("conversion")]
    assert (b_fours["n"] == 0).all() and b_fours["value"].isna().all()


# --- timings, outcomes, scores -----------------------------------------------------------------------------------

def test_call_timings_take_right_kemps_calls_and_scipy_t_intervals():
    calls = _calls([
        ("a", "kemps", True, 1.0), ("a", "double_kemps", True, 2.0), ("a", "kemps", True, 4.0),
        ("a", "kemps", True, math.nan),  # no four behind it: not counted in n
        ("a", "kemps", False, 100.0), ("a", "stop_kemps", True, 50.0),  # a wrong call and a Stop Kemps: left out
        ("b", "stop_kemps", True, 1.0),
    ])
    out = call_timings(calls)
    assert list(out.columns) == ["cell", "measure", *CLUSTERED_COLUMNS, "median"]
    assert list(out["measure"]) == list(TIMING_MEASURES) * 2
    row = out[(out["cell"] == "a") & (out["measure"] == "four_to_call")].iloc[0]
    ci = stats.ttest_1samp([1.0, 2.0, 4.0], 0.0).confidence_interval(0.95)
    assert (row["n"], row["value"], row["median"]) == (3, pytest.approx(7 / 3), 2.0)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high))
    b = out[out["cell"] == "b"]
    assert (b["n"] == 0).all() and b[["value", "ci_low", "ci_high", "median"]].isna().all().all()
    every = call_timings(calls, right_only=False)
    row = every[(every["cell"] == "a") & (every["measure"] == "four_to_call")].iloc[0]
    assert (row["n"], row["median"]) == (4, 3.0)


def test_outcome_shares_count_every_outcome_in_every_group():
    rounds = pd.DataFrame({"cell": ["b", "b", "b", "a", "a"],
                           "outcome": ["kemps_right", "stop_right", "kemps_right", "timeout", "kemps_right"]})
    out = outcome_shares(rounds)
    assert list(out.columns) == ["cell", "outcome", "count", *CLUSTERED_COLUMNS]
    assert list(out["outcome"]) == ["kemps_right", "stop_right", "timeout"] * 2
    assert list(out["count"]) == [1, 0, 1, 2, 1, 0]
    assert list(out["n"]) == [2, 2, 2, 3, 3, 3]
    assert out.groupby("cell")["value"].sum().tolist() == pytest.approx([1.0, 1.0])
    zero = out.iloc[1]
    assert zero["value"] == 0 and zero["ci_low"] == 0 and zero["ci_high"] == pytest.approx(_wilson(0, 2)[1])


def test_scores_give_t_intervals_and_zero_width_for_a_constant_column():
    rows = [("a", s, p, p == 0) for s in range(6) for p in (0, 1)] + [("b", 0, 0, True)]
    out = scores(_pairs(rows))
    assert list(out.columns) == ["cell", "pair", "agents", "measure", *GROUPED_COLUMNS]
    assert len(out) == 3 * 3  # (a, 0), (a, 1), (b, 0) times three measures
    got = out.set_index(["cell", "pair", "measure"])
    letters = [s % 3 for s in range(6)]
    ci = stats.ttest_1samp(letters, 0.0).confidence_interval(0.95)
    assert got.loc[("a", 0, "letters"), "value"] == pytest.approx(np.mean(letters))
    assert (got.loc[("a", 0, "letters"), "ci_low"], got.loc[("a", 0, "letters"), "ci_high"]) == pytest.approx(
        (ci.low, ci.high))
    constant = got.loc[("a", 1, "rounds_won")]  # always 2
    assert (constant["n"], constant["value"], constant["ci_low"], constant["ci_high"]) == (6, 2.0, 2.0, 2.0)
    single = got.loc[("b", 0, "letters")]  # one match: a mean, but no spread to build an interval from
    assert single["n"] == 1 and single["value"] == 0.0 and math.isnan(single["ci_low"])


# --- compare -----------------------------------------------------------------------------------------------------

def _bernoulli_pairs(shares: dict[str, float], n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.concat([pd.DataFrame({"cell": cell, "pair": 0, "agents": "x", "won": rng.random(n) < share,
                                    "letters": rng.normal(3.0 + share, 1.0, n), "points": rng.poisson(4, n)})
                      for cell, share in shares.items()], ignore_index=True)


def test_compare_win_rate_finds_a_real_difference_and_covers_it():
    pairs = _bernoulli_pairs({"a": 0.7, "b": 0.3}, n=200, seed=11)
    result = compare({"pairs": pairs}, "win_rate", "a", "b")
    won = pairs.groupby("cell")["won"].agg(["sum", "count"])
    table = [[won.loc[c, "sum"], won.loc[c, "count"] - won.loc[c, "sum"]] for c in ("a", "b")]
    # Miettinen and Nurminen's score statistic at 0 is Pearson's chi-square times (N - 1) / N.
    pearson = stats.chi2_contingency(table, correction=False)
    assert result.test == "score"
    assert result.statistic**2 == pytest.approx(pearson.statistic * 399 / 400)
    assert result.p_value == pytest.approx(stats.chi2.sf(pearson.statistic * 399 / 400, 1))
    assert result.p_value < 1e-6
    assert result.difference == pytest.approx(result.value_a - result.value_b)
    assert result.ci_low < 0.4 < result.ci_high
    assert (result.n_a, result.n_b) == (200, 200)
    frame = result.to_frame()
    assert list(frame.columns[:11]) == ["metric", "a", "b", "value_a", "value_b", "difference", "ci_low", "ci_high",
                                        "statistic", "p_value", "test"]
    assert len(frame) == 1


def test_compare_win_rate_sees_no_difference_between_identical_groups():
    pairs = _bernoulli_pairs({"a": 0.5, "b": 0.5}, n=200, seed=5)
    result = compare({"pairs": pairs}, "win_rate", "a", "b")
    assert result.p_value > 0.2
    assert result.ci_low < 0.0 < result.ci_high


@pytest.mark.parametrize(("counts", "expected"), [
    ((56, 70, 48, 80), (0.0528, 0.3382)), ((9, 10, 3, 10), (0.1700, 0.8406)), ((6, 7, 2, 7), (0.0342, 0.8534)),
    ((5, 56, 0, 29), (-0.0326, 0.1933)), ((0, 10, 0, 20), (-0.1658, 0.2844)), ((10, 10, 0, 10), (0.6636, 1.0))])
def test_compare_difference_interval_is_miettinen_nurminens_score_interval(counts, expected):
    # Newcombe (1998), Statistics in Medicine 17:873, table II, method 8 (Miettinen and Nurminen), to 4 places.
    ka, na, kb, nb = counts
    calls = pd.DataFrame({"cell": ["a"] * na + ["b"] * nb, "call": "stop_kemps",
                          "right": [i < ka for i in range(na)] + [i < kb for i in range(nb)]})
    result = compare({"calls": calls}, "stop_precision", "a", "b")
    assert (result.ci_low, result.ci_high) == pytest.approx(expected, abs=5e-5)
    # Without a seed column every call is a match of its own: no design effect, and the score test is Pearson's
    # chi-square on the 2x2 table times (N - 1) / N.
    assert result.test == "score" and not result.paired
    if 0 < ka + kb < na + nb:
        pearson = stats.chi2_contingency([[ka, na - ka], [kb, nb - kb]], correction=False)
        scaled = pearson.statistic * (na + nb - 1) / (na + nb)
        assert (result.statistic**2, result.p_value) == pytest.approx((scaled, stats.chi2.sf(scaled, 1)))
    else:
        assert (result.statistic, result.p_value) == (0.0, 1.0)  # 0/10 against 0/20: nothing to tell apart


def test_compare_letters_uses_welch_and_scipy_interval():
    pairs = _bernoulli_pairs({"a": 1.0, "b": 0.0}, n=100, seed=2)  # letters ~ N(4, 1) against N(3, 1)
    result = compare({"pairs": pairs}, "letters", "a", "b")
    welch = stats.ttest_ind(pairs.loc[pairs["cell"] == "a", "letters"], pairs.loc[pairs["cell"] == "b", "letters"],
                            equal_var=False)
    ci = welch.confidence_interval(0.95)
    assert result.test == "welch_ttest"
    assert (result.statistic, result.p_value, result.ci_low, result.ci_high) == pytest.approx(
        (welch.statistic, welch.pvalue, ci.low, ci.high))
    assert result.p_value < 1e-6 and result.ci_low < 1.0 < result.ci_high
    same = compare({"pairs": pairs}, "points", "a", "b", scoring="points")  # Poisson(4) in both
    assert same.p_value > 0.2 and same.ci_low < 0.0 < same.ci_high


def test_compare_four_to_call_median_resamples_whole_matches_on_right_kemps_calls():
    rng = np.random.default_rng(8)
    slow, fast = 1.0 + rng.exponential(2.0, 80), 1.0 + rng.exponential(0.5, 80)
    calls = _calls([("a", "kemps", True, t) for t in slow] + [("b", "kemps", True, t) for t in fast]
                   + [("b", "kemps", False, 1000.0), ("b", "stop_kemps", True, 1000.0)])
    result = compare({"calls": calls}, "four_to_call_median", "a", "b")
    assert result.test == "match_bootstrap" and (result.n_a, result.n_b) == (80, 80)
    assert (result.value_a, result.value_b) == (np.median(slow), np.median(fast))
    # No seed column: every call is its own match. The groups' medians lie far apart, so no resampled difference
    # reaches 0 and p is the bootstrap's two-sided floor, 2 (0 + 1) / (9999 + 1).
    assert result.p_value == pytest.approx(2 / 10000)
    true_difference = 2.0 * math.log(2) - 0.5 * math.log(2)  # difference of the exponential medians
    assert result.ci_low < true_difference < result.ci_high
    assert result == compare({"calls": calls}, "four_to_call_median", "a", "b")  # the resampling is seeded


def test_compare_refuses_unknown_metric_and_group_with_one_line():
    pairs = _bernoulli_pairs({"a": 0.5, "b": 0.5}, n=10, seed=1)
    with pytest.raises(ConfigError, match="'speed'") as info:
        compare({"pairs": pairs}, "speed", "a", "b")
    message = str(info.value)
    assert "\n" not in message and all(metric in message for metric in METRICS)
    with pytest.raises(ConfigError, match="'z'"):
        compare({"pairs": pairs}, "win_rate", "a", "z")
    with pytest.raises(ConfigError, match="'calls'"):
        compare({"pairs": pairs}, "kemps_precision", "a", "b")


# --- errors and empty input --------------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda t: win_rates(t["pairs"], by=("lineup",)),
    lambda t: scores(t["pairs"], by=("cell", "lineup")),
    lambda t: outcome_shares(t["rounds"], by=("lineup",)),
    lambda t: call_timings(t["calls"], by=("lineup",)),
    lambda t: call_accuracy(t["calls"], t["fours"], by=("lineup",)),
    lambda t: summary_table(t, by=("lineup",)),
    lambda t: compare(t, "win_rate", "a", "b", by="lineup"),
])
def test_a_missing_grouping_column_is_named_in_one_line(real_tables, call):
    with pytest.raises(ConfigError, match="'lineup'") as info:
        call(real_tables)
    message = str(info.value)
    assert "\n" not in message and "columns:" in message and "seed" in message


def test_bad_confidence_is_refused():
    with pytest.raises(ConfigError, match="confidence"):
        win_rates(_pairs([("a", 0, 0, True)]), confidence=95)


def test_tables_of_no_matches_give_empty_outputs():
    blank = records.tables([])
    assert win_rates(blank["pairs"], by=()).empty
    assert call_accuracy(blank["calls"], blank["fours"]).empty
    assert list(call_timings(blank["calls"]).columns) == ["cell", "measure", *CLUSTERED_COLUMNS, "median"]
    assert summary_table(blank).empty


# --- real matches ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def real_tables() -> dict[str, pd.DataFrame]:
    tables = records.tables(simulate_match("standard", "collector,watcher", seed=s) for s in range(8))
    for table in tables.values():
        table["cell"] = np.where(table["seed"] < 4, "a", "b")
    return tables


def _shares_in_unit_interval(out: pd.DataFrame) -> None:
    known = out.dropna(subset=["value"])
    assert ((known["value"] >= 0) & (known["value"] <= 1)).all()
    assert ((known["ci_low"] >= 0) & (known["ci_low"] <= known["value"])).all()
    assert ((known["ci_high"] <= 1) & (known["value"] <= known["ci_high"])).all()


def test_every_function_runs_on_simulated_matches(real_tables):
    t = real_tables
    wins = win_rates(t["pairs"])
    _shares_in_unit_interval(wins)
    assert list(wins["cell"]) == ["a", "a", "b", "b"] and (wins["n"] == 4).all()
    accuracy = call_accuracy(t["calls"], t["fours"])
    _shares_in_unit_interval(accuracy)
    assert len(accuracy) == 2 * len(ACCURACY_METRICS)
    outcomes = outcome_shares(t["rounds"])
    _shares_in_unit_interval(outcomes)
    assert outcomes.groupby("cell")["count"].sum().tolist() == t["rounds"].groupby("cell").size().tolist()
    timings = call_timings(t["calls"])
    assert (timings["value"].dropna() > 0).all()
    standings = scores(t["pairs"])
    assert (standings["ci_low"] <= standings["value"]).all() and (standings["value"] <= standings["ci_high"]).all()
    assert set(metrics_under("letters")) == set(METRICS) - {"points"}
    for metric in metrics_under("letters"):  # the standard rules score letters
        result = compare(t, metric, "a", "b")
        assert result.metric == metric and (math.isnan(result.p_value) or 0 <= result.p_value <= 1)
        assert not result.paired and result.matches_a <= 4
    with pytest.raises(ConfigError, match="'points' is not scored under scoring = letters"):
        compare(t, "points", "a", "b")


def test_summary_table_and_its_text(real_tables):
    matches = pd.DataFrame({"cell": ["a"] * 5 + ["b"] * 4,
                            "end_reason": ["match_over"] * 3 + ["crashed", "agent_error"] + ["match_over"] * 4})
    summary = summary_table({**real_tables, "matches": matches})
    assert list(summary.columns) == [
        "cell", "matches", "failures", "rounds_per_match", "pair0_win_rate", "pair0_win_rate_ci_low",
        "pair0_win_rate_ci_high", "pair1_win_rate", "pair1_win_rate_ci_low", "pair1_win_rate_ci_high",
        "kemps_precision", "stop_precision", "conversion_kemps", "conversion_stolen", "kemps_right_calls",
        "kemps_wrong_calls", "stop_right_calls", "stop_wrong_calls", "four_to_call_median", "pair0_letters",
        "ci_level"]  # the standard rules score letters: no points column
    assert list(summary["cell"]) == ["a", "b"]
    assert list(summary["matches"]) == [5, 4] and list(summary["failures"]) == [2, 0]
    pairs = real_tables["pairs"]
    first = pairs[(pairs["pair"] == 0) & (pairs["cell"] == "a")]
    assert summary.loc[0, "rounds_per_match"] == pytest.approx(first["rounds"].mean())
    assert summary.loc[0, "pair0_win_rate"] == pytest.approx(first["won"].mean())
    without = summary_table(real_tables)
    assert "failures" not in without.columns and list(without["matches"]) == [4, 4]
    text = format_summary(summary)
    blocks = [block.splitlines() for block in text.split("\n\n")]  # blocks of at most 100 columns
    assert all(len(block) == 3 and max(map(len, block)) <= 100 for block in blocks)
    headers = " ".join(block[0] for block in blocks)
    assert "pair0_win_rate" in headers and "ci_low" not in headers and "ci_level" not in headers
    assert "K_prec" in headers and "p0_letters" in headers
    lines = [" ".join(block[i] for block in blocks) for i in range(3)]
    row = summary.iloc[1]
    assert (f"{row['pair0_win_rate']:.2f} [{row['pair0_win_rate_ci_low']:.2f}, "
            f"{row['pair0_win_rate_ci_high']:.2f}]") in lines[2]
    assert all(len({len(line) for line in block}) == 1 for block in blocks)  # fixed width
    calls = real_tables["calls"]
    mine = calls[calls["cell"] == "b"]
    kemps = mine["call"].isin(("kemps", "double_kemps"))
    assert row["kemps_right_calls"] == int((kemps & mine["right"]).sum())
    assert row["stop_wrong_calls"] == int(((mine["call"] == "stop_kemps") & ~mine["right"]).sum())
    counts = "/".join(str(int(row[c])) for c in ("kemps_right_calls", "kemps_wrong_calls", "stop_right_calls",
                                                  "stop_wrong_calls"))
    assert "K+/K-/S+/S-" in lines[0] and counts in lines[2]
