"""Every benchmark script still runs and prints its figures, on tiny sizes.

Nothing here reads a timing (machines are shared and noisy): each script runs in a fresh interpreter, must exit 0
and print the lines its figures live on, so that an engine or sweep change that breaks a benchmark is caught here
rather than when someone next measures.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def run(script: str, *args: str, timeout: float = 300) -> str:
    """The standard output of ``benchmarks/SCRIPT args`` (which must exit 0)."""
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=BENCHMARKS.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.parametrize(("script", "args", "expected"), [
    ("bench_engine.py", ("--matches", "2", "--repeats", "1", "--looks"),
     ["pinned to core", "matches per second:", "ratio engine / bare:", "with every look:", "inside agent code:",
      "load average at the end"]),
    ("bench_engine.py", ("--matches", "1", "--repeats", "1", "--unpinned"), ["; unpinned", "matches per second:"]),
    ("wake_causes.py", ("--matches", "2", "--preset", "kems", "--players", "6"),
     ["decisions per match", "its own action just ended", "decisions that end in Wait", "glances"]),
    ("wake_causes.py", ("--matches", "2", "--all-looks"), ["decisions per match", "everyone woken: a fresh middle"]),
    ("decision_counts.py", ("--matches", "1", "--presets", "standard"), ["standard"]),
    ("bench_rl.py", ("--decisions", "60", "--repeats", "1", "--envs", "2"),
     ["random", "waiting", "SyncVectorEnv of 2", "a bare SimPy loop in the same run", "load average at the end"]),
    ("bench_agents.py", ("--matches", "1", "--agents", "collector", "naive"),
     ["collector   decide", "naive       decide", "(all agent code)", "load average at the end"]),
    ("bench_memory.py", ("chunk", "--matches", "4", "--size", "2", "--repeats", "1"),
     ["engine", "tables add"]),
    ("bench_memory.py", ("worker", "--matches", "2"), ["after the chunk:", "resident"]),
    ("bench_startup.py", ("--repeats", "1"), ["import kemps_sim:", "kemps-sim --version:", "load average"]),
    ("bench_reader.py", ("--matches", "1", "--repeats", "1"), ["ns per event read (pure Python;", "load average"]),
    ("bench_ceiling.py", ("--matches", "3", "--lineup", "collector,watcher", "--profile", "3"),
     ["identical traces, played back:  3/3", "played back (agents ~free):", "x a bare SimPy loop",
      "for 150 matches/s (6.67 ms a match):", "the functions with the most time of their own",
      "load average at the end"]),
    ("bench_ceiling.py", ("--matches", "2", "--lineup", "random,naive,feeder", "--preset", "kems", "--players", "6",
                          "--goal", "40"),
     ["identical traces, played back:  2/2", "the agents' share of a match:", "for 40 matches/s (25.00 ms a match)"]),
], ids=lambda value: value if isinstance(value, str) else None)
def test_a_benchmark_prints_its_figures(script: str, args: tuple[str, ...], expected: list[str]) -> None:
    out = run(script, *args)
    missing = [line for line in expected if line not in out]
    assert not missing, f"{script} printed no {missing}:\n{out}"


def test_the_sweep_benchmark_runs_every_executor_and_a_cluster_size() -> None:
    out = run("bench_sweep.py", "--matches", "8", "--repeats", "1", "--cluster-sizes", "1")
    for line in ("serial (this process)", "2 local worker processes", "dask LocalCluster", "start-up",
                 "LocalCluster sizes", "load average at the end"):
        assert line in out, f"bench_sweep.py printed no {line!r}:\n{out}"


def test_every_wake_cause_is_named() -> None:
    """Each cause wake_causes.py prints is one of its labels, not the raw name of the engine function that rang the
    alarm (the engine's own Wait timeout was printed as ``time_out`` once its lambda got a name)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from wake_causes import CAUSES
    finally:
        sys.path.remove(str(BENCHMARKS))
    labels = {*CAUSES.values(), "its own action just ended", "the round's first look (play open)"}
    out = run("wake_causes.py", "--matches", "3")
    printed = [found.group(1) for line in out.splitlines()
               if (found := re.match(r"^  (\S.*?)\s{2,}[\d.]+ a match \(", line))]
    assert printed and all(label in labels for label in printed), printed
    assert "its own Wait's timeout" in printed


def test_the_sweep_benchmark_times_one_cell() -> None:
    out = run("bench_sweep.py", "--cell", "6", "--workers", "2")
    assert "one cell of 6 matches" in out and "2 local worker processes" in out and " s, " in out, out


def test_trace_compare_finds_a_tree_identical_to_itself(tmp_path: Path) -> None:
    first, second = tmp_path / "a.pickle", tmp_path / "b.pickle"
    for path in (first, second):
        run("trace_compare.py", "dump", str(path), "--seeds", "1", "--lineups", "collector")
    out = run("trace_compare.py", "compare", str(first), str(second))
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines and all(line.rstrip().endswith("identical") for line in lines), out


def test_trace_compare_plays_with_an_engine_setting(tmp_path: Path) -> None:
    """Every look (``--engine all_looks=true``) is the engine as it was; the standard rules' looks now differ."""
    looks, default = tmp_path / "looks.pickle", tmp_path / "default.pickle"
    run("trace_compare.py", "dump", str(looks), "--seeds", "1", "--lineups", "collector", "--engine", "all_looks=true")
    run("trace_compare.py", "dump", str(default), "--seeds", "1", "--lineups", "collector")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "trace_compare.py"), "compare", str(looks), str(default)],
                          capture_output=True, text=True, timeout=300, cwd=BENCHMARKS.parent)
    assert done.returncode == 1 and "standard       4p  collector          0/1 identical" in done.stdout, done.stdout


