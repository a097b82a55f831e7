"""A match's thread starts on its caller's core, both held there until the watcher first looks (or the match ends);
then both may use all the caller's cores again."""

from __future__ import annotations

import os
import threading
import time

import pytest

from kemps_sim.engine import placement
from kemps_sim.engine.guard import run_contained
from kemps_sim.engine.placement import HOLD_SECONDS, start_here

CORES = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
pinnable = pytest.mark.skipif(placement._current_core is None or len(CORES) < 2,
                              reason="needs sched_getcpu and at least two cores to choose from")


@pinnable
def test_the_thread_and_its_caller_share_one_core_until_released():
    seen: list[set[int]] = []
    go_on = threading.Event()

    def target() -> None:
        seen.append(os.sched_getaffinity(0))
        go_on.wait(10)

    thread = threading.Thread(target=target)
    release = start_here(thread)
    assert release is not None
    held = os.sched_getaffinity(0)
    assert len(held) == 1 and held <= CORES
    release()
    release()  # again: nothing
    assert os.sched_getaffinity(0) == CORES
    assert os.sched_getaffinity(thread.native_id) == CORES
    go_on.set()
    thread.join()
    assert seen == [held]


@pinnable
def test_a_caller_held_to_one_core_starts_a_plain_thread():
    core = min(CORES)
    os.sched_setaffinity(0, {core})
    try:
        thread = threading.Thread(target=lambda: None)
        assert start_here(thread) is None
        thread.join()
        assert os.sched_getaffinity(0) == {core}
    finally:
        os.sched_setaffinity(0, CORES)


def test_without_the_calls_it_is_a_plain_start(monkeypatch):
    monkeypatch.setattr(placement, "_current_core", None)
    seen = []
    thread = threading.Thread(target=lambda: seen.append(1))
    assert start_here(thread) is None
    thread.join()
    assert seen == [1]


@pinnable
def test_a_contained_body_is_held_only_until_the_watcher_first_looks():
    def body(_):
        first = os.sched_getaffinity(0)
        time.sleep(HOLD_SECONDS * 2.5)  # past the watcher's first look
        return first, os.sched_getaffinity(0)

    first, later = run_contained(body, 30.0, lambda error: None)
    assert len(first) == 1 and later == CORES
    assert os.sched_getaffinity(0) == CORES
