"""Where chunks run: in this process, in local worker processes, or on a Dask cluster.

Every executor hands back ``(item, result)`` pairs as chunks finish, keeping only a few chunks in flight per
worker so that memory stays flat however many chunks a sweep has. Which executor ran a chunk never changes its
rows: a chunk's result depends on the chunk alone.

A worker process that dies (killed, out of memory, a crash in compiled code) does not end the sweep: its chunk
comes back as :class:`WorkerLost` and the executor replaces the worker; :mod:`kemps_sim.sweep.recovery` decides
what to run again. Local workers that all die before they start (a script without a main guard: each worker
imports it and starts the sweep again) would die again, so that ends the sweep with the reason instead.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from kemps_sim.errors import ConfigError, KempsError

#: Chunks kept in flight per worker: enough to keep every worker busy, few enough to keep memory flat.
IN_FLIGHT_PER_WORKER = 2
#: How often a worker checks that the process that started it is still alive (seconds).
PARENT_POLL_SECONDS = 0.5
#: Dask settings of the LocalCluster that ``--scheduler local`` starts, for tasks of pure Python that last about a
#: second. Workers sample their own stacks for Dask's profiler every few milliseconds, which costs throughput, and
#: nothing here reads the profiles; the scheduler, nannies and workers also poll their memory and the system and
#: check their event loops many times a second, for a dashboard that is off. Measured here: an idle 2-worker
#: LocalCluster spent 0.58 s of CPU per 15 s with the defaults (profiler off) and 0.24 s with these (run on a
#: real cluster, its workers keep their own settings; docs/cluster.md).
LOCAL_CLUSTER_CONFIG = {"distributed.worker.profile.enabled": False,
                        "distributed.admin.system-monitor.interval": "2s",
                        "distributed.worker.memory.monitor-interval": "1s",
                        "distributed.admin.tick.interval": "200ms"}
#: How often a Dask executor asks the scheduler how many worker threads it has (seconds).
RECOUNT_SECONDS = 2.0


#: Why local workers that all die before they start usually do: each imports the script that started the sweep.
NEVER_STARTED = ("local worker processes: every one ended before it could start; a worker process imports the script "
                 "that started the sweep, so a script that calls run_sweep must do so under "
                 "'if __name__ == \"__main__\":' (or run it with workers=1)")


class WorkersNeverStarted(KempsError, RuntimeError):
    """No local worker process got as far as starting (see :data:`NEVER_STARTED`)."""


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system reports it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS and Windows
        return os.cpu_count() or 1


@dataclass(frozen=True)
class WorkerLost:
    """What an executor hands back for an item whose worker process died before returning it.

    ``alone``: the item was the only one in flight, so it is the one that was running when the worker died.
    ``repeated``: the cluster already ran it again on other workers, which died too (Dask's ``allowed-failures``).
    """

    reason: str
    alone: bool = False
    repeated: bool = False


class Executor(ABC):
    """Runs a function over items on some workers; a context manager that shuts the workers down."""

    workers: int = 1
    description: str = ""

    @abstractmethod
    def imap_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[tuple[Any, Any]]:
        """``(item, fn(item))`` for every item, in the order they finish."""

    def close(self, cancel: bool = False) -> None:  # noqa: B027 - serial execution has nothing to close
        """Release the workers; with ``cancel`` drop what has not started."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        self.close(cancel=kind is not None)


class SerialExecutor(Executor):
    """Everything in this process, one chunk after the other: the reference the others must match."""

    description = "serial (this process)"

    def imap_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[tuple[Any, Any]]:
        for item in items:
            yield item, fn(item)


class ProcessExecutor(Executor):
    """Local worker processes (started fresh, not forked, so no state leaks in from the parent)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.description = f"{workers} local worker process{'es' if workers > 1 else ''}"
        self._context = multiprocessing.get_context("spawn")
        self._started = self._context.Value("i", 0)  # workers that got as far as their start-up, in every pool
        self._pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=self._context,
                                   initializer=_start_worker, initargs=(os.getpid(), self._started))

    def imap_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[tuple[Any, Any]]:
        """As :meth:`Executor.imap_unordered`; when a worker dies the pool fails every item in flight (it cannot
        tell which one was running), so each comes back as :class:`WorkerLost` and a fresh pool takes over."""
        source = iter(items)
        pending: dict[Future, Any] = {}
        while True:
            while len(pending) < self.workers * IN_FLIGHT_PER_WORKER:
                item = next(source, _END)
                if item is _END:
                    break
                try:
                    pending[self._pool.submit(fn, item)] = item
                except BrokenProcessPool:  # a worker died since the last look
                    yield from self._lost(pending, item)
            if not pending:
                return
            wait(list(pending), return_when=FIRST_COMPLETED)
            for future in [f for f in pending if f.done()]:
                item = pending.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    yield from self._lost(pending, item)
                    break
                yield item, result

    def _lost(self, pending: dict[Future, Any], item: Any) -> Iterator[tuple[Any, WorkerLost]]:
        """A worker died: every item in flight is lost; the broken pool is replaced by a fresh one. If no worker
        ever got as far as starting, none ever will: the error says why that usually happens."""
        lost = [item, *pending.values()]
        pending.clear()
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self._started.value == 0:
            raise WorkersNeverStarted(NEVER_STARTED)
        self._pool = self._start()
        reason = "its worker process died (killed, out of memory, or a crash outside Python)"
        for each in lost:
            yield each, WorkerLost(reason, alone=len(lost) == 1)

    def close(self, cancel: bool = False) -> None:
        self._pool.shutdown(wait=not cancel, cancel_futures=cancel)


class DaskExecutor(Executor):
    """A Dask cluster: ``tcp://host:port`` of a running scheduler, or ``local`` to start a LocalCluster here."""

    def __init__(self, scheduler: str, workers: int | None = None) -> None:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:  # pragma: no cover - dask[distributed] is a dependency
            raise ConfigError("--scheduler: needs dask[distributed] installed (pip install 'dask[distributed]')"
                              ) from None
        self._cluster = None
        try:
            if scheduler == "local":
                with dask.config.set(LOCAL_CLUSTER_CONFIG):
                    self._cluster = LocalCluster(n_workers=workers or available_cores(), threads_per_worker=1,
                                                 processes=True, dashboard_address=None, silence_logs=logging.ERROR)
                self._client = Client(self._cluster)
            else:
                self._client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            if self._cluster is not None:
                self._cluster.close()
            raise ConfigError(f"--scheduler {scheduler!r}: could not connect: {exc}; give tcp://HOST:PORT of a "
                              "running dask scheduler, or local") from None
        self.workers = max(1, sum(self._client.nthreads().values()))
        self._counted = time.monotonic()
        self.description = f"dask {'LocalCluster' if self._cluster else scheduler} ({self.workers} threads)"

    def imap_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[tuple[Any, Any]]:
        from distributed import as_completed
        from distributed.scheduler import KilledWorker

        source = iter(items)
        pending: dict[str, Any] = {}
        running = as_completed([], with_results=False)

        def submit() -> bool:
            item = next(source, _END)
            if item is _END:
                return False
            future = self._client.submit(fn, item, pure=False)
            pending[future.key] = item
            running.add(future)
            return True

        def top_up() -> None:
            while len(pending) < self._threads() * IN_FLIGHT_PER_WORKER and submit():
                pass

        top_up()
        self._futures = running
        for future in running:
            item = pending.pop(future.key)
            try:
                result = future.result()
            except KilledWorker as exc:  # the scheduler ran it on several workers and every one died
                result = WorkerLost(f"every worker that ran it died ({exc})", alone=True, repeated=True)
            future.release()
            yield item, result
            top_up()

    def _threads(self) -> int:
        """The worker threads the scheduler has now, asked at most every few seconds: on a real cluster workers
        join (batch jobs start) and leave while a sweep runs, and the chunks in flight follow them."""
        now = time.monotonic()
        if now - self._counted >= RECOUNT_SECONDS:
            self._counted = now
            with contextlib.suppress(Exception):  # a scheduler that does not answer now: keep the last count
                self.workers = max(1, sum(self._client.nthreads().values()))
        return self.workers

    def close(self, cancel: bool = False) -> None:
        futures = getattr(self, "_futures", None)
        if cancel and futures is not None:
            futures.clear()
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(workers: int | None = None, scheduler: str | None = None) -> Executor:
    """The executor a sweep asked for: Dask given a scheduler, serial for one worker, else local processes."""
    check_executor_args(workers, scheduler)
    if scheduler is not None:
        return DaskExecutor(scheduler, workers)
    workers = workers or available_cores()
    return SerialExecutor() if workers == 1 else ProcessExecutor(workers)


def check_executor_args(workers: int | None, scheduler: str | None) -> None:
    """Refuse a worker count or scheduler address that cannot work, before anything starts."""
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ConfigError(f"--workers {workers!r}: must be a whole number >= 1")
    if scheduler is not None and scheduler != "local" and "://" not in scheduler:
        raise ConfigError(f"--scheduler {scheduler!r}: give tcp://HOST:PORT of a dask scheduler, or local")


def _start_worker(parent: int, started: Any) -> None:
    """Workers count themselves started (in ``started``, shared with the parent), leave Ctrl-C to the parent
    (which stops handing out work and keeps what has finished), and end themselves if the parent dies (killed
    outright), rather than linger holding memory.

    They also end without tearing their interpreter down (see :func:`_exit_at_once`): a worker exits only once the
    pool has every result, and the parent's ``close`` waited 0.3-0.4 s here for the workers to free pandas,
    pyarrow and the engine module by module (0.02 s without).
    """
    with started.get_lock():
        started.value += 1
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True, name="parent-watch").start()
    atexit.register(_exit_at_once)


def _exit_at_once() -> None:
    """A worker's exit (registered last, so run first): run every other exit handler (a coverage tool's, say),
    flush the output and end the process without the module-by-module teardown. The pool has every result by
    then: a worker sends each one synchronously, and exits only when told that no work is left."""
    atexit.unregister(_exit_at_once)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    os._exit(0)


def _exit_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


_END = object()
