"""Starting a thread on the core its caller runs on, caller and thread held there until released (Linux; elsewhere
a plain start).

A match plays in a thread of its own (:mod:`kemps_sim.engine.guard`) while the thread that asked for it waits.
Linux starts a new thread on an idle core rather than on its creator's, so on a machine with idle cores a loop of
matches had the caller and its matches take turns on the cores, each match starting where the one before the last
had run, with none of the caches the last match warmed: on two cores a match took 1.2-1.3 times as long
(``benchmarks/README.md``). Started on its caller's core, which the waiting caller leaves to it, a match finds
that core as the last match left it. Both are held to that core only until :func:`start_here`'s release is
called (the watcher calls it when it first wakes, after at most :data:`HOLD_SECONDS`, or when the match has ended):
a thread let go at once was often moved to the idle core while its caller was still on the way to waiting, and a
long match should not stay on a core that has got busy.

Where this plays no part: the order of events in a match never depends on a core or a clock.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading
from collections.abc import Callable

#: The longest a match's thread is held to its caller's core (a match of the bots lasts a few hundredths of a second).
HOLD_SECONDS = 0.5


def _sched_getcpu() -> Callable[[], int] | None:
    """The C library's ``sched_getcpu`` (the core the calling thread runs on), or None where there is none."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).sched_getcpu
    except (OSError, AttributeError, TypeError):
        return None
    function.restype = ctypes.c_int
    function.argtypes = []
    return function


_current_core = _sched_getcpu()


def start_here(thread: threading.Thread) -> Callable[[], None] | None:
    """Start ``thread`` on the core the calling thread runs on, both held to that core; return the release (from
    the calling thread: both may again run on all the caller's cores; calling it again does nothing), or None when
    the thread was started plainly (no such calls here, or a caller held to one core already)."""
    cores = os.sched_getaffinity(0) if _current_core is not None else set()
    here = _current_core() if len(cores) > 1 else -1
    if here not in cores:
        thread.start()
        return None
    try:
        os.sched_setaffinity(0, {here})  # a new thread takes its creator's cores: this one alone
        thread.start()
    except BaseException:
        os.sched_setaffinity(0, cores)
        raise
    held = True

    def release() -> None:
        nonlocal held
        if not held:
            return
        held = False
        os.sched_setaffinity(0, cores)
        if thread.native_id is not None and thread.is_alive():
            with contextlib.suppress(OSError):  # it ended meanwhile
                os.sched_setaffinity(thread.native_id, cores)

    return release
