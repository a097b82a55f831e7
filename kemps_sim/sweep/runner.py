"""Running a sweep: plan every match, skip what the folder already holds, run the rest in chunks, store each chunk
as it finishes, and show progress.

A sweep interrupted by Ctrl-C (or killed outright) keeps every chunk that finished; running it again resumes.
A precision-targeted sweep (``until_ci``, see :mod:`kemps_sim.sweep.targets`) runs in rounds: after each, the
cells whose interval is still wider than the target get more replicates, until every cell meets it or its cap.

Progress (``progress=True``; the command line's ``--no-progress`` turns it off) goes to standard error in the form
that fits where it runs (:mod:`kemps_sim.sweep.progress`): a tqdm bar when standard error is a terminal; tqdm's
widget in a Jupyter notebook (an IPython kernel with ipywidgets installed; the text bar without ipywidgets); and
when standard error is a file, a pipe or a CI log, plain lines with no carriage returns, at most one every 30
seconds besides the first and the last.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

from kemps_sim.sweep.adaptive import HOEFFDING, settle_pairings
from kemps_sim.sweep.cells import plan_cells
from kemps_sim.sweep.chunks import Task, make_chunks
from kemps_sim.sweep.design import match_seed
from kemps_sim.sweep.executors import Executor, check_executor_args, make_executor
from kemps_sim.sweep.progress import progress_bar
from kemps_sim.sweep.recovery import run_chunks
from kemps_sim.sweep.spec import SweepSpec, read_spec
from kemps_sim.sweep.store import ResultStore, load_results, one_writer
from kemps_sim.sweep.targets import CONFIDENCE, SIGN, CellTarget, metric_tables, settle

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
    #: A precision-targeted sweep's standing per cell (see :mod:`kemps_sim.sweep.targets`); empty otherwise.
    targets: tuple[CellTarget, ...] = ()
    #: Damaged chunks found in the folder, moved into its quarantine/ folder and run again.
    quarantined: int = 0

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


@one_writer  # holds the output folder's lock for the whole run: a second run on the folder is refused
def run_sweep(spec: SweepSpec | str | Path, *, output: str | Path | None = None, workers: int | None = None,
              scheduler: str | None = None, chunk: int | None = None, extend: bool = False,
              progress: bool = True, executor: Executor | None = None) -> SweepRun:
    """Run (or resume) a sweep into its output folder and return what was done.

    ``workers`` local processes (default: every core; 1 runs serially here) or a Dask ``scheduler`` address
    (``local`` starts a LocalCluster). Every spec problem is reported before anything is written. With
    ``spec.until_ci`` the rounds go on until every cell meets the target or its cap; ``planned`` is then the matches
    the cells need as they stand and ``targets`` says where each stands. The output folder's lock is held for the
    whole call (a second run on the folder is refused in one line); damaged chunks found there are moved into its
    ``quarantine/`` folder and run again (``quarantined`` counts them). ``progress`` shows a bar on a terminal, a
    widget in a notebook, or a plain line at most every 30 seconds when standard error is a file or a log (see the
    module text); False shows nothing.
    """
    if not isinstance(spec, SweepSpec):
        spec = read_spec(spec)
    check_executor_args(workers, scheduler)
    tasks, plans = plan_tasks(spec)
    store = ResultStore(output if output is not None else spec.output)
    store.check(spec, extend=extend)  # refuse a foreign folder before starting any worker
    store.repair()  # damaged chunks into quarantine/, so they are not counted done and run again
    done = store.done()
    before = set(done)
    standing: dict[str, CellTarget] = {}
    if spec.until_ci is not None:
        standing = _standing(spec, store, plans, done) if done else {}
        tasks = _targeted_tasks(spec, plans, standing)
    todo = [task for task in tasks if (task.cell, task.replicate) not in done]
    owned = executor is None
    executor = executor or (make_executor(workers, scheduler) if todo else make_executor(1))
    try:
        mode = store.claim(spec, extend=extend)
    except BaseException:
        if owned:
            executor.close(cancel=True)
        raise
    ran = failures = 0
    interrupted = finished = False
    started = time.perf_counter()
    bar = progress_bar(len(todo), spec.name, enabled=progress and bool(todo))
    try:
        while todo:
            size = chunk_size(spec, len(todo), executor.workers, chunk)
            for chunk_item, output in run_chunks(executor, make_chunks(todo, plans, size, spec.events)):
                store.write_chunk(chunk_item.id, output.tables)  # bytes encoded by the worker: written as they are
                ran += len(output.keys)
                failures += output.failures
                done.update(output.keys)
                bar.update(len(output.keys))
                if failures:
                    bar.set_postfix(failures=failures, refresh=False)
            if spec.until_ci is None:
                break
            # A targeted sweep's next round: the cells still wider than the target get more replicates.
            standing = _standing(spec, store, plans, done)
            store.record_targets(_targets_record(spec, standing))
            tasks = _targeted_tasks(spec, plans, standing)
            todo = [task for task in tasks if (task.cell, task.replicate) not in done]
            bar.total += len(todo)
            bar.refresh()
        finished = True
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
        if owned:
            executor.close(cancel=not finished)
    if spec.until_ci is not None and not interrupted:
        standing = _standing(spec, store, plans, done)
        store.record_targets(_targets_record(spec, standing))
    already = sum((task.cell, task.replicate) in before for task in tasks)
    return SweepRun(store.folder, mode, len(tasks), already, ran, failures, interrupted,
                    time.perf_counter() - started, executor.description, tuple(standing.values()),
                    quarantined=store.quarantined)


def _standing(spec: SweepSpec, store: ResultStore, plans: dict, done: set) -> dict[str, CellTarget]:
    """Where each cell of a targeted sweep stands, replayed from the rows stored so far."""
    tables = dict(load_results(store.folder, tables=list(metric_tables(spec.until_metric))).tables) \
        if store.manifest() is not None else {}
    if not tables:
        return {}
    if spec.until_metric == SIGN:
        return settle_pairings(plans, spec.matches, spec.until_ci, spec.max_matches, done, tables["pairs"])
    return settle(list(plans), spec.matches, spec.until_ci, spec.until_metric, spec.max_matches, done, tables)


def _targeted_tasks(spec: SweepSpec, plans: dict, standing: dict[str, CellTarget]) -> list[Task]:
    """Every match a targeted sweep needs now: each cell's replicates up to where it stands (``matches`` at first)."""
    common = spec.common_random_numbers
    return [Task(cell_id, replicate, match_seed(spec.seed, plan.cell, replicate, common))
            for cell_id, plan in plans.items()
            for replicate in range(standing[cell_id].matches if cell_id in standing else spec.matches)]


def _targets_record(spec: SweepSpec, standing: dict[str, CellTarget]) -> dict:
    """The manifest's record of a targeted sweep: the target, and each cell's matches, interval and status."""
    method = {"interval": HOEFFDING} if spec.until_metric == SIGN else {}
    return {"target": spec.until_ci, "metric": spec.until_metric, "max_matches": spec.max_matches,
            "confidence": CONFIDENCE, **method, "cells": {cell: target.as_record(spec.until_ci)
                                                for cell, target in standing.items()}}
