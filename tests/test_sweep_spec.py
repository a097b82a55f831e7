"""Sweep specs: validated whole before any work, designs from scipy's qmc, seeds keyed by the cell's parameters."""

from __future__ import annotations

import re

import numpy as np
import pytest

from kemps_sim import load_rules
from kemps_sim.cli import main
from kemps_sim.sweep import (
    SpecError,
    design_cells,
    design_points,
    match_seed,
    plan_cell,
    plan_tasks,
    read_spec,
    spec_from_mapping,
)
from tests.sweeps import quick_data, quick_spec, toml_text


def test_grid_visits_every_combination_in_axis_order(tmp_path):
    spec = quick_spec(tmp_path / "out")
    cells = design_cells(spec)
    assert [c.as_dict() for c in cells] == [
        {"rules.double_kemps": a, "profile.observer.d_fixated": b} for a in (False, True) for b in (1.0, 2.0)]
    assert len({c.id for c in cells}) == 4


def test_cell_parameters_reach_rules_profiles_lineup_and_engine(tmp_path):
    spec = quick_spec(tmp_path / "out", axes={
        "rules.double_kemps": [True], "players": [4], "profile.reaction.tau": [0.25],
        "pair1.profile.observer.d_fixated": [3.0], "agent.threshold": [0.8], "pair0.agent.switch_after": [3],
        "engine.max_round_seconds": [100.0]})
    plan = plan_cell(spec, design_cells(spec)[0])
    assert plan.rules == load_rules("standard", double_kemps=True, players=4, scoring="rounds_won", rounds_to_play=1)
    assert all(p.reaction.tau == 0.25 for p in plan.profiles)
    assert [p.observer.d_fixated == 3.0 for p in plan.profiles] == [False, True, False, True]
    assert plan.lineup.startswith("collector(") and "switch_after=3" in plan.lineup
    assert "watcher(threshold=0.8)" in plan.lineup
    assert plan.config.max_round_seconds == 100.0


def test_ranges_make_grids_and_sampled_designs(tmp_path):
    grid = quick_spec(tmp_path / "o", axes={"profile.reaction.tau": {"low": 0.1, "high": 0.3, "steps": 3},
                                            "agent.threshold": {"low": 0.5, "high": 0.9, "steps": 2}})
    assert [c.as_dict()["profile.reaction.tau"] for c in design_cells(grid)][::2] == pytest.approx([0.1, 0.2, 0.3])
    lhs = quick_spec(tmp_path / "o", design="lhs", samples=40, axes={
        "profile.reaction.tau": {"low": 0.05, "high": 0.4, "log": True}, "rules.double_kemps": [False, True],
        "engine.max_rounds": {"low": 5, "high": 8, "integer": True}})
    cells = [c.as_dict() for c in design_cells(lhs)]
    taus = np.array([c["profile.reaction.tau"] for c in cells])
    assert len(cells) == 40 and ((taus >= 0.05) & (taus <= 0.4)).all()
    # A Latin hypercube puts exactly one point in each of the 40 equal-probability strata of every axis.
    strata = np.floor(np.log(taus / 0.05) / np.log(0.4 / 0.05) * 40).astype(int)
    assert sorted(strata) == list(range(40))
    assert sum(c["rules.double_kemps"] for c in cells) == 20
    assert sorted({c["engine.max_rounds"] for c in cells}) == [5, 6, 7, 8]
    assert [c.as_dict() for c in design_cells(lhs)] == cells  # the design is drawn from the master seed


def test_random_design_keeps_its_first_cells_when_more_are_drawn(tmp_path):
    axes = {"profile.reaction.tau": {"low": 0.05, "high": 0.4}}
    small = design_cells(quick_spec(tmp_path / "o", design="random", samples=5, axes=axes))
    large = design_cells(quick_spec(tmp_path / "o", design="random", samples=9, axes=axes))
    assert [c.id for c in large[:5]] == [c.id for c in small]


def test_seeds_depend_only_on_the_cell_and_replicate(tmp_path):
    spec = quick_spec(tmp_path / "o", matches=3, common_random_numbers=False)
    wider = quick_spec(tmp_path / "o", matches=5, common_random_numbers=False, axes={
        "rules.double_kemps": [False, True], "profile.observer.d_fixated": [0.5, 1.0, 2.0]})
    seeds = {(t.cell, t.replicate): t.seed for t in plan_tasks(spec)[0]}
    more = {(t.cell, t.replicate): t.seed for t in plan_tasks(wider)[0]}
    assert seeds.items() <= more.items()
    assert len(set(more.values())) == len(more) == 30
    cell = design_cells(spec)[0]
    assert match_seed(7, cell, 0) != match_seed(8, cell, 0) != match_seed(7, cell, 1)
    assert 0 <= match_seed(7, cell, 0) < 2**63


