"""The parent process of a sweep: its peak memory and its CPU per match, for ``report`` and for ``sweep``.

    python benchmarks/bench_memory.py report FOLDER [--repeats 1]
    python benchmarks/bench_memory.py sweep --matches 2000 [--workers 2] [--chunk N] [--output DIR]
    python benchmarks/bench_memory.py synth SOURCE DEST --matches 20000
    python benchmarks/bench_memory.py chunk [--matches 200] [--size 50]
    python benchmarks/bench_memory.py worker [--matches 20]

``report`` runs ``kemps-sim report FOLDER`` in a fresh interpreter and prints that process's peak RSS
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``: the parent only, not its workers) and CPU time. ``sweep`` runs the
quickstart spec (experiments/quickstart.toml) with ``--matches`` matches in all, spread over its four cells, on
``--workers`` local processes in a fresh interpreter, and prints the parent's CPU time per match while the
matches run (``time.process_time`` around ``run_sweep``: the parent's own work, writing chunks and counting, which
it takes from the workers' cores), then the peak RSS and CPU of the summary printed at the end, as
``kemps-sim sweep`` prints it. ``synth`` builds a large folder from a real one for ``report``: every chunk of
SOURCE copied as often as needed with its replicate numbers shifted past the source's, each written through the
store's own writer (``ResultStore.write_chunk``: files and receipts as a sweep writes them), so the folder has the
size of a big sweep without running one (its statistics repeat the source's and mean nothing). ``chunk`` times,
in this process, the quickstart's first ``--matches`` matches in chunks of ``--size``: the engine alone, the engine
and the chunk's tables, and the tables encoded as Parquet (in the worker now; in the parent before), interleaved
so that load on a shared machine spreads over all three, and prints the overheads as shares of the engine's time.
``worker`` starts one local worker process (``ProcessExecutor``) and prints its resident memory when started and
after playing and encoding a chunk of ``--matches`` quickstart matches: a worker's resting footprint, and which
heavy libraries it has loaded by then.

Run it with another tree first on ``PYTHONPATH`` to measure that tree (children inherit the environment). Prints
figures and the machine load (``os.getloadavg``); asserts nothing (machines are shared and noisy).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICKSTART = ROOT / "experiments" / "quickstart.toml"

_MEASURE = """
import contextlib, io, json, resource, time
started = time.process_time()
{body}
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"peak_mb": usage.ru_maxrss / 1024, "cpu_s": time.process_time() - started, **extra}}))
"""

_REPORT = """
from kemps_sim.cli import main
extra = {{}}
with contextlib.redirect_stdout(io.StringIO()):
    status = main(["report", {folder!r}, "--csv", {csv!r}])
assert status == 0, status
"""

_SWEEP = """
from kemps_sim.sweep import read_spec, run_sweep
spec = read_spec({spec!r})
before = time.process_time()
done = run_sweep(spec, output={output!r}, workers={workers}, chunk={chunk}, progress=False)
running = time.process_time() - before
import resource as _r
sweep_peak = _r.getrusage(_r.RUSAGE_SELF).ru_maxrss / 1024
from kemps_sim.cli.report import print_summary
before = time.process_time()
with contextlib.redirect_stdout(io.StringIO()):
    print_summary(done.folder, csv={csv!r})
extra = {{"ran": done.ran, "sweep_cpu_s": running, "sweep_wall_s": done.seconds, "summary_cpu_s":
          time.process_time() - before, "peak_before_summary_mb": sweep_peak}}
