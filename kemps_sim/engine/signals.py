"""Gestures in the round: deliberate ones from intents, natural fidgets from each seat's Poisson stream, and the
percepts they cause in every other seat after a perception latency.

Gaze is sampled lazily, per observer, at the moment a gesture happens; the observer gets a percept only when
signal detection says "deliberate" (equal-variance SDT with the observer's d' and criterion). A seat receives
percepts only of the gesture types its agent watches (``Agent.watches``). Fidgets of a type nobody watches and
no pair uses as its signal could change nothing and are not simulated: by the superposition of Poisson streams
the remaining fidgets keep exactly their rates.

Two human errors live here. An observer may read a noticed gesture of its partner as the look-alike it is waiting
for, the pair's signal (``Observer.priming``), and then takes the percept under that name. A natural gesture of a
seat's own signal may look meant (``PlayerProfile.slip``): it is perceived as a deliberate one would be and recorded
as a slip.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import simpy

from kemps_sim.engine.players import Players
from kemps_sim.gestures import Repertoire
from kemps_sim.perception import OPPONENT, PARTNER, Percept
from kemps_sim.seating import pair_of, partner
from kemps_sim.state import RoundState
from kemps_sim.trace import Gestured, Perceived, TraceEvent


class SignalChannel:
    """Turns gestures into trace events and delayed percepts for the observers."""

    def __init__(self, env: simpy.Environment, state: RoundState, record: Callable[[TraceEvent], None],
                 players: Players, repertoire: Repertoire) -> None:
        self.env, self.state, self.record, self.players = env, state, record, players
        self.repertoire = repertoire
        n = state.rules.players
        #: relation[observer][gesturer]
        self.relation = [[PARTNER if partner(n, o) == g else OPPONENT for g in range(n)] for o in range(n)]
        #: the gesture names each seat watches this round (None: all of them)
        self.watches = [players.hook(seat, "watches", kit.watches, view)
                        for seat, (kit, view) in enumerate(zip(players.kits, players.views, strict=True))]
        self.own_signal = [state.signals[pair_of(n, seat)] for seat in range(n)]
        self.partner = [partner(n, seat) for seat in range(n)]
        #: primed[observer][g]: (the pair's signal,) for each look-alike g of it, when the observer is primed
        self.primed = [self._primed(observer) for observer in range(n)]
        self.streams: list = []

    def _primed(self, observer: int) -> dict[str, tuple[str, ...]]:
        """The partner's gestures the observer may read as the pair's signal: its look-alikes (none at all when
        the observer's ``priming`` is 0)."""
        if self.players.kits[observer].profile.observer.priming <= 0.0:
            return {}
        signal = self.own_signal[observer]
        return {name: (signal,) for name in self.repertoire.look_alikes(signal)}

    def start_fidgets(self) -> None:
        """Start every seat's natural gestures: one Poisson stream per seat, the type drawn per event.

        Each fidget is a bare timeout with a callback (no process to resume), as they are the commonest events.
        """
        if any(w is None for w in self.watches):
            exclude: tuple[str, ...] = ()
        else:
            kept = set(self.state.signals).union(*self.watches, *self.primed)
            exclude = tuple(name for name in self.repertoire.names if name not in kept)
        self.streams = [kit.fidgets_without(exclude) for kit in self.players.kits]
        for seat in range(self.state.rules.players):
            self._schedule_fidget(seat, self.streams)
        if exclude and self.players.config.all_fidgets:  # for the telling of a match: they change nothing
            unwatched = [kit.unwatched_fidgets(exclude) for kit in self.players.kits]
            for seat in range(self.state.rules.players):
                self._schedule_fidget(seat, unwatched)

    def _schedule_fidget(self, seat: int, streams: list) -> None:
        gap = streams[seat].next_gap()
        if gap != float("inf"):
            self.env.timeout(gap).callbacks.append(partial(self._fidget, seat, streams))

    def _fidget(self, seat: int, streams: list, _: simpy.Event) -> None:
        if self.state.over:
            return
        kind = streams[seat].next_kind()
        slip = kind == self.own_signal[seat] and self.players.kits[seat].slips()
        self.gesture(seat, kind, deliberate=False, slip=slip)
        self._schedule_fidget(seat, streams)

    def gesture(self, seat: int, name: str, deliberate: bool, slip: bool = False) -> None:
        """A gesture happens now: record it and let every other seat that watches it perhaps perceive it (a partner
        primed for the pair's signal, a look-alike of it too); a slip is perceived as a deliberate gesture would
        be."""
        state = self.state
        now = self.env.now
        gesture = self.repertoire[name]
        self.record(Gestured(now, seat, name, deliberate, state.holding[seat], slip))
        relation, reaching, watches, primed = self.relation, state.reaching, self.watches, self.primed
        looks_meant = deliberate or slip
        for observer, kit in enumerate(self.players.kits):
            if observer == seat:
                continue
            watched = watches[observer]
            alikes = primed[observer].get(name) if self.partner[observer] == seat else None
            if watched is not None and name not in watched and alikes is None:
                continue
            busy = reaching[observer]
            percept = kit.perceiver.perceive(gesture, looks_meant, relation[observer][seat], busy, seat, now)
            if percept is not None and alikes is not None:
                read_as = kit.perceiver.misread(alikes)
                if read_as is not None:
                    percept = percept._replace(gesture=read_as)
                elif watched is not None and name not in watched:
                    continue  # seen for what it is, and not watched
            if percept is not None:
                timer = self.env.timeout(kit.latency())
                timer.callbacks.append(partial(self._deliver, observer, percept, deliberate, busy))

    def _deliver(self, observer: int, percept: Percept, deliberate: bool, busy: bool, _: simpy.Event) -> None:
        state, players = self.state, self.players
        if state.over:
            return
        state.percepts[observer].append(percept)
        self.record(Perceived(self.env.now, observer, percept.gesturer, percept.gesture, percept.evidence,
                              percept.gaze, percept.time, deliberate, busy))
        if players.waiting[observer] is not None and players.hook(
                observer, "wakes_on", players.kits[observer].wakes_on, percept, players.views[observer]):
            players.wake(observer)
