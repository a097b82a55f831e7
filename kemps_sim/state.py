"""The mutable facts of one round in one object: the cards, the standings, the logs and the table's status.

The engine changes a :class:`RoundState` as play goes on; the seats' observations read it live (nothing is copied
into a view), and the recorder appends to its logs. It holds no processes and no randomness: the clock it reads is
the engine's (anything with a ``now`` attribute), so the state of a hand-made table can be built without SimPy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from kemps_sim.rules import Rules
from kemps_sim.scoring import Outcome, Standings
from kemps_sim.table import TableState
from kemps_sim.trace import TraceEvent


class Clock(Protocol):
    """Anything that tells the simulated time in seconds since the round began (a SimPy environment does)."""

    @property
    def now(self) -> float: ...


@dataclass
class FixedClock:
    """A clock set by hand, for tables built without the engine (tests, examples, the time between rounds)."""

    now: float = 0.0


@dataclass(eq=False)
class RoundState:
    """Everything that is true of the round now. Lists indexed by seat; ``log`` is what everyone has seen."""

    rules: Rules
    dealer: int
    round_index: int
    signals: tuple[str, ...]  # each pair's signal, by pair
    signals_allowed: tuple[str, ...]  # the gestures a pair may use as its signal under these rules
    table: TableState
    standings: Standings
    clock: Clock
    log: list[TraceEvent] = field(default_factory=list)  # public events, oldest first
    private: list[list[TraceEvent]] = field(default_factory=list)  # per seat: events only that seat saw
    percepts: list[list[Any]] = field(default_factory=list)  # per seat: gestures it noticed (Percept)
    barred: set[int] = field(default_factory=set)  # seats that may not call Stop Kemps again this round (003)
    last_swap: list[float] = field(default_factory=list)  # per seat: when it last touched the middle
    swaps_made: list[int] = field(default_factory=list)
    holding: list[bool] = field(default_factory=list)  # per seat: whether its hand is four of a kind now
    reaching: list[bool] = field(default_factory=list)  # per seat: whether its hand is on the way to the middle
    middle_version: int = 0  # changes whenever the middle changes
    sweep_due: bool = False  # a sweep is due or under way: nothing more may be put down
    playing: bool = False  # swapping is open
    stall_pending_until: float | None = None  # end of the objection window of a pending "stalled"
    stall_votes: int = 0  # seats that asked for a fresh middle on the current one (all_agree)
    over: bool = False
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        n = self.rules.players
        for name, empty in (("private", list), ("percepts", list)):
            if not getattr(self, name):
                setattr(self, name, [empty() for _ in range(n)])
        if not self.last_swap:
            self.last_swap = [float("-inf")] * n
        if not self.swaps_made:
            self.swaps_made = [0] * n
        if not self.holding:
            self.holding = [self.table.has_four_of_a_kind(s) for s in range(n)]
        if not self.reaching:
            self.reaching = [False] * n

    @property
    def now(self) -> float:
        """Simulated seconds since the round began."""
        return self.clock.now

    @classmethod
    def sketch(cls, rules: Rules, *, hands: Sequence[Sequence[int]] | None = None, middle: Sequence[int] = (),
               log: list[TraceEvent] | None = None, now: float = 0.0, dealer: int = 0, playing: bool = True,
               signals_allowed: Sequence[str] = ("ear", "nose"), standings: Standings | None = None,
               round_index: int = 0) -> RoundState:
        """A state of a table set by hand (hands not given are empty; nothing is checked for conservation): how
        tests and examples show an agent a situation. Its clock is a :class:`FixedClock` at ``now``."""
        n = rules.players
        table = TableState.unchecked(rules, hands if hands is not None else [[] for _ in range(n)], middle)
        return cls(rules=rules, dealer=dealer, round_index=round_index, signals=(signals_allowed[0],) * rules.pairs,
                   signals_allowed=tuple(signals_allowed), table=table,
                   standings=standings or Standings.start(rules), clock=FixedClock(now),
                   log=log if log is not None else [], playing=playing)
