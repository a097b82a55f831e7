"""Small scripted agents that isolate one mechanism of the engine for a test."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kemps_sim.agent import BaseAgent
from kemps_sim.intents import (
    CallDoubleKemps,
    CallKemps,
    CallStopKemps,
    Gesture,
    Intent,
    Object,
    SayStalled,
    Swap,
    Wait,
)
from kemps_sim.observation import Observation
from kemps_sim.trace import PlayStarted


class Idle(BaseAgent):
    """Never does anything: waits for changes forever."""

    name = "idle"

    def decide(self, obs: Observation) -> Intent:
        return Wait()


class GrabFirstCard(BaseAgent):
    """At its first decision, reaches for the card that lay first in the middle when play started."""

    name = "grab_first_card"

    def decide(self, obs: Observation) -> Intent:
        if getattr(self, "tried", False):
            return Wait()
        self.tried = True
        start = next(e for e in obs.log if type(e) is PlayStarted)
        card = start.middle[0]
        if card in obs.middle:
            return Swap((obs.hand[0],), (card,))
        return Wait()


class Gesturer(BaseAgent):
    """Makes a deliberate gesture every ``every`` seconds."""

    name = "gesturer"

    def __init__(self, gesture: str = "ear", every: float = 1.0):
        self.gesture = gesture
        self.every = every

    def decide(self, obs: Observation) -> Intent:
        last = getattr(self, "last", -1e9)
        if obs.now - last >= self.every:
            self.last = obs.now
            return Gesture(self.gesture)
        return Wait(timeout=self.every - (obs.now - last))


class Caller(BaseAgent):
    """Makes one call at its first decision (``kemps``, ``stop`` on ``accused``, or ``double``), then a second
    Stop Kemps if ``again``; otherwise waits."""

    name = "caller"

    def __init__(self, call: str = "kemps", accused: int = 1, again: bool = False):
        self.call = call
        self.accused = accused
        self.again = again

    def decide(self, obs: Observation) -> Intent:
        made = getattr(self, "made", 0)
        if made == 0 or (made == 1 and self.again):
            self.made = made + 1
            if self.call == "kemps":
                return CallKemps()
            if self.call == "double":
                return CallDoubleKemps()
            return CallStopKemps(self.accused)
        return Wait()


class Staller(BaseAgent):
    """Says "stalled" at its first decision, then waits."""

    name = "staller"

    def decide(self, obs: Observation) -> Intent:
        if not getattr(self, "said", False):
            self.said = True
            return SayStalled()
        return Wait()


class Objector(BaseAgent):
    """Objects to every pending stall."""

    name = "objector"

    def decide(self, obs: Observation) -> Intent:
        if obs.stall_pending_until is not None and getattr(self, "objected_to", None) != obs.stall_pending_until:
            self.objected_to = obs.stall_pending_until
            return Object()
        return Wait()


class PingPong(BaseAgent):
    """Swaps the same card back and forth with the middle forever: a livelock unless the round is capped."""

    name = "ping_pong"

    def decide(self, obs: Observation) -> Intent:
        return Swap((obs.hand[0],), (obs.middle[0],))


class Returns(BaseAgent):
    """Returns whatever it was built with from every decision (for testing refusals)."""

    name = "returns"

    def __init__(self, value: object = None):
        self.value = value

    def decide(self, obs: Observation) -> Intent:
        value = self.value
        if value == "foreign_card":
            return Swap((obs.middle[0],), (obs.middle[1],))
        return value  # type: ignore[return-value]


def force_hand(table, seat: int, wanted: list[int]) -> None:
    """Give ``seat`` exactly the cards ``wanted`` by swapping them with wherever they lie (hands, middle, pack):
    every card stays in exactly one place, so the table's conservation check still holds."""
    hand = table.hands[seat]
    for slot, card in enumerate(wanted):
        if hand[slot] == card:
            continue
        for place in [*table.hands, table.middle, table.pack]:
            if card in place:
                place[place.index(card)] = hand[slot]
                hand[slot] = card
                break
    table.check()


class Scripted(BaseAgent):
    """Plays a script: ``script[r]`` lists the ``(seconds after play started, intent)`` to make in round ``r``, in
    order; ``signals[r]`` is the pair's signal for round ``r`` when this seat chooses it (the pair's first seat;
    past the end the last one is kept; empty: :class:`BaseAgent`'s default). Between scripted moments it waits
    until the next one is due; it never swaps, so the hands stay as dealt."""

    name = "scripted"

    def __init__(self, script: Sequence[Sequence[tuple[float, Intent]]] = (), signals: Sequence[str] = ()):
        self.script = script
        self.signals = signals

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        super().start_match(seat, players, rng)
        self.asked = 0  # choose_signal is asked once before every round (its view shows the previous round)
        self.done: dict[int, int] = {}  # round index -> scripted intents made in it

    def choose_signal(self, obs: Observation) -> str:
        index, self.asked = self.asked, self.asked + 1
        if not self.signals:
            return super().choose_signal(obs)
        return self.signals[min(index, len(self.signals) - 1)]

    def decide(self, obs: Observation) -> Intent:
        if not obs.playing:
            return Wait()
        index = obs.round_index
        actions = self.script[index] if index < len(self.script) else ()
        done = self.done.get(index, 0)
        if done >= len(actions):
            return Wait()
        at, intent = actions[done]
        started = next((e.time for e in obs.log if type(e) is PlayStarted), 0.0)
        elapsed = obs.now - started
        if elapsed < at:
            return Wait(timeout=at - elapsed)
        self.done[index] = done + 1
        return intent
