"""One round of Kemps in real time on a SimPy clock: players react, reach, gesture and call at once.

Each seat is a SimPy process that sleeps until something it can see changes, waits a reaction time, asks its
agent for an intent and carries it out: a reach for middle cards (first touch wins; a card already gone is a lost
race), a deliberate gesture, or a spoken call (the first call heard is judged on the hands of that moment).
The round's facts live in one :class:`~kemps_sim.state.RoundState`; every event goes through one
:class:`~kemps_sim.engine.recorder.Recorder`. Asking agents and waking them is :mod:`.players`, fidgets and
percepts :mod:`.signals`, calls :mod:`.calls`, and the sweeper's fresh middles :mod:`.middle`.
"""

from __future__ import annotations

from collections.abc import Collection, Generator, Sequence
from typing import Any

import numpy as np
import simpy

from kemps_sim.cards import RANK, is_four_of_a_kind
from kemps_sim.engine.calls import CallDesk
from kemps_sim.engine.config import EngineConfig
from kemps_sim.engine.guard import Stopwatch
from kemps_sim.engine.live import Live
from kemps_sim.engine.middle import FreshMiddle
from kemps_sim.engine.players import Players
from kemps_sim.engine.recorder import Recorder
from kemps_sim.engine.seat import SeatKit
from kemps_sim.engine.signals import SignalChannel
from kemps_sim.gestures import Repertoire
from kemps_sim.intents import CALL_INTENTS, Gesture, Object, SayStalled, Swap, Wait
from kemps_sim.results import RoundResult
from kemps_sim.rules import Rules
from kemps_sim.scoring import Outcome, Standings
from kemps_sim.seating import NOBODY
from kemps_sim.state import RoundState
from kemps_sim.streams import GeneratorOrMaker
from kemps_sim.table import TableState
from kemps_sim.trace import CallCutOff, Dealt, HandFour, PlayStarted, RaceLost, Redealt, RoundEnded, Swapped


