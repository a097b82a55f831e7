"""Sensitivity designs (Sobol', Morris) through the sweep machinery, and their indices from SALib."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from kemps_sim.errors import ConfigError
from kemps_sim.stats.sensitivity import cell_metric, morris_indices, sobol_indices, sobol_second_order
from kemps_sim.sweep import (
    design_cells,
    design_points,
    load_results,
    run_sweep,
    sample_matrix,
    spec_from_mapping,
)
from tests.sweeps import quick_spec

#: Three engine settings that take any positive number: cheap, valid axes for toy functions of their values.
TOY_AXES = ("engine.sweep_time", "engine.deal_time", "engine.objection_window")


def toy_spec(design: str, **sweep):
    """A sensitivity spec over the three toy axes, each ranging over [1, 2]."""
    return spec_from_mapping({
        "sweep": {"name": "toy", "seed": 5, "matches": 1, "design": design, **sweep},
        "base": {"rules": "standard", "lineup": "collector,watcher"},
        "axes": {name: {"low": 1.0, "high": 2.0} for name in TOY_AXES}})


def evaluate(spec, fn) -> pd.DataFrame:
    """The toy function at every cell of the spec, as a table with a cell column (no engine involved)."""
    rows = []
    for cell in design_cells(spec):
        values = cell.as_dict()
        rows.append({"cell": cell.id, "y": fn(*(values[name] for name in TOY_AXES))})
    return pd.DataFrame(rows)


def assert_within(found: pd.DataFrame, column: str, truth) -> None:
    """Each estimate within its own interval's half-width of the known value."""
    for estimate, half, expected, name in zip(found[column], found[f"{column}_conf"], truth, found["parameter"],
                                              strict=True):
        assert abs(estimate - expected) <= half, (column, name, estimate, half, expected)


def test_sobol_indices_of_a_linear_function_are_recovered_through_the_sweep_design():
    # y = 4a + 2b + 0c with a, b, c uniform on [1, 2]: Var y = (16 + 4) / 12, so S1 = ST = (0.8, 0.2, 0)
    spec = toy_spec("sobol", samples=512)
    cells = design_cells(spec)
    assert len(cells) == 512 * (3 + 2) and [c.id for c in design_points(spec)] == [c.id for c in cells]
    found = sobol_indices(evaluate(spec, lambda a, b, c: 4 * a + 2 * b), spec, "y", confidence=0.99)
    assert list(found.columns) == ["parameter", "S1", "S1_conf", "ST", "ST_conf", "confidence"]
    assert list(found["parameter"]) == list(TOY_AXES) and (found["confidence"] == 0.99).all()
    assert found.attrs["confidence"] == 0.99 and found.attrs["points"] == 2560
    assert_within(found, "S1", (0.8, 0.2, 0.0))
    assert_within(found, "ST", (0.8, 0.2, 0.0))
    assert (found["S1_conf"] < 0.15).all()  # the intervals are tight enough to tell the three apart


def test_sobol_indices_of_the_ishigami_function_are_recovered():
    a, b = 7.0, 0.1
    variance = a**2 / 8 + b * math.pi**4 / 5 + b**2 * math.pi**8 / 18 + 0.5
    v1, v2, v13 = 0.5 * (1 + b * math.pi**4 / 5) ** 2, a**2 / 8, 8 * b**2 * math.pi**8 / 225
    first = (v1 / variance, v2 / variance, 0.0)
    total = ((v1 + v13) / variance, v2 / variance, v13 / variance)

    def ishigami(u1, u2, u3):
        x1, x2, x3 = (-math.pi + 2 * math.pi * (u - 1) for u in (u1, u2, u3))
        return math.sin(x1) + a * math.sin(x2) ** 2 + b * x3**4 * math.sin(x1)

    spec = toy_spec("sobol", samples=1024, second_order=True)
    assert len(design_cells(spec)) == 1024 * (2 * 3 + 2)
    table = evaluate(spec, ishigami)
    found = sobol_indices(table, spec, "y", confidence=0.99)
    assert_within(found, "S1", first)
    assert_within(found, "ST", total)
    pairs = sobol_second_order(table, spec, "y", confidence=0.99)
    assert list(pairs[["parameter", "other"]].itertuples(index=False, name=None)) == [
        (TOY_AXES[0], TOY_AXES[1]), (TOY_AXES[0], TOY_AXES[2]), (TOY_AXES[1], TOY_AXES[2])]
    s13 = pairs.iloc[1]
    assert abs(s13["S2"] - v13 / variance) <= s13["S2_conf"]  # the only interaction: x1 with x3


