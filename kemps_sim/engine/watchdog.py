"""A wall-clock watchdog for agents that never decide: an interval timer that interrupts a decide() call.

It is a liveness guard only (it can end a match with an error, never change an outcome), so the wall clock it
reads does not touch reproducibility. It needs a Unix main thread; elsewhere it is a no-op and says so.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class DecideTimeout(Exception):
    """Raised inside an agent's decide() that ran past the watchdog's limit."""


def available() -> bool:
    """Whether the watchdog can run here (Unix interval timers, main thread)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def watchdog(seconds: float) -> Iterator[None]:
    """Interrupt the body with :class:`DecideTimeout` after ``seconds`` of wall time (when :func:`available`)."""
    if not available():
        yield
        return

    def _expire(signum: int, frame: object) -> None:
        raise DecideTimeout

    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
