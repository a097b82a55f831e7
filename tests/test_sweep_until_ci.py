"""Precision-targeted sweeps (``until_ci``): every cell stops within its target or at its cap, resuming adds
nothing, a killed run resumes into the same rows, and the rows are those of a plain sweep with as many replicates."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from kemps_sim.cli import main
from kemps_sim.errors import ConfigError
from kemps_sim.stats import win_rates
from kemps_sim.sweep import ResultStore, load_results, run_sweep
from kemps_sim.sweep.targets import next_matches
from tests.sweeps import all_tables, assert_same_tables, quick_data, quick_spec, toml_text

AXES = {"rules.double_kemps": [False, True]}
TARGET = {"until_ci": 0.15, "max_matches": 200}


def targeted(output, **sweep):
    return quick_spec(output, matches=8, axes=AXES, **{**TARGET, **sweep})


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("until") / "out"
    return folder, run_sweep(targeted(folder), workers=1, progress=False)


def test_every_cell_stops_within_its_target_or_at_the_cap(finished):
    folder, run = finished
    assert run.complete and len(run.targets) == 2
    matches = load_results(folder, tables=["matches"]).matches
    needed = matches.groupby("cell")["replicate"].agg(["count", "max"])
    rates = win_rates(load_results(folder, tables=["pairs"]).pairs)
    rates = rates[rates["pair"] == 0].set_index("cell")
    for cell in run.targets:
        # the replicates are 0 .. n - 1, n as reported, and the interval over them is the one reported
        assert tuple(needed.loc[cell.cell]) == (cell.matches, cell.matches - 1)
        assert 8 <= cell.matches <= 200
        half = (rates.loc[cell.cell, "ci_high"] - rates.loc[cell.cell, "ci_low"]) / 2
        assert half == pytest.approx(cell.halfwidth)
        assert cell.reached(0.15) or cell.matches == 200
    assert sum(cell.matches > 8 for cell in run.targets) >= 1  # 8 matches cannot give +-0.15
    record = ResultStore(folder).manifest()["until_ci"]
    assert (record["target"], record["metric"], record["max_matches"]) == (0.15, "pair0.win_rate", 200)
    assert {c: r["matches"] for c, r in record["cells"].items()} == {c.cell: c.matches for c in run.targets}
    assert all(r["status"] in ("target", "cap") for r in record["cells"].values())


def test_rerunning_adds_no_matches(finished):
    folder, run = finished
    rows = len(load_results(folder, tables=["matches"]).matches)
    again = run_sweep(targeted(folder), workers=1, progress=False)
    assert (again.mode, again.ran, again.already_done, again.planned) == ("resume", 0, rows, rows)
    assert len(load_results(folder, tables=["matches"]).matches) == rows
    assert again.targets == run.targets


def test_rows_are_those_of_a_plain_sweep_with_as_many_replicates(finished, tmp_path):
    folder, run = finished
    most = max(cell.matches for cell in run.targets)
    run_sweep(quick_spec(tmp_path / "plain", matches=most, axes=AXES), workers=1, progress=False)
    plain, target = all_tables(tmp_path / "plain"), all_tables(folder)
    needed = {cell.cell: cell.matches for cell in run.targets}
    for name, table in plain.items():
        keep = table[table["replicate"] < table["cell"].map(needed)].reset_index(drop=True)
        pd.testing.assert_frame_equal(keep, target[name], obj=name)


def test_a_killed_run_resumes_into_the_same_rows(finished, tmp_path):
    folder, run = finished
    killed = tmp_path / "killed"
    run_sweep(targeted(killed), workers=1, chunk=3, progress=False)
    # A kill loses the chunks not yet marked finished: drop the last few, as if the run had died there.
    for path in sorted((killed / "matches").glob("chunk-*.parquet"), key=lambda p: p.stat().st_mtime_ns)[-5:]:
        path.unlink()
    resumed = run_sweep(targeted(killed), workers=1, progress=False)
    assert resumed.mode == "resume" and resumed.ran > 0 and resumed.targets == run.targets
    assert_same_tables(all_tables(folder), all_tables(killed))


def test_a_tighter_target_extends_and_a_looser_one_is_refused(finished, tmp_path):
    folder, run = finished
    small = tmp_path / "small"
    run_sweep(targeted(small, until_ci=0.3), workers=1, progress=False)
    with pytest.raises(ConfigError, match=r"different spec \(until_ci: 0.3 -> 0.15\).*--extend"):
        run_sweep(targeted(small), workers=1, progress=False)
    extended = run_sweep(targeted(small), workers=1, progress=False, extend=True)
    assert extended.mode == "extend" and extended.targets == run.targets
    assert_same_tables(all_tables(folder), all_tables(small))
    with pytest.raises(ConfigError, match="cannot be extended to it: until_ci went up from 0.15 to 0.3"):
        run_sweep(targeted(small, until_ci=0.3), workers=1, progress=False, extend=True)
    with pytest.raises(ConfigError, match="cannot be extended to it: until_ci was dropped"):
        run_sweep(quick_spec(small, matches=8, axes=AXES), workers=1, progress=False, extend=True)


def test_a_cap_stops_a_cell_and_is_reported(tmp_path, capsys):
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(toml_text(quick_data(tmp_path / "out", matches=4, axes=AXES)))
    assert main(["sweep", str(spec_path), "--serial", "--no-progress", "--until-ci", "0.05",
                 "--max-matches", "10"]) == 0
    out = capsys.readouterr().out
    assert "precision target: pair0.win_rate 95% interval half-width <= 0.05, at most 10 matches per cell; " \
           "0 of 2 cells reached it" in out
    targets = out[out.index("precision target:"):]  # the summary above also prints 10 matches per cell
    assert targets.count("       10  ") == 2 and targets.count(" cap ") == 2
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert [r["status"] for r in manifest["until_ci"]["cells"].values()] == ["cap", "cap"]
    # the same command again runs nothing
    assert main(["sweep", str(spec_path), "--serial", "--no-progress", "--until-ci", "0.05",
                 "--max-matches", "10"]) == 0
    assert "0 run now" in " ".join(capsys.readouterr().out.split())  # wrapped at 100 columns


@pytest.mark.parametrize(("extra", "message"), [
    (["--until-ci", "0"], "--until-ci 0: must be a half-width above 0 and at most 0.5"),
    (["--until-ci", "0.1", "--metric", "letters"], "--metric letters: must be one of win_rate, pairN.win_rate"),
    (["--until-ci", "0.1", "--metric", "pair7.win_rate"], "sweep.until_metric = 'pair7.win_rate': the table has 2"),
    (["--until-ci", "0.1", "--max-matches", "2"], "sweep.max_matches = 2: must be >= sweep.matches (4)"),
    (["--max-matches", "20"], "sweep.max_matches = 20: only a sweep with sweep.until_ci"),
])
def test_bad_targets_are_one_line_usage_errors(tmp_path, capsys, extra, message):
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(toml_text(quick_data(tmp_path / "out", matches=4, axes=AXES)))
    assert main(["sweep", str(spec_path), "--serial", "--no-progress", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_spec_fields_are_checked():
    with pytest.raises(ConfigError, match=r"sweep.until_ci = True: must be a number above 0"):
        quick_spec("out", until_ci=True)
    with pytest.raises(ConfigError, match=r"sweep.until_metric = 'letters': must be one of"):
        quick_spec("out", until_ci=0.1, until_metric="letters")
    spec = quick_spec("out", until_ci=0.1, until_metric="win_rate")
    assert (spec.until_metric, spec.max_matches) == ("pair0.win_rate", 2000)
    assert spec.identity() == quick_spec("out", until_ci=0.1, until_metric="pair0.win_rate").identity()
    assert "until_ci" not in quick_spec("out").identity()  # a plain sweep's identity is unchanged


def test_next_round_follows_the_width_within_bounds():
    assert next_matches(100, 0.2, 0.1, 10_000) == 400  # (0.2 / 0.1)^2 = 4 times
    assert next_matches(100, 0.5, 0.1, 10_000) == 400  # at most 4 times per round
    assert next_matches(100, 0.101, 0.1, 10_000) == 125  # at least a quarter more
    assert next_matches(100, 0.2, 0.1, 150) == 150  # never beyond the cap
    assert next_matches(8, float("nan"), 0.1, 10_000) == 16  # nothing to count yet: double