def test_morris_effects_of_a_linear_function_are_its_slopes_per_range():
    spec = toy_spec("morris", trajectories=10, levels=4)
    points = design_points(spec)
    assert len(points) == 10 * (3 + 1) and len(design_cells(spec)) <= len(points)  # shared grid points: one cell
    matrix = sample_matrix(spec)
    assert matrix.shape == (40, 3) and set(np.round(matrix.ravel() * 3, 9)) <= {0.0, 1.0, 2.0, 3.0}
    found = morris_indices(evaluate(spec, lambda a, b, c: 4 * a + 2 * b), spec, "y")
    assert list(found.columns) == ["parameter", "mu_star", "mu_star_conf", "mu", "sigma", "confidence"]
    assert found["mu_star"].tolist() == pytest.approx([4.0, 2.0, 0.0])
    assert found["mu"].tolist() == pytest.approx([4.0, 2.0, 0.0])
    assert found["sigma"].tolist() == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)


def test_sensitivity_designs_are_drawn_from_the_master_seed_and_grow_by_keeping_their_first_points():
    small, large = toy_spec("sobol", samples=8), toy_spec("sobol", samples=16)
    assert [c.id for c in design_points(small)] == [c.id for c in design_points(toy_spec("sobol", samples=8))]
    assert [c.id for c in design_points(large)[:40]] == [c.id for c in design_points(small)]
    few, more = toy_spec("morris", trajectories=3), toy_spec("morris", trajectories=6)
    assert [c.id for c in design_points(more)[:12]] == [c.id for c in design_points(few)]
    other = spec_from_mapping({**small.source, "sweep": {**small.source["sweep"], "seed": 6}})
    assert [c.id for c in design_points(other)] != [c.id for c in design_points(small)]


def test_a_small_sobol_sweep_of_real_matches_gives_indices(tmp_path):
    spec = quick_spec(tmp_path / "sobol", matches=2, design="sobol", samples=8, axes={
        "profile.observer.d_fixated": {"low": 0.5, "high": 3.0}, "profile.reaction.tau": {"low": 0.1, "high": 0.4}})
    run = run_sweep(spec, workers=1, progress=False)
    assert run.planned == 8 * 4 * 2 and run.failures == 0
    results = load_results(tmp_path / "sobol")
    assert (results.matches.groupby("replicate")["seed"].nunique() == 1).all()  # every point plays the same deals
    by_duration = sobol_indices(results, spec, "duration")
    assert list(by_duration["parameter"]) == ["profile.observer.d_fixated", "profile.reaction.tau"]
    assert np.isfinite(by_duration[["S1", "S1_conf", "ST", "ST_conf"]].to_numpy()).all()
    # the spec may come from the folder's manifest, and a pairs column of one pair is a metric
    by_win = sobol_indices(tmp_path / "sobol", metric="pair0_won")
    pd.testing.assert_frame_equal(by_win, sobol_indices(results, spec, "pair0_won"))
    means = cell_metric(tmp_path / "sobol", "pair0_won")
    assert len(means) == 32 and set(means.attrs["n"].values()) == {2} and means.between(0, 1).all()


def test_a_small_morris_sweep_of_real_matches_gives_effects(tmp_path):
    spec = quick_spec(tmp_path / "morris", matches=1, design="morris", trajectories=4, axes={
        "profile.observer.d_fixated": {"low": 0.5, "high": 3.0}, "profile.reaction.tau": {"low": 0.1, "high": 0.4}})
    run_sweep(spec, workers=1, progress=False)
    found = morris_indices(tmp_path / "morris", metric="duration")
    assert len(found) == 2 and (found["mu_star"] >= 0).all() and np.isfinite(found["mu_star_conf"]).all()
    manifest_path = tmp_path / "morris" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["identity"] = manifest["identity"].replace('"levels":4', '"levels":6')
    manifest_path.write_text(json.dumps(manifest))
    with pytest.raises(ConfigError, match=r"manifest.json: its spec no longer reads as it was run \(levels: 6 -> 4\)"):
        morris_indices(tmp_path / "morris", metric="duration")


def test_analysis_problems_are_one_line_errors(tmp_path):
    sobol = toy_spec("sobol", samples=4)
    table = evaluate(sobol, lambda a, b, c: a + b)
    with pytest.raises(ConfigError, match=r"sweep.design = 'sobol': morris indices need a morris design"):
        morris_indices(table, sobol, "y")
    with pytest.raises(ConfigError, match=r"no value for 1 of the 20 cells of the spec's sobol design"):
        sobol_indices(table.iloc[1:], sobol, "y")
    with pytest.raises(ConfigError, match=r"metric 'z': not in the given table; give pairN_COLUMN .* cell, y"):
        sobol_indices(table, sobol, "z")
    with pytest.raises(ConfigError, match=r"the same value \(3\) at every sample point"):
        sobol_indices(table.assign(y=3.0), sobol, "y")
    with pytest.raises(ConfigError, match="sweep.second_order = false: the sample has no second-order rows"):
        sobol_second_order(table, sobol, "y")
    with pytest.raises(ConfigError, match="spec: needed with a table"):
        sobol_indices(table, None, "y")
    with pytest.raises(ConfigError, match="confidence = 1.5: must be strictly between 0 and 1"):
        sobol_indices(table, sobol, "y", confidence=1.5)
    with pytest.raises(ConfigError, match="column 'label' is not numeric"):
        sobol_indices(table.assign(label="x"), sobol, "label")