def test_every_bad_field_is_reported_at_once(tmp_path):
    data = quick_data(tmp_path / "out", matches=0, axes={
        "rules.double_kemps": [True, "yes"], "profile.reaction.tau": {"low": 0.3, "high": 0.1, "steps": 2},
        "rules.dubble_kemps": [True], "agent.nonsense": [1], "colour": ["red"]})
    data["sweep"]["design"] = "sobel"
    data["base"]["lineup"] = "collector"
    data["extra"] = {}
    with pytest.raises(SpecError) as caught:
        spec_from_mapping(data)
    text = str(caught.value)
    for expected in ("extra: unknown table", "sweep.matches = 0", "sweep.design = 'sobel'",
                     "axes.rules.double_kemps = [True, 'yes']: levels must all be",
                     "axes.profile.reaction.tau: low = 0.3 is above high = 0.1"):
        assert expected in text
    assert "nothing was run or written" in text.splitlines()[0]


def test_cell_problems_name_the_cell_and_the_field(tmp_path):
    data = quick_data(tmp_path / "out", axes={"rules.dubble_kemps": [True], "agent.nonsense": [1], "colour": [1],
                                                   "profile.reaction.tau": [0.1, -1.0]})
    with pytest.raises(SpecError) as caught:
        spec_from_mapping(data)
    text = str(caught.value)
    assert "4 problems" in text.splitlines()[0]
    assert "rules.dubble_kemps = true: unknown rule knob (did you mean double_kemps?)" in text
    assert "axes.agent.nonsense: no agent in lineup 'collector,watcher' has this parameter" in text
    assert "axes.colour: not a place a value can go" in text
    assert "axes.profile.reaction.tau = -1.0: must be a number > 0" in text


