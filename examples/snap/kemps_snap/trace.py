"""What happens in a Snap match, one frozen record per event, in simulated seconds from the deal.

The trace is the match: the result's counts, the tables and the play-by-play are all read from it, and two plays
of one seed give equal traces (the determinism every conformance check compares).
"""

from __future__ import annotations

from dataclasses import dataclass

#: How a heard call is judged: ``right`` (a match showed: the caller takes the matched piles), ``late`` (the
#: caller had seen a real match that was taken or covered before it was heard), ``false`` (it saw a match where
#: none was).
VERDICTS = ("right", "late", "false")
#: How a match can end.
END_REASONS = ("all_cards", "timeout", "agent_error")


@dataclass(frozen=True)
class Turned:
    """A card landed on the player's face-up pile; ``match`` says whether a match shows now."""

    time: float
    player: int
    card: int
    match: bool


@dataclass(frozen=True)
class TurnedOver:
    """The player's face-down pile ran out: its face-up pile (``cards``) is turned over in its place."""

    time: float
    player: int
    cards: int


@dataclass(frozen=True)
class Noticed:
    """A player took the piles in as showing a match (a percept, after its latency) and called or kept quiet;
    ``real`` is the truth when it looked."""

    time: float
    player: int
    evidence: float
    gaze: str
    real: bool
    calls: bool


@dataclass(frozen=True)
class CallHeard:
    """A "Snap!" heard: who, when it started, the verdict, the cards it took or paid, and how long after the match
    it caught first showed (NaN unless right)."""

    time: float
    caller: int
    started: float
    verdict: str
    took: int
    paid: int
    latency: float


@dataclass(frozen=True)
class Out:
    """A player holds no card any more and leaves the match."""

    time: float
    player: int


@dataclass(frozen=True)
class MatchEnded:
    """How the match ended, the winner (-1: none or a draw) and the cards each player held."""

    time: float
    reason: str
    winner: int
    held: tuple[int, ...]


SnapEvent = Turned | TurnedOver | Noticed | CallHeard | Out | MatchEnded
