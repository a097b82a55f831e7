"""Trace reduced to tidy tables: every row carries its seed, counts agree with the trace, timings are ordered."""

from __future__ import annotations

import math

import pandas as pd

from kemps_sim import load_rules, simulate_match
from kemps_sim.records import calls_table, events_table, pairs_table, rounds_table, tables
from kemps_sim.trace import CallHeard, Swapped


def test_tables_carry_the_seed_and_agree_with_the_trace():
    result = simulate_match("standard", "collector,random", seed=21)
    rounds, calls, pairs = rounds_table(result), calls_table(result), pairs_table(result)
    for table in (rounds, calls, pairs):
        assert (table["seed"] == 21).all()
    assert len(rounds) == len(result.rounds)
    assert rounds["swaps"].sum() == sum(type(e) is Swapped for r in result.rounds for e in r.trace)
    assert len(calls) == sum(type(e) is CallHeard for r in result.rounds for e in r.trace)
    assert list(rounds["outcome"]) == [r.outcome.value for r in result.rounds]
    assert pairs["won"].sum() == len(result.winners) and math.isclose(pairs["win_share"].sum(), 1.0)
    assert list(pairs["letters"]) == list(result.standings.letters)


def test_call_timings_run_from_four_of_a_kind_to_signal_to_call():
    result = simulate_match("standard", "collector", seed=3)
    calls = calls_table(result)
    right = calls[calls["right"]]
    assert len(right) > 0 and (right["started"] < right["time"]).all() and (right["four_to_call"] > 0).all()
    # a call may come before any signal (read from the prior alone): then the signal times are NaN
    signalled = right[right["signal_at"].notna()]
    assert len(signalled) > 0
    assert (signalled["four_at"] <= signalled["signal_at"]).all()
    total = signalled["four_to_signal"] + signalled["signal_to_call"]
    assert ((total - signalled["four_to_call"]).abs() < 1e-9).all()
    # a Kemps that answered the signal (its cue) was started after the signal was made
    answered = signalled[(signalled["call"] == "kemps") & (signalled["cue"] == result.rounds[0].signals[0])]
    assert (answered["signal_at"] <= answered["time"]).all()


def test_stacked_tables_and_events():
    results = [simulate_match(load_rules("german", players=6), "collector", seed=s) for s in (1, 2)]
    stacked = tables(results, events=True)
    assert set(stacked) == {"pairs", "rounds", "calls", "fours", "events"}
    assert sorted(stacked["pairs"]["seed"].unique()) == [1, 2]
    assert len(stacked["pairs"]) == 6
    assert isinstance(stacked["events"], pd.DataFrame)
    assert len(events_table(results[0])) == results[0].events


def test_every_right_call_settles_the_four_it_was_about():
    from kemps_sim.records import fours_table

    for seed in range(6):
        result = simulate_match("standard", "collector,watcher", seed=seed)
        fours, calls = fours_table(result), calls_table(result)
        right = calls[calls["right"]]
        assert set(fours["fate"]) <= {"kemps", "stolen", "broken", "uncalled"}
        assert (fours["fate"] == "kemps").sum() == (right["call"] == "kemps").sum() + 2 * (
            right["call"] == "double_kemps").sum()
        assert (fours["fate"] == "stolen").sum() == (right["call"] == "stop_kemps").sum()
        assert (fours["four_at"] <= fours["settled_at"]).all()
        assert len(fours) >= len(right)
