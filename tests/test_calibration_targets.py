"""Calibration targets and the table statistics measured against them: the targets file loads with intervals that
follow from its counts, a bad file is refused in one line, the statistics count what the tables hold, and the
comparison flags agreement as documented."""

from __future__ import annotations

import math
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from kemps_sim import ConfigError, records, simulate_match
from kemps_sim.calibration import (
    PARAMETER_STATISTICS,
    STATISTICS,
    compare_to_targets,
    load_targets,
    parameter_statistics,
    table_statistics,
    targets_from_mapping,
)
from kemps_sim.calibration.statistics import ACROSS_CELLS, COLUMNS, WRONG_CALLS, end_of
from kemps_sim.calibration.targets import default_path
from kemps_sim.profiles import PlayerProfile

ROOT = Path(__file__).resolve().parent.parent


# Targets ------------------------------------------------------------------------------------------------------
def _clopper_pearson(k: int, n: int, confidence: float) -> tuple[float, float]:
    """The exact binomial interval from beta quantiles (Clopper & Pearson 1934), not through binomtest."""
    a = 1.0 - confidence
    low = stats.beta.ppf(a / 2, k, n - k + 1) if k > 0 else 0.0
    high = stats.beta.ppf(1 - a / 2, k + 1, n - k) if k < n else 1.0
    return low, high


def _poisson(k: int, n: int, confidence: float) -> tuple[float, float]:
    """The exact Poisson interval of a rate from gamma quantiles (Garwood 1936), not through chi2."""
    a = 1.0 - confidence
    low = stats.gamma.ppf(a / 2, k) / n if k > 0 else 0.0
    return low, stats.gamma.ppf(1 - a / 2, k + 1) / n


def test_the_package_targets_load_with_version_date_and_the_worked_games_counts():
    targets = load_targets()
    assert targets.version == 2 and str(targets.date) == "2026-12-01" and targets.confidence == 0.95
    assert load_targets(default_path()).targets == targets.targets  # by path, the same file
    counts = {t.name: (t.k, t.n) for t in targets if t.kind == "counts"}
    assert counts["worked_game.right_kemps"] == (3, 6)
    assert counts["worked_game.right_stop"] == (1, 6)
    assert counts["worked_game.wrong_calls"] == (2, 6)
    assert {t.statistic for t in targets} <= set(STATISTICS)
    for target in targets:
        assert target.source.strip() and target.note.strip() and target.derivation.strip()


def test_count_targets_carry_the_exact_intervals_of_their_counts():
    targets = load_targets()
    checked = 0
    for target in targets:
        if target.kind != "counts":
            continue
        exact = _poisson if target.statistic == "wrong_calls_per_round" else _clopper_pearson
        low, high = exact(target.k, target.n, targets.confidence)
        assert target.value == pytest.approx(target.k / target.n, abs=1e-12)
        assert (target.low, target.high) == (pytest.approx(low, abs=1e-9), pytest.approx(high, abs=1e-9))
        checked += 1
    assert checked >= 3
    # 3 of 6: the tabled Clopper-Pearson interval is 0.118 to 0.882; 2 events in 6 rounds: 0.0404 to 1.204.
    assert targets["worked_game.right_kemps"].low == pytest.approx(0.1181, abs=1e-4)
    assert targets["worked_game.wrong_calls"].high == pytest.approx(1.2041, abs=1e-4)


def test_bounds_are_half_lines_and_a_factor_follows_the_target_it_names():
    targets = load_targets()
    quarter = targets["bound.right_stop_at_most_a_quarter"]
    assert (quarter.low, quarter.high, quarter.bound) == (-math.inf, 0.25, True)
    commonest = targets["bound.right_kemps_commonest_end"]
    assert (commonest.low, commonest.high) == (0.0, math.inf)
    factor = targets["bound.wrong_calls_within_a_factor_of_three"]
    assert (factor.low, factor.high) == (pytest.approx(1 / 9), pytest.approx(1.0))
    assert targets["bound.round_lasts_a_minute_or_a_few"].low == 30.0
    assert targets["bound.kemps_precision_rises_with_d_prime"].low == 0.05


