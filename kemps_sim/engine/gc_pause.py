"""Fewer garbage collections while matches play: the same results, a few per cent less CPU.

A match allocates hundreds of thousands of short-lived objects and makes almost no reference cycles, so Python's
default young-generation threshold (a collection every 700 net allocations) mostly rescans live objects. While a
match or a sweep's chunk plays, :func:`fewer_collections` raises that threshold, and puts the interpreter's own
thresholds back afterwards, whatever happens. Measured as matches per CPU-second in alternating fresh processes:
1.055x on a sweep's 100-match chunk (68.2 against 64.7); garbage collection had taken 5-10 % of a match.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

#: The allocation count that starts a young-generation collection while a match plays (Python's default: 700).
MATCH_GC_THRESHOLD = 50_000


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect garbage less often inside the block, then restore the thresholds as they were (nesting is fine)."""
    before = gc.get_threshold()
    gc.set_threshold(max(MATCH_GC_THRESHOLD, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
