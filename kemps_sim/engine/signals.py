"""Gestures in the round: deliberate ones from intents, natural fidgets from each seat's Poisson stream, and the
percepts they cause in every other seat after a perception latency.

Gaze is sampled lazily, per observer, at the moment a gesture happens; the observer gets a percept only when
signal detection says "deliberate" (equal-variance SDT with the observer's d' and criterion). A seat receives
percepts only of the gesture types its agent watches (``Agent.watches``). Fidgets of a type nobody watches and
no pair uses as its signal could change nothing and are not simulated: by the superposition of Poisson streams
the remaining fidgets keep exactly their rates.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import simpy

from kemps_sim.gestures import Repertoire
from kemps_sim.perception import OPPONENT, PARTNER, Percept
from kemps_sim.trace import Gestured, Perceived

if TYPE_CHECKING:
    from kemps_sim.engine.round import RoundSim


class SignalChannel:
    """Turns gestures into trace events and delayed percepts for the observers."""

    def __init__(self, sim: RoundSim, repertoire: Repertoire) -> None:
        self.sim = sim
        self.repertoire = repertoire
        n = sim.rules.players
        half = n // 2
        #: relation[observer][gesturer]
        self.relation = [[PARTNER if (o - g) % n == half else OPPONENT for g in range(n)] for o in range(n)]
        #: the gesture names each seat watches this round (None: all of them)
        self.watches = [sim.hook(seat, "watches", kit.watches, obs)
                        for seat, (kit, obs) in enumerate(zip(sim.kits, sim.observations, strict=True))]
        self.streams: list = []

    def start_fidgets(self) -> None:
        """Start every seat's natural gestures: one Poisson stream per seat, the type drawn per event.

        Each fidget is a bare timeout with a callback (no process to resume), as they are the commonest events.
        """
        sim = self.sim
        if any(w is None for w in self.watches):
            exclude: tuple[str, ...] = ()
        else:
            kept = set(sim.signals).union(*self.watches)
            exclude = tuple(name for name in self.repertoire.names if name not in kept)
        self.streams = [kit.fidgets_without(exclude) for kit in sim.kits]
        for seat in range(sim.rules.players):
            self._schedule_fidget(seat)

    def _schedule_fidget(self, seat: int) -> None:
        gap = self.streams[seat].next_gap()
        if gap != float("inf"):
            self.sim.env.timeout(gap).callbacks.append(partial(self._fidget, seat))

    def _fidget(self, seat: int, _: simpy.Event) -> None:
        if self.sim.over:
            return
        self.gesture(seat, self.streams[seat].next_kind(), deliberate=False)
        self._schedule_fidget(seat)

    def gesture(self, seat: int, name: str, deliberate: bool) -> None:
        """A gesture happens now: record it and let every other seat that watches it perhaps perceive it."""
        sim = self.sim
        now = sim.env.now
        gesture = self.repertoire[name]
        sim.trace.append(Gestured(now, seat, name, deliberate, sim.holding[seat]))
        relation, reaching, watches = self.relation, sim.reaching, self.watches
        for observer, kit in enumerate(sim.kits):
            if observer == seat:
                continue
            watched = watches[observer]
            if watched is not None and name not in watched:
                continue
            percept = kit.perceiver.perceive(gesture, deliberate, relation[observer][seat], reaching[observer],
                                             seat, now)
            if percept is not None:
                timer = sim.env.timeout(kit.latency())
                timer.callbacks.append(partial(self._deliver, observer, percept, deliberate, reaching[observer]))

    def _deliver(self, observer: int, percept: Percept, deliberate: bool, busy: bool, _: simpy.Event) -> None:
        sim = self.sim
        if sim.over:
            return
        sim.percepts[observer].append(percept)
        sim.trace.append(Perceived(sim.env.now, observer, percept.gesturer, percept.gesture, percept.evidence,
                                   percept.gaze, percept.time, deliberate, busy))
        if sim.waiting[observer] is not None:
            sim.public.now = sim.env.now
            if sim.hook(observer, "wakes_on", sim.kits[observer].wakes_on, percept, sim.observations[observer]):
                sim.wake(observer)
