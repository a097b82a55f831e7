"""One seat's view of a round, for its replay page: the events it knows of (:func:`kemps_sim.visibility.seen_by`),
the hands as it knows them, and the play-by-play told from what it knows.

Other hands start face down (:data:`~kemps_sim.visibility.HIDDEN_CARD`); a card becomes known when it is seen to
go to a hand from the face-up middle, or when a hand is shown, and unknown again never (the seat remembers). The
lines are the play-by-play's own (:class:`kemps_sim.narrate.RoundNarrator`) except where that one tells more than
the seat knows: the deal, others' redeals, a verdict naming the rank of a four the seat has not seen, who noticed
which gesture.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from kemps_sim.cards import hand_text
from kemps_sim.narrate import RoundNarrator, gesture_act
from kemps_sim.results import RoundResult
from kemps_sim.retrace import TableReplay, TraceMismatch
from kemps_sim.rules import Rules
from kemps_sim.scoring import Standings
from kemps_sim.seating import pair_of, partner
from kemps_sim.trace import CallHeard, Dealt, Gestured, Redealt, Revealed, Swapped, TraceEvent
from kemps_sim.visibility import HIDDEN_CARD, seen_by


def seat_events(rnd: RoundResult, seat: int) -> list[tuple[int, TraceEvent]]:
    """The round's events as ``seat`` knows them, in order, each with its index in the trace."""
    return [(i, seen) for i, event in enumerate(rnd.trace) if (seen := seen_by(event, seat)) is not None]


def seat_signals(rules: Rules, signals: Sequence[str], seat: int) -> list[str]:
    """Each pair's signal as ``seat`` knows it: its own pair's, and "" for the others'."""
    own = pair_of(rules.players, seat)
    return [signal if pair == own else "" for pair, signal in enumerate(signals)]


class SeatTable(TableReplay):
    """The table as one seat knows it: its own hand, the middle, and of other hands the cards it has seen go in.

    An unknown card is :data:`HIDDEN_CARD`; when a seat puts an unknown card down, the card it shows takes the
    place of one hidden card, so every hand keeps its true size.
    """

    def apply(self, event: TraceEvent) -> None:
        """Update for ``event`` (one of :func:`seat_events`): as :class:`TableReplay`, and shown hands known."""
        if type(event) is Revealed:
            for seat, shown in zip(event.seats, event.hands, strict=True):
                hand = self.hands[seat]
                for card in shown:
                    if card not in hand and HIDDEN_CARD in hand:
                        hand[hand.index(HIDDEN_CARD)] = card
            return
        if type(event) is Swapped:
            hand = self.hands[event.seat]
            for card in event.gave:
                if card not in hand:
                    if HIDDEN_CARD not in hand:
                        raise TraceMismatch(f"t={event.time:.3f}: seat {event.seat} gave {card}, which it did not "
                                            "hold")
                    hand[hand.index(HIDDEN_CARD)] = card
        super().apply(event)


class SeatNarrator(RoundNarrator):
    """The play-by-play of one round as ``seat`` knows it: give it, in order, the events of ``seen``
    (:func:`seat_events`, which its ``rnd.trace`` holds too)."""

    def __init__(self, rules: Rules, rnd: RoundResult, before: Standings | None, seat: int) -> None:
        self.seen = seat_events(rnd, seat)  # (index in the trace, event as the seat knows it)
        super().__init__(rules, dataclasses.replace(rnd, trace=tuple(e for _, e in self.seen)), before, False)
        self.seat = seat
        self.table = SeatTable(rules.players)
        self.own: list[int] = []  # the seat's hand as its redeals are told

    def _dealt(self, e: Dealt) -> list[str]:
        self.dealt = e
        hand = list(e.hands[self.seat])
        for r in reversed([r for r in self.redeals if r.seat == self.seat]):  # back to the hand as first dealt
            for card in r.drawn:
                hand.remove(card)
            hand.extend(r.shown)
        self.own = hand
        first = " as first dealt" if any(r.seat == self.seat for r in self.redeals) else ""
        middle = "" if self.redeals else f"; middle {hand_text(e.middle)}"
        return [f"deal: seat {self.seat} holds{first} {hand_text(hand)}; the other hands face down{middle}"]

    def _redealt(self, e: Redealt) -> list[str]:
        text = f"seat {e.seat} shows {hand_text(e.shown)}, shuffles them back into the pack and draws "
        if e.seat == self.seat:
            for card in e.shown:
                self.own.remove(card)
            self.own.extend(e.drawn)
            text += f"{hand_text(e.drawn)}: now holds {hand_text(self.own)}"
        else:
            text += "as many again"
        if e is self.redeals[-1] and self.dealt is not None:
            text += f"; middle dealt: {hand_text(self.dealt.middle)}"
        return [text]

    def _gestured(self, e: Gestured) -> list[str]:  # the seat's own deliberate gestures only
        return [f"seat {e.seat} {gesture_act(e.gesture)} ({'signal' if e.holds_four else 'fake or decoy'})"]

    def _verdict(self, e: CallHeard) -> str:
        """As the play-by-play's, but a caught Stop Kemps on a pair names no holder the seat cannot know."""
        if e.outcome == "stop_right" and self.rules.stop_kemps_reveals != "accused_player":
            accused = tuple(sorted((e.accused, partner(self.rules.players, e.accused))))
            if not any(s in self.fours for s in accused):
                return f"right: seat {accused[0]} or seat {accused[1]} holds four of a kind"
        return super()._verdict(e)
