"""The statistics of the realism targets that compare two parts of a table: the Kemps precision gained from the
lowest to the highest d' of a sweep (paired by match), and the first rounds' right Stops against half the later
rounds'. Checked on hand-made tables against values worked out by hand, and the gain's interval against a paired
t-test on the per-match contributions (with one call per match, exactly that test)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from kemps_sim.calibration import table_statistics
from kemps_sim.calibration.contrast import ACUITY, GAIN, precision_gain
from kemps_sim.errors import ConfigError


def _calls(rows: list[tuple[float, int, str, bool]]) -> dict[str, pd.DataFrame]:
    """A calls table of (d', seed, call, right) rows."""
    frame = pd.DataFrame(rows, columns=[ACUITY, "seed", "call", "right"])
    return {"calls": frame.assign(lineup="collector")}


def test_the_gain_is_the_precision_at_the_highest_d_prime_less_the_lowest() -> None:
    rows = [(1.0, s, "kemps", s % 2 == 0) for s in range(10)]  # 5 of 10 right
    rows += [(3.0, s, "kemps", s != 3) for s in range(10)]  # 9 of 10 right
    rows += [(2.0, s, "kemps", False) for s in range(10)]  # a middle level is not used
    rows += [(1.0, s, "stop_kemps", False) for s in range(10)]  # nor are Stop Kemps calls
    found = precision_gain(_calls(rows)).iloc[0]
    assert found["statistic"] == GAIN
    assert found["estimate"] == pytest.approx(0.9 - 0.5)
    assert found["n"] == 10 and found["count"] == 20


def test_with_one_call_a_match_the_interval_is_the_paired_t_tests() -> None:
    rng = np.random.default_rng(5)
    low, high = rng.random(30) < 0.6, rng.random(30) < 0.85
    rows = [(1.0, s, "kemps", bool(r)) for s, r in enumerate(low)] + [
        (3.0, s, "double_kemps", bool(r)) for s, r in enumerate(high)]
    found = precision_gain(_calls(rows)).iloc[0]
    ci = stats.ttest_rel(high.astype(float), low.astype(float)).confidence_interval(0.95)
    assert found["estimate"] == pytest.approx(high.mean() - low.mean())
    assert (found["low"], found["high"]) == pytest.approx((ci.low, ci.high))


def test_matches_played_at_one_level_only_are_left_out_and_groups_are_kept_apart() -> None:
    rows = [(1.0, s, "kemps", False) for s in range(4)] + [(3.0, s, "kemps", True) for s in range(2, 6)]
    table = _calls(rows)["calls"]
    both = pd.concat([table, table.assign(lineup="watcher", right=~table["right"])], ignore_index=True)
    found = precision_gain({"calls": both}, by=("lineup",)).set_index("lineup")
    assert found.loc["collector", "estimate"] == 1.0 and found.loc["collector", "n"] == 2
    assert found.loc["watcher", "estimate"] == -1.0


def test_a_single_level_has_no_gain_and_a_table_without_the_factor_is_one_line() -> None:
    found = precision_gain(_calls([(2.0, s, "kemps", True) for s in range(3)])).iloc[0]
    assert math.isnan(found["estimate"])
    with pytest.raises(ConfigError, match=r"^calls table: no column 'profile.observer.acuity': "):
        precision_gain({"calls": pd.DataFrame({"seed": [1], "call": ["kemps"], "right": [True]})})


def test_first_rounds_are_set_against_half_the_later_rounds_paired_by_match() -> None:
    """Two matches of three rounds: round 0 ends in a right Stop in one of two matches (0.5); later rounds in 3 of
    4 (0.75). The statistic is 0.5 - 0.75 / 2 = 0.125 (and the plain difference 0.5 - 0.75)."""
    outcomes = {(1, 0): "stop_right", (1, 1): "stop_right", (1, 2): "kemps_right",
                (2, 0): "kemps_right", (2, 1): "stop_right", (2, 2): "stop_right"}
    rounds = pd.DataFrame([{"seed": s, "round": r, "outcome": o, "duration": 40.0, "cell": "a"}
                           for (s, r), o in outcomes.items()])
    calls = pd.DataFrame({"seed": [1], "round": [0], "call": ["stop_kemps"], "outcome": ["stop_right"],
                          "right": [True], "cell": ["a"]})
    measured = table_statistics({"rounds": rounds, "calls": calls}).set_index("statistic")["estimate"]
    assert measured["right_stop_first_minus_half_later"] == pytest.approx(0.5 - 0.75 / 2)
    assert measured["right_stop_first_minus_later"] == pytest.approx(0.5 - 0.75)