"""


def measure(body: str) -> dict:
    """Run ``body`` in a fresh interpreter and return what it measured of itself."""
    done = subprocess.run([sys.executable, "-c", _MEASURE.format(body=body)], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def load() -> str:
    return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg()) + f" on {os.cpu_count()} cores"


def bench_report(folder: str, repeats: int) -> None:
    matches = sum(1 for _ in Path(folder, "matches").glob("*.parquet"))
    print(f"report {folder} ({matches} chunks); {load()}")
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(repeats):
            got = measure(_REPORT.format(folder=folder, csv=str(Path(scratch, "summary.csv"))))
            print(f"  peak RSS {got['peak_mb']:.1f} MB, CPU {got['cpu_s']:.2f} s")
    print(f"  {load()}")


def bench_sweep(matches: int, workers: int, output: str | None, chunk: int | None) -> None:
    cells = 4
    per_cell = max(1, matches // cells)
    with tempfile.TemporaryDirectory() as scratch:
        text = QUICKSTART.read_text(encoding="utf-8")
        text = "\n".join(f"matches = {per_cell}" if line.startswith("matches =") else line
                         for line in text.splitlines())
        spec = Path(scratch, "spec.toml")
        spec.write_text(text, encoding="utf-8")
        folder = output or str(Path(scratch, "results"))
        print(f"sweep quickstart: {cells} cells x {per_cell} matches on {workers} workers, chunks of "
              f"{chunk or 'automatic size'}, into {folder}; {load()}")
        got = measure(_SWEEP.format(spec=str(spec), output=folder, workers=workers, chunk=chunk,
                                    csv=str(Path(scratch, "summary.csv"))))
    ran = max(got["ran"], 1)
    print(f"  ran {got['ran']} matches in {got['sweep_wall_s']:.1f} s; parent CPU while running "
          f"{got['sweep_cpu_s']:.2f} s = {1000 * got['sweep_cpu_s'] / ran:.2f} ms per match")
    print(f"  parent peak RSS before the summary {got['peak_before_summary_mb']:.1f} MB, after "
          f"{got['peak_mb']:.1f} MB; summary CPU {got['summary_cpu_s']:.2f} s")
    print(f"  {load()}")


def synth(source: str, dest: str, matches: int) -> None:
    """Build DEST from SOURCE's chunks, repeated with shifted replicates, through the store's writer."""
    import hashlib
    import shutil

    from kemps_sim.sweep import load_results
    from kemps_sim.sweep.store import MANIFEST, ResultStore

    store = ResultStore(source)
    receipts = store.scan().sound
    frames = {}
    for chunk, receipt in sorted(receipts.items()):
        frames[chunk] = {name: record.read(store.folder).to_pandas() for name, record in receipt.files.items()}
    stored = len(load_results(source, tables=["matches"])["matches"])
    shift = 1 + max(int(f["matches"]["replicate"].max()) for f in frames.values())
    copies = -(-matches // stored)
    Path(dest).mkdir(parents=True, exist_ok=True)
    shutil.copy(Path(source, MANIFEST), Path(dest, MANIFEST))
    target = ResultStore(dest)
    batches: list[list[str]] = [[]]  # source chunks written together: about 100 matches a chunk, as a big sweep has
    for chunk in frames:
        if sum(len(frames[c]["matches"]) for c in batches[-1]) >= 100:
            batches.append([])
        batches[-1].append(chunk)
    import pandas as pd

    for copy in range(copies):
        for batch in batches:
            tables = {name: pd.concat([frames[c][name] for c in batch if name in frames[c]], ignore_index=True)
                      for name in frames[batch[0]]}
            shifted = {name: table.assign(replicate=table["replicate"] + copy * shift)
                       for name, table in tables.items()}
            chunk_id = hashlib.sha256(f"{','.join(batch)}:{copy}".encode()).hexdigest()[:16]
            target.write_chunk(chunk_id, shifted)
    print(f"{dest}: {copies} copies of {stored} matches = {copies * stored} matches")


def bench_chunk(matches: int, size: int, repeats: int) -> None:
    """Worker-side cost of turning matches into stored tables, against the engine's own time."""
    import time

    from kemps_sim.engine import simulate_match
    from kemps_sim.sweep import chunks as chunk_module
    from kemps_sim.sweep import plan_tasks, read_spec
    from kemps_sim.sweep.receipts import encode

    tasks, plans = plan_tasks(read_spec(QUICKSTART))
    chunks = list(chunk_module.make_chunks(tasks[:matches], plans, size, events=False))
    # This tree's way to the tables (one table per chunk), or the way before it (run_chunk returned DataFrames).
    tables = getattr(chunk_module, "chunk_tables", chunk_module.run_chunk)

    def engine() -> None:
        for chunk in chunks:
            own = {plan.cell.id: plan for plan in chunk.plans}
            for task in chunk.tasks:
                plan = own[task.cell]
                simulate_match(plan.rules, plan.lineup, plan.profiles, task.seed, config=plan.config,
                               errors="record")

    def with_tables() -> None:
        for chunk in chunks:
            tables(chunk)

    def encoded() -> None:
        for chunk in chunks:
            for frame in tables(chunk).values():
                encode(frame)

    timings: dict[str, list[float]] = {"engine": [], "tables": [], "encoded": []}
    print(f"chunk: {len(chunks)} chunks of up to {size} of the quickstart's matches ({matches} in all), "
          f"{repeats} rounds; {load()}")
    for _ in range(repeats):
        for name, run in (("engine", engine), ("tables", with_tables), ("encoded", encoded)):
            started = time.process_time()
            run()
            timings[name].append(time.process_time() - started)
    best = {name: min(values) for name, values in timings.items()}
    for name, seconds in best.items():
        print(f"  {name:8} {seconds:6.2f} s CPU (best of {repeats}) = {1000 * seconds / matches:.2f} ms per match")
    print(f"  tables add {100 * (best['tables'] / best['engine'] - 1):.1f} % to the engine's time; tables and "
          f"Parquet {100 * (best['encoded'] / best['engine'] - 1):.1f} %")
    print(f"  {load()}")


