"""One round of Kemps in real time on a SimPy clock: players react, reach, gesture and call at once.

Each seat is a SimPy process that sleeps until something it can see changes, waits a reaction time, asks its
agent for an intent and carries it out: a reach for middle cards (first touch wins; a card already gone is a lost
race), a deliberate gesture, or a spoken call (the first call heard is judged on the hands of that moment).
Fidgets, percepts and the dealer's fresh middles live in :mod:`.signals` and :mod:`.middle`.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import simpy

from kemps_sim.cards import RANK, is_four_of_a_kind
from kemps_sim.engine.checks import IntentChecker
from kemps_sim.engine.config import EngineConfig
from kemps_sim.engine.middle import FreshMiddle
from kemps_sim.engine.seat import SeatKit
from kemps_sim.engine.signals import SignalChannel
from kemps_sim.errors import AgentError
from kemps_sim.gestures import Repertoire
from kemps_sim.intents import (
    INTENT_TYPES,
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
from kemps_sim.observation import Observation, PublicTable
from kemps_sim.rules import Rules
from kemps_sim.scoring import Call, CallKind, Outcome, Standings, judge, match_over
from kemps_sim.table import InvariantError, TableState
from kemps_sim.trace import (
    NOBODY,
    CallCutOff,
    CallHeard,
    Dealt,
    HandFour,
    PlayStarted,
    RaceLost,
    Redealt,
    Revealed,
    RoundEnded,
    Scored,
    Swapped,
    TraceEvent,
)

_INTENT_TYPES = frozenset(INTENT_TYPES)
_CALL_KINDS = {CallKemps: CallKind.KEMPS, CallStopKemps: CallKind.STOP_KEMPS, CallDoubleKemps: CallKind.DOUBLE_KEMPS}


@dataclass(frozen=True)
class RoundResult:
    """How one round ended, the standings after it, and everything that happened in it."""

    index: int
    dealer: int
    signals: tuple[str, ...]
    outcome: Outcome
    end_time: float
    standings: Standings
    trace: tuple[TraceEvent, ...]


class RoundSim:
    """The state and the SimPy processes of one round. Build it, call :meth:`run` once."""

    def __init__(self, *, rules: Rules, kits: Sequence[SeatKit], repertoire: Repertoire, config: EngineConfig,
                 rng: np.random.Generator, dealer: int, signals: Sequence[str], standings: Standings,
                 round_index: int, seed: int) -> None:
        self.rules, self.kits, self.config, self.rng = rules, kits, config, rng
        self.dealer, self.signals, self.standings = dealer, tuple(signals), standings
        self.round_index, self.seed = round_index, seed
        self.env = simpy.Environment()
        self.done = self.env.event()
        self.over = False
        self.outcome: Outcome | None = None
        self.trace: list[TraceEvent] = []
        n = rules.players
        self.table, redeals = TableState.deal(rules, rng, dealer)
        self.public = PublicTable(
            rules=rules, dealer=dealer, round_index=round_index,
            signals_allowed=tuple(g.name for g in repertoire.allowed_signals(rules.signal_modality)),
            middle=self.table.middle, standings_letters=standings.letters, standings_points=standings.points,
            last_swap=[float("-inf")] * n, swaps_made=[0] * n, pack_size=len(self.table.pack))
        self.percepts: list[list] = [[] for _ in range(n)]
        self.private: list[list[TraceEvent]] = [[] for _ in range(n)]
        self.barred: set[int] = set()
        self.observations = [
            Observation(s, self.public, self.table.hands[s], self.table.owed, self.percepts[s], self.barred,
                        self.signals[s % (n // 2)], kits[s].memory, self.private[s]) for s in range(n)]
        self.waiting: list[simpy.Event | None] = [None] * n
        self.reaching = [False] * n
        self.passed = [-1] * n
        self.calls_in_flight: dict[int, tuple[CallKind, float]] = {}
        self.tie_waiters: list[simpy.Event] = []
        self.holding = [self.table.has_four_of_a_kind(s) for s in range(n)]
        self.checker = IntentChecker(self, repertoire)
        self.signal_channel = SignalChannel(self, repertoire)
        self.middle = FreshMiddle(self)
        self._record(Dealt(0.0, dealer, tuple(map(tuple, self.table.hands)), tuple(self.table.middle)))
        for r in redeals:
            self._record(Redealt(0.0, r.seat, r.shown, r.drawn))
        for seat in range(n):
            if self.table.has_four_of_a_kind(seat):
                self._record(HandFour(0.0, seat, RANK[self.table.hands[seat][0]]))

    # Running --------------------------------------------------------------------------------------------------
    def run(self) -> RoundResult:
        """Play the round to its end (a call, a void pack, the match ending, or the time cap)."""
        env = self.env
        for seat in range(self.rules.players):
            env.process(self._player(seat))
            if self.config.fidgets:
                self.signal_channel.start_fidgets(seat)
        if self.rules.start == "dealer_go":
            env.process(self._dealer_says_go())
        else:
            self._open_play()
        cap = env.timeout(self.config.max_round_seconds)
        cap.callbacks.append(lambda _: self.end(Outcome.TIMEOUT))
        env.run(until=self.done)
        assert self.outcome is not None
        return RoundResult(self.round_index, self.dealer, self.signals, self.outcome, env.now, self.standings,
                           tuple(self.trace))

    def end(self, outcome: Outcome) -> None:
        """End the round now; calls still being spoken lost the race and are recorded as cut off."""
        if self.over:
            return
        self.over = True
        self.outcome = outcome
        now = self.env.now
        for seat in sorted(self.calls_in_flight):
            kind, started = self.calls_in_flight[seat]
            self._record(CallCutOff(now, seat, kind.value, started))
        self._record(RoundEnded(now, outcome.value))
        self.done.succeed()

    def _dealer_says_go(self) -> Generator[simpy.Event, Any, None]:
        yield self.env.timeout(self.kits[self.dealer].speech())
        if not self.over:
            self._open_play()

    def _open_play(self) -> None:
        self.public.playing = True
        self._record_public(PlayStarted(self.env.now, self.dealer, tuple(self.table.middle)))
        self.wake_all()

    # Bookkeeping ----------------------------------------------------------------------------------------------
    def _record(self, event: TraceEvent) -> None:
        self.trace.append(event)

    def _record_public(self, event: TraceEvent) -> None:
        self.trace.append(event)
        self.public.log.append(event)

    def wake(self, seat: int) -> None:
        """Wake a sleeping seat so it reacts to what changed."""
        event = self.waiting[seat]
        if event is not None and not event.triggered:
            event.succeed()

    def wake_all(self) -> None:
        for event in self.waiting:
            if event is not None and not event.triggered:
                event.succeed()

    def middle_changed(self, wake: bool = True) -> None:
        """The middle changed: bump its version, check conservation when strict, and wake every sleeper.

        A sweep does not wake anyone (nothing can be done with an empty middle); the refill after it does.
        """
        self.public.middle_version += 1
        self.public.pack_size = len(self.table.pack)
        if self.config.strict:
            self.table.check()
            if self.public.middle is not self.table.middle:
                raise InvariantError("the public middle is no longer the table's middle")
        if wake:
            self.wake_all()

    def _sleep(self, seat: int, timeout: float | None) -> simpy.Event:
        event = self.env.event()
        self.waiting[seat] = event
        if timeout is not None:
            timer = self.env.timeout(timeout)
            timer.callbacks.append(lambda _: None if event.triggered else event.succeed())
        return event

    def tie(self) -> simpy.Event:
        """An event to wait on when other events fall due at this very instant (``env.peek() == env.now``).

        Everything due now arrives first; the waiters then go on in a random order, so exact ties (possible
        with fixed timings) are broken at random, never by seat or scheduling order.
        """
        event = self.env.event()
        self.tie_waiters.append(event)
        if len(self.tie_waiters) == 1:
            self.env.timeout(0).callbacks.append(self._release_ties)
        return event

    def _release_ties(self, _: simpy.Event) -> None:
        waiters, self.tie_waiters = self.tie_waiters, []
        for i in self.rng.permutation(len(waiters)):
            waiters[i].succeed()

    # A player -------------------------------------------------------------------------------------------------
    def _player(self, seat: int) -> Generator[simpy.Event, Any, None]:
        env, kit, public, middle = self.env, self.kits[seat], self.public, self.middle
        reaction = kit.reaction_next
        is_dealer = seat == self.dealer
        owed = self.table.owed
        while not self.over:
            if not public.playing:
                yield self._sleep(seat, None)
                self.waiting[seat] = None
                continue
            if is_dealer and middle.jobs_for_dealer and not owed[seat]:
                yield from middle.dealer_work()
                continue
            yield env.timeout(reaction())
            if self.over:
                return
            if is_dealer and middle.jobs_for_dealer and not owed[seat]:
                continue
            intent = self._ask(seat)
            kind = type(intent)
            if kind is Wait:
                self.passed[seat] = public.middle_version
                asleep = self._sleep(seat, intent.timeout)
                middle.player_passed()  # may wake this very seat: the dealer, to sweep
                yield asleep
                self.waiting[seat] = None
                continue
            self.passed[seat] = -1
            if kind is Swap:
                yield from self._swap(seat, intent)
            elif kind is Gesture:
                yield env.timeout(kit.gesture_time())
                if not self.over:
                    self.signal_channel.gesture(seat, intent.name, deliberate=True)
            elif kind is SayStalled:
                yield env.timeout(kit.speech())
                if not self.over:
                    middle.stall_said(seat)
            elif kind is Object:
                yield env.timeout(kit.speech())
                if not self.over:
                    middle.objection(seat)
            else:
                yield from self._call(seat, _CALL_KINDS[kind], getattr(intent, "accused", None))

    def _ask(self, seat: int) -> Intent:
        kit = self.kits[seat]
        self.public.now = self.env.now
        try:
            intent = kit.agent.decide(self.observations[seat])
        except Exception as exc:
            raise self.agent_error(seat, f"decide() raised {type(exc).__name__}: {exc}") from exc
        if type(intent) not in _INTENT_TYPES:
            raise self.agent_error(seat, f"decide() returned {intent!r}, which is not an intent; allowed: "
                                   + ", ".join(t.__name__ for t in INTENT_TYPES))
        self.checker.check(seat, intent)
        return intent

    def agent_error(self, seat: int, problem: str) -> AgentError:
        """An error naming the agent, seat, simulated time and seed."""
        return AgentError(f"agent {self.kits[seat].agent_name} at seat {seat}, round {self.round_index}, "
                          f"t={self.env.now:.3f} s, seed {self.seed}: {problem}")

    # Swaps ----------------------------------------------------------------------------------------------------
    def _reach(self, seat: int) -> Generator[simpy.Event, Any, None]:
        """Move the hand to the middle; the touch lands after the reach time (ties resolved at random)."""
        env = self.env
        self.reaching[seat] = True
        yield env.timeout(self.kits[seat].reach_next())
        self.reaching[seat] = False
        if not self.over and env.peek() == env.now:
            yield self.tie()

    def _swap(self, seat: int, intent: Swap) -> Generator[simpy.Event, Any, None]:
        table = self.table
        if self.rules.swap == "multi_drop_first" and not table.owed[seat]:
            yield from self._reach(seat)
            if self.over:
                return
            table.drop(seat, intent.give)
            self._swapped(seat, intent.give, ())
        yield from self._reach(seat)
        if self.over:
            return
        middle = table.middle
        if any(card not in middle for card in intent.take):
            self._record(RaceLost(self.env.now, seat, intent.take))
            return
        if self.rules.swap == "multi_drop_first":
            table.pick(seat, intent.take)
            self.middle.picked()
            self._swapped(seat, (), intent.take)
        else:
            table.swap(seat, intent.give, intent.take)
            self._swapped(seat, intent.give, intent.take)

    def _swapped(self, seat: int, gave: tuple[int, ...], took: tuple[int, ...]) -> None:
        now = self.env.now
        public = self.public
        public.last_swap[seat] = now
        public.swaps_made[seat] += 1
        self._record_public(Swapped(now, seat, gave, took))
        hand = self.table.hands[seat]
        four = is_four_of_a_kind(hand)
        if four != self.holding[seat]:
            self.holding[seat] = four
            self._record(HandFour(now, seat, RANK[hand[0]] if four else -1))
        self.middle_changed()

    # Calls ----------------------------------------------------------------------------------------------------
    def _call(self, seat: int, kind: CallKind, accused: int | None) -> Generator[simpy.Event, Any, None]:
        started = self.env.now
        self.calls_in_flight[seat] = (kind, started)
        env = self.env
        yield env.timeout(self.kits[seat].speech())
        if self.over:
            return
        if env.peek() == env.now:
            yield self.tie()
            if self.over:
                return
        del self.calls_in_flight[seat]
        self._judge_call(seat, kind, accused, started)

    def _judge_call(self, seat: int, kind: CallKind, accused: int | None, started: float) -> None:
        now, table = self.env.now, self.table
        verdict = judge(self.rules, Call(kind, seat, accused), table.hands)
        self.standings = self.standings.apply(verdict.delta)
        self.public.standings_letters = self.standings.letters
        self.public.standings_points = self.standings.points
        ends = verdict.ends_round or match_over(self.rules, self.standings)
        self._record_public(CallHeard(now, seat, kind.value, NOBODY if accused is None else accused,
                                      verdict.outcome.value, verdict.right, started, ends))
        if verdict.revealed:
            self._record_public(Revealed(now, verdict.revealed, tuple(tuple(table.hands[s]) for s in verdict.revealed),
                                         NOBODY))
        if verdict.shown_to_caller is not None:
            shown = _two_different(table.hands[verdict.shown_to_caller])
            event = Revealed(now, (verdict.shown_to_caller,), (shown,), seat)
            self._record(event)
            self.private[seat].append(event)
        delta = verdict.delta
        self._record_public(Scored(now, delta.letters, delta.points, delta.rounds_won))
        if verdict.barred is not None:
            self.barred.add(verdict.barred)
        if ends:
            self.end(verdict.outcome)
        else:
            self.wake_all()


def _two_different(hand: Sequence[int]) -> tuple[int, ...]:
    """Two cards of different ranks from a hand (003's proof of a wrong accusation); two cards if none differ."""
    first = hand[0]
    other = next((c for c in hand[1:] if RANK[c] != RANK[first]), hand[1])
    return (first, other)
