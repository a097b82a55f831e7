"""Many matches in one contained thread (``run_contained_each``, how a sweep's chunk plays): every match gives the
result it gives alone, each is still held to its own limit, and one whose agent ignores the interrupt is given up
alone while the rest go on."""

from __future__ import annotations

import threading
import time

from kemps_sim import simulate_match
from kemps_sim.engine.guard import GRACE_SECONDS, run_contained, run_contained_each
from tests.test_agent_containment import QUIET, Idle, _agent, _loops, _sleeps


def _played_where(item: int) -> tuple[int, int]:
    """The item and the thread its contained body ran in."""
    return run_contained(lambda _: (item, threading.get_ident()), 5.0, lambda error: (item, -1))


def test_the_items_play_in_order_in_one_thread_that_is_not_the_callers():
    found = run_contained_each(list(range(6)), _played_where)
    assert [item for item, _ in found] == list(range(6))
    threads = {thread for _, thread in found}
    assert len(threads) == 1 and threading.get_ident() not in threads


def test_a_body_inside_a_contained_thread_plays_there_with_its_own_limit():
    def outer(watch):
        inner = run_contained(lambda w: (threading.get_ident(), w is watch, w.limit), 0.25, lambda error: None)
        return threading.get_ident(), inner, watch.limit

    here, (inner_thread, same_watch, inner_limit), after = run_contained(outer, None, lambda error: None)
    assert inner_thread == here and same_watch and inner_limit == 0.25 and after is None


def _lineup(fault: str):
    faults = {"loops": _agent("loops", _loops), "sleeps": _agent("sleeps", _sleeps)}
    return [Idle(), faults[fault], Idle(), Idle()] if fault in faults else "collector"


def _play(item: tuple[str, int]):
    fault, seed = item
    config = QUIET if fault in ("loops", "sleeps") else None
    return simulate_match("standard", _lineup(fault), seed=seed, errors="record", config=config)


def _play_where(item: tuple[str, int]):
    return threading.get_ident(), _play(item)


def _summary(result) -> tuple:
    return (result.seed, result.end_reason, result.error, tuple(r.trace for r in result.rounds))


def test_matches_played_together_give_what_each_gives_alone_with_faults_among_them():
    """A looping agent is interrupted inside the shared thread (its match records the timeout, the next match
    plays on in the same thread); a sleeping one ignores the interrupt, so that thread is given up, the match is
    played again alone (and given up the same way) and the rest go on in a fresh thread."""
    items = [("fine", 1), ("loops", 2), ("fine", 3), ("sleeps", 4), ("fine", 5)]
    threads, together = zip(*run_contained_each(items, _play_where), strict=True)
    assert threads[0] == threads[1] == threads[2] != threads[4]  # a fresh thread only after the one given up
    assert threads[3] == threading.get_ident()  # played again alone, from the calling thread
    alone = [_play(item) for item in items]
    assert [_summary(r) for r in together] == [_summary(r) for r in alone]
    ends = [r.end_reason for r in together]
    assert ends == ["match_over", "agent_error", "match_over", "agent_error", "match_over"]
    assert "did not return within 0.5 s" in together[1].error and "did not return within 0.5 s" in together[3].error


def test_an_interrupted_call_that_unwinds_is_not_given_up_however_long_its_body_goes_on():
    """What the shared thread relies on: once the stuck call has unwound, the thread is watched on, not given up
    because it is still busy (with the next match) when the grace period ends."""

    def loops() -> None:
        while True:
            pass

    def body(watch):
        try:
            watch.call(0, "decide", loops)
        except Exception as exc:
            interrupted = str(exc)
        time.sleep(GRACE_SECONDS * 1.5)  # busy past the grace period, outside any agent call
        return interrupted

    found = run_contained(body, 0.2, lambda error: "given up")
    assert found.startswith("seat 0: decide() did not return within 0.2 s of wall time")
