"""Chunks whose worker process died: run again until each is stored, and a match that kills every worker it
runs on recorded as ``crashed`` instead of ending the sweep.

When a local worker dies the pool loses every chunk in flight without saying which was running, so the lost
chunks are run again one at a time: a chunk that kills its worker while alone is the culprit. It is split in
halves, each run alone, until the single match is found; a single match that kills its worker twice while alone
(once, on a Dask cluster, which has already retried it on other workers) is recorded as ``crashed`` with the
reason. Every other chunk is stored as if nothing had happened, so the tables equal an undisturbed run's.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

from kemps_sim.sweep.chunks import Chunk, ChunkOutput, crashed_chunk, run_chunk
from kemps_sim.sweep.executors import Executor, WorkerLost

#: Times a single match may kill its worker while running alone before it is recorded as crashed.
LOSSES_ALLOWED = 1


def run_chunks(executor: Executor, chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, ChunkOutput]]:
    """``(chunk, output)`` for every chunk, in the order they finish, each stored once whatever workers died."""
    suspects: deque[tuple[Chunk, int]] = deque()
    for chunk, outcome in executor.imap_unordered(run_chunk, chunks):
        if isinstance(outcome, WorkerLost):
            suspects.append((chunk, 0))
        else:
            yield chunk, outcome
    while suspects:
        chunk, losses = suspects.popleft()
        ((_, outcome),) = executor.imap_unordered(run_chunk, [chunk])
        if not isinstance(outcome, WorkerLost):
            yield chunk, outcome
        elif len(chunk.tasks) > 1 and outcome.alone:
            half = len(chunk.tasks) // 2
            suspects.extendleft([(_part(chunk, half, None), 0), (_part(chunk, 0, half), 0)])
        elif outcome.alone and (outcome.repeated or losses >= LOSSES_ALLOWED):
            yield chunk, crashed_chunk(chunk, f"WorkerLost: {outcome.reason} while playing this match, "
                                              f"{losses + 1 if not outcome.repeated else 'several'} times")
        else:
            suspects.append((chunk, losses + outcome.alone))


def _part(chunk: Chunk, start: int, stop: int | None) -> Chunk:
    """The chunk's tasks from ``start`` to ``stop``, with the plans they need."""
    tasks = chunk.tasks[start:stop]
    cells = {task.cell for task in tasks}
    return Chunk(tasks, tuple(plan for plan in chunk.plans if plan.cell.id in cells), chunk.events)