def test_bad_spec_file_exits_2_before_touching_the_folder(tmp_path, capsys):
    out = tmp_path / "out"
    data = quick_data(out, matches=-1, axes={"profile.reaction.tau": [0.1, "x"]})
    path = tmp_path / "bad.toml"
    path.write_text(toml_text(data))
    assert main(["sweep", str(path), "--serial", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "sweep.matches = -1" in err and "axes.profile.reaction.tau" in err and "Traceback" not in err
    assert not out.exists()


def test_spec_files_read_back_and_bad_toml_is_one_line(tmp_path):
    path = tmp_path / "spec.toml"
    path.write_text(toml_text(quick_data(tmp_path / "out")))
    spec = read_spec(path)
    assert spec.matches == 6 and [a.name for a in spec.axes] == ["rules.double_kemps", "profile.observer.d_fixated"]
    path.write_text("[sweep\nseed = 1")
    with pytest.raises(SpecError, match="not valid TOML"):
        read_spec(path)
    with pytest.raises(SpecError, match="no such file"):
        read_spec(tmp_path / "missing.toml")


def test_the_shipped_specs_are_valid():
    import tomllib
    from pathlib import Path

    from kemps_sim.sweep.tournament import team_tournament_spec

    specs = sorted((Path(__file__).parent.parent / "experiments").glob("*.toml"))
    assert specs, "experiments/ holds no specs"
    tournaments = 0
    for path in specs:
        if "tournament" in tomllib.loads(path.read_text(encoding="utf-8")):  # kemps-sim tournament --spec FILE
            tournaments += 1
            assert team_tournament_spec(path).spec.matches >= 1
        else:
            assert read_spec(path).matches >= 1
    assert 0 < tournaments < len(specs)


def test_axes_that_need_each_other_are_checked_together(tmp_path):
    spec = quick_spec(tmp_path / "o", axes={"lineup": ["feeder,collector", "collector,feeder"],
                                             "agent.min_evidence": [1, 2]})
    plans = [plan_cell(spec, cell) for cell in design_cells(spec)]
    assert all("feeder(min_evidence=" in plan.lineup for plan in plans)
    data = quick_data(tmp_path / "o", axes={"players": [6], "pair2.profile.reaction.tau": [0.2]})
    data["base"]["lineup"] = "collector"
    assert plan_cell(spec_from_mapping(data), design_cells(spec_from_mapping(data))[0]).rules.players == 6


def test_base_fields_of_the_wrong_kind_and_missing_samples_are_reported(tmp_path):
    data = quick_data(tmp_path / "o", design="lhs", axes={"profile.reaction.tau": {"low": 0.1, "high": 0.2}})
    data["base"]["engine"] = 5
    data["base"]["lineup"] = ["collector"]
    with pytest.raises(SpecError) as caught:
        spec_from_mapping(data)
    text = str(caught.value)
    assert "sweep.samples: missing" in text and "base.engine = 5: must be a table" in text
    assert "base.lineup = ['collector']: must be a lineup string" in text


def test_whole_number_ranges_stay_inside_their_bounds(tmp_path):
    spec = quick_spec(tmp_path / "o", design="random", samples=30,
                      axes={"engine.max_rounds": {"low": 1.4, "high": 3.6, "integer": True}})
    assert sorted({c.as_dict()["engine.max_rounds"] for c in design_cells(spec)}) == [2, 3]
    with pytest.raises(SpecError, match="no whole number between"):
        quick_spec(tmp_path / "o", design="random", samples=3,
                   axes={"engine.max_rounds": {"low": 1.4, "high": 1.6, "integer": True}})


def test_equivalent_specs_have_the_same_identity(tmp_path):
    implicit = quick_data(tmp_path / "o")
    explicit = quick_data(tmp_path / "o", design="grid", events=False)
    assert spec_from_mapping(implicit).identity_text() == spec_from_mapping(explicit).identity_text()



def test_sensitivity_designs_check_their_sizes_and_take_ranges_only(tmp_path):
    ranges = {"profile.reaction.tau": {"low": 0.1, "high": 0.3}, "profile.observer.d_fixated": {"low": 1, "high": 3}}
    sobol = quick_spec(tmp_path / "o", design="sobol", samples=4, axes=ranges)
    assert (sobol.samples, sobol.second_order, len(design_cells(sobol))) == (4, False, 4 * (2 + 2))
    second = quick_spec(tmp_path / "o", design="sobol", samples=4, second_order=True, axes=ranges)
    assert len(design_points(second)) == 4 * (2 * 2 + 2) and second.identity()["second_order"] is True
    morris = quick_spec(tmp_path / "o", design="morris", trajectories=3, axes=ranges)
    assert (morris.trajectories, morris.levels) == (3, 4) and morris.identity()["levels"] == 4
    data = quick_data(tmp_path / "o", design="sobol", samples=6, levels=4, axes={
        **ranges, "rules.double_kemps": [False, True], "agent.threshold": {"low": 0.5, "high": 0.9, "steps": 3}})
    with pytest.raises(SpecError) as caught:
        spec_from_mapping(data)
    text = str(caught.value)
    for expected in ("sweep.samples = 6: a sobol design needs a power of 2 (the Sobol' sequence is balanced only "
                     "then), e.g. 4 or 8", "sweep.levels: only a morris design has levels, not a sobol design",
                     "axes.rules.double_kemps = [False, True]: a sobol design varies numeric ranges only; give "
                     "{low, high} (a fixed value goes in [base])",
                     "axes.agent.threshold.steps = 3: only a grid uses steps; a sobol design samples the range"):
        assert expected in text
    problems = {
        "sweep.trajectories: missing; must be the number of Morris trajectories": dict(design="morris", axes=ranges),
        "sweep.levels = 3: must be the grid levels of a Morris design, an even whole number >= 2": dict(
            design="morris", trajectories=2, levels=3, axes=ranges),
        "sweep.samples: only a random, lhs or sobol design draws samples; a morris design draws trajectories": dict(
            design="morris", trajectories=2, samples=4, axes=ranges),
        "sweep.samples: missing; a sobol design needs the base sample size N": dict(design="sobol", axes=ranges),
        "axes: a sobol design needs at least one range axis {low, high}": dict(design="sobol", samples=4, axes={}),
        "sweep.second_order: only a sobol design has second-order indices, not a grid design": dict(
            second_order=True),
        "sweep.trajectories: only a morris design has trajectories, not a lhs design": dict(
            design="lhs", samples=2, trajectories=3, axes=ranges),
    }
    for expected, sweep in problems.items():
        axes = sweep.pop("axes", None)
        with pytest.raises(SpecError, match=re.escape(expected)):
            spec_from_mapping(quick_data(tmp_path / "o", axes=axes, **sweep))


def test_check_prints_the_design_and_whether_cells_share_their_seeds(tmp_path, capsys):
    path = tmp_path / "spec.toml"
    path.write_text(f"""[sweep]
seed = 3
matches = 2
output = "{tmp_path / 'out'}"
design = "sobol"
samples = 2
[base]
lineup = "collector,watcher"
[axes]
"profile.reaction.tau" = {{ low = 0.1, high = 0.3 }}
"profile.observer.d_fixated" = {{ low = 1.0, high = 3.0 }}
""")
    assert main(["sweep", str(path), "--check"]) == 0
    out = capsys.readouterr().out
    assert "8 cells x 2 matches = 16 matches, design sobol (N = 2, first and total order)" in out
    assert "common random numbers on" in out and not (tmp_path / "out").exists()
