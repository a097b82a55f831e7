"""Built-ins object to someone else's "stalled" while the middle holds a card they want (004: the dealer sweeps
only if nobody objects), then take it. A feeder that hurries (``hurry=0.3``: it says "stalled" a third of a second
after the middle changes when nothing there is for its partner) says it often while the others still want cards."""

from __future__ import annotations

from kemps_sim import simulate_match
from kemps_sim.trace import Objected, StallSaid, Swapped

MATCHES = 30


def test_a_seat_that_wants_a_middle_card_objects_and_then_takes_it():
    stalls = objections = took_after = 0
    for seed in range(MATCHES):
        for rnd in simulate_match("standard", ["feeder(hurry=0.3)", "collector"], seed=seed).rounds:
            trace = rnd.trace
            for i, event in enumerate(trace):
                stalls += type(event) is StallSaid
                if type(event) is Objected:
                    objections += 1
                    own = next((e for e in trace[i + 1:] if type(e) is Swapped and e.seat == event.seat), None)
                    took_after += own is not None and own.took != () and own.time - event.time < 3.0
    assert objections >= 30, (stalls, objections)
    assert objections < 0.5 * stalls  # most stalls are said when nobody wants anything: nobody objects
    assert took_after >= 0.9 * objections, (objections, took_after)  # the objector wanted a card, and took one
