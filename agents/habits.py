"""Small pieces of behaviour the built-in agents share: passing on a middle, saying it has stalled after a while,
objecting to someone else's "stalled", and signalling while holding four of a kind."""

from __future__ import annotations

import numpy as np

from kemps_sim.cards import RANK
from kemps_sim.compile_hints import mypyc_attr
from kemps_sim.intents import WAIT, WAIT_STALE, Gesture, Intent, Object, SayStalled, Wait
from kemps_sim.observation import Observation


@mypyc_attr(allow_interpreted_subclasses=True)  # a part a researcher may vary by deriving from it
class RoundMemory:
    """What an agent tracks within a round: when the middle last changed, how long to look at it, its signals."""

    def __init__(self) -> None:
        self.round = -1
        self.percepts_read = 0
        self.version = -1
        self.version_since = 0.0
        self.stalled_version = -1
        self.objected_to: float | None = None
        self.last_signal = float("-inf")
        self.patience: float | None = 0.0

    def refresh(self, obs: Observation, rng: np.random.Generator, hurry: float | None = None) -> None:
        """Reset at a new round; note when the current middle first appeared and how long to look at it.

        The look before saying "stalled" is drawn anew for every middle from the seat's own profile
        (``PlayerProfile.patience``), so that one player says it first and the others hear it, as at a real table.
        ``hurry`` (seconds, drawn from half to one and a half times it) replaces the profile's patience for a
        middle the agent wants gone quickly. Where the engine keeps the profile's patience (``obs.patience_left``)
        and there is no hurry, the agent draws none (``patience`` None) and waits stale: the engine wakes it when
        its patience runs out.
        """
        if obs.round_index != self.round:
            self.__init__()  # type: ignore[misc]
            self.round = obs.round_index
        version = obs.middle_version
        if version != self.version:
            self.version = version
            self.version_since = obs.now
            if hurry is None:
                self.patience = None if obs.patience_left is not None else obs.profile.patience.draw(rng)
            else:
                self.patience = hurry * (0.5 + float(rng.random()))

    def partner_signalled(self, obs: Observation) -> bool:
        """Whether a new percept shows the partner making the pair's signal."""
        percepts = obs.percepts
        if len(percepts) == self.percepts_read:
            return False
        partner, signal = obs.partner, obs.signal
        seen = any(p.gesturer == partner and p.gesture == signal for p in percepts[self.percepts_read:])
        self.percepts_read = len(percepts)
        return seen

    def signal_or_wait(self, obs: Observation, resignal: float) -> Intent:
        """Holding four of a kind: give the signal, and again every ``resignal`` seconds until a call."""
        if obs.now - self.last_signal >= resignal:
            self.last_signal = obs.now
            return Gesture(obs.signal)
        return Wait(timeout=max(resignal - (obs.now - self.last_signal), 0.05))

    def objection(self, obs: Observation, wanted: bool) -> Intent | None:
        """Object to a pending "stalled" said by someone else while the middle holds a card the seat wants
        (``wanted``), once per stall: "wait, I want that one" (004: the dealer sweeps only if nobody objects)."""
        if not wanted:
            return None
        pending = obs.stall_pending_until
        if pending is None or self.stalled_version == obs.middle_version or self.objected_to == pending:
            return None
        self.objected_to = pending
        return Object()

    def idle(self, obs: Observation) -> Intent:
        """Want nothing in the middle: pass, and say "stalled" once it has sat unchanged for the drawn patience.

        While a stall is pending or the dealer refills it simply waits: an objection and a fresh middle wake
        everyone, and the patience starts again on the new middle.
        """
        mode = obs.rules.fresh_middle
        if mode == "nobody_wants" or (mode == "dealer_decides" and obs.seat != obs.dealer):
            return WAIT
        version = obs.middle_version
        if obs.refilling or obs.stall_pending_until is not None or self.stalled_version == version:
            return WAIT
        patience = self.patience
        if patience is None:  # the engine keeps the patience: it wakes the seat when it runs out
            left = obs.patience_left
            if left is not None and left > 0.0:
                return WAIT_STALE
            self.stalled_version = version
            return SayStalled()
        waited = obs.now - self.version_since
        if waited >= patience:
            self.stalled_version = version
            return SayStalled()
        return Wait(timeout=patience - waited)


def holds_four(hand: tuple[int, ...]) -> bool:
    """Four cards of one rank."""
    return len(hand) == 4 and RANK[hand[0]] == RANK[hand[1]] == RANK[hand[2]] == RANK[hand[3]]