def test_a_target_for_some_table_sizes_is_compared_only_at_those():
    """The round's length is a target at 4 players (004 calls six and eight faster); the others apply at every
    size, and a group of unknown size is compared with every target."""
    targets = load_targets()
    minute = targets["bound.round_lasts_a_minute_or_a_few"]
    assert minute.players == (4,) and minute.applies_to(4) and not minute.applies_to(8) and minute.applies_to(None)
    assert targets["bound.right_stop_at_most_a_quarter"].applies_to(8)
    measured = pd.DataFrame([{"cell": c, "players": p, "statistic": "median_round_seconds", "estimate": 24.0,
                              "low": 22.0, "high": 26.0, "count": math.nan, "n": 300, "matches": 60,
                              "basis": "tables"} for c, p in (("small", 4), ("large", 8))])
    compared = compare_to_targets(measured, [minute, targets["bound.right_stop_at_most_a_quarter"]])
    assert compared[compared["target"] == minute.name]["cell"].tolist() == ["small"]
    agrees = compared.set_index(["cell", "target"]).loc[("small", minute.name), "agrees"]
    assert agrees is not None and not agrees  # 24 s is short of half a minute


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "targets.toml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """version = 1
date = 2026-12-01
[[target]]
name = "t.one"
statistic = "right_stop_share"
kind = "counts"
k = 1
n = 6
method = "clopper_pearson"
source = "004"
note = "a note"
"""


@pytest.mark.parametrize(("old", "new", "said"), [
    ('k = 1', 'k = 7', "target[0] (t.one).k = 7: must be a whole number from 0 to n (6)"),
    ('statistic = "right_stop_share"', 'statistic = "right_stops"', "target[0] (t.one).statistic = 'right_stops'"),
    ('kind = "counts"', 'kind = "count"', "target[0] (t.one).kind = 'count': must be one of counts, range"),
    ('method = "clopper_pearson"', 'method = "wald"', "target[0] (t.one).method = 'wald': must be one of"),
    ('version = 1', 'version = 3', "targets.version = 3: must be one of 1, 2"),
    ('note = "a note"', 'note = "a note"\nplayers = [5]', "target[0] (t.one).players = [5]: must be a list of table "
                                                        "sizes among 4, 6 and 8"),
    ('date = 2026-12-01', 'date = "December"', "targets.date = 'December': must be a date"),
    ('n = 6', 'n = 6\nvalue = 0.2', "target[0] (t.one).value = 0.2: not a field of a counts target"),
    ('note = "a note"', '', "target[0] (t.one).note: missing"),
])
def test_a_bad_targets_file_is_refused_in_one_line_naming_field_and_value(tmp_path, old, new, said):
    assert old in GOOD
    path = _file(tmp_path, GOOD.replace(old, new))
    with pytest.raises(ConfigError) as caught:
        load_targets(path)
    message = str(caught.value)
    assert "\n" not in message and said in message and str(path) in message
    assert load_targets(_file(tmp_path, GOOD))["t.one"].k == 1  # the good file itself loads


def test_a_missing_or_unreadable_targets_file_is_one_line(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load_targets(tmp_path / "absent.toml")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_targets(_file(tmp_path, "version = = 1"))


def test_a_range_must_hold_its_value_and_a_factor_must_name_an_earlier_target():
    base = {"version": 1, "date": tomllib.loads("d = 2026-12-01")["d"]}
    entry = {"name": "r", "statistic": "median_round_seconds", "kind": "range", "low": 30.0, "high": 180.0,
             "derivation": "d", "source": "s", "note": "n"}
    with pytest.raises(ConfigError, match=r"target\[0\] \(r\)\.value = 200.0: must lie in \[low, high\]"):
        targets_from_mapping({**base, "target": [{**entry, "value": 200.0}]})
    factor = {"name": "f", "statistic": "wrong_calls_per_round", "kind": "within_factor", "of": "later",
              "factor": 3.0, "source": "s", "note": "n"}
    with pytest.raises(ConfigError, match=r"target\[0\] \(f\)\.of = 'later': must name a target above it"):
        targets_from_mapping({**base, "target": [factor]})


# Table statistics on hand-built tables -----------------------------------------------------------------------
def _tiny_tables() -> dict[str, pd.DataFrame]:
    """Cell a: two matches (seeds 1 and 2) of 3 and 4 rounds; cell b: seed 1 again (common random numbers), two
    right Kemps rounds. Calls include a wrong Stop that does not end its round and a Stop against a Double."""
    rounds = pd.DataFrame([
        ("a", 1, 0, "kemps_right", 40.0), ("a", 1, 1, "stop_right", 60.0), ("a", 1, 2, "kemps_wrong", 80.0),
        ("a", 2, 0, "stop_right", 30.0), ("a", 2, 1, "double_right", 50.0), ("a", 2, 2, "timeout", 100.0),
        ("a", 2, 3, "stop_wrong", 20.0),
        ("b", 1, 0, "kemps_right", 10.0), ("b", 1, 1, "kemps_right", 12.0),
    ], columns=["cell", "seed", "round", "outcome", "duration"])
    calls = pd.DataFrame([
        ("a", 1, 0, "kemps", "kemps_right", True), ("a", 1, 1, "stop_kemps", "stop_wrong", False),
        ("a", 1, 1, "stop_kemps", "stop_right", True), ("a", 1, 2, "kemps", "kemps_wrong", False),
        ("a", 2, 0, "stop_kemps", "stop_right", True), ("a", 2, 1, "double_kemps", "double_right", True),
        ("a", 2, 2, "stop_kemps", "stop_ineffective", False), ("a", 2, 3, "stop_kemps", "stop_wrong", False),
        ("b", 1, 0, "kemps", "kemps_right", True), ("b", 1, 1, "kemps", "kemps_right", True),
    ], columns=["cell", "seed", "round", "call", "outcome", "right"])
    rounds.insert(1, "replicate", rounds["seed"] - 1)
    calls.insert(1, "replicate", calls["seed"] - 1)
    return {"rounds": rounds, "calls": calls}


def _by_statistic(table: pd.DataFrame, cell: str) -> pd.DataFrame:
    return table[table["cell"] == cell].set_index("statistic")


def test_hand_built_tables_give_the_known_shares_and_counts():
    found = table_statistics(_tiny_tables())
    assert list(found.columns) == ["cell", *COLUMNS]
    a = _by_statistic(found, "a")
    expected = {  # statistic: (estimate, count, n, matches)
        "right_kemps_share": (2 / 7, 2, 7, 2), "right_stop_share": (2 / 7, 2, 7, 2),
        "wrong_call_share": (2 / 7, 2, 7, 2), "other_share": (1 / 7, 1, 7, 2),
        "right_kemps_share_first": (1 / 2, 1, 2, 2), "right_stop_share_first": (1 / 2, 1, 2, 2),
        "right_stop_share_later": (1 / 5, 1, 5, 2), "wrong_call_share_later": (2 / 5, 2, 5, 2),
        "wrong_calls_per_round": (3 / 7, 3, 7, 2),  # the wrong Stop of round 1 did not end it, and counts
        "kemps_precision": (2 / 3, 2, 3, 2),
        "stop_precision": (2 / 5, 2, 5, 2),  # the Stop against a Double is a call that was not right
    }
    for statistic, (estimate, count, n, matches) in expected.items():
        row = a.loc[statistic]
        assert (row["estimate"], row["count"], row["n"], row["matches"]) == (
            pytest.approx(estimate), count, n, matches), statistic
    assert a.loc["median_round_seconds", "estimate"] == 50.0
    assert a.loc["right_stop_first_minus_later", "estimate"] == pytest.approx(1 / 2 - 1 / 5)
    assert a.loc["right_kemps_lead", "estimate"] == pytest.approx(0.0)  # right Stops and wrong calls tie at 2/7
    # Cell b shares seed 1 with cell a but none of its calls: no wrong call leaks across cells.
    b = _by_statistic(found, "b")
    assert (b.loc["wrong_calls_per_round", "estimate"], b.loc["right_kemps_share", "estimate"]) == (0.0, 1.0)
    assert b.loc["right_kemps_share", "matches"] == 1 and math.isnan(b.loc["stop_precision", "estimate"])


def test_intervals_of_one_round_per_match_are_the_plain_wilson_interval():
    """First rounds are one per match, so their design effect is 1 and the clustered interval is Wilson's."""
    a = _by_statistic(table_statistics(_tiny_tables()), "a")
    wilson = stats.binomtest(1, 2).proportion_ci(method="wilson")
    row = a.loc["right_stop_share_first"]
    assert (row["low"], row["high"]) == (pytest.approx(wilson.low), pytest.approx(wilson.high))
    for statistic in STATISTICS:
        if statistic in PARAMETER_STATISTICS or statistic in ACROSS_CELLS:
            continue
        row = a.loc[statistic]
        assert row["low"] <= row["estimate"] <= row["high"], statistic


