"""Calls in the round: spoken in a race, judged on the hands of the moment they are heard, scored at once.

The first call heard is judged first; if it ends the round, calls still being spoken are cut off. When play goes
on after a wrong call (``wrong_call_ends_round`` off), the table learns only that it was wrong: hands are shown
to everyone only when the round ends, and under 003's penalty the accused shows two cards to the caller alone.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any

import simpy

from kemps_sim.cards import RANK
from kemps_sim.engine.players import Players
from kemps_sim.scoring import Call, CallKind, Outcome, judge, match_over
from kemps_sim.seating import NOBODY, partner
from kemps_sim.state import RoundState
from kemps_sim.trace import CallHeard, Revealed, Scored, TraceEvent


class CallDesk:
    """Speaks, judges and scores calls for one round."""

    def __init__(self, env: simpy.Environment, state: RoundState, record: Callable[[TraceEvent], None],
                 players: Players, end: Callable[[Outcome], None]) -> None:
        self.env, self.state, self.record, self.players, self.end = env, state, record, players, end
        self.in_flight: dict[int, tuple[CallKind, float]] = {}

    def speak(self, seat: int, kind: CallKind, accused: int | None) -> Generator[simpy.Event, Any, None]:
        """Say the call; it is heard after the seat's speech time (exact ties go in a random order)."""
        env, state = self.env, self.state
        started = env.now
        self.in_flight[seat] = (kind, started)
        yield env.timeout(self.players.kits[seat].speech())
        if state.over:
            return
        if env.peek() == env.now:
            yield self.players.tie()
            if state.over:
                return
        del self.in_flight[seat]
        self._heard(seat, kind, accused, started)

    def _heard(self, seat: int, kind: CallKind, accused: int | None, started: float) -> None:
        state, record = self.state, self.record
        now, table, rules = self.env.now, state.table, state.rules
        verdict = judge(rules, Call(kind, seat, accused), table.hands)
        state.public.standings = state.public.standings.apply(verdict.delta)
        ends = verdict.ends_round or match_over(rules, state.public.standings)
        about = partner(rules.players, seat) if accused is None else accused
        record(CallHeard(now, seat, kind.value, NOBODY if accused is None else accused, verdict.outcome.value,
                         verdict.right, started, ends, self._cue(seat, about)))
        if ends and verdict.revealed:
            record(Revealed(now, verdict.revealed, tuple(tuple(table.hands[s]) for s in verdict.revealed), NOBODY))
        if verdict.shown_to_caller is not None and verdict.outcome is Outcome.STOP_WRONG:
            record(Revealed(now, (verdict.shown_to_caller,), (two_different(table.hands[verdict.shown_to_caller]),),
                            seat))
        delta = verdict.delta
        record(Scored(now, delta.letters, delta.points, delta.rounds_won))
        if verdict.barred is not None:
            state.public.barred.add(verdict.barred)
        if ends:
            self.end(verdict.outcome)
        else:
            self.players.wake_all()

    def _cue(self, caller: int, watched: int) -> str:
        """The gesture the caller last noticed from the seat the call is about: what the table saw it answer."""
        for percept in reversed(self.state.percepts[caller]):
            if percept.gesturer == watched:
                return percept.gesture
        return ""

    def cut_off(self) -> list[tuple[int, CallKind, float]]:
        """Calls still being spoken, in seat order."""
        return [(seat, *self.in_flight[seat]) for seat in sorted(self.in_flight)]


def two_different(hand: Sequence[int]) -> tuple[int, ...]:
    """Two cards of different ranks from a hand (003's proof of a wrong accusation); fewer if the hand is short
    (mid-swap under ``multi_drop_first``) or holds one rank only."""
    if not hand:
        return ()
    first = hand[0]
    other = next((c for c in hand[1:] if RANK[c] != RANK[first]), None)
    return (first,) if other is None else (first, other)
