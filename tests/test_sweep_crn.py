"""Common random numbers: replicate r of every cell plays the same seed, so cells are compared on the same deals and
human timings, and the paired difference between two cells is far less noisy than the difference of two means."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from kemps_sim.errors import ConfigError
from kemps_sim.sweep import ResultStore, design_cells, load_results, match_seed, plan_tasks, run_sweep, tournament_spec
from tests.sweeps import quick_spec


def _paired(table: pd.DataFrame, param: str, column: str) -> tuple[pd.Series, pd.Series]:
    """The column by replicate in each of the two levels of ``param`` (pair 0's rows of a pairs table)."""
    if "pair" in table.columns:
        table = table[table["pair"] == 0]
    wide = table.pivot(index="replicate", columns=param, values=column).astype(float)
    assert wide.shape[1] == 2 and not wide.isna().any().any()
    return wide.iloc[:, 0], wide.iloc[:, 1]


def _standard_errors(a: pd.Series, b: pd.Series) -> tuple[float, float]:
    """The standard error of the mean difference b - a: paired (by replicate), and as if a and b were unrelated."""
    n = len(a)
    paired = float(np.std(b - a, ddof=1)) / math.sqrt(n)
    unpaired = math.sqrt(float(np.var(a, ddof=1)) / n + float(np.var(b, ddof=1)) / n)
    return paired, unpaired


def test_every_cell_plays_replicate_r_with_one_seed_and_adding_cells_changes_none(tmp_path):
    spec = quick_spec(tmp_path / "o", matches=3)
    assert spec.common_random_numbers  # on by default for a grid
    tasks = plan_tasks(spec)[0]
    by_replicate = {}
    for task in tasks:
        by_replicate.setdefault(task.replicate, set()).add(task.seed)
    assert all(len(seeds) == 1 for seeds in by_replicate.values()) and len(set().union(*by_replicate.values())) == 3
    wider = quick_spec(tmp_path / "o", matches=5, axes={"rules.double_kemps": [False, True],
                                                          "profile.observer.d_fixated": [0.5, 1.0, 2.0, 3.0]})
    before = {(t.cell, t.replicate): t.seed for t in tasks}
    after = {(t.cell, t.replicate): t.seed for t in plan_tasks(wider)[0]}
    assert before.items() <= after.items() and len(after) == 40
    # the seed comes from the master seed and the replicate alone: any cell, same seed
    cells = design_cells(wider)
    assert {match_seed(7, cell, 4, common=True) for cell in cells} == {after[(cells[0].id, 4)]}
    assert match_seed(8, cells[0], 4, common=True) != after[(cells[0].id, 4)]


def test_without_common_random_numbers_each_cell_keeps_its_own_seeds(tmp_path):
    spec = quick_spec(tmp_path / "o", matches=4, common_random_numbers=False)
    tasks = plan_tasks(spec)[0]
    assert len({t.seed for t in tasks}) == 16
    cells = {cell.id: cell for cell in design_cells(spec)}
    assert all(t.seed == match_seed(7, cells[t.cell], t.replicate) for t in tasks)
    # the cell-keyed seeds are those sweeps have always had: a folder made before stays valid
    first = cells[tasks[0].cell]
    assert first.as_dict() == {"rules.double_kemps": False, "profile.observer.d_fixated": 1.0}
    assert tasks[0].seed == 771721508432087408


def test_defaults_follow_the_design_and_the_spec_can_say_otherwise(tmp_path):
    axes = {"profile.reaction.tau": {"low": 0.1, "high": 0.3}}
    assert not quick_spec(tmp_path / "o", design="random", samples=3, axes=axes).common_random_numbers
    assert not quick_spec(tmp_path / "o", design="lhs", samples=3, axes=axes).common_random_numbers
    assert quick_spec(tmp_path / "o", design="lhs", samples=3, axes=axes, common_random_numbers=True
                      ).common_random_numbers
    assert quick_spec(tmp_path / "o", design="sobol", samples=2, axes=axes).common_random_numbers
    assert quick_spec(tmp_path / "o", design="morris", trajectories=2, axes=axes).common_random_numbers
    assert tournament_spec(["collector", "watcher"], matches=2).common_random_numbers
    on, off = quick_spec(tmp_path / "o"), quick_spec(tmp_path / "o", common_random_numbers=False)
    assert on.identity()["common_random_numbers"] is True and off.identity()["common_random_numbers"] is False
    with pytest.raises(ConfigError, match=r"sweep.common_random_numbers = 'yes': must be true or false"):
        quick_spec(tmp_path / "o", common_random_numbers="yes")


def test_a_folder_made_under_the_other_setting_is_refused(tmp_path):
    run_sweep(quick_spec(tmp_path / "out", matches=2), workers=1, progress=False)
    off = quick_spec(tmp_path / "out", matches=2, common_random_numbers=False)
    with pytest.raises(ConfigError, match=r"different spec \(common_random_numbers: True -> False; its matches "
                                          r"were played with common_random_numbers = true"):
        run_sweep(off, workers=1, progress=False)
    with pytest.raises(ConfigError, match="cannot be extended to it: common_random_numbers changed"):
        run_sweep(off, workers=1, progress=False, extend=True)
    assert len(load_results(tmp_path / "out").matches) == 8


def test_a_folder_from_before_the_option_resumes_only_with_it_off(tmp_path):
    old = quick_spec(tmp_path / "out", matches=2, common_random_numbers=False)
    run_sweep(old, workers=1, progress=False)
    store = ResultStore(tmp_path / "out")
    manifest = store.manifest()
    identity = json.loads(manifest["identity"])
    del identity["common_random_numbers"]  # as written before the option existed
    manifest["identity"] = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    (tmp_path / "out" / "manifest.json").write_text(json.dumps(manifest))
    assert run_sweep(old, workers=1, progress=False).mode == "resume"
    with pytest.raises(ConfigError, match="common_random_numbers = false: set that in"):
        run_sweep(quick_spec(tmp_path / "out", matches=2), workers=1, progress=False)


def test_two_identical_cells_have_a_paired_difference_of_exactly_zero(tmp_path):
    # engine.strict only checks the table after every change: both cells play exactly the same game
    spec = quick_spec(tmp_path / "same", matches=30, axes={"engine.strict": [False, True]})
    run_sweep(spec, workers=1, progress=False)
    results = load_results(tmp_path / "same")
    for table, column in ((results.pairs, "won"), (results.pairs, "rounds_won"), (results.matches, "duration")):
        a, b = _paired(table, "engine.strict", column)
        paired, unpaired = _standard_errors(a, b)
        assert (b - a == 0).all() and paired == 0.0
        assert unpaired > 0  # the matches themselves differ from replicate to replicate
    calls = results.calls.drop(columns=["cell", "engine.strict"])
    first, second = (calls[results.calls["engine.strict"] == level].reset_index(drop=True) for level in (False, True))
    pd.testing.assert_frame_equal(first, second)


@pytest.mark.parametrize("common", [True, False])
def test_the_paired_difference_of_nearby_cells_is_measurably_tighter(tmp_path, common):
    # a small effect: everyone's d' for a gesture looked at, 2.0 (the default) against 2.2; 150 one-round matches
    axes = {"profile.observer.d_fixated": [2.0, 2.2]}
    spec = quick_spec(tmp_path / "near", matches=150, axes=axes, common_random_numbers=common)
    run_sweep(spec, workers=1, progress=False)
    results = load_results(tmp_path / "near")
    for table, column in ((results.pairs, "won"), (results.matches, "duration")):
        a, b = _paired(table, "profile.observer.d_fixated", column)
        paired, unpaired = _standard_errors(a, b)
        if common:
            assert paired < 0.8 * unpaired, (column, paired, unpaired)
        else:
            # unrelated seeds: pairing by replicate number buys nothing (the sample correlation of 150 independent
            # pairs stays within about 3 / sqrt(150) = 0.24 of 0, so the ratio stays above sqrt(1 - 0.24) = 0.87)
            assert paired > 0.8 * unpaired, (column, paired, unpaired)


def test_a_tournament_plays_both_seatings_on_the_same_deals(tmp_path):
    spec = tournament_spec(["collector", "watcher"], matches=3, overrides={"scoring": "rounds_won",
                                                                           "rounds_to_play": 1},
                           output=str(tmp_path / "t"))
    run_sweep(spec, workers=1, progress=False)
    matches = load_results(tmp_path / "t").matches
    assert sorted(matches["lineup"].unique()) == ["collector,watcher", "watcher,collector"]
    assert (matches.groupby("replicate")["seed"].nunique() == 1).all()

