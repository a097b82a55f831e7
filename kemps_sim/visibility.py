"""Who sees each trace event: the one rule for what reaches the public log, one seat, or only the trace.

The engine records every event through :func:`audience` (and :func:`public_form` for what the table is told), so
a new event type needs one line here to reach the right seats. Gestures are not here: who notices one is
perception's business. A noticed gesture reaches its seat as a :class:`~kemps_sim.perception.Percept` (what its
eyes gave it); the :class:`~kemps_sim.trace.Perceived` event, which also says whether the gesture was deliberate,
stays in the trace.
"""

from __future__ import annotations

from collections.abc import Callable

from kemps_sim.scoring import Outcome
from kemps_sim.seating import NOBODY
from kemps_sim.trace import (
    EVENT_TYPES,
    CallCutOff,
    CallHeard,
    Dealt,
    Gestured,
    HandFour,
    Objected,
    Perceived,
    PlayStarted,
    RaceLost,
    Redealt,
    Refilled,
    Revealed,
    RoundEnded,
    Scored,
    StallSaid,
    Swapped,
    Swept,
    TraceEvent,
)

#: Audience of an event everyone at the table sees.
EVERYONE = -2
#: Audience of an event nobody at the table sees as such (it stays in the trace for analysis).
TRACE_ONLY = NOBODY
#: A card in another seat's hand, face down, in :func:`seen_by`'s view of the deal.
HIDDEN_CARD = -1


def _everyone(_: TraceEvent) -> int:
    return EVERYONE


def _trace_only(_: TraceEvent) -> int:
    return TRACE_ONLY


def _own_seat(event: TraceEvent) -> int:
    return event.seat  # type: ignore[union-attr]


def _shown_to(event: Revealed) -> int:
    return EVERYONE if event.to == NOBODY else event.to


_AUDIENCE: dict[type, Callable] = {
    Dealt: _trace_only,  # each seat knows its own hand from its hand, not from an event
    Redealt: _everyone,  # 003: the player shows the cards (not the ones drawn: see public_form)
    PlayStarted: _everyone,
    Swapped: _everyone,
    RaceLost: _own_seat,  # the loser feels the card gone
    HandFour: _own_seat,  # only the holder knows its hand is four of a kind
    Gestured: _trace_only,  # seen through perception, as Perceived
    Perceived: _trace_only,  # the seat has the Percept; whether the gesture was deliberate is for it to judge
    StallSaid: _everyone,
    Objected: _everyone,
    Swept: _everyone,
    Refilled: _everyone,
    CallHeard: _everyone,
    CallCutOff: _trace_only,  # the round is over: nobody acts on it
    Revealed: _shown_to,
    Scored: _everyone,
    RoundEnded: _everyone,
}
assert set(_AUDIENCE) == set(EVENT_TYPES), "every event type needs an audience"


def audience(event: TraceEvent) -> int:
    """Who sees ``event``: :data:`EVERYONE`, one seat, or :data:`TRACE_ONLY`."""
    return _AUDIENCE[type(event)](event)


def public_form(event: TraceEvent) -> TraceEvent:
    """The event as the table sees it. A redealt player shows the cards it returns, not those it draws. While
    play goes on after a Stop Kemps against a pair holding a Double, the table learns only that the accusation
    failed, not that a Double is held."""
    kind = type(event)
    if kind is CallHeard and not event.ends_round and event.outcome == Outcome.STOP_INEFFECTIVE.value:
        return event._replace(outcome=Outcome.STOP_WRONG.value)
    if kind is Redealt:
        return event._replace(drawn=())
    return event


def seen_by(event: TraceEvent, seat: int) -> TraceEvent | None:
    """``event`` as ``seat`` knows it, or None if it never learns of it: a replay of one seat's view shows these.

    What everyone sees, in its :func:`public_form`; what is shown to the seat alone; and what the seat knows of
    itself: its own hand in the deal (the other hands face down, as :data:`HIDDEN_CARD`, the middle face up), the
    cards it drew on a redeal, its own deliberate gestures, and the gestures it noticed (its percepts, with
    ``deliberate`` None: whether a gesture was meant is the seat's to judge, not to know).
    """
    kind = type(event)
    if kind is Redealt and event.seat == seat:
        return event
    who = audience(event)
    if who == EVERYONE:
        return public_form(event)
    if who == seat:
        return event
    if kind is Dealt:
        return event._replace(hands=tuple(hand if s == seat else (HIDDEN_CARD,) * len(hand)
                                          for s, hand in enumerate(event.hands)))
    if kind is Perceived and event.seat == seat:
        return event._replace(deliberate=None)
    if kind is Gestured and event.seat == seat and event.deliberate:
        return event
    return None


def on_screen(event: TraceEvent, seat: int) -> TraceEvent | None:
    """``event`` as a person at ``seat`` of a live table is shown it, or None: what :func:`seen_by` gives the seat,
    and also every other player's gesture, made in plain sight, by its form alone (``deliberate``, ``holds_four``
    and ``slip`` None: whether it was meant is the person's to judge); but not the model's percepts at the seat (a
    person sees with their own eyes, and a percept would tell them of a gesture they did not notice)."""
    kind = type(event)
    if kind is Perceived:
        return None
    if kind is Gestured and event.seat != seat:
        return event._replace(deliberate=None, holds_four=None, slip=None)
    return seen_by(event, seat)
