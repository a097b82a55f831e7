"""Gestures in the round: deliberate ones from intents, natural fidgets from each seat's Poisson stream, and the
percepts they cause in every other seat after a perception latency.

Gaze is sampled lazily, per observer, at the moment a gesture happens; the observer gets a percept only when
signal detection says "deliberate" (equal-variance SDT with the observer's d' and criterion). A seat receives
percepts only of the gesture types its agent watches (``Agent.watches``). Fidgets of a type nobody watches and
no pair uses as its signal could change nothing and are not simulated: by the superposition of Poisson streams
the remaining fidgets keep exactly their rates.

Two human errors live here. An observer may read a noticed gesture as the look-alike signal it is waiting for
(``Observer.priming``): its partner's touch of the hair as the pair's ear signal, or an opponent's as that pair's
signal once the table has seen it called, and then takes the percept under that name. A natural gesture of a
seat's own signal may look meant (``PlayerProfile.slips_per_hour``): it is perceived as a deliberate one would be
and recorded as a slip.

A pair's signal is a form its partners agreed: until the table has seen it called, nobody outside the pair knows
the form, and sees that pair's gestures with d' times ``Observer.unfamiliar`` (what the table has seen called is
public: the match passes in every (pair, gesture) seen called in the rounds before).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
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
                 players: Players, repertoire: Repertoire, called: Collection[tuple[int, str]] = ()) -> None:
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
        self.slip_chance = [kit.slip_chance(self.own_signal[seat]) for seat, kit in enumerate(players.kits)]
        #: familiar[observer][gesturer]: whether the observer knows the form of the gesturer's pair's signal (its own
        #: pair's, or one the table has seen called: ``called`` holds every (pair, gesture) seen called so far)
        shown = [(pair_of(n, seat), state.signals[pair_of(n, seat)]) in called for seat in range(n)]
        self.familiar = [[self.partner[o] == g or shown[g] for g in range(n)] for o in range(n)]
        #: primed[observer][gesturer]: {look-alike: (the signal it may be read as,)} for each gesturer the observer
        #: awaits a known signal from
        self.primed = [[self._primed(observer, gesturer, shown[gesturer]) for gesturer in range(n)]
                       for observer in range(n)]
        self.streams: list = []

    def _primed(self, observer: int, gesturer: int, shown: bool) -> dict[str, tuple[str, ...]]:
        """The gestures of ``gesturer`` the observer may read as a signal it awaits, each with that signal: the
        look-alikes of the pair's own signal from the partner, and of an opponent pair's signal the table has seen
        called (the one it knows to wait for) from that pair's players; none when the observer's ``priming`` is 0."""
        if observer == gesturer or self.players.kits[observer].profile.observer.priming <= 0.0:
            return {}
        if self.partner[observer] != gesturer and not shown:
            return {}
        signal = self.own_signal[gesturer]
        return {name: (signal,) for name in self.repertoire.look_alikes(signal)}

    def start_fidgets(self) -> None:
        """Start every seat's natural gestures: one Poisson stream per seat, the type drawn per event.

        Each fidget is a bare timeout with a callback (no process to resume), as they are the commonest events.
        """
        if any(w is None for w in self.watches):
            exclude: tuple[str, ...] = ()
        else:
            kept = set(self.state.signals).union(*self.watches, *(p for row in self.primed for p in row))
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
        slip = kind == self.own_signal[seat] and self.players.kits[seat].slips(self.slip_chance[seat])
        self.gesture(seat, kind, deliberate=False, slip=slip)
        self._schedule_fidget(seat, streams)

    def gesture(self, seat: int, name: str, deliberate: bool, slip: bool = False) -> None:
        """A gesture happens now: record it and let every other seat that watches it perhaps perceive it (a seat
        primed for a signal, a look-alike of it too); a slip is perceived as a deliberate gesture would be."""
        state = self.state
        now = self.env.now
        gesture = self.repertoire[name]
        self.record(Gestured(now, seat, name, deliberate, state.holding[seat], slip))
        relation, reaching, watches, primed, familiar = (self.relation, state.reaching, self.watches, self.primed,
                                                         self.familiar)
        looks_meant = deliberate or slip
        for observer, kit in enumerate(self.players.kits):
            if observer == seat:
                continue
            watched = watches[observer]
            alikes = primed[observer][seat].get(name)
            if watched is not None and name not in watched and alikes is None:
                continue
            busy = reaching[observer]
            percept = kit.perceiver.perceive(gesture, looks_meant, relation[observer][seat], busy, seat, now,
                                             familiar[observer][seat])
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
