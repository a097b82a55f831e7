"""The mutable facts of one round in one object: the cards, the standings, the logs and the table's status.

The engine changes a :class:`RoundState` as play goes on; the seats' observations read it live (nothing is copied
into a view), and the recorder appends to its logs. It holds no processes and no randomness: the clock it reads is
the engine's (anything with a ``now`` attribute), so the state of a hand-made table can be built without SimPy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kemps_sim.errors import ConfigError
from kemps_sim.perception import Percept
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
class PublicState:
    """The side of the round every player can see: what the seats' observations read, and nothing else (no hand,
    no pack order, no percept). ``middle`` and ``owed`` are the table's own lists, so they are never stale."""

    rules: Rules
    dealer: int
    round_index: int
    signals_allowed: tuple[str, ...]  # the gestures a pair may use as its signal under these rules
    standings: Standings
    clock: Clock
    middle: list[int]  # the table's middle (the same list)
    owed: list[int]  # per seat: cards put down and still to pick up (multi_drop_first; the table's list)
    pack_size: int = 0
    refilling: bool = False  # the middle is being laid afresh
    log: list[TraceEvent] = field(default_factory=list)  # public events, oldest first
    last_swap: list[float] = field(default_factory=list)  # per seat: when it last touched the middle
    swaps_made: list[int] = field(default_factory=list)
    barred: set[int] = field(default_factory=set)  # seats that may not call Stop Kemps again this round (003)
    middle_version: int = 0  # changes whenever the middle changes
    sweep_due: bool = False  # a sweep is due or under way: nothing more may be put down
    playing: bool = False  # swapping is open
    stall_pending_until: float | None = None  # end of the objection window of a pending "stalled"
    stall_votes: int = 0  # seats that asked for a fresh middle on the current one (all_agree)

    def __post_init__(self) -> None:
        n = self.rules.players
        if not self.last_swap:
            self.last_swap = [float("-inf")] * n
        if not self.swaps_made:
            self.swaps_made = [0] * n

    @property
    def now(self) -> float:
        """Simulated seconds since the round began."""
        return self.clock.now


@dataclass(eq=False)
class RoundState:
    """Everything that is true of the round now: the public side, the cards, and what each seat alone knows.

    Lists are indexed by seat. Only the engine holds it; a seat's observation holds the public side and its own
    hand, percepts and private events.
    """

    public: PublicState
    table: TableState
    signals: tuple[str, ...]  # each pair's signal, by pair
    # per pair: the signals it agreed it may use this match, in order (kemps_sim.conventions); private to the pair
    candidates: list[list[str]] = field(default_factory=list)
    private: list[list[TraceEvent]] = field(default_factory=list)  # per seat: events only that seat saw
    percepts: list[list[Percept]] = field(default_factory=list)  # per seat: gestures it noticed
    holding: list[bool] = field(default_factory=list)  # per seat: whether its hand is four of a kind now
    reaching: list[bool] = field(default_factory=list)  # per seat: whether its hand is on the way to the middle
    # per seat: [when its patience with the middle it last looked at runs out], kept by the engine (an empty list:
    # the engine keeps none, EngineConfig.all_looks); one list per seat, so that a view holds its own only
    patience: list[list[float]] = field(default_factory=list)
    over: bool = False
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        n = self.public.rules.players
        if not self.candidates:
            self.candidates = [[] for _ in range(n // 2)]
        if not self.private:
            self.private = [[] for _ in range(n)]
        if not self.percepts:
            self.percepts = [[] for _ in range(n)]
        if not self.holding:
            self.holding = [self.table.has_four_of_a_kind(s) for s in range(n)]
        if not self.reaching:
            self.reaching = [False] * n
        if not self.patience:
            self.patience = [[] for _ in range(n)]

    @classmethod
    def start(cls, rules: Rules, table: TableState, *, dealer: int, round_index: int, signals: Sequence[str],
              signals_allowed: Sequence[str], standings: Standings, clock: Clock,
              candidates: Sequence[Sequence[str]] = ()) -> RoundState:
        """The state of a round as dealt; ``candidates`` gives each pair's candidate signals (none: empty)."""
        public = PublicState(rules=rules, dealer=dealer, round_index=round_index,
                             signals_allowed=tuple(signals_allowed), standings=standings, clock=clock,
                             middle=table.middle, owed=table.owed, pack_size=len(table.pack),
                             refilling=table.refilling)
        state = cls(public=public, table=table, signals=tuple(signals))
        state.agree(candidates)
        return state

    def agree(self, candidates: Sequence[Sequence[str]]) -> None:
        """Set each pair's candidate signals (one sequence per pair; none: every pair's emptied), in place, so that
        the views already handed out see them: a view keeps its own pair's list, never another pair's."""
        pairs = len(self.candidates)
        if candidates and len(candidates) != pairs:
            raise ConfigError(f"candidates: {len(candidates)} given for {pairs} pairs; give one per pair")
        for pair, own in enumerate(self.candidates):
            own[:] = candidates[pair] if candidates else ()

    @property
    def rules(self) -> Rules:
        return self.public.rules

    @property
    def now(self) -> float:
        """Simulated seconds since the round began."""
        return self.public.clock.now

    @classmethod
    def sketch(cls, rules: Rules, *, hands: Sequence[Sequence[int]] | None = None, middle: Sequence[int] = (),
               log: list[TraceEvent] | None = None, now: float = 0.0, dealer: int = 0, playing: bool = True,
               signals_allowed: Sequence[str] = ("ear", "nose"), standings: Standings | None = None,
               round_index: int = 0, candidates: Sequence[Sequence[str]] = ()) -> RoundState:
        """A state of a table set by hand (hands not given are empty; nothing is checked for conservation): how
        tests and examples show an agent a situation. Its clock is a :class:`FixedClock` at ``now``; every pair
        signals with the first allowed gesture, and ``candidates`` gives the pairs' candidate signals (none: empty)."""
        n = rules.players
        table = TableState.unchecked(rules, hands if hands is not None else [[] for _ in range(n)], middle)
        state = cls.start(rules, table, dealer=dealer, round_index=round_index,
                          signals=(signals_allowed[0],) * rules.pairs, signals_allowed=signals_allowed,
                          standings=standings or Standings.start(rules), clock=FixedClock(now),
                          candidates=candidates)
        state.public.playing = playing
        if log is not None:
            state.public.log = log
        return state