def test_ab_trees_finds_a_tree_identical_to_itself() -> None:
    root = str(BENCHMARKS.parent)
    out = run("ab_trees.py", root, root, "--matches", "2", "--engine", "all_looks=true")
    assert "identical traces 2/2" in out and "as fast as A" in out, out


def test_ab_trees_refuses_a_folder_that_is_not_a_tree(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCHMARKS / "ab_trees.py"), str(BENCHMARKS.parent), str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not a kemps-sim source tree" in done.stderr
    assert "Traceback" not in done.stderr


def needs_cython() -> None:
    """Skip where Cython 3.2+, a C compiler or Python's headers are missing (nothing can be compiled)."""
    pytest.importorskip("Cython", minversion="3.2")
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None or not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        pytest.skip(f"no C compiler ({compiler}) or no Python.h: Cython cannot build here")


def test_the_compiled_trial_plays_the_pure_python_traces() -> None:
    """A module compiled by Cython as written plays every match as the pure-Python tree does."""
    needs_cython()
    out = run("compiled_trial.py", "--matches", "3", "--modules", "kemps_sim/engine/round.py",
              "kemps_sim/belief/tracking.py")
    assert "compiled: 2 extension modules" in out, out
    assert "identical traces 3/3" in out, out


def test_the_typed_reader_plays_the_traces_of_the_reader_as_written(tmp_path: Path) -> None:
    """The reader compiled with C declarations is a C class (no attribute beyond those declared) and plays every
    match as the reader compiled as written does; the reader benchmark reads both."""
    needs_cython()
    keep = tmp_path / "typed"
    out = run("compiled_trial.py", "--matches", "3", "--modules", "kemps_sim/belief/tracking.py", "--typed",
              "--against", "compiled", "--keep", str(keep))
    assert "1 of them with C declarations" in out and "identical traces 3/3" in out, out
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); from kemps_sim.belief.tracking import TableReader\n"
             "reader = TableReader(4, 0)\ntry:\n    reader.undeclared = 1\nexcept AttributeError:\n"
             "    print('a C class')")
    importable = tmp_path / "importable"
    importable.mkdir()
    (importable / "kemps_sim").symlink_to(keep / "kemps_sim")
    done = subprocess.run([sys.executable, "-c", probe, str(importable)], capture_output=True, text=True)
    assert done.stdout.strip() == "a C class", done.stderr[-2000:]
    out = run("bench_reader.py", str(BENCHMARKS.parent), str(keep), "--matches", "1", "--repeats", "1")
    assert "(pure Python;" in out and "(compiled;" in out, out


@pytest.mark.parametrize(("script", "args", "names"), [
    ("compiled_trial.py", ("--modules", "kemps_sim/nope.py"), ("--modules kemps_sim/nope.py", "Cython")),
    ("compiled_trial.py", ("--against", "compiled"), ("--against compiled", "Cython")),
    ("compiled_build.py", ("--modules", "kemps_sim/nope.py"), ("--modules kemps_sim/nope.py: not in", "mypy")),
    ("compiled_build.py", ("--matches", "0"), ("--matches 0: must be", "mypy")),
    ("bench_reader.py", ("nowhere",), ("nowhere: not a kemps-sim source tree",)),
    ("bench_agents.py", ("--agents", "collector", "nope"), ("--agents nope: lineup agent 'nope': unknown agent",)),
    ("bench_ceiling.py", ("--matches", "0"), ("--matches 0 / --profile 0: must be",)),
    ("bench_ceiling.py", ("--lineup", "nope"), ("--lineup nope: lineup agent 'nope': unknown agent",)),
    ("bench_ceiling.py", ("--goal", "0"), ("--goal 0: must be a rate above 0",)),
    ("bench_ceiling.py", ("--goal", "nan"), ("--goal nan: must be a rate above 0",)),
])
def test_a_benchmark_refuses_a_bad_argument_in_one_line(script: str, args: tuple[str, ...],
                                                         names: tuple[str, ...]) -> None:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True,
                          cwd=BENCHMARKS.parent)
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert "Traceback" not in done.stderr and any(name in last for name in names), last


def test_what_a_goal_asks_of_the_agents() -> None:
    """The arithmetic of ``bench_ceiling.py --goal``: a match of 10 ms with its agents and 6 ms played back leaves
    the agents 2 ms at 125 matches/s (8 ms a match), half their 4 ms; at 200 matches/s (5 ms) the engine alone is
    over; at 50 (20 ms) the goal is met."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from bench_ceiling import goal_needs
    finally:
        sys.path.remove(str(BENCHMARKS))
    assert goal_needs(125, 0.010, 0.006) == ("for 125 matches/s (8.00 ms a match): the agents' 4.00 ms a match would "
                                             "have to fall to 2.00 ms, 2.0 times cheaper")
    assert goal_needs(200, 0.010, 0.006).endswith("the engine alone takes 6.00 ms, so no work on the agents reaches it")
    assert goal_needs(50, 0.010, 0.006) == "for 50 matches/s (20.00 ms a match): met already"
