"""The fake-signal protocol a bluffing pair agrees before play, applied by the partner from observations alone.

A fake signal (the pair's own gesture, made with only three of a kind to bait a wrong Stop Kemps: 004, 000) comes
**while the faker is still swapping**: within :data:`FAKE_WINDOW` seconds of its last swap. A real signal never
does: a holder who follows the protocol sits still for longer than the window before signalling. The partner
sees every swap in the public log and stamps every percept with the moment the gesture was made, so it can tell
one from the other: a signal made less than the window after the signaller's own last swap is a fake.

The cost of the protocol is the wait: a real signal comes at least the window after the four-making swap
(≈0.75 s after it otherwise: a reaction and a gesture). And the timing that tells the partner a fake is a tell to
everyone: a seat burnt by the pair's fakes learns that its gestures right after its own swaps are not to be trusted,
while those after a stillness are (:mod:`kemps_sim.belief.tells`), so the fakes stop paying after a round or two.
"""

from __future__ import annotations

from kemps_sim.belief.tracking import TableReader

#: Seconds after the signaller's own swap during which its signal is a fake (a real one waits longer).
FAKE_WINDOW = 1.2
#: A faker gestures only if its decision comes this much inside the window (the gesture itself takes ≈0.4 s).
FAKE_MARGIN = 0.6


def is_fake(reader: TableReader, signaller: int, made_at: float) -> bool:
    """Whether a signal made at ``made_at`` by ``signaller`` is a fake under the protocol."""
    return made_at - reader.last_swap_before(signaller, made_at) < FAKE_WINDOW


def may_fake_now(now: float, last_own_swap: float) -> bool:
    """Whether a faker deciding now would gesture inside the window (so its partner reads it as a fake)."""
    return now - last_own_swap < FAKE_WINDOW - FAKE_MARGIN


def real_signal_wait(now: float, last_own_swap: float) -> float:
    """Seconds a holder must still sit still before a real signal reads as real (0 if none)."""
    return max(FAKE_WINDOW + 0.05 - (now - last_own_swap), 0.0)
