"""The signal-choice part: which gesture the pair uses as its signal next round.

- ``fixed``: keep the starting ``signal`` all match.
- ``change_when_seen``: after a round in which the pair's signal was the cue of a call about the pair (every call
  is public, so the opponents saw which gesture it answered: 004 "once the other pair has seen a signal called,
  they know it"), switch to a gesture the pair has not used yet, drawn at random; blinks only when nothing else
  is left (20 a minute: hopeless as a signal).
- ``random``: a fresh draw from the allowed signals every round.

Only the lower seat of a pair is asked (``choose_signal``); it sees the last round's public log.
"""

from __future__ import annotations

import numpy as np

from kemps_sim.errors import ConfigError
from kemps_sim.observation import Observation
from kemps_sim.seating import NOBODY, pair_of
from kemps_sim.trace import CallHeard

SIGNAL_POLICIES: tuple[str, ...] = ("fixed", "change_when_seen", "random")
#: A gesture too frequent by nature to be chosen unless nothing else is left.
HOPELESS = ("blink",)


def check_signal_params(owner: str, signal: str, policy: str) -> None:
    """Refuse a non-text signal or an unknown policy with one line naming the parameter."""
    if not isinstance(signal, str) or not signal:
        raise ConfigError(f"{owner}.signal = {signal!r}: must be a gesture name such as 'ear'")
    if policy not in SIGNAL_POLICIES:
        raise ConfigError(f"{owner}.signal_policy = {policy!r}: must be one of {', '.join(SIGNAL_POLICIES)}")


def seen_called(obs: Observation) -> bool:
    """Whether the pair's current signal was the cue of a call about the pair in the round just played."""
    signal, pair, players = obs.signal, obs.pair, obs.rules.players
    for event in obs.log:
        if type(event) is CallHeard and event.cue == signal:
            about = event.seat if event.accused == NOBODY else event.accused
            if pair_of(players, about) == pair:
                return True
    return False


class SignalChoice:
    """Chooses the pair's signal between rounds by one of :data:`SIGNAL_POLICIES`."""

    def __init__(self, signal: str, policy: str) -> None:
        self.signal = signal
        self.policy = policy
        self.used: list[str] = []

    def choose(self, obs: Observation, rng: np.random.Generator) -> str:
        allowed = obs.signals_allowed
        if self.policy == "random":
            choice = allowed[int(rng.integers(len(allowed)))]
        elif not obs.signal:
            choice = self.signal
        elif self.policy == "change_when_seen" and seen_called(obs):
            choice = self._fresh(allowed, obs.signal, rng)
        else:
            choice = obs.signal
        if choice not in self.used:
            self.used.append(choice)
        return choice

    def _fresh(self, allowed: tuple[str, ...], current: str, rng: np.random.Generator) -> str:
        """A gesture not used yet (all of them again once every one has been used), blinks last."""
        unused = [g for g in allowed if g not in self.used and g not in HOPELESS]
        if not unused:
            self.used = [current]
            unused = [g for g in allowed if g != current and g not in HOPELESS] or [g for g in allowed
                                                                                    if g != current]
        return unused[int(rng.integers(len(unused)))] if unused else current