def _worker_state(_: object) -> dict:
    """In a worker: its resident memory now and at its peak (MB), and which heavy libraries it has loaded."""
    import resource

    with open("/proc/self/status") as fh:  # Linux: the resident set now, not only the peak
        now = next((int(line.split()[1]) / 1024 for line in fh if line.startswith("VmRSS:")), float("nan"))
    heavy = [name for name in ("pandas", "pyarrow", "scipy", "matplotlib") if name in sys.modules]
    return {"now": now, "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "heavy": heavy}


def bench_worker(matches: int) -> None:
    """A local sweep worker's resting footprint: started, then after playing and encoding a chunk of the
    quickstart's matches (the engine, the agents, the records and Parquet loaded, the chunk's objects freed)."""
    from kemps_sim.sweep import ProcessExecutor, plan_tasks, read_spec
    from kemps_sim.sweep.chunks import make_chunks, run_chunk

    tasks, plans = plan_tasks(read_spec(QUICKSTART))
    chunk = next(make_chunks(tasks[:matches], plans, matches, events=False))
    executor = ProcessExecutor(1)
    try:
        ((_, started),) = executor.imap_unordered(_worker_state, [None])
        ((_, output),) = executor.imap_unordered(run_chunk, [chunk])
        ((_, rested),) = executor.imap_unordered(_worker_state, [None])
    finally:
        executor.close()
    print(f"worker: one local worker process, a chunk of {len(chunk.tasks)} quickstart matches; {load()}")
    print(f"  started:             resident {started['now']:6.1f} MB, heavy libraries: "
          f"{', '.join(started['heavy']) or 'none'}")
    print(f"  after the chunk:     resident {rested['now']:6.1f} MB (peak {rested['peak']:.1f} MB), heavy "
          f"libraries: {', '.join(rested['heavy']) or 'none'}; {sum(t.rows for t in output.tables.values())} rows")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("report")
    p.add_argument("folder")
    p.add_argument("--repeats", type=int, default=1)
    p = sub.add_parser("sweep")
    p.add_argument("--matches", type=int, default=2000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--output", default=None)
    p.add_argument("--chunk", type=int, default=None, help="matches per chunk (default: automatic)")
    p = sub.add_parser("chunk")
    p.add_argument("--matches", type=int, default=200)
    p.add_argument("--size", type=int, default=50)
    p.add_argument("--repeats", type=int, default=3)
    p = sub.add_parser("worker")
    p.add_argument("--matches", type=int, default=20)
    p = sub.add_parser("synth")
    p.add_argument("source")
    p.add_argument("dest")
    p.add_argument("--matches", type=int, required=True)
    args = parser.parse_args()
    if args.what == "report":
        bench_report(args.folder, args.repeats)
    elif args.what == "sweep":
        bench_sweep(args.matches, args.workers, args.output, args.chunk)
    elif args.what == "chunk":
        bench_chunk(args.matches, args.size, args.repeats)
    elif args.what == "worker":
        bench_worker(args.matches)
    else:
        synth(args.source, args.dest, args.matches)


if __name__ == "__main__":
    main()
