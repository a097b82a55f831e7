"""A match played live: on the wall's clock it has the same trace as on SimPy's plain one, its listener hears every
event of the trace as it is recorded, in order and with its round, and the wall clock paces it."""

from __future__ import annotations

import time

import pytest
import simpy

from kemps_sim import simulate_match
from kemps_sim.engine import Live
from kemps_sim.errors import ConfigError


def events(result):
    return [(index, event) for index, played in enumerate(result.rounds) for event in played.trace]


@pytest.mark.parametrize("preset", ["standard", "kems"])
def test_the_wall_clock_changes_when_things_happen_not_what_happens(preset):
    heard = []
    plain = simulate_match(preset, "collector,watcher", seed=11)
    started = time.monotonic()
    live = simulate_match(preset, "collector,watcher", seed=11,
                          live=Live.realtime(0.0005, lambda index, event: heard.append((index, event))))
    elapsed = time.monotonic() - started
    assert events(live) == events(plain) == heard
    assert live.standings == plain.standings and live.end_reason == plain.end_reason
    # The real-time environment sleeps until the wall reaches each event: the match took at least its simulated
    # length times the factor (a lower bound that holds whatever the machine's load).
    assert elapsed >= 0.0005 * sum(played.end_time for played in live.rounds)


def test_a_listener_on_the_plain_clock_hears_the_same_events():
    heard = []
    result = simulate_match("standard", "collector", seed=2, live=Live(listener=lambda i, e: heard.append((i, e))))
    assert heard == events(result) and {index for index, _ in heard} == set(range(len(result.rounds)))


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Live.realtime(0), r"^live.factor = 0: must be a number > 0 \(wall seconds per simulated second\)$"),
    (lambda: Live.realtime(True), r"^live.factor = True: must be a number > 0"),
    (lambda: Live(clock="fast"), r"^live.clock = 'fast': must make a SimPy environment"),
    (lambda: Live(listener=3), r"^live.listener = 3: must be called with \(round index, event\), or None$"),
])
def test_bad_live_settings_are_one_line(make, message):
    with pytest.raises(ConfigError, match=message):
        make()


def test_a_clock_that_makes_no_environment_is_one_line():
    with pytest.raises(ConfigError, match=r"^live.clock made dict, not a simpy.Environment$"):
        simulate_match("standard", "collector", seed=1, live=Live(clock=dict))
    assert isinstance(Live().environment(), simpy.Environment)