def test_the_median_round_interval_is_a_reproducible_bootstrap_over_matches():
    rng = np.random.default_rng(5)
    rounds = pd.DataFrame({"seed": np.repeat(np.arange(30), 8), "round": np.tile(np.arange(8), 30),
                           "outcome": "kemps_right", "duration": rng.gamma(4.0, 15.0, 240)})
    calls = pd.DataFrame({"seed": [0], "round": [0], "call": ["kemps"], "outcome": ["kemps_right"], "right": [True]})
    tables = {"rounds": rounds, "calls": calls}
    one, two = (table_statistics(tables, by=()).set_index("statistic").loc["median_round_seconds"] for _ in "12")
    assert one["estimate"] == pytest.approx(np.median(rounds["duration"]))
    assert (one["low"], one["high"]) == (two["low"], two["high"])  # fixed seed
    assert one["low"] < one["estimate"] < one["high"] and one["matches"] == 30


def test_a_table_without_the_match_column_is_refused_in_one_line():
    tables = _tiny_tables()
    with pytest.raises(ConfigError, match="column 'seed' is not in the rounds table"):
        table_statistics({**tables, "rounds": tables["rounds"].drop(columns="seed")})


# Table statistics on real matches ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def played() -> dict[str, pd.DataFrame]:
    results = [simulate_match("standard", "collector,watcher", seed=seed) for seed in range(6)]
    return records.tables(results)


