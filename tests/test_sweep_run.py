"""Running sweeps: the same rows from any executor, resumable after a kill, extendable, failures recorded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from kemps_sim.cli import main
from kemps_sim.errors import ConfigError
from kemps_sim.sweep import ResultStore, load_results, run_sweep
from tests.sweeps import all_tables, assert_same_tables, quick_data, quick_spec, toml_text

ROOT = Path(__file__).parent.parent


def test_rows_carry_cell_parameters_seed_and_replicate(tmp_path):
    from kemps_sim.sweep import plan_cells

    spec = quick_spec(tmp_path / "out", matches=3)
    run = run_sweep(spec, workers=1, progress=False)
    assert (run.planned, run.ran, run.already_done, run.mode) == (12, 12, 0, "new")
    rules = {plan.cell.id: plan.rules.scoring for plan in plan_cells(spec)}
    results = load_results(tmp_path / "out")
    assert results.params == ("rules.double_kemps", "profile.observer.d_fixated")
    for name in ("matches", "pairs", "rounds", "calls", "fours"):
        table = results[name]
        # every row says its cell's scoring rule after the replicate (rows record the rule they were played under)
        assert list(table.columns[:6]) == ["cell", *results.params, "replicate", "rules.scoring", "seed"], name
        assert (table["rules.scoring"] == table["cell"].map(rules)).all(), name
    matches = results.matches
    assert len(matches) == 12
    assert all(sorted(group) == [0, 1, 2] for _, group in matches.groupby("cell")["replicate"])
    # a grid plays common random numbers: replicate r of every cell has one seed, and the replicates differ
    assert (matches.groupby("replicate")["seed"].nunique() == 1).all() and matches["seed"].nunique() == 3
    # any row replays alone from its seed and its cell's parameters
    from kemps_sim import load_rules, simulate_match
    from kemps_sim.profiles import PlayerProfile

    row = matches.iloc[5]
    rules = load_rules("standard", scoring="rounds_won", rounds_to_play=1, double_kemps=bool(row["rules.double_kemps"]))
    profile = PlayerProfile().with_params({"observer.d_fixated": row["profile.observer.d_fixated"]})
    replay = simulate_match(rules, "collector,watcher", profile, int(row["seed"]))
    assert len(replay.rounds) == row["rounds"] and replay.events == row["events"]


def test_serial_processes_and_dask_give_identical_tables(tmp_path):
    spec = quick_spec(tmp_path / "serial", matches=5)
    run_sweep(spec, workers=1, progress=False)
    run_sweep(spec, output=tmp_path / "procs", workers=2, chunk=3, progress=False)
    dask = run_sweep(spec, output=tmp_path / "dask", scheduler="local", workers=2, chunk=7, progress=False)
    assert dask.executor.startswith("dask LocalCluster") and dask.ran == 20
    serial = all_tables(tmp_path / "serial")
    assert_same_tables(serial, all_tables(tmp_path / "procs"))
    assert_same_tables(serial, all_tables(tmp_path / "dask"))


def test_adding_cells_or_replicates_leaves_existing_rows_unchanged(tmp_path):
    run_sweep(quick_spec(tmp_path / "small", matches=3), workers=1, progress=False)
    wider = quick_spec(tmp_path / "small", matches=5, axes={"rules.double_kemps": [False, True],
                                                              "profile.observer.d_fixated": [1.0, 2.0, 3.0]})
    with pytest.raises(ConfigError, match=r"different spec \(axes: .*--extend: the new spec only adds"):
        run_sweep(wider, workers=1, progress=False)
    run = run_sweep(wider, workers=1, progress=False, extend=True)
    assert (run.mode, run.already_done, run.ran) == ("extend", 12, 18)
    run_sweep(wider, output=tmp_path / "fresh", workers=1, progress=False)
    assert_same_tables(all_tables(tmp_path / "small"), all_tables(tmp_path / "fresh"))
    manifest = ResultStore(tmp_path / "small").manifest()
    assert manifest["spec"]["sweep"]["matches"] == 5 and manifest["history"][0]["sweep"]["matches"] == 3


def test_extend_refuses_a_spec_that_changes_what_is_already_stored(tmp_path):
    run_sweep(quick_spec(tmp_path / "out", matches=2), workers=1, progress=False)
    for changed, reason in ((quick_spec(tmp_path / "out", matches=2, seed=8), "seed changed"),
                            (quick_spec(tmp_path / "out", matches=1), "matches went down from 2 to 1"),
                            (quick_spec(tmp_path / "out", matches=2, axes={"rules.double_kemps": [True],
                                                                          "profile.observer.d_fixated": [1.0, 2.0]}),
                             "axis rules.double_kemps lost a level")):
        with pytest.raises(ConfigError, match=f"cannot be extended to it: {reason}"):
            run_sweep(changed, workers=1, progress=False, extend=True)
    assert len(load_results(tmp_path / "out").matches) == 8


def test_a_whole_number_keeps_its_cell_when_a_fraction_joins_the_axis(tmp_path):
    axes = {"profile.observer.d_fixated": [1, 2]}
    run_sweep(quick_spec(tmp_path / "out", matches=2, axes=axes), workers=1, progress=False)
    wider = quick_spec(tmp_path / "out", matches=2, axes={"profile.observer.d_fixated": [1, 2, 2.5]})
    run = run_sweep(wider, workers=1, progress=False, extend=True)
    assert (run.already_done, run.ran) == (4, 2)
    matches = load_results(tmp_path / "out").matches
    assert len(matches) == 6 and matches["cell"].nunique() == 3


def test_tables_have_one_dtype_whatever_the_chunking(tmp_path, monkeypatch):
    import kemps_sim.engine.match as engine  # the Kemps record's play
    from kemps_sim.sweep import plan_tasks

    spec = quick_spec(tmp_path / "one", matches=3, events=True, common_random_numbers=False)
    doomed = plan_tasks(spec)[0][4].seed
    real = engine.simulate_match

    def flaky(rules, lineup, profiles, seed, **kwargs):
        if seed == doomed:
            raise RuntimeError("simulated engine fault")
        return real(rules, lineup, profiles, seed, **kwargs)

    monkeypatch.setattr(engine, "simulate_match", flaky)
    run_sweep(spec, chunk=1, workers=1, progress=False)
    run_sweep(spec, output=tmp_path / "all", chunk=100, workers=1, progress=False)
    one, whole = all_tables(tmp_path / "one"), all_tables(tmp_path / "all")
    assert "events" in one and one["matches"]["error"].tolist().count("") == 11
    assert_same_tables(one, whole)


def test_same_spec_resumes_and_runs_nothing_twice(tmp_path):
    spec = quick_spec(tmp_path / "out", matches=2)
    run_sweep(spec, workers=1, progress=False)
    again = run_sweep(spec, workers=1, progress=False)
    assert (again.mode, again.ran, again.already_done) == ("resume", 0, 8)
    assert len(load_results(tmp_path / "out").matches) == 8


def test_a_crashed_match_is_recorded_and_the_sweep_goes_on(tmp_path, monkeypatch):
    import kemps_sim.engine.match as engine  # the Kemps record's play

    real = engine.simulate_match
    victim = quick_spec(tmp_path / "x", matches=4, common_random_numbers=False)  # one seed, one match
    from kemps_sim.sweep import plan_tasks

    doomed = plan_tasks(victim)[0][6].seed

    def flaky(rules, lineup, profiles, seed, **kwargs):
        if seed == doomed:
            raise RuntimeError("simulated engine fault")
        return real(rules, lineup, profiles, seed, **kwargs)

    monkeypatch.setattr(engine, "simulate_match", flaky)
    run = run_sweep(victim, workers=1, progress=False)
    assert (run.ran, run.failures) == (16, 1)
    results = load_results(tmp_path / "x")
    crashed = results.matches[results.matches["end_reason"] == "crashed"]
    assert list(crashed["seed"]) == [doomed] and crashed["error"].iloc[0] == "RuntimeError: simulated engine fault"
    assert results.failures == 1 and doomed not in set(results.pairs["seed"])


def _sweep_command(spec_path: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "kemps_sim", "sweep", str(spec_path), "--no-progress", *extra]


def _wait_for_chunks(folder: Path, count: int, process: subprocess.Popen, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    # A chunk is finished once its receipt is written (after its table files), so receipts are what to count.
    while len(list((folder / "receipts").glob("chunk-*.json"))) < count:
        assert process.poll() is None, "the sweep ended before it could be interrupted"
        assert time.monotonic() < deadline, "no chunk finished in time"
        time.sleep(0.05)


@pytest.mark.parametrize("how", ["kill", "interrupt"])
def test_an_interrupted_sweep_resumes_to_the_uninterrupted_dataset(tmp_path, how):
    data = quick_data(tmp_path / "cut", matches=12, chunk=2)
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(toml_text(data))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # The sweep takes Ctrl-C as from a terminal, even when these tests run in the background of a non-interactive
    # shell (which starts them with SIGINT ignored, and a child inherits that).
    process = subprocess.Popen(_sweep_command(spec_path, "--workers", "2"), cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    _wait_for_chunks(tmp_path / "cut", 3, process)
    process.send_signal(signal.SIGKILL if how == "kill" else signal.SIGINT)
    _, err = process.communicate(timeout=120)
    partial = len(load_results(tmp_path / "cut").matches)
    assert 6 <= partial < 48
    if how == "interrupt":
        assert process.returncode == 130, err
        assert "interrupted: every finished chunk is kept" in err and "Traceback" not in err
    finished = subprocess.run(_sweep_command(spec_path, "--serial"), cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    assert f"{48 - partial} run now" in " ".join(finished.stdout.split())  # wrapped at 100 columns
    run_sweep(quick_spec(tmp_path / "whole", matches=12), workers=1, progress=False)
    assert_same_tables(all_tables(tmp_path / "cut"), all_tables(tmp_path / "whole"))
    assert not [p for p in (tmp_path / "cut").rglob("*") if p.name.endswith(".tmp")]


def test_leftovers_of_an_unfinished_chunk_are_ignored_and_cleaned(tmp_path):
    spec = quick_spec(tmp_path / "out", matches=2, chunk=4)
    run_sweep(spec, workers=1, progress=False)
    rounds = sorted((tmp_path / "out" / "rounds").glob("chunk-*.parquet"))
    orphan = rounds[0].with_name("chunk-0000000000000000.parquet")
    orphan.write_bytes(rounds[0].read_bytes())  # as if killed between writing rounds and matches
    (tmp_path / "out" / "calls" / "chunk-x.parquet.tmp").write_bytes(b"half")
    assert len(load_results(tmp_path / "out").rounds) == len(pd.concat(
        [pd.read_parquet(p) for p in rounds]))
    run_sweep(spec, workers=1, progress=False)
    assert not orphan.exists() and not (tmp_path / "out" / "calls" / "chunk-x.parquet.tmp").exists()


def test_cli_sweep_prints_the_summary_and_report_writes_csv(tmp_path, capsys):
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(toml_text(quick_data(tmp_path / "out", matches=4)))
    assert main(["sweep", str(spec_path), "--serial", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "16 of 16 matches stored" in " ".join(out.split())  # the closing line wraps at 100 columns
    assert "pair0_win" in out and "kemps_precision" in out
    assert (tmp_path / "out" / "summary.csv").is_file()
    assert main(["report", str(tmp_path / "out"), "--csv", str(tmp_path / "s.csv")]) == 0
    summary = pd.read_csv(tmp_path / "s.csv")
    assert len(summary) == 4 and {"rules.double_kemps", "profile.observer.d_fixated", "matches"} <= set(summary)
    assert (summary["matches"] == 4).all()


def test_cli_refuses_bad_arguments_and_foreign_folders(tmp_path, capsys):
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(toml_text(quick_data(tmp_path / "out", matches=2)))
    assert main(["sweep", str(spec_path), "--workers", "0"]) == 2
    assert main(["sweep", str(spec_path), "--scheduler", "nowhere"]) == 2
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    assert main(["sweep", str(spec_path), "--output", str(tmp_path / "other"), "--serial", "--no-progress"]) == 2
    assert main(["report", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert "--workers 0: must be a whole number >= 1" in err
    assert "--scheduler 'nowhere'" in err and "not a kemps-sim results folder" in err and "no manifest.json" in err
    assert "Traceback" not in err and not (tmp_path / "out").exists()


def test_a_running_dask_scheduler_gives_the_same_tables(tmp_path):
    distributed = pytest.importorskip("distributed")
    spec = quick_spec(tmp_path / "serial", matches=3)
    run_sweep(spec, workers=1, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        run = run_sweep(spec, output=tmp_path / "tcp", scheduler=cluster.scheduler_address, chunk=2, progress=False)
    assert run.executor.startswith("dask tcp://") and run.ran == 12
    assert_same_tables(all_tables(tmp_path / "serial"), all_tables(tmp_path / "tcp"))


def test_tournament_rates_every_strategy_and_writes_its_tables(tmp_path, capsys):
    out = tmp_path / "t"
    args = ["tournament", "collector", "random", "watcher(threshold=0.9)", "--matches", "3", "--serial",
            "--no-progress", "--output", str(out), "--set", 'scoring="rounds_won"', "--set", "rounds_to_play=1"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "18 of 18 matches stored" in text and "Bradley-Terry ratings" in text and "Head-to-head" in text
    ratings = pd.read_csv(out / "ratings.csv")
    assert sorted(ratings["strategy"]) == ["collector", "random", "watcher(threshold=0.9)"]
    assert (ratings["ci_low"] <= ratings["rating"]).all() and (ratings["rating"] <= ratings["ci_high"]).all()
    matrix = pd.read_csv(out / "head_to_head.csv", index_col=0)
    assert matrix.shape == (3, 3)
    lineups = sorted(load_results(out).matches["lineup"].unique())
    assert len(lineups) == 6 and "random,collector" in lineups and "collector,random" in lineups
    assert main([*args[:4], "--matches", "4", *args[6:]]) == 2  # a different spec in the same folder
    assert main(["tournament", "collector", "--serial"]) == 2
    assert main(["tournament", "collector", "nobody", "--serial", "--output", str(tmp_path / "u")]) == 2
    err = capsys.readouterr().err
    assert "holds the results of a different spec (matches: 3 -> 4)" in err
    assert "nobody" in err and "Traceback" not in err and not (tmp_path / "u").exists()


def test_a_sobol_sweep_extends_to_a_larger_sample_keeping_its_matches(tmp_path):
    axes = {"profile.reaction.tau": {"low": 0.1, "high": 0.3}, "profile.observer.d_fixated": {"low": 1, "high": 3}}
    run_sweep(quick_spec(tmp_path / "s", matches=1, design="sobol", samples=2, axes=axes), workers=1, progress=False)
    larger = quick_spec(tmp_path / "s", matches=1, design="sobol", samples=4, axes=axes)
    run = run_sweep(larger, workers=1, progress=False, extend=True)
    assert (run.mode, run.already_done, run.ran) == ("extend", 8, 8)
    run_sweep(larger, output=tmp_path / "fresh", workers=1, progress=False)
    assert_same_tables(all_tables(tmp_path / "s"), all_tables(tmp_path / "fresh"))
    smaller = quick_spec(tmp_path / "s", matches=1, design="sobol", samples=2, axes=axes)
    with pytest.raises(ConfigError, match="only a random or sobol design can draw more samples"):
        run_sweep(smaller, workers=1, progress=False, extend=True)


def test_the_folder_gives_back_the_spec_it_was_run_with(tmp_path):
    spec = quick_spec(tmp_path / "out", matches=1)  # its axes are not in alphabetical order
    run_sweep(spec, workers=1, progress=False)
    again = load_results(tmp_path / "out").spec()
    assert [axis.name for axis in again.axes] == ["rules.double_kemps", "profile.observer.d_fixated"]
    assert again.identity_text() == spec.identity_text()


UNGUARDED = '''
from kemps_sim.sweep import run_sweep, spec_from_mapping
spec = spec_from_mapping({"sweep": {"name": "try", "seed": 1, "matches": 4, "output": "out"},
                          "base": {"rules": "standard"}})
print("ran", run_sweep(spec, workers=2, progress=False).ran)
'''


@pytest.mark.parametrize("guarded", [False, True])
def test_a_script_without_a_main_guard_is_told_why_its_workers_never_start(tmp_path, guarded):
    """A spawned worker imports the script that started the sweep; without ``if __name__ == "__main__":`` each one
    runs the sweep again (refused: the folder is in use) and dies before it starts. The sweep stops with the reason
    instead of replacing workers that will never start; with the guard, the same script runs."""
    body = UNGUARDED if not guarded else "if __name__ == '__main__':\n" + "".join(
        f"    {line}\n" for line in UNGUARDED.strip().splitlines())
    (tmp_path / "script.py").write_text(body)
    done = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    if guarded:
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "ran 4"
    else:
        assert done.returncode != 0
        last = done.stderr.strip().splitlines()[-1]
        assert "WorkersNeverStarted" in last and "if __name__ == \"__main__\":" in last and "workers=1" in last
        # nothing half-written: the folder resumes into the whole sweep
        from kemps_sim.sweep import spec_from_mapping

        spec = spec_from_mapping({"sweep": {"name": "try", "seed": 1, "matches": 4, "output": str(tmp_path / "out")},
                                  "base": {"rules": "standard"}})
        assert run_sweep(spec, workers=1, progress=False).ran == 4
