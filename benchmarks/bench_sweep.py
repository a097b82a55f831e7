"""Sweep throughput and memory: matches/s with 1 and with 2 local worker processes, a Dask LocalCluster against
local processes, and the peak memory of a long sweep, all in one run.

    python benchmarks/bench_sweep.py [--matches 300] [--repeats 3] [--long 20000] [--workers 2] [--skip-long]

The speed runs play ``--matches`` matches of the standard rules (collector against watcher); workers are started
and warmed up before the clock starts, and the executors take turns, so the figures compare steady-state
throughput under the same background load. The long sweep plays
one-round matches (to reach many matches in minutes) in a fresh process, once at a tenth of the size and once in
full, and prints the peak resident memory of the parent and of its largest worker (from the operating system).
Prints figures only; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kemps_sim.sweep import ProcessExecutor, SweepSpec, run_sweep, spec_from_mapping
from kemps_sim.sweep.executors import DaskExecutor, Executor


def speed_spec(matches: int, output: Path) -> SweepSpec:
    """Four cells of the standard rules, ``matches`` matches in all."""
    return spec_from_mapping({
        "sweep": {"name": "speed", "seed": 5, "matches": max(1, matches // 4), "output": str(output)},
        "base": {"rules": "standard", "lineup": "collector,watcher"},
        "axes": {"rules.double_kemps": [False, True], "profile.observer.d_fixated": [1.0, 2.5]}})


def long_spec(matches: int, output: Path) -> SweepSpec:
    """Many one-round matches over 50 cells."""
    return spec_from_mapping({
        "sweep": {"name": "long", "seed": 9, "matches": max(1, matches // 50), "output": str(output)},
        "base": {"rules": "standard", "lineup": "collector", "set": {"scoring": "rounds_won", "rounds_to_play": 1}},
        "axes": {"profile.reaction.tau": {"low": 0.05, "high": 0.3, "steps": 50}}})


def warm(executor: Executor) -> None:
    """Start every worker and import the engine in it before timing."""
    with tempfile.TemporaryDirectory() as folder:
        spec = speed_spec(4 * executor.workers, Path(folder) / "warm")
        run_sweep(spec, executor=executor, chunk=1, progress=False)


def timed(executor: Executor, matches: int, chunk: int | None) -> float:
    """Matches per second of a fresh sweep on a warmed executor."""
    with tempfile.TemporaryDirectory() as folder:
        spec = speed_spec(matches, Path(folder) / "run")
        start = time.perf_counter()
        run = run_sweep(spec, executor=executor, chunk=chunk, progress=False)
        return run.ran / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=300, help="matches per speed run")
    parser.add_argument("--workers", type=int, default=2, help="workers of the parallel runs")
    parser.add_argument("--chunk", type=int, default=None, help="matches per chunk (default: automatic)")
    parser.add_argument("--repeats", type=int, default=3, help="timed sweeps per executor, taken in turns")
    parser.add_argument("--long", type=int, default=20000, help="matches of the memory run")
    parser.add_argument("--skip-long", action="store_true", help="skip the memory run")
    parser.add_argument("--memory-child", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child is not None:
        memory_child(args.memory_child, args.workers, args.folder)
        return

    # All three stay up, warmed, and take turns, so that a burst of load from elsewhere on a shared machine hits
    # them alike; the best of the repeats is each one's figure (the median is shown beside it).
    executors = {"1 local worker": ProcessExecutor(1), f"{args.workers} local workers": ProcessExecutor(args.workers),
                 f"dask LocalCluster ({args.workers} w)": DaskExecutor("local", args.workers)}
    rates: dict[str, list[float]] = {name: [] for name in executors}
    try:
        for executor in executors.values():
            warm(executor)
        for _ in range(args.repeats):
            for name, executor in executors.items():
                rates[name].append(timed(executor, args.matches, args.chunk))
    finally:
        for executor in executors.values():
            executor.close()
    best = {name: max(values) for name, values in rates.items()}
    one, many, dask = (best[name] for name in executors)
    print(f"speed: {args.matches} matches of the standard rules, collector vs watcher; best of {args.repeats} "
          f"(median in brackets)")
    for name, values in rates.items():
        print(f"  {name:<24} {best[name]:7.1f} matches/s  ({statistics.median(values):.1f})")
    print(f"  ratio {args.workers} workers / 1 worker: {many / one:.2f}x; dask LocalCluster / processes: "
          f"{dask / many:.2f}x")

    if args.skip_long:
        return
    print(f"memory: one-round matches on {args.workers} workers, each sweep in a fresh process")
    for matches in (max(50, args.long // 10), args.long):
        with tempfile.TemporaryDirectory() as folder:
            command = [sys.executable, __file__, "--memory-child", str(matches), "--workers", str(args.workers),
                       "--folder", folder]
            print("  " + subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip())


def memory_child(matches: int, workers: int, folder: Path) -> None:
    """Run one long sweep in this fresh process and print its peak memory and that of its largest worker."""
    spec = long_spec(matches, folder / "long")
    start = time.perf_counter()
    run = run_sweep(spec, workers=workers, progress=False)
    seconds = time.perf_counter() - start
    parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{run.ran:>7} matches in {seconds:5.0f} s ({run.ran / seconds:5.0f}/s): peak resident MB parent "
          f"{parent:.0f}, largest worker {worker:.0f}")


if __name__ == "__main__":
    main()
