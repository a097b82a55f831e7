"""Sweep throughput including start-up: serial against 2 local worker processes against a Dask LocalCluster
(2 workers) on the same 2,000-match sweep, each in a fresh interpreter, with the ratios measured in the same run.

    python benchmarks/bench_sweep.py [--matches 2000] [--workers 2] [--repeats 1] [--chunk N] [--steady]
                                     [--long 20000] [--cluster-sizes 1 2 3 4]
    python benchmarks/bench_sweep.py --cell 10000    # only: one 10,000-match cell on 2 local workers

For each executor and repeat a fresh interpreter runs ``run_sweep`` on the standard rules (collector against
watcher, four cells) and reports the wall time of the call, which includes starting the workers (spawn and
imports, or the Dask scheduler, nannies and workers), the tail where one worker waits for the other, and shutting
them down; the executors take turns so that load from elsewhere on a shared machine hits them alike, and the best
of the repeats is each one's figure. Printed per executor: matches/s including start-up and its ratio to serial,
the cost of a match (wall ms per match times the workers: the CPU-equivalent of one match), the parent's own CPU
per match (time.process_time around the call, every thread of the parent: what it takes from the workers'
cores), the wall time of the whole interpreter (imports and clean-up too), and the machine's load average.

A second part starts each executor on its own in a fresh interpreter and prints its start-up seconds (until every
worker has run a first task that imports the chunk code) and the overhead of one task on a warmed executor (the
time per no-op task when many are queued: the scheduler's cost per chunk, which ``docs/cluster.md`` uses to
predict an N-node cluster). ``--steady`` adds the old steady-state figures (workers warmed before the clock
starts); ``--cluster-sizes 1 2 3 4`` a LocalCluster of each size on ``--matches`` matches, one after another
(seconds, matches/s, the parent's CPU per match and the CPU per match in all); ``--long N`` the peak memory of
an N-match one-round sweep (benchmarks/bench_memory.py measures the parent's memory in detail). Prints figures
only; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The executors compared, as ``run_sweep`` keyword arguments; ``{w}`` is ``--workers``.
EXECUTORS = {"serial": {"workers": 1}, "processes": {"workers": "{w}"}, "dask": {"scheduler": "local",
                                                                                 "workers": "{w}"}}
#: No-op tasks per worker for the per-task overhead.
NOOP_TASKS = 100
#: How long each first task of the start-up figure lasts.
FIRST_TASK_SECONDS = 0.25


def speed_spec(matches: int, output: Path):
    """Four cells of the standard rules, ``matches`` matches in all."""
    from kemps_sim.sweep import spec_from_mapping

    return spec_from_mapping({
        "sweep": {"name": "speed", "seed": 5, "matches": max(1, matches // 4), "output": str(output)},
        "base": {"rules": "standard", "lineup": "collector,watcher"},
        "axes": {"rules.double_kemps": [False, True], "profile.observer.d_fixated": [1.0, 2.5]}})


def cell_spec(matches: int, output: Path):
    """One cell of ``matches`` matches: the standard rules, collector against watcher (the goal's 10,000-match cell)."""
    from kemps_sim.sweep import spec_from_mapping

    return spec_from_mapping({
        "sweep": {"name": "cell", "seed": 5, "matches": matches, "output": str(output)},
        "base": {"rules": "standard", "lineup": "collector,watcher"}})


def long_spec(matches: int, output: Path):
    """Many one-round matches over 50 cells."""
    from kemps_sim.sweep import spec_from_mapping

    return spec_from_mapping({
        "sweep": {"name": "long", "seed": 9, "matches": max(1, matches // 50), "output": str(output)},
        "base": {"rules": "standard", "lineup": "collector", "set": {"scoring": "rounds_won", "rounds_to_play": 1}},
        "axes": {"profile.reaction.tau": {"low": 0.05, "high": 0.3, "steps": 50}}})


def executor_args(name: str, workers: int) -> dict:
    """``run_sweep`` keyword arguments of the named executor."""
    return {key: workers if value == "{w}" else value for key, value in EXECUTORS[name].items()}


def child(command: list[str]) -> dict:
    """Run this script as a fresh interpreter with ``command``; its JSON line, with the whole process's wall time."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, *command], check=True, capture_output=True, text=True)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures["process"] = time.perf_counter() - start
    return figures


# In the fresh interpreter --------------------------------------------------------------------------------------
def sweep_child(name: str, matches: int, workers: int, chunk: int | None, make_spec=None) -> None:
    """Run the speed sweep (or ``make_spec``'s) once on the named executor, started inside the timed call, and
    print its figures."""
    from kemps_sim.sweep import run_sweep

    with tempfile.TemporaryDirectory() as folder:
        spec = (make_spec or speed_spec)(matches, Path(folder) / "run")
        cpu, children, start = time.process_time(), _children_cpu(), time.perf_counter()
        run = run_sweep(spec, chunk=chunk, progress=False, **executor_args(name, workers))
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        children = _children_cpu() - children  # the workers', once they have exited and been waited for
    from kemps_sim.build import build_name

    print(json.dumps({"ran": run.ran, "seconds": seconds, "cpu": cpu, "workers_cpu": children,
                      "load": os.getloadavg()[0], "executor": run.executor, "build": build_name()}))


def _children_cpu() -> float:
    """CPU seconds of this process's finished children (and theirs, as each waited for its own)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _first_task(_: int) -> tuple[int, float]:
    """A worker's first task: import what a chunk needs (a no-op once warmed), say who ran it and when."""
    import kemps_sim.sweep.chunks  # noqa: F401

    started = time.time()
    time.sleep(FIRST_TASK_SECONDS)  # so that a worker up early cannot take every task before the others are up
    return os.getpid(), started


def _noop(_: int) -> None:
    """A task that does nothing: its round trip is the executor's overhead per task."""


def startup_child(name: str, workers: int) -> None:
    """Start the named executor, time until every worker ran a first task, then the overhead per no-op task."""
    from kemps_sim.sweep.executors import make_executor

    began = time.time()
    executor = make_executor(**executor_args(name, workers))
    try:
        firsts: dict[int, float] = {}
        for _, (pid, when) in executor.imap_unordered(_first_task, range(4 * executor.workers)):
            firsts.setdefault(pid, when)
        startup = max(firsts.values()) - began
        tasks = NOOP_TASKS * executor.workers
        start = time.perf_counter()
        for _ in executor.imap_unordered(_noop, range(tasks)):
            pass
        per_task = (time.perf_counter() - start) / tasks * executor.workers  # each worker's share, in turn
    finally:
        closing = time.perf_counter()
        executor.close()
        closed = time.perf_counter() - closing
    print(json.dumps({"startup": startup, "per_task": per_task, "close": closed, "workers": len(firsts),
                      "load": os.getloadavg()[0]}))


def memory_child(matches: int, workers: int, folder: Path) -> None:
    """Run one long sweep in this fresh process and print its peak memory and that of its largest worker."""
    from kemps_sim.sweep import run_sweep

    spec = long_spec(matches, folder / "long")
    start = time.perf_counter()
    run = run_sweep(spec, workers=workers, progress=False)
    seconds = time.perf_counter() - start
    parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({"text": f"{run.ran:>7} matches in {seconds:5.0f} s ({run.ran / seconds:5.0f}/s): peak "
                              f"resident MB parent {parent:.0f}, largest worker {worker:.0f}"}))


def steady_child(matches: int, workers: int, repeats: int) -> None:
    """The steady-state figures: every executor started and warmed before the clock, taking turns."""
    from kemps_sim.sweep import ProcessExecutor, run_sweep
    from kemps_sim.sweep.executors import DaskExecutor

    executors = {"1 local worker": ProcessExecutor(1), f"{workers} local workers": ProcessExecutor(workers),
                 f"dask LocalCluster ({workers} w)": DaskExecutor("local", workers)}
    rates: dict[str, list[float]] = {name: [] for name in executors}
    try:
        for executor in executors.values():
            with tempfile.TemporaryDirectory() as folder:
                run_sweep(speed_spec(4 * executor.workers, Path(folder) / "warm"), executor=executor, chunk=1,
                          progress=False)
        for _ in range(repeats):
            for name, executor in executors.items():
                with tempfile.TemporaryDirectory() as folder:
                    start = time.perf_counter()
                    run = run_sweep(speed_spec(matches, Path(folder) / "run"), executor=executor, progress=False)
                    rates[name].append(run.ran / (time.perf_counter() - start))
    finally:
        for executor in executors.values():
            executor.close()
    print(json.dumps({"rates": rates}))


# The report ----------------------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=2000, help="matches of the sweep (default 2000)")
    parser.add_argument("--workers", type=int, default=2, help="workers of the parallel runs (default 2)")
    parser.add_argument("--chunk", type=int, default=None, help="matches per chunk (default: automatic)")
    parser.add_argument("--repeats", type=int, default=1, help="sweeps per executor, taken in turns (default 1)")
    parser.add_argument("--steady", action="store_true", help="also the steady-state figures (warmed workers)")
    parser.add_argument("--long", type=int, default=0, help="matches of a memory run (default 0: none)")
    parser.add_argument("--cluster-sizes", type=int, nargs="+", default=(), metavar="W",
                        help="also a LocalCluster of each of these numbers of worker processes, one after another")
    parser.add_argument("--cell", type=int, default=0, metavar="N",
                        help="only this: one cell of N matches (standard, collector against watcher) on --workers "
                             "local worker processes, start-up included (the goal: 10,000 matches in 45 s on 2 cores)")
    parser.add_argument("--skip-long", action="store_true", help=argparse.SUPPRESS)  # the old default's opt-out
    parser.add_argument("--child", nargs="+", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cell < 0:
        parser.error(f"--cell {args.cell}: must be a whole number of matches >= 1")
    if any(size < 1 for size in args.cluster_sizes):
        parser.error(f"--cluster-sizes {' '.join(map(str, args.cluster_sizes))}: each must be a whole number >= 1")
    if args.child:
        kind, *rest = args.child
        {"sweep": lambda: sweep_child(rest[0], args.matches, args.workers, args.chunk),
         "cell": lambda: sweep_child("processes", args.matches, args.workers, args.chunk, cell_spec),
         "startup": lambda: startup_child(rest[0], args.workers),
         "memory": lambda: memory_child(args.matches, args.workers, Path(rest[0])),
         "steady": lambda: steady_child(args.matches, args.workers, args.repeats)}[kind]()
        return

    common = ["--matches", str(args.matches), "--workers", str(args.workers)] + \
        (["--chunk", str(args.chunk)] if args.chunk else [])
    print(f"machine: {os.cpu_count()} cores, load average {_load()} at the start")
    if args.cell:
        run = child(["--matches", str(args.cell), "--workers", str(args.workers)]
                    + (["--chunk", str(args.chunk)] if args.chunk else []) + ["--child", "cell"])
        rate, cpu = run["ran"] / run["seconds"], 1000 * (run["cpu"] + run["workers_cpu"]) / run["ran"]
        print(f"one cell of {run['ran']} matches (standard, collector against watcher; kemps-sim {run['build']}) on "
              f"{args.workers} local worker processes, start-up included: {run['seconds']:.1f} s, {rate:.1f} "
              f"matches/s; CPU per match {cpu:.2f} ms; load {run['load']:.2f}")
        print(f"load average at the end: {_load()}")
        return
    runs: dict[str, list[dict]] = {name: [] for name in EXECUTORS}
    for _ in range(args.repeats):
        for name in EXECUTORS:
            runs[name].append(child([*common, "--child", "sweep", name]))
    best = {name: min(values, key=lambda run: run["seconds"]) for name, values in runs.items()}
    serial = best["serial"]["ran"] / best["serial"]["seconds"]
    print(f"sweep: {args.matches} matches of the standard rules (collector vs watcher, 4 cells), each executor "
          f"started inside the timed call; best of {args.repeats}, executors in turns")
    print(f"  {'executor':<34} {'matches/s':>9} {'vs serial':>9} {'ms/match':>8} {'x workers':>9} "
          f"{'parent CPU':>10} {'CPU/match':>9} {'process s':>9} {'load':>5}")
    for name, run in best.items():
        workers = 1 if name == "serial" else args.workers
        rate = run["ran"] / run["seconds"]
        spread = "" if len(runs[name]) < 2 else \
            f"  (median {statistics.median(r['ran'] / r['seconds'] for r in runs[name]):.1f}/s)"
        print(f"  {run['executor']:<34} {rate:9.1f} {rate / serial:8.2f}x {1000 / rate:8.2f} "
              f"{1000 * workers / rate:9.2f} {1000 * run['cpu'] / run['ran']:7.2f} ms "
              f"{1000 * (run['cpu'] + run['workers_cpu']) / run['ran']:6.2f} ms {run['process']:9.1f} "
              f"{run['load']:5.2f}{spread}")
    print("  ms/match: wall time per match; x workers: that times the workers (core-ms per match had every worker "
          "had a core); parent CPU: the parent's, per match; CPU/match: parent and workers together (start-up "
          "included; against serial's, the CPU that parallel running adds); process s: the whole interpreter")
    idle = {name: (run["cpu"] + run["workers_cpu"]) / (1 if name == "serial" else args.workers)
            for name, run in best.items()}
    print("  on an idle machine (each worker a core of its own) the CPU above would take at least: "
          + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in idle.items())
          + f"; ratio processes/serial <= {idle['serial'] / idle['processes']:.2f}x, "
            f"dask/serial <= {idle['serial'] / idle['dask']:.2f}x")

    print("start-up (until every worker ran a first task) and overhead per task on a warmed executor (each "
          "worker's share of a no-op round trip), each executor in a fresh interpreter:")
    for name in ("processes", "dask"):
        up = child(["--workers", str(args.workers), "--child", "startup", name])
        print(f"  {name:<10} start-up {up['startup']:5.2f} s ({up['workers']} workers), "
              f"{1000 * up['per_task']:6.2f} ms per task, close {up['close']:4.2f} s, load {up['load']:.2f}")

    if args.steady:
        rates = child([*common, "--repeats", str(args.repeats), "--child", "steady"])["rates"]
        one, many, dask = (max(values) for values in rates.values())
        print(f"steady state (workers warmed before the clock), best of {args.repeats}:")
        for label, values in rates.items():
            print(f"  {label:<24} {max(values):7.1f} matches/s")
        print(f"  ratio {args.workers} workers / 1 worker: {many / one:.2f}x; dask LocalCluster / processes: "
              f"{dask / many:.2f}x")

    if args.cluster_sizes:
        print(f"LocalCluster sizes: {args.matches} matches each, start-up included, each in a fresh interpreter")
        print(f"  {'workers':>7} {'seconds':>8} {'matches/s':>9} {'parent CPU':>10} {'CPU/match':>9} {'load':>5}")
        for size in args.cluster_sizes:
            run = child(["--matches", str(args.matches), "--workers", str(size)]
                        + (["--chunk", str(args.chunk)] if args.chunk else []) + ["--child", "sweep", "dask"])
            total = 1000 * (run["cpu"] + run["workers_cpu"]) / run["ran"]
            print(f"  {size:7d} {run['seconds']:8.1f} {run['ran'] / run['seconds']:9.1f} "
                  f"{1000 * run['cpu'] / run['ran']:7.2f} ms {total:6.2f} ms {run['load']:5.2f}")

    if args.long and not args.skip_long:
        print(f"memory: one-round matches on {args.workers} workers, each sweep in a fresh process")
        for matches in (max(50, args.long // 10), args.long):
            with tempfile.TemporaryDirectory() as folder:
                text = child(["--matches", str(matches), "--workers", str(args.workers), "--child", "memory",
                              folder])["text"]
                print("  " + text)
    print(f"load average at the end: {_load()}")


def _load() -> str:
    """The 1, 5 and 15-minute load averages."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