class RoundSim:
    """The SimPy processes of one round over its state. Build it, call :meth:`run` once."""

    def __init__(self, *, rules: Rules, kits: Sequence[SeatKit], repertoire: Repertoire, config: EngineConfig,
                 deal_rng: np.random.Generator, tie_rng: GeneratorOrMaker, dealer: int, signals: Sequence[str],
                 standings: Standings, round_index: int, seed: int, stacked: Sequence[int] | None = None,
                 watch: Stopwatch | None = None, candidates: Sequence[Sequence[str]] = (),
                 called: Collection[tuple[int, str]] = (), live: Live | None = None) -> None:
        self.rules, self.kits, self.config = rules, kits, config
        self.env = env = simpy.Environment() if live is None else live.environment()
        self.done = env.event()
        table, redeals = TableState.deal(rules, deal_rng, dealer, stacked)
        self.state = state = RoundState.start(
            rules, table, dealer=dealer, round_index=round_index, signals=signals,
            signals_allowed=tuple(g.name for g in repertoire.allowed_signals(rules.signal_modality)),
            standings=standings, clock=env, candidates=candidates)
        self.record = record = Recorder(state, None if live is None else live.listener)
        for kit in kits:  # every round starts with the profile's attention
            if kit.perceiver.attention is not kit.profile.attention:
                kit.perceiver.look(kit.profile.attention)
        self.players = Players(env, state, kits, config, repertoire, tie_rng, seed, watch)
        self.signal_channel = SignalChannel(env, state, record, self.players, repertoire, called)
        self.calls = CallDesk(env, state, record, self.players, self.end)
        self.middle = FreshMiddle(env, state, record, self.players, config, deal_rng, self.end)
        record(Dealt(0.0, dealer, tuple(map(tuple, table.hands)), tuple(table.middle)))
        for r in redeals:  # the shown cards are public (003: the player shows them)
            record(Redealt(0.0, r.seat, r.shown, r.drawn))
        for seat in range(rules.players):
            if state.holding[seat]:
                record(HandFour(0.0, seat, RANK[table.hands[seat][0]]))

    # Running --------------------------------------------------------------------------------------------------
    def run(self) -> RoundResult:
        """Play the round to its end (a call, a void pack, the match ending, or the time cap)."""
        env, state = self.env, self.state
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
        assert state.outcome is not None
        public = state.public
        return RoundResult(public.round_index, public.dealer, state.signals, state.outcome, env.now,
                           public.standings, tuple(self.record.trace))

    def end(self, outcome: Outcome) -> None:
        """End the round now; calls still being spoken lost the race and are recorded as cut off."""
        state = self.state
        if state.over:
            return
        state.over = True
        state.outcome = outcome
        now = self.env.now
        for seat, kind, started in self.calls.cut_off():
            self.record(CallCutOff(now, seat, kind.value, started))
        self.record(RoundEnded(now, outcome.value))
        self.done.succeed()

    def _dealer_says_go(self) -> Generator[simpy.Event, Any, None]:
        yield self.env.timeout(self.kits[self.state.public.dealer].speech())
        if not self.state.over:
            self._open_play()

    def _open_play(self) -> None:
        state = self.state
        state.public.playing = True
        self.record(PlayStarted(self.env.now, state.public.dealer, tuple(state.table.middle)))
        self.players.wake_all(read=len(state.table.middle))

    # A player -------------------------------------------------------------------------------------------------
    def _player(self, seat: int) -> Generator[simpy.Event, Any, None]:
        env, kit, state, middle, players = self.env, self.kits[seat], self.state, self.middle, self.players
        reaction = kit.reaction_next
        reacted = False  # True when the alarm that woke the seat already included its reaction time
        while not state.over:
            if not state.public.playing:
                yield players.sleep(seat, None)
                players.waiting[seat] = None
                reacted = True
                continue
            if not reacted:
                yield env.timeout(reaction())
                if state.over:
                    return
            reacted = False
            decided_at = env.now
            intent = players.ask(seat)
            kind = type(intent)  # the calls' table lookup; the branches test type(intent), which type checkers narrow
            if type(intent) is Wait:
                players.passed[seat] = state.public.middle_version
                asleep = players.sleep(seat, intent.timeout, intent.stale)
                middle.player_passed()
                yield asleep
                players.waiting[seat] = None
                reacted = True
                continue
            players.passed[seat] = -1
            if type(intent) is Swap:
                if seat == middle.sweeper and middle.hands_free is not None:
                    yield middle.hands_free  # the sweeper's hands are dealing: the swap waits, then is re-planned
                    continue
                yield from self._swap(seat, intent)
            elif type(intent) is Gesture:
                yield env.timeout(kit.gesture_time())
                if not state.over:
                    self.signal_channel.gesture(seat, intent.name, deliberate=True)
            elif kind is SayStalled:
                yield env.timeout(kit.speech())
                if not state.over:
                    middle.stall_said(seat)
            elif kind is Object:
                yield env.timeout(kit.speech())
                if not state.over:
                    middle.objection(seat, decided_at)
            else:
                yield from self.calls.speak(seat, CALL_INTENTS[kind], getattr(intent, "accused", None))

    # Swaps ----------------------------------------------------------------------------------------------------
    def _reach(self, seat: int) -> Generator[simpy.Event, Any, None]:
        """Move the hand to the middle; the touch lands after the reach time (ties resolved at random)."""
        env, reaching = self.env, self.state.reaching
        reaching[seat] = True
        yield env.timeout(self.kits[seat].reach_next())
        reaching[seat] = False
        if not self.state.over and env.peek() == env.now:
            yield self.players.tie()

    def _swap(self, seat: int, intent: Swap) -> Generator[simpy.Event, Any, None]:
        state, env = self.state, self.env
        table = state.table
        drop_first = self.rules.swap == "multi_drop_first"
        if drop_first and not table.owed[seat]:
            yield from self._reach(seat)
            if state.over:
                return
            if state.public.sweep_due:  # a sweep is due: nothing more may be put down
                self.record(RaceLost(env.now, seat, intent.give, NOBODY))
                return
            table.drop(seat, intent.give)
            self._swapped(seat, intent.give, (), intent.give, counts=False)
        yield from self._reach(seat)
        if state.over:
            return
        middle = table.middle
        if any(card not in middle for card in intent.take) or not self.middle.open_to_take():
            self.record(RaceLost(env.now, seat, intent.take, table.holder_of(intent.take)))
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
        now, state = self.env.now, self.state
        state.public.last_swap[seat] = now
        state.public.swaps_made[seat] += counts
        self.record(Swapped(now, seat, gave, took))
        hand = state.table.hands[seat]
        four = is_four_of_a_kind(hand)
        if four != state.holding[seat]:
            state.holding[seat] = four
            self.record(HandFour(now, seat, RANK[hand[0]] if four else -1))
        self.middle.changed(arrived)


