"""Containing agent code: a match plays in a thread of its own, watched by the thread that asked for it.

Two faults of agent code cannot be caught where the code runs:

* **it never returns** (a loop, a sleep, a lock that never frees). The watching thread sees the same call into an
  agent still running after the wall-clock limit (``EngineConfig.decide_timeout``) and raises :class:`AgentTimeout`
  inside it; the engine records that as the agent's error. Code that cannot be interrupted (a sleep in C, a loop
  that swallows every exception) is abandoned instead: the match is recorded as the agent's error all the same and
  its thread is left to end on its own (a sleeping thread costs nothing; one that loops on, swallowing every
  interrupt, keeps a core busy until its process ends, which no thread in Python can prevent). No signal and no
  main thread is needed, so this holds in a worker process, in a Dask worker's thread pool and in a notebook alike.
* **it raises what is not an Exception** (``SystemExit``, ``KeyboardInterrupt``). Since a match never runs in the
  main thread, such an exception can only come from agent code and is recorded as the agent's error; a real Ctrl-C
  reaches the watching (main) thread, which cancels the match and stops.

The match's thread is started on the core its caller runs on (:mod:`kemps_sim.engine.placement`), where the
waiting caller leaves it the caches the last match warmed.

The wall clock read here decides only whether a match that has stopped making progress is given up; it never
changes the outcome of a match that finishes.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from kemps_sim.engine.placement import HOLD_SECONDS, start_here

T = TypeVar("T")

#: How many times per limit the watcher looks; a stuck call is caught between ``limit`` and ``limit * (1 + 1/N)``.
CHECKS_PER_LIMIT = 4
#: Seconds the watcher gives an interrupted call to unwind before it abandons the match's thread.
GRACE_SECONDS = 1.0
#: Seconds between the watcher's looks while no limit applies (so that Ctrl-C reaches it on every platform).
UNLIMITED_LOOK_SECONDS = 1.0


class AgentTimeout(BaseException):
    """Raised inside agent code that ran past its wall-clock limit. A BaseException, so that an agent's own
    ``except Exception`` cannot swallow it."""


class MatchCancelled(BaseException):
    """Raised inside a match whose watcher was interrupted (a real Ctrl-C): the match stops and is not recorded."""


class Stopwatch:
    """Which agent call a match is in, kept by the engine and read by the watcher; the one door to agent code.

    Every call into an agent goes through :meth:`call`, which counts it in and out (cheap: no clock is read per
    call) and turns anything it raises into the agent's error. The watcher reads the clock only when it wakes, and
    calls the same call number seen for the whole ``limit`` stuck. ``blame(seat, problem)`` builds the error naming
    the agent, seat, round, simulated time and seed.
    """

    __slots__ = ("blame", "entered", "left", "limit", "seat", "what")

    def __init__(self, limit: float | None = None) -> None:
        self.limit = limit
        self.entered = 0
        self.left = 0
        self.seat = -1
        self.what = ""
        self.blame: Callable[[int, str], BaseException] = _unblamed

    def call(self, seat: int, what: str, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)``, agent code of ``seat`` (``what``: the method's name), contained.

        Whatever it raises, even ``SystemExit`` or ``KeyboardInterrupt``, becomes ``blame(seat, "what() raised
        ...")``, and a call interrupted for running too long becomes :meth:`timeout_error`; only a cancelled match
        passes on as it is.
        """
        self.seat = seat
        self.what = what
        self.entered += 1
        try:
            return function(*args)
        except MatchCancelled:
            raise
        except AgentTimeout:
            raise self.timeout_error() from None
        except BaseException as exc:
            raise self.blame(seat, f"{what}() raised {type(exc).__name__}: {exc}") from exc
        finally:
            self.left = self.entered

    @property
    def inside(self) -> bool:
        """Whether a call into an agent is running now."""
        return self.entered != self.left

    def timeout_error(self) -> BaseException:
        """The error of the agent whose current call ran past the limit."""
        return self.blame(self.seat, f"{self.what}() did not return within {self.limit:g} s of wall time "
                          "(engine.decide_timeout): the agent never decides")


def _unblamed(seat: int, problem: str) -> BaseException:
    return RuntimeError(f"seat {seat}: {problem}")


def run_contained(body: Callable[[Stopwatch], T], limit: float | None,
                  abandoned: Callable[[BaseException], T]) -> T:
    """``body(stopwatch)`` in a thread of its own, with every call into an agent held to ``limit`` seconds.

    Returns what the body returns and raises what it raises. A call still running after ``limit`` is interrupted
    with :class:`AgentTimeout` (the body records it as the agent's error); if it does not unwind within
    :data:`GRACE_SECONDS`, the thread is abandoned and ``abandoned(error)`` gives the result instead. An
    exception in the watching thread (Ctrl-C) cancels the body and is raised.
    """
    watch = Stopwatch(limit)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = body(watch)
        except BaseException as exc:  # handed to the watcher, which raises it in its own thread
            box["error"] = exc

    thread = threading.Thread(target=target, name="kemps-sim match", daemon=True)
    release: Callable[[], None] | None = None
    try:
        release = start_here(thread)  # on this core, which the watcher leaves to it while it waits
        stuck = _watch(thread, watch, limit, release)
    except BaseException:
        if release is not None:
            release()
        if thread.ident is not None:  # it started
            _raise_in(thread, MatchCancelled)
            thread.join(GRACE_SECONDS)
        raise
    if release is not None:
        release()
    if stuck is not None:
        return abandoned(stuck)
    if "error" in box:
        error = box.pop("error")
        raise error
    return box["value"]


def _watch(thread: threading.Thread, watch: Stopwatch, limit: float | None,
           release: Callable[[], None] | None = None) -> BaseException | None:
    """Wait for the thread; interrupt a call stuck past ``limit``; return the error if the thread must be
    abandoned, None once it has ended. ``release`` (:func:`~kemps_sim.engine.placement.start_here`) is called at
    the first look, at most :data:`~kemps_sim.engine.placement.HOLD_SECONDS` after the start."""
    if release is not None:
        thread.join(min(limit / CHECKS_PER_LIMIT if limit is not None else UNLIMITED_LOOK_SECONDS, HOLD_SECONDS))
        release()
    if limit is None:
        while thread.is_alive():
            thread.join(UNLIMITED_LOOK_SECONDS)
        return None
    period = limit / CHECKS_PER_LIMIT
    call, since = -1, 0.0
    while True:
        thread.join(period)
        if not thread.is_alive():
            return None
        now = time.monotonic()
        if not watch.inside:
            call = -1
            continue
        if watch.entered != call:
            call, since = watch.entered, now
            continue
        if now - since < limit:
            continue
        error = watch.timeout_error()
        deadline = now + GRACE_SECONDS
        while thread.is_alive() and time.monotonic() < deadline:
            if watch.inside and watch.entered == call:
                _raise_in(thread, AgentTimeout)
            thread.join(min(period, GRACE_SECONDS / 4))
        if not thread.is_alive():
            return None
        return error


def _raise_in(thread: threading.Thread, kind: type[BaseException]) -> None:
    """Raise ``kind`` in ``thread`` at its next Python instruction (CPython's asynchronous exceptions)."""
    if thread.ident is not None and thread.is_alive():
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(kind))
