"""Running a sweep: plan every match, skip what the folder already holds, run the rest in chunks, store each chunk
as it finishes, and show progress.

A sweep interrupted by Ctrl-C (or killed outright) keeps every chunk that finished; running it again resumes.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from kemps_sim.sweep.cells import plan_cells
from kemps_sim.sweep.chunks import FAILED, Task, make_chunks, run_chunk
from kemps_sim.sweep.design import match_seed
from kemps_sim.sweep.executors import Executor, check_executor_args, make_executor
from kemps_sim.sweep.spec import SweepSpec, read_spec
from kemps_sim.sweep.store import ResultStore

#: The automatic chunk size aims at this many chunks per worker, within these bounds.
CHUNKS_PER_WORKER, MIN_CHUNK, MAX_CHUNK = 24, 1, 100


@dataclass(frozen=True)
class SweepRun:
    """What a run of a sweep did: how many matches the plan has, were already stored, and ran now."""

    folder: Path
    mode: str  # "new", "resume" or "extend"
    planned: int
    already_done: int
    ran: int
    failures: int  # matches run now that ended with an agent error or a crash
    interrupted: bool
    seconds: float  # wall-clock time of this run (for the rate shown; never stored with the results)
    executor: str

    @property
    def complete(self) -> bool:
        """Whether every planned match is now stored."""
        return self.already_done + self.ran == self.planned


def plan_tasks(spec: SweepSpec) -> tuple[list[Task], dict]:
    """Every match of the sweep in plan order (cell by cell, replicate by replicate) and the cells' plans.

    Under common random numbers replicate r of every cell has the same seed; otherwise each cell has its own.
    """
    plans = {plan.cell.id: plan for plan in plan_cells(spec)}
    common = spec.common_random_numbers
    tasks = [Task(cell_id, replicate, match_seed(spec.seed, plan.cell, replicate, common))
             for cell_id, plan in plans.items() for replicate in range(spec.matches)]
    return tasks, plans


def chunk_size(spec: SweepSpec, remaining: int, workers: int, chunk: int | None = None) -> int:
    """The matches per chunk: as asked, else enough chunks to balance the workers without much task overhead."""
    if chunk is not None or spec.chunk is not None:
        return chunk or spec.chunk
    return max(MIN_CHUNK, min(MAX_CHUNK, math.ceil(remaining / (workers * CHUNKS_PER_WORKER))))


def run_sweep(spec: SweepSpec | str | Path, *, output: str | Path | None = None, workers: int | None = None,
              scheduler: str | None = None, chunk: int | None = None, extend: bool = False,
              progress: bool = True, executor: Executor | None = None) -> SweepRun:
    """Run (or resume) a sweep into its output folder and return what was done.

    ``workers`` local processes (default: every core; 1 runs serially here) or a Dask ``scheduler`` address
    (``local`` starts a LocalCluster). Every spec problem is reported before anything is written.
    """
    if not isinstance(spec, SweepSpec):
        spec = read_spec(spec)
    check_executor_args(workers, scheduler)
    tasks, plans = plan_tasks(spec)
    store = ResultStore(output if output is not None else spec.output)
    store.check(spec, extend=extend)  # refuse a foreign folder before starting any worker
    done = store.done()
    todo = [task for task in tasks if (task.cell, task.replicate) not in done]
    owned = executor is None
    executor = executor or (make_executor(workers, scheduler) if todo else make_executor(1))
    try:
        mode = store.claim(spec, extend=extend)
    except BaseException:
        if owned:
            executor.close(cancel=True)
        raise
    size = chunk_size(spec, len(todo), executor.workers, chunk)
    ran = failures = 0
    interrupted = finished = False
    started = time.perf_counter()
    bar = tqdm(total=len(todo), unit="match", desc=spec.name, disable=not progress or not todo, smoothing=0.1)
    try:
        for chunk_item, tables in executor.imap_unordered(run_chunk, make_chunks(todo, plans, size, spec.events)):
            store.write_chunk(chunk_item.id, tables)
            matches = tables["matches"]
            ran += len(matches)
            failures += int(matches["end_reason"].isin(FAILED).sum())
            bar.update(len(matches))
            if failures:
                bar.set_postfix(failures=failures, refresh=False)
        finished = True
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
        if owned:
            executor.close(cancel=not finished)
    return SweepRun(store.folder, mode, len(tasks), len(tasks) - len(todo), ran, failures, interrupted,
                    time.perf_counter() - started, executor.description)
