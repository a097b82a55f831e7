"""Sensitivity designs (Sobol', Morris) through the sweep machinery, and their indices from SALib."""

from __future__ import annotations

import json
import math
import re
import warnings

import numpy as np
import pandas as pd
import pytest

from kemps_sim.errors import ConfigError
from kemps_sim.stats.sensitivity_checks import morris_verdict, sobol_verdict
from kemps_sim.sweep import (
    design_cells,
    design_points,
    load_results,
    run_sweep,
    sample_matrix,
    spec_from_mapping,
)
from kemps_sim.sweep.sensitivity import (
    SensitivityWarning,
    cell_metric,
    morris_indices,
    sobol_indices,
    sobol_second_order,
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


A, B = 7.0, 0.1


def ishigami(u1, u2, u3):
    """Ishigami's function of three uniforms on [1, 2], mapped to [-pi, pi]."""
    x1, x2, x3 = (-math.pi + 2 * math.pi * (u - 1) for u in (u1, u2, u3))
    return math.sin(x1) + A * math.sin(x2) ** 2 + B * x3**4 * math.sin(x1)


def test_sobol_indices_of_the_ishigami_function_are_recovered():
    a, b = A, B
    variance = a**2 / 8 + b * math.pi**4 / 5 + b**2 * math.pi**8 / 18 + 0.5
    v1, v2, v13 = 0.5 * (1 + b * math.pi**4 / 5) ** 2, a**2 / 8, 8 * b**2 * math.pi**8 / 225
    first = (v1 / variance, v2 / variance, 0.0)
    total = ((v1 + v13) / variance, v2 / variance, v13 / variance)
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


def sobol_table(rows):
    """A table of Sobol' indices from (parameter, S1, S1_conf, ST, ST_conf) rows."""
    return pd.DataFrame(rows, columns=["parameter", "S1", "S1_conf", "ST", "ST_conf"])


def test_sobol_problems_are_the_bounds_of_a_share_of_variance_broken_beyond_noise():
    # the reading: S1 = 1.04 above ST = 0.98, both intervals crossing 0: too wide, not beyond noise
    wide = sobol_verdict(sobol_table([("a", 1.04, 1.2, 0.98, 1.1), ("b", 0.2, 0.05, 0.3, 0.05)]), 32, 128, 10)
    assert wide.problems == (
        "S1 of a = 1.040 ± 1.200: its interval is wider than the index and than 0.1, so it cannot tell the index "
        "from 0",
        "ST of a = 0.980 ± 1.100: its interval is wider than the index and than 0.1, so it cannot tell the index "
        "from 0")
    # half-widths shrink like 1/sqrt(N): S1 of a needs 32 * (1.2 / 1.04)**2 = 42.6, the next power of 2 is 64
    assert wide.size == 64 and wide.suggestion.startswith("N = 32 is too small: half-widths shrink like 1/sqrt(N)")
    assert "(S1 of a, ± 1.2) under its goal 1.04" in wide.suggestion
    assert "needs N = 32 x (1.2 / 1.04)^2 = 43: samples = 64 (2,560 matches at 10 a point)" in wide.suggestion
    # an index smaller than 0.1 is known once its half-width is under 0.1: 32 * (0.3 / 0.1)**2 = 288 -> 512
    small = sobol_verdict(sobol_table([("a", 0.02, 0.3, 0.4, 0.5), ("b", 0.5, 0.05, 0.6, 0.05)]), 32, 128, 10)
    assert len(small.problems) == 2 and small.size == 512 and "(0.3 / 0.1)^2 = 288: samples = 512" in small.suggestion
    # beyond their intervals: S1 above ST, an index below 0 or above 1, the S1 adding up to more than 1
    broken = sobol_verdict(sobol_table([("a", 0.5, 0.02, 0.3, 0.02), ("b", -0.3, 0.1, 1.2, 0.1),
                                        ("c", 0.95, 0.05, 1.0, 0.05)]), 64, 320, 4)
    assert broken.problems == (
        "S1 of b = -0.300 ± 0.100: below 0 beyond its interval, though an index is a share of variance",
        "ST of b = 1.200 ± 0.100: above 1 beyond its interval, though an index is a share of variance",
        "S1 of a = 0.500 exceeds its ST = 0.300 by more than their intervals allow (± 0.028), though S1 can never "
        "exceed ST",
        "the S1 add up to 1.15 ± 0.11, beyond 1, though the shares of variance the parameters cause alone add up to "
        "at most 1")
    # narrow intervals: a larger N would not help
    assert broken.size is None and "a larger N will not help" in broken.suggestion
    assert "too noisy at 4 matches a point" in broken.suggestion
    # within noise of every bound, and narrow: nothing to say
    fine = sobol_verdict(sobol_table([("a", 0.52, 0.05, 0.5, 0.05), ("b", 0.02, 0.05, 0.03, 0.04),
                                      ("c", 0.5, 0.06, 0.55, 0.06)]), 64, 320, 4)
    assert fine.problems == () and fine.suggestion is None and fine.size is None


def test_morris_problems_are_intervals_wider_than_mu_star():
    table = pd.DataFrame({"parameter": ["a", "b", "c", "d"], "mu_star": [1.0, 0.05, 0.5, 0.02],
                          "mu_star_conf": [0.3, 0.2, 0.6, 0.08]})
    verdict = morris_verdict(table, 10, 50, 2)
    # b: wider than mu* and a tenth of the largest (0.1); c: wider than its mu*; d: under a tenth of the largest
    assert [line.split(":")[0] for line in verdict.problems] == ["mu* of b = 0.05 ± 0.2", "mu* of c = 0.5 ± 0.6"]
    assert "than 0.1 of the largest mu* (1), so it cannot tell the effect from 0" in verdict.problems[0]
    assert verdict.size == 40  # b: 10 * (0.2 / 0.1)**2
    assert "needs r = 10 x (0.2 / 0.1)^2 = 40: trajectories = 40 (400 matches at 2 a point)" in verdict.suggestion
    assert morris_verdict(table.assign(mu_star_conf=0.05), 10, 50, 2).problems == ()


def test_a_sample_too_small_warns_and_the_suggested_size_makes_the_indices_readable():
    small = toy_spec("sobol", samples=128)
    with pytest.warns(SensitivityWarning, match=r"(?s)Sobol' indices of y at N = 128 do not mean anything yet:\n"
                                                r"S1 of engine.objection_window = .*samples = 512"):
        found = sobol_indices(evaluate(small, ishigami), small, "y")
    assert found.attrs["suggested_size"] == 512 and found.attrs["problems"]
    assert found.attrs["suggestion"].startswith("N = 128 is too small")
    larger = toy_spec("sobol", samples=found.attrs["suggested_size"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", SensitivityWarning)
        again = sobol_indices(evaluate(larger, ishigami), larger, "y")
        linear = toy_spec("sobol", samples=512)
        clean = sobol_indices(evaluate(linear, lambda a, b, c: 4 * a + 2 * b), linear, "y")
    assert again.attrs["problems"] == [] and again.attrs["suggestion"] is None
    assert (again["S1_conf"] <= np.maximum(again["S1"].abs(), 0.1)).all()
    assert clean.attrs["problems"] == [] and clean.attrs["suggested_size"] is None


def test_a_small_sensitivity_sweep_of_real_matches_says_it_is_too_small(tmp_path):
    spec = quick_spec(tmp_path / "sobol", matches=1, design="sobol", samples=4, axes={
        "profile.observer.d_fixated": {"low": 0.5, "high": 3.0}, "profile.reaction.tau": {"low": 0.1, "high": 0.4}})
    run_sweep(spec, workers=1, progress=False)
    with pytest.warns(SensitivityWarning, match="at N = 4 do not mean anything yet"):
        found = sobol_indices(tmp_path / "sobol", metric="duration")
    assert found.attrs["problems"] and found.attrs["suggested_size"] > 4
    assert found.attrs["suggested_size"] & (found.attrs["suggested_size"] - 1) == 0  # a power of 2


def noisy(spec, fn, matches: int, sd: float, seed: int = 3) -> pd.DataFrame:
    """The toy function at every cell plus independent normal noise of ``sd`` on each of ``matches`` matches."""
    rng = np.random.default_rng(seed)
    rows = []
    for cell in design_cells(spec):
        values = cell.as_dict()
        mean = fn(*(values[name] for name in TOY_AXES))
        rows += [{"cell": cell.id, "y": mean + rng.normal(0, sd)} for _ in range(matches)]
    return pd.DataFrame(rows)


def test_points_that_differ_mostly_by_the_luck_of_their_matches_are_said_to_and_more_matches_suggested():
    spec = toy_spec("sobol", samples=256)
    linear = lambda a, b, c: 4 * a + 2 * b  # noqa: E731
    # Between-point variance of the function: 16/12 + 4/12 = 5/3. Match noise of sd 3 over 10 matches: 0.9 a point,
    # a luck share of about 0.9 / (5/3 + 0.9) = 0.35, so 10 x 0.35 x 0.9 / (0.65 x 0.1) = 49 matches bring it to 10%.
    with pytest.warns(SensitivityWarning, match="is the luck of their 10 matches each"):
        found = sobol_indices(noisy(spec, linear, 10, 3.0), spec, "y")
    line = next(p for p in found.attrs["problems"] if "luck" in p)
    share, needed = re.search(r"(\d+)% of the variance.* about (\d+) matches a point", line).groups()
    assert abs(int(share) - 35) <= 4 and 40 <= int(needed) <= 60
    # The same function with a tenth of that noise: the luck share is under 1%, nothing is said of it.
    quiet = sobol_indices(noisy(spec, linear, 10, 0.3), spec, "y")
    assert not any("luck" in p for p in quiet.attrs["problems"])
    # Pure noise: the points differ no more than their luck would make them.
    with pytest.warns(SensitivityWarning, match="differ no more than the luck"):
        sobol_indices(noisy(spec, lambda a, b, c: 0.0, 10, 1.0), spec, "y")


def test_the_indices_moved_to_the_sweeps_with_a_message_naming_their_new_home():
    """The statistics sit below the sweeps, so the indices, which read a sweep's folder and design, live there;
    the old names say where."""
    from kemps_sim import stats, sweep

    assert sweep.sobol_indices is sobol_indices and sweep.cell_metric is cell_metric
    with pytest.raises(AttributeError, match=r"^kemps_sim.stats.sobol_indices has moved: use "
                                             r"kemps_sim.sweep.sensitivity.sobol_indices"):
        stats.sobol_indices  # noqa: B018