def test_each_statistic_of_real_matches_equals_the_direct_count(played):
    rounds, calls = played["rounds"], played["calls"]
    found = table_statistics(played, by=()).set_index("statistic")
    ends = end_of(rounds["outcome"])
    for tail, chosen in (("", rounds["round"] >= 0), ("_first", rounds["round"] == 0),
                         ("_later", rounds["round"] > 0)):
        for end in ("right_kemps", "right_stop", "wrong_call", "other"):
            row = found.loc[f"{end}_share{tail}"]
            hits = int((ends[chosen.to_numpy()] == end).sum())
            assert (row["count"], row["n"]) == (hits, int(chosen.sum()))
            assert row["estimate"] == pytest.approx(hits / chosen.sum())
    assert found.loc["right_kemps_share", "matches"] == 6
    wrong = int(calls["outcome"].isin(WRONG_CALLS).sum())
    assert found.loc["wrong_calls_per_round", "estimate"] == pytest.approx(wrong / len(rounds))
    kemps = calls[calls["call"].isin(["kemps", "double_kemps"])]
    assert found.loc["kemps_precision", "estimate"] == pytest.approx(kemps["right"].mean())
    stops = calls[calls["call"] == "stop_kemps"]
    if len(stops):
        assert found.loc["stop_precision", "estimate"] == pytest.approx(stops["right"].mean())
    assert found.loc["median_round_seconds", "estimate"] == pytest.approx(np.median(rounds["duration"]))


