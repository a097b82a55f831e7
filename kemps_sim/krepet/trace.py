"""What a Krepet game on the clock leaves behind: one small frozen event per thing that happened, time first.

The trace says who moved what and when, which moves left an ace-pile move open (a miss, and whether the mover had
overlooked the ace piles), what the watching opponent noticed and how strongly, which calls were spoken and how
each was judged, which moves a call cut off in the air, and how the game ended. Tables and statistics are built
from it alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class TurnStarted:
    """A player's turn began (the turn count from 0)."""

    time: float
    player: int
    turn: int


@dataclass(frozen=True)
class Moved:
    """A move landed. ``missed`` counts the ace-pile moves it left open (0: no miss); ``callable`` says whether a
    call would now catch a miss; ``overlooked`` whether the mover had not taken in the ace piles this decision."""

    time: float
    player: int
    move: str
    kind: str  # "lay", "draw", "take_back" or "end_turn"
    card: int  # the card laid (-1 for other moves)
    src: str
    dst: str
    count: int  # cards moved: a run laid on the tableau, or taken back (1 for a draw or the end of the turn)
    decided_at: float
    missed: int
    callable: bool
    overlooked: bool


@dataclass(frozen=True)
class MoveCut:
    """A move still in the air when a call ended the turn: it never lands."""

    time: float
    player: int
    move: str


@dataclass(frozen=True)
class Noticed:
    """The watcher took in the last move as a miss (rightly or not): its evidence, log-likelihood ratio and gaze.
    ``real`` is the truth the watcher does not know: whether a callable miss was on the table."""

    time: float
    watcher: int
    evidence: float
    llr: float
    gaze: str
    real: bool
    calls: bool  # whether the watcher chose to call on it


@dataclass(frozen=True)
class CallHeard:
    """A "Krepet!" heard: who called, when it started, and the verdict. ``verdict`` is ``right`` (a miss was
    callable), ``too_late`` (the watcher had seen a real miss, but the mover made the compulsory move first or
    the turn was over) or ``false_alarm`` (nothing was missed)."""

    time: float
    caller: int
    started: float
    right: bool
    verdict: str
    caught_times: tuple[float, ...]  # when each miss it caught landed (empty unless right)

    @property
    def caught(self) -> int:
        """How many misses the call caught."""
        return len(self.caught_times)

    @property
    def miss_at(self) -> float:
        """When the first miss it caught landed (NaN unless right): the call's latency is ``time - miss_at``."""
        return min(self.caught_times) if self.caught_times else math.nan


@dataclass(frozen=True)
class GameEnded:
    """The end: ``reason`` is ``out_of_cards``, ``both_stuck``, ``timeout`` (a cap) or ``agent_error``."""

    time: float
    reason: str
    winner: int  # -1: a draw or no winner
    cards_left: tuple[int, int]
    moves: int
    turns: int


KrepetEvent = TurnStarted | Moved | MoveCut | Noticed | CallHeard | GameEnded
