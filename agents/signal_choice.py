"""The signal-choice part: which gesture the pair uses as its signal next round.

``signal`` is the starting signal: ``"auto"`` (the default) takes the first of the pair's candidates, the natural
gestures the table dealt it (:mod:`kemps_sim.conventions`, ``Observation.signal_candidates``), so that no two pairs
start alike; a gesture name starts with that gesture. ``signal_policy`` says how it changes between rounds:

- ``convention`` (default): as 004 and 000 advise, keep the signal until it is blown, then agree a new one. It is
  blown when it was seen called in the round just played (:func:`seen_called`: 004 "once the other pair has seen a
  signal called, they know it") or a Stop Kemps, right or wrong, accused a player of the pair (the other side
  thinks it read the pair). The new one is the candidate used least recently (never used first, in the order
  dealt), so a pair cycles through its candidates, oldest first. A pair with one candidate keeps it. People do not
  always follow the advice: a blown signal is changed with probability ``discipline`` (:data:`DISCIPLINE`), else
  kept another round.
- ``fixed``: keep the starting signal all match.
- ``change_when_seen``: after a round in which the signal was seen called, switch to a gesture the pair has not
  used yet among all allowed ones, drawn at random; blinks only when nothing else is left (20 a minute: hopeless
  as a signal).
- ``random``: a fresh draw from the allowed signals every round.

Only the lower seat of a pair is asked (``choose_signal``); it sees the last round's public log.
"""

from __future__ import annotations

import numpy as np

from kemps_sim.compile_hints import mypyc_attr
from kemps_sim.errors import ConfigError
from kemps_sim.fitted_human import FITTED
from kemps_sim.observation import Observation
from kemps_sim.seating import NOBODY, pair_of
from kemps_sim.trace import CallHeard

SIGNAL_POLICIES: tuple[str, ...] = ("convention", "fixed", "change_when_seen", "random")
#: The ``signal`` that means "the pair's first candidate" (the default of every built-in).
AUTO = "auto"
#: How often a pair changes a blown signal before the next round. In 004's worked game both pairs had their
#: signal seen called (Alice and Cara's ear in round 1, Ben and Dev's nose in round 2) and kept it until round 5:
#: 2 changes in 7 rounds in which a change was due (exact 95% interval 0.04 to 0.71). Fitted within that interval
#: to the calibration targets (kemps_sim.fitted_human).
DISCIPLINE = FITTED["agent.signal_discipline"]
#: A gesture too frequent by nature to be chosen unless nothing else is left.
HOPELESS = ("blink",)


def check_signal_params(owner: str, signal: object, policy: object, discipline: object = DISCIPLINE) -> None:
    """Refuse a signal that is neither ``"auto"`` nor a gesture name, or an unknown policy, with one line naming
    the parameter. (Whether the gesture is allowed depends on the table's rules and repertoire: the engine checks
    the signal chosen.)"""
    if not isinstance(signal, str) or not signal or signal.strip() != signal or " " in signal:
        raise ConfigError(f"{owner}.signal = {signal!r}: must be 'auto' (the pair's first candidate) or a gesture "
                          "name such as 'ear'")
    if not isinstance(policy, str) or policy not in SIGNAL_POLICIES:
        raise ConfigError(f"{owner}.signal_policy = {policy!r}: must be one of {', '.join(SIGNAL_POLICIES)}")
    if isinstance(discipline, bool) or not isinstance(discipline, int | float) or not 0.0 <= discipline <= 1.0:
        raise ConfigError(f"{owner}.signal_discipline = {discipline!r}: must be a probability from 0 to 1 (how "
                          "often a blown signal is changed under signal_policy 'convention')")


def seen_called(obs: Observation) -> bool:
    """Whether the pair's current signal was the cue of a call about the pair in the round just played."""
    signal, pair, players = obs.signal, obs.pair, obs.rules.players
    for event in obs.log:
        if type(event) is CallHeard and event.cue == signal:
            about = event.seat if event.accused == NOBODY else event.accused
            if pair_of(players, about) == pair:
                return True
    return False


def stopped_against(obs: Observation) -> bool:
    """Whether a Stop Kemps, right or wrong, accused a player of the seat's pair in the round just played."""
    pair, players = obs.pair, obs.rules.players
    return any(type(event) is CallHeard and event.accused != NOBODY and pair_of(players, event.accused) == pair
               for event in obs.log)


def first_signal(obs: Observation) -> str:
    """The pair's first candidate; with none dealt, the first allowed gesture that is not hopeless."""
    candidates = obs.signal_candidates
    if candidates:
        return candidates[0]
    allowed = obs.signals_allowed
    return next((g for g in allowed if g not in HOPELESS), allowed[0])


@mypyc_attr(allow_interpreted_subclasses=True)  # a part a researcher may vary by deriving from it
class SignalChoice:
    """Chooses the pair's signal between rounds by one of :data:`SIGNAL_POLICIES`."""

    def __init__(self, signal: str, policy: str, discipline: float = DISCIPLINE) -> None:
        self.signal = signal
        self.policy = policy
        self.discipline = discipline
        self.used: list[str] = []
        self.last_used: dict[str, int] = {}  # gesture -> the round it was last chosen for (convention)

    def choose(self, obs: Observation, rng: np.random.Generator) -> str:
        allowed = obs.signals_allowed
        if self.policy == "random":
            choice = allowed[int(rng.integers(len(allowed)))]
        elif not obs.signal:
            choice = first_signal(obs) if self.signal == AUTO else self.signal
        elif self.policy == "change_when_seen" and seen_called(obs):
            choice = self._fresh(allowed, obs.signal, rng)
        elif self.policy == "convention" and (seen_called(obs) or stopped_against(obs)) and (
                self.discipline >= 1.0 or float(rng.random()) < self.discipline):
            choice = self._next_candidate(obs)
        else:
            choice = obs.signal
        if choice not in self.used:
            self.used.append(choice)
        self.last_used[choice] = obs.round_index
        return choice

    def _next_candidate(self, obs: Observation) -> str:
        """The candidate other than the current signal chosen least recently (never chosen first, then in the
        dealt order); the current signal if the pair has no other."""
        current = obs.signal
        others = [g for g in obs.signal_candidates if g != current]
        if not others:
            return current
        return min(others, key=lambda g: self.last_used.get(g, -1))

    def _fresh(self, allowed: tuple[str, ...], current: str, rng: np.random.Generator) -> str:
        """A gesture not used yet (all of them again once every one has been used), blinks last."""
        unused = [g for g in allowed if g not in self.used and g not in HOPELESS]
        if not unused:
            self.used = [current]
            unused = [g for g in allowed if g != current and g not in HOPELESS] or [g for g in allowed
                                                                                    if g != current]
        return unused[int(rng.integers(len(unused)))] if unused else current