def test_parameter_statistics_follow_the_profile():
    default, fidgety = PlayerProfile(), PlayerProfile().replace(fidget_scale=4.0, reaction__mu=0.39)
    found = parameter_statistics([default, fidgety]).set_index("statistic")
    base = parameter_statistics([default]).set_index("statistic")
    # Twice the fidget scale, twice the face touches (blinks are physiology: not scaled); the mean reaction time
    # moves by the change of mu.
    assert found.loc["blinks_per_minute", "high"] == pytest.approx(base.loc["blinks_per_minute", "estimate"]) == 20
    assert found.loc["blinks_per_minute", "low"] == pytest.approx(20)
    assert found.loc["face_touches_per_hour", "high"] == pytest.approx(
        2 * base.loc["face_touches_per_hour", "estimate"])
    assert found.loc["reaction_time_mean", "high"] - base.loc["reaction_time_mean", "estimate"] == pytest.approx(0.1)
    assert base.loc["reaction_time_mean", "estimate"] == pytest.approx(default.reaction.mean)
    assert (found["basis"] == "parameters").all() and (found["n"] == 2).all()


# Comparison ---------------------------------------------------------------------------------------------------
def _targets():
    entries = [
        {"name": "share", "statistic": "right_kemps_share", "kind": "range", "low": 0.4, "high": 0.6,
         "derivation": "d"},
        {"name": "most", "statistic": "right_stop_share", "kind": "at_most", "value": 0.25},
        {"name": "least", "statistic": "right_kemps_lead", "kind": "at_least", "value": 0.0},
        {"name": "precision", "statistic": "stop_precision", "kind": "range", "low": 0.2, "high": 0.8,
         "derivation": "d"},
    ]
    date = tomllib.loads("d = 2026-12-01")["d"]
    return targets_from_mapping({"version": 1, "date": date,
                                 "target": [{**e, "source": "s", "note": "n"} for e in entries]})


def _statistics(rows: list[tuple[str, float, float, float]]) -> pd.DataFrame:
    return pd.DataFrame([{"cell": "x", "statistic": s, "estimate": e, "low": lo, "high": hi, "count": np.nan,
                          "n": 10, "matches": 5, "basis": "tables"} for s, e, lo, hi in rows])


@pytest.mark.parametrize(("rows", "agrees", "inside"), [
    # Intervals that overlap at one end agree though the estimate lies outside the target's interval.
    ([("right_kemps_share", 0.3, 0.2, 0.4), ("right_stop_share", 0.3, 0.25, 0.35),
      ("right_kemps_lead", -0.1, -0.2, 0.0), ("stop_precision", 0.9, 0.8, 0.95)],
     [True, True, True, True], [False, False, False, False]),
    # Intervals wholly beyond the target's do not.
    ([("right_kemps_share", 0.75, 0.7, 0.8), ("right_stop_share", 0.5, 0.4, 0.6),
      ("right_kemps_lead", -0.3, -0.4, -0.01), ("stop_precision", 0.1, 0.05, 0.19)],
     [False, False, False, False], [False, False, False, False]),
    # Inside; an interval missing (one match) is read as the point; no estimate at all gives None.
    ([("right_kemps_share", 0.5, 0.45, 0.55), ("right_stop_share", 0.1, np.nan, np.nan),
      ("right_kemps_lead", 0.3, 0.1, 0.5), ("stop_precision", np.nan, np.nan, np.nan)],
     [True, True, True, None], [True, True, True, None]),
])
def test_compare_to_targets_flags_agreement_as_documented(rows, agrees, inside):
    found = compare_to_targets(_statistics(rows), _targets())
    assert list(found["target"]) == ["share", "most", "least", "precision"]
    assert list(found["agrees"]) == agrees and list(found["inside"]) == inside
    assert (found["cell"] == "x").all()


def test_a_statistic_the_table_lacks_gives_no_verdict():
    found = compare_to_targets(_statistics([("right_kemps_share", 0.5, 0.4, 0.6)]), _targets())
    assert list(found["agrees"]) == [True, None, None, None]


# Packaging ------------------------------------------------------------------------------------------------------
def test_the_targets_file_ships_with_the_package():
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "kemps_sim.calibration" in setup["packages"]
    assert "targets.toml" in setup["package-data"]["kemps_sim.calibration"]
    assert default_path().is_file()


def test_the_realism_script_refuses_bad_usage_in_one_line():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "table_realism.py"), "--matches", "0"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "table_realism.py: error: argument --matches: '0': must be a whole number >= 1 (see --help)"]
