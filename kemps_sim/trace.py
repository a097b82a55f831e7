"""Typed trace events: everything that happened in a round, in simulated time, as plain named tuples.

The engine appends these to a list during play (cheap: no pandas in the hot path); :mod:`kemps_sim.records`
turns them into tidy tables afterwards. Every event starts with ``time`` (seconds since the round began).
"""

from __future__ import annotations

from typing import NamedTuple, get_args

from kemps_sim.seating import NOBODY as NOBODY  # re-exported: events use it where they name no seat


class Dealt(NamedTuple):
    """The deal: every hand and the middle, as dealt (after any redeals)."""

    time: float
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    middle: tuple[int, ...]


class Redealt(NamedTuple):
    """A player dealt three or four of a kind showed them and drew as many again (``redeal_on_deal``)."""

    time: float
    seat: int
    shown: tuple[int, ...]
    drawn: tuple[int, ...]


class PlayStarted(NamedTuple):
    """Swapping opens: when the 4th middle card lands, or when the dealer says go (``start``)."""

    time: float
    dealer: int
    middle: tuple[int, ...]


class Swapped(NamedTuple):
    """A seat's hand touched first: ``gave`` went to the middle and ``took`` came to the hand."""

    time: float
    seat: int
    gave: tuple[int, ...]
    took: tuple[int, ...]


class RaceLost(NamedTuple):
    """A reach landed on a card that was already gone (or lost an exact tie); the seat re-plans.

    ``winner`` is the seat that holds a wanted card now (the one that touched it first), or ``NOBODY`` when the
    cards were swept, when a put-down came too late because a sweep was due, or when the reach came too early:
    under ``refill_opens = when_complete`` nothing may be taken while the fresh middle is being laid.
    """

    time: float
    seat: int
    wanted: tuple[int, ...]
    winner: int


class HandFour(NamedTuple):
    """A seat's hand became four of a kind (``rank``), or stopped being one (``rank = -1``)."""

    time: float
    seat: int
    rank: int


class Gestured(NamedTuple):
    """A gesture was made: deliberately (a signal, fake or decoy) or as a natural fidget; ``slip`` marks a natural
    gesture of the pair's own signal that looked meant (the profile's ``slips_per_hour``)."""

    time: float
    seat: int
    gesture: str
    deliberate: bool
    holds_four: bool
    slip: bool = False


class Perceived(NamedTuple):
    """An observer noticed a gesture as possibly deliberate (signal detection said yes), after a latency.

    ``evidence`` is the observer's standardised evidence that it was deliberate, ``gaze`` where its eyes were,
    and ``busy`` whether its hands were reaching for the middle when the gesture was made (a busy seat sees less).
    """

    time: float
    seat: int
    gesturer: int
    gesture: str
    evidence: float
    gaze: str
    made_at: float
    deliberate: bool
    busy: bool


class StallSaid(NamedTuple):
    """A seat said the middle has stalled (or voted for a fresh middle)."""

    time: float
    seat: int


class Objected(NamedTuple):
    """A seat objected to a pending stall; the middle stays."""

    time: float
    seat: int


class Swept(NamedTuple):
    """A player (the dealer, or under ``sweeper = any_player`` whoever did it) swept the middle to the discards."""

    time: float
    seat: int
    cards: tuple[int, ...]
    reason: str


class Refilled(NamedTuple):
    """The seat that swept dealt four fresh middle cards; ``reshuffled`` when the discards became the pack first."""

    time: float
    seat: int
    cards: tuple[int, ...]
    reshuffled: bool


class CallHeard(NamedTuple):
    """A call finished being spoken and was judged on the hands of that moment.

    ``cue`` is the gesture the caller last noticed from the seat the call is about (the partner, or the accused):
    the table sees what the call answered, which is how a watcher learns another pair's signal ("" if none).
    """

    time: float
    seat: int
    call: str
    accused: int
    outcome: str
    right: bool
    started: float
    ends_round: bool
    cue: str


class CallCutOff(NamedTuple):
    """A call still being spoken when the round ended: it lost the race to speak."""

    time: float
    seat: int
    call: str
    started: float


class Revealed(NamedTuple):
    """Hands shown after a call: to the whole table, or (``to`` a seat) to the caller only."""

    time: float
    seats: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    to: int


class Scored(NamedTuple):
    """What a call added to each pair (letters, points and rounds won), as the call was scored."""

    time: float
    letters: tuple[int, ...]
    points: tuple[int, ...]
    rounds_won: tuple[int, ...]


class RoundEnded(NamedTuple):
    """The round is over and how: a call's outcome, ``void_pack_exhausted`` or ``timeout``."""

    time: float
    outcome: str


#: Any trace event (a new event type is added here, and given its audience in :mod:`kemps_sim.visibility`).
TraceEvent = (Dealt | Redealt | PlayStarted | Swapped | RaceLost | HandFour | Gestured | Perceived | StallSaid
              | Objected | Swept | Refilled | CallHeard | CallCutOff | Revealed | Scored | RoundEnded)
#: Every event type, in the order the events table lists their fields.
EVENT_TYPES: tuple[type, ...] = get_args(TraceEvent)
