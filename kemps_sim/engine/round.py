"""One round of Kemps in real time on a SimPy clock: players react, reach, gesture and call at once.

Each seat is a SimPy process that sleeps until something it can see changes, waits a reaction time, asks its
agent for an intent and carries it out: a reach for middle cards (first touch wins; a card already gone is a lost
race), a deliberate gesture, or a spoken call (the first call heard is judged on the hands of that moment).
Fidgets and percepts live in :mod:`.signals`, calls in :mod:`.calls`, the dealer's fresh middles in
:mod:`.middle`.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import simpy

from kemps_sim.cards import RANK, is_four_of_a_kind
from kemps_sim.engine.alarm import Alarm
from kemps_sim.engine.calls import CallDesk
from kemps_sim.engine.checks import IntentChecker
from kemps_sim.engine.config import EngineConfig
from kemps_sim.engine.middle import FreshMiddle
from kemps_sim.engine.seat import SeatKit
from kemps_sim.engine.signals import SignalChannel
from kemps_sim.engine.watchdog import DecideTimeout, watchdog
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
from kemps_sim.perception import Attention
from kemps_sim.rules import Rules
from kemps_sim.scoring import CallKind, Outcome, Standings
from kemps_sim.table import InvariantError, TableState
from kemps_sim.trace import (
    NOBODY,
    CallCutOff,
    Dealt,
    HandFour,
    PlayStarted,
    RaceLost,
    Redealt,
    RoundEnded,
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
                 deal_rng: np.random.Generator, tie_rng: np.random.Generator, dealer: int, signals: Sequence[str],
                 standings: Standings, round_index: int, seed: int, stacked: Sequence[int] | None = None) -> None:
        self.rules, self.kits, self.config = rules, kits, config
        self.deal_rng, self.tie_rng = deal_rng, tie_rng
        self.dealer, self.signals, self.standings = dealer, tuple(signals), standings
        self.round_index, self.seed = round_index, seed
        self.env = simpy.Environment()
        self.done = self.env.event()
        self.over = False
        self.outcome: Outcome | None = None
        self.trace: list[TraceEvent] = []
        n = rules.players
        self.table, redeals = TableState.deal(rules, deal_rng, dealer, stacked)
        self.public = PublicTable(
            rules=rules, dealer=dealer, round_index=round_index,
            signals_allowed=tuple(g.name for g in repertoire.allowed_signals(rules.signal_modality)),
            middle=self.table.middle, standings_letters=standings.letters, standings_points=standings.points,
            standings_rounds_won=standings.rounds_won, last_swap=[float("-inf")] * n, swaps_made=[0] * n,
            pack_size=len(self.table.pack))
        self.percepts: list[list] = [[] for _ in range(n)]
        self.private: list[list[TraceEvent]] = [[] for _ in range(n)]
        self.barred: set[int] = set()
        self.observations = [
            Observation(s, self.public, self.table.hands[s], self.table.owed, self.percepts[s], self.barred,
                        self.signals[s % (n // 2)], kits[s].memory, self.private[s], profile=kits[s].profile,
                        perceiver=kits[s].perceiver, repertoire=repertoire) for s in range(n)]
        self.waiting: list[Alarm | None] = [None] * n
        self.reaching = [False] * n
        self.passed = [-1] * n
        self.tie_waiters: list[simpy.Event] = []
        self.holding = [self.table.has_four_of_a_kind(s) for s in range(n)]
        for kit in kits:  # every round starts with the profile's attention
            if kit.perceiver.attention is not kit.profile.attention:
                kit.perceiver.look(kit.profile.attention)
        self.checker = IntentChecker(self, repertoire)
        self.signal_channel = SignalChannel(self, repertoire)
        self.calls = CallDesk(self)
        self.middle = FreshMiddle(self)
        self.trace.append(Dealt(0.0, dealer, tuple(map(tuple, self.table.hands)), tuple(self.table.middle)))
        for r in redeals:  # the shown cards are public (003: the player shows them)
            self.record_public(Redealt(0.0, r.seat, r.shown, r.drawn))
        for seat in range(n):
            if self.holding[seat]:
                self.trace.append(HandFour(0.0, seat, RANK[self.table.hands[seat][0]]))

    # Running --------------------------------------------------------------------------------------------------
    def run(self) -> RoundResult:
        """Play the round to its end (a call, a void pack, the match ending, or the time cap)."""
        env = self.env
        for seat in range(self.rules.players):
            env.process(self._player(seat))
        if self.config.fidgets:
            self.signal_channel.start_fidgets()
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
        for seat, kind, started in self.calls.cut_off():
            self.trace.append(CallCutOff(now, seat, kind.value, started))
        self.trace.append(RoundEnded(now, outcome.value))
        self.done.succeed()

    def _dealer_says_go(self) -> Generator[simpy.Event, Any, None]:
        yield self.env.timeout(self.kits[self.dealer].speech())
        if not self.over:
            self._open_play()

    def _open_play(self) -> None:
        self.public.playing = True
        self.record_public(PlayStarted(self.env.now, self.dealer, tuple(self.table.middle)))
        self.wake_all(read=len(self.table.middle))

    # Bookkeeping ----------------------------------------------------------------------------------------------
    def record_public(self, event: TraceEvent) -> None:
        """Append an event everyone sees to the trace and to the public log."""
        self.trace.append(event)
        self.public.log.append(event)

    def public_standings(self) -> None:
        """Show the current standings on the public side of the table."""
        standings, public = self.standings, self.public
        public.standings_letters = standings.letters
        public.standings_points = standings.points
        public.standings_rounds_won = standings.rounds_won

    def wake(self, seat: int) -> None:
        """Wake a sleeping seat so it reacts to what changed: its alarm goes off after its reaction time."""
        alarm = self.waiting[seat]
        if alarm is not None and not alarm.rung:
            alarm.ring(self.kits[seat].reaction_next())

    def wake_all(self, read: int = 0) -> None:
        """Wake every sleeper; each first takes in ``read`` middle cards (a fresh middle at the start of play)."""
        for seat, alarm in enumerate(self.waiting):
            if alarm is not None and not alarm.rung:
                kit = self.kits[seat]
                alarm.ring(kit.reaction_next() + kit.read(read) if read else kit.reaction_next())

    def middle_changed(self, arrived: Sequence[int], wake: bool = True) -> None:
        """The middle changed (``arrived`` are the cards that came into it): bump its version, check conservation
        when strict, and wake every sleeper the change concerns, after its reaction time and the time it takes to
        read the arrived cards (``PlayerProfile.card_read``).

        A sleeper whose agent says the arrived cards do not concern it (``wakes_on_middle``) goes on waiting,
        and goes on passing on the middle. A sweep wakes nobody and keeps every sleeper passing.
        """
        public = self.public
        public.middle_version += 1
        public.pack_size = len(self.table.pack)
        if self.config.strict:
            self.table.check()
            if public.middle is not self.table.middle:
                raise InvariantError("the public middle is no longer the table's middle")
        version = public.middle_version
        public.now = self.env.now
        passed, kits, observations = self.passed, self.kits, self.observations
        still_passing = False
        for seat, alarm in enumerate(self.waiting):
            if alarm is None or alarm.rung:
                continue
            if wake and self.hook(seat, "wakes_on_middle", kits[seat].wakes_on_middle, observations[seat], arrived):
                alarm.ring(kits[seat].reaction_next() + kits[seat].read(len(arrived)))
            elif passed[seat] == version - 1:
                passed[seat] = version
                still_passing = True
        if still_passing:
            self.middle.player_passed()

    def _sleep(self, seat: int, timeout: float | None) -> Alarm:
        """The alarm a seat sleeps on; with a timeout it rings by itself (and the seat then reacts as usual)."""
        alarm = Alarm(self.env)
        self.waiting[seat] = alarm
        if timeout is not None:
            reaction = self.kits[seat].reaction_next
            self.env.timeout(timeout).callbacks.append(lambda _: alarm.rung or alarm.ring(reaction()))
        return alarm

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
        for i in self.tie_rng.permutation(len(waiters)):
            waiters[i].succeed()

    # A player -------------------------------------------------------------------------------------------------
    def _player(self, seat: int) -> Generator[simpy.Event, Any, None]:
        env, kit, public, middle = self.env, self.kits[seat], self.public, self.middle
        reaction = kit.reaction_next
        reacted = False  # True when the alarm that woke the seat already included its reaction time
        while not self.over:
            if not public.playing:
                yield self._sleep(seat, None)
                self.waiting[seat] = None
                reacted = True
                continue
            if not reacted:
                yield env.timeout(reaction())
                if self.over:
                    return
            reacted = False
            decided_at = env.now
            intent = self._ask(seat)
            kind = type(intent)
            if kind is Wait:
                self.passed[seat] = public.middle_version
                asleep = self._sleep(seat, intent.timeout)
                middle.player_passed()
                yield asleep
                self.waiting[seat] = None
                reacted = True
                continue
            self.passed[seat] = -1
            if kind is Swap:
                if seat == self.dealer and middle.dealer_hands_busy:
                    yield middle.hands_free  # the dealer's hands are dealing: the swap waits, then is re-planned
                    continue
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
                    middle.objection(seat, decided_at)
            else:
                yield from self.calls.speak(seat, _CALL_KINDS[kind], getattr(intent, "accused", None))

    def _ask(self, seat: int) -> Intent:
        kit = self.kits[seat]
        self.public.now = self.env.now
        try:
            if self.config.decide_timeout is None:
                intent = kit.agent.decide(self.observations[seat])
            else:
                with watchdog(self.config.decide_timeout):
                    intent = kit.agent.decide(self.observations[seat])
        except DecideTimeout:
            raise self.agent_error(seat, f"decide() did not return within {self.config.decide_timeout} s of wall "
                                   "time (engine.decide_timeout): the agent never decides") from None
        except Exception as exc:
            raise self.agent_error(seat, f"decide() raised {type(exc).__name__}: {exc}") from exc
        if type(intent) not in _INTENT_TYPES:
            raise self.agent_error(seat, f"decide() returned {intent!r}, which is not an intent; allowed: "
                                   + ", ".join(t.__name__ for t in INTENT_TYPES))
        self.checker.check(seat, intent)
        if kit.gaze is not None:
            self._look(seat, kit)
        return intent

    def _look(self, seat: int, kit: SeatKit) -> None:
        """Apply the agent's attention policy: where its eyes go from this decision on."""
        try:
            attention = kit.gaze(self.observations[seat])
        except Exception as exc:
            raise self.agent_error(seat, f"gaze() raised {type(exc).__name__}: {exc}") from exc
        if attention is None or attention is kit.perceiver.attention:
            return
        if not isinstance(attention, Attention):
            raise self.agent_error(seat, f"gaze() returned {attention!r}; allowed: an Attention or None")
        kit.perceiver.look(attention)

    def hook(self, seat: int, what: str, function: Any, *args: Any) -> Any:
        """Call one of an agent's optional hooks; anything it raises becomes an :class:`AgentError` with context."""
        try:
            return function(*args)
        except Exception as exc:
            raise self.agent_error(seat, f"{what}() raised {type(exc).__name__}: {exc}") from exc

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
        table, now = self.table, self.env
        drop_first = self.rules.swap == "multi_drop_first"
        if drop_first and not table.owed[seat]:
            yield from self._reach(seat)
            if self.over:
                return
            if self.middle.sweep_due:  # the dealer is sweeping: nothing more may be put down
                self.trace.append(RaceLost(now.now, seat, intent.give, NOBODY))
                return
            table.drop(seat, intent.give)
            self._swapped(seat, intent.give, (), intent.give, counts=False)
        yield from self._reach(seat)
        if self.over:
            return
        middle = table.middle
        if any(card not in middle for card in intent.take):
            self.trace.append(RaceLost(now.now, seat, intent.take, table.holder_of(intent.take)))
            return
        if drop_first:
            table.pick(seat, intent.take)
            self.middle.picked()
            self._swapped(seat, (), intent.take, ())
        else:
            table.swap(seat, intent.give, intent.take)
            self._swapped(seat, intent.give, intent.take, intent.give)

    def _swapped(self, seat: int, gave: tuple[int, ...], took: tuple[int, ...], arrived: tuple[int, ...],
                 counts: bool = True) -> None:
        """Record a touch that moved cards; a put-down alone (drop-first) is activity but not yet a swap."""
        now = self.env.now
        public = self.public
        public.last_swap[seat] = now
        public.swaps_made[seat] += counts
        self.record_public(Swapped(now, seat, gave, took))
        hand = self.table.hands[seat]
        four = is_four_of_a_kind(hand)
        if four != self.holding[seat]:
            self.holding[seat] = four
            self.trace.append(HandFour(now, seat, RANK[hand[0]] if four else -1))
        self.middle_changed(arrived)
