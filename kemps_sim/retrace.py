"""Rebuild a round's table from its trace alone, and check that the trace tells a consistent story.

The trace records the deal, every swap (and under ``multi_drop_first`` every put-down and pick), every sweep and
refill: that is enough to know every hand and the middle at every moment without the engine. :class:`TableReplay`
steps through the events and keeps them; :func:`check_match` replays every round and re-derives what the engine
reported (who holds four of a kind, every call's verdict and score, every hand shown), raising
:class:`TraceMismatch` at the first event that disagrees. The narration, the replay page and tests build on it.
"""

from __future__ import annotations

from kemps_sim.cards import RANK, is_four_of_a_kind
from kemps_sim.errors import KempsError
from kemps_sim.results import MatchResult, RoundResult
from kemps_sim.rules import Rules
from kemps_sim.scoring import Call, CallKind, ScoreDelta, Standings, judge
from kemps_sim.seating import NOBODY
from kemps_sim.trace import (
    CallHeard,
    Dealt,
    HandFour,
    Refilled,
    Revealed,
    Scored,
    Swapped,
    Swept,
    TraceEvent,
)


class TraceMismatch(KempsError, AssertionError):
    """A trace that contradicts itself or the rules: a bug in whatever produced it."""


class TableReplay:
    """Every hand and the middle as the trace has them so far; :meth:`apply` one event at a time, in order.

    While the middle is being refilled the trace does not stamp each card as it lands (only :class:`Refilled`
    lists them at the end), so a card taken as it landed shows up as a take of a card not yet in the middle;
    ``laid_taken`` keeps those (card to seat) until the refill is recorded.
    """

    def __init__(self, players: int) -> None:
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.middle: list[int] = []
        self.refilling = False
        self.laid_taken: dict[int, int] = {}

    def apply(self, event: TraceEvent) -> None:
        """Update hands and middle for ``event``; raise :class:`TraceMismatch` if it cannot have happened."""
        kind = type(event)
        if kind is Dealt:
            self.hands = [list(h) for h in event.hands]
            self.middle = list(event.middle)
        elif kind is Swapped:
            self._swapped(event)
        elif kind is Swept:
            if sorted(event.cards) != sorted(self.middle):
                raise TraceMismatch(f"t={event.time:.3f}: swept {event.cards}, the middle held {tuple(self.middle)}")
            self.middle = []
            self.refilling = True
            self.laid_taken = {}
        elif kind is Refilled:
            if any(card not in event.cards for card in self.laid_taken):
                raise TraceMismatch(f"t={event.time:.3f}: cards taken during the refill were not laid in it")
            self.middle.extend(card for card in event.cards if card not in self.laid_taken)
            self.refilling = False

    def _swapped(self, event: Swapped) -> None:
        hand = self.hands[event.seat]
        for card in event.gave:
            if card not in hand:
                raise TraceMismatch(f"t={event.time:.3f}: seat {event.seat} gave {card}, which it did not hold")
            hand.remove(card)
            self.middle.append(card)
        for card in event.took:
            if card in self.middle:
                self.middle.remove(card)
            elif self.refilling and card not in self.laid_taken:
                self.laid_taken[card] = event.seat  # laid since the sweep: the Refilled event will list it
            else:
                raise TraceMismatch(f"t={event.time:.3f}: seat {event.seat} took {card}, which was not in the "
                                    "middle")
            hand.append(card)

    def holds_four(self, seat: int) -> int:
        """The rank of the seat's four of a kind, or -1."""
        hand = self.hands[seat]
        return RANK[hand[0]] if is_four_of_a_kind(hand) else -1


def check_round(rules: Rules, rnd: RoundResult, before: Standings) -> None:
    """Replay one round from its trace and check it against itself and the rules (``before``: the standings the
    round started from). Raises :class:`TraceMismatch` naming the round, the event and what disagrees."""
    replay = TableReplay(rules.players)
    standings = before
    expected: ScoreDelta | None = None  # what the last call heard should score
    last = 0.0
    for index, event in enumerate(rnd.trace):
        where = f"round {rnd.index + 1}, event {index} ({type(event).__name__})"
        if event.time < last:
            raise TraceMismatch(f"{where}: time {event.time} before the previous event's {last}")
        last = event.time
        try:
            replay.apply(event)
        except TraceMismatch as exc:
            raise TraceMismatch(f"{where}: {exc}") from None
        kind = type(event)
        if kind is HandFour and replay.holds_four(event.seat) != event.rank:
            raise TraceMismatch(f"{where}: seat {event.seat} reported rank {event.rank}, the rebuilt hand "
                                f"{replay.hands[event.seat]} says {replay.holds_four(event.seat)}")
        elif kind is CallHeard:
            verdict = judge(rules, Call(CallKind(event.call), event.seat,
                                        None if event.accused == NOBODY else event.accused), replay.hands)
            if (verdict.outcome.value, verdict.right) != (event.outcome, event.right):
                raise TraceMismatch(f"{where}: recorded {event.outcome}, the rebuilt hands give "
                                    f"{verdict.outcome.value}")
            expected = verdict.delta
        elif kind is Scored:
            delta = ScoreDelta(event.letters, event.points, event.rounds_won)
            if delta != expected:
                raise TraceMismatch(f"{where}: scored {delta}, the call's verdict gives {expected}")
            standings = standings.apply(delta)
        elif kind is Revealed:
            for seat, shown in zip(event.seats, event.hands, strict=True):
                held = replay.hands[seat]
                if (sorted(shown) != sorted(held)) if event.to == NOBODY else any(c not in held for c in shown):
                    raise TraceMismatch(f"{where}: seat {seat} showed {shown} while holding {tuple(held)}")
    final = rnd.standings
    if (standings.letters, standings.points, standings.rounds_won) != (final.letters, final.points,
                                                                       final.rounds_won):
        raise TraceMismatch(f"round {rnd.index + 1}: the scored calls add up to {standings}, the round ended "
                            f"with {final}")


def check_match(result: MatchResult) -> None:
    """Replay every round of a match from its trace (see :func:`check_round`)."""
    before = Standings.start(result.rules)
    for rnd in result.rounds:
        check_round(result.rules, rnd, before)
        before = rnd.standings
