"""Calls in the round: spoken in a race, judged on the hands of the moment they are heard, scored at once.

The first call heard is judged first; if it ends the round, calls still being spoken are cut off. When play goes
on after a wrong call (``wrong_call_ends_round`` off), the table learns only that it was wrong: hands are shown
to everyone only when the round ends, and under 003's penalty the accused shows two cards to the caller alone.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any

import simpy

from kemps_sim.cards import RANK
from kemps_sim.scoring import Call, CallKind, Outcome, judge, match_over
from kemps_sim.trace import NOBODY, CallHeard, Revealed, Scored

if TYPE_CHECKING:
    from kemps_sim.engine.round import RoundSim


class CallDesk:
    """Speaks, judges and scores calls for one round."""

    def __init__(self, sim: RoundSim) -> None:
        self.sim = sim
        self.in_flight: dict[int, tuple[CallKind, float]] = {}

    def speak(self, seat: int, kind: CallKind, accused: int | None) -> Generator[simpy.Event, Any, None]:
        """Say the call; it is heard after the seat's speech time (exact ties go in a random order)."""
        sim = self.sim
        env = sim.env
        started = env.now
        self.in_flight[seat] = (kind, started)
        yield env.timeout(sim.kits[seat].speech())
        if sim.over:
            return
        if env.peek() == env.now:
            yield sim.tie()
            if sim.over:
                return
        del self.in_flight[seat]
        self._heard(seat, kind, accused, started)

    def _heard(self, seat: int, kind: CallKind, accused: int | None, started: float) -> None:
        sim = self.sim
        now, table, rules = sim.env.now, sim.table, sim.rules
        verdict = judge(rules, Call(kind, seat, accused), table.hands)
        sim.standings = sim.standings.apply(verdict.delta)
        sim.public_standings()
        ends = verdict.ends_round or match_over(rules, sim.standings)
        target = NOBODY if accused is None else accused
        cue = self._cue(seat, (seat + rules.players // 2) % rules.players if accused is None else accused)
        heard = CallHeard(now, seat, kind.value, target, verdict.outcome.value, verdict.right, started, ends, cue)
        sim.trace.append(heard)
        if not ends and verdict.outcome is Outcome.STOP_INEFFECTIVE:
            # While play goes on the table learns only that the accusation failed, not that a Double is held.
            heard = heard._replace(outcome=Outcome.STOP_WRONG.value)
        sim.public.log.append(heard)
        if ends and verdict.revealed:
            sim.record_public(Revealed(now, verdict.revealed, tuple(tuple(table.hands[s]) for s in verdict.revealed),
                                       NOBODY))
        if verdict.shown_to_caller is not None and verdict.outcome is Outcome.STOP_WRONG:
            shown = two_different(table.hands[verdict.shown_to_caller])
            event = Revealed(now, (verdict.shown_to_caller,), (shown,), seat)
            sim.trace.append(event)
            sim.private[seat].append(event)
        delta = verdict.delta
        sim.record_public(Scored(now, delta.letters, delta.points, delta.rounds_won))
        if verdict.barred is not None:
            sim.barred.add(verdict.barred)
        if ends:
            sim.end(verdict.outcome)
        else:
            sim.wake_all()

    def _cue(self, caller: int, watched: int) -> str:
        """The gesture the caller last noticed from the seat the call is about: what the table saw it answer."""
        for percept in reversed(self.sim.percepts[caller]):
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
