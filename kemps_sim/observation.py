"""What one seat may see: the observer that builds an agent's view of the round.

The engine keeps the public side of the table in a :class:`PublicTable` (middle, public log, who last swapped
when, standings) and each seat's private side in its own hand and percept lists. An :class:`Observation` holds
references to exactly those, never to the table state, so an agent cannot reach another player's hand. It is a
live read-only view: it costs nothing to hand out and always shows the present.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from kemps_sim.gestures import DEFAULT_REPERTOIRE, Repertoire
from kemps_sim.perception import Attention, Perceiver, Percept
from kemps_sim.profiles import DEFAULT_PROFILE, PlayerProfile
from kemps_sim.rules import Rules
from kemps_sim.trace import TraceEvent


class ReadOnlyList(Sequence):
    """A read-only window onto a list the engine keeps growing (a log, a percept list)."""

    __slots__ = ("_items",)

    def __init__(self, items: list) -> None:
        self._items = items

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> list: ...
    def __getitem__(self, index):
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"ReadOnlyList({self._items!r})"


@dataclass
class PublicTable:
    """Everything every player can see, kept up to date by the engine."""

    rules: Rules
    dealer: int
    round_index: int
    signals_allowed: tuple[str, ...]
    middle: list[int]
    standings_letters: tuple[int, ...]
    standings_points: tuple[int, ...]
    standings_rounds_won: tuple[int, ...]
    log: list[TraceEvent] = field(default_factory=list)
    last_swap: list[float] = field(default_factory=list)
    swaps_made: list[int] = field(default_factory=list)
    middle_version: int = 0
    refilling: bool = False
    sweep_due: bool = False
    playing: bool = False
    pack_size: int = 0
    stall_pending_until: float | None = None
    stall_votes: int = 0
    now: float = 0.0


class Observation:
    """One seat's view: own hand, the middle, the public log, own percepts and memory, and the round's status.

    Agents read it; they never change it (their own ``memory`` dict excepted).
    """

    __slots__ = ("_barred", "_hand", "_log", "_owed", "_perceiver", "_percepts", "_private", "_profile", "_public",
                 "_repertoire", "memory", "pair", "partner", "seat", "signal")

    def __init__(self, seat: int, public: PublicTable, hand: list[int], owed: list[int], percepts: list[Percept],
                 barred: set[int], signal: str, memory: dict[str, Any], private: list[TraceEvent], *,
                 profile: PlayerProfile = DEFAULT_PROFILE, perceiver: Perceiver | None = None,
                 repertoire: Repertoire = DEFAULT_REPERTOIRE) -> None:
        n = public.rules.players
        self.seat = seat
        self.partner = (seat + n // 2) % n
        self.pair = seat % (n // 2)
        self.signal = signal
        self.memory = memory
        self._public = public
        self._hand = hand
        self._owed = owed
        self._percepts = ReadOnlyList(percepts)
        self._log = ReadOnlyList(public.log)
        self._barred = barred
        self._private = ReadOnlyList(private)
        self._profile = profile
        self._perceiver = perceiver
        self._repertoire = repertoire

    # Own side -------------------------------------------------------------------------------------------------
    @property
    def hand(self) -> tuple[int, ...]:
        """The seat's own cards (fewer than four while it owes picks under ``multi_drop_first``)."""
        return tuple(self._hand)

    @property
    def owed(self) -> int:
        """Cards the seat has put down and must still pick up (``multi_drop_first``)."""
        return self._owed[self.seat]

    @property
    def percepts(self) -> Sequence[Percept]:
        """Gestures this seat noticed as possibly deliberate, oldest first (grows during the round)."""
        return self._percepts

    @property
    def private(self) -> Sequence[TraceEvent]:
        """Events only this seat saw: cards shown to it after its wrong Stop Kemps (003)."""
        return self._private

    @property
    def barred_from_stop(self) -> bool:
        """Whether this seat may no longer call Stop Kemps this round (003's penalty for a wrong one)."""
        return self.seat in self._barred

    @property
    def profile(self) -> PlayerProfile:
        """The seat's own human profile: a player knows its own eyes, hands and tempo."""
        return self._profile

    @property
    def attention(self) -> Attention:
        """Where the seat's eyes are spread now (the profile's, or what its attention policy chose since)."""
        perceiver = self._perceiver
        return perceiver.attention if perceiver is not None else self._profile.attention

    # Public side ----------------------------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self._public.rules

    @property
    def now(self) -> float:
        """Simulated seconds since the round began."""
        return self._public.now

    @property
    def dealer(self) -> int:
        return self._public.dealer

    @property
    def round_index(self) -> int:
        return self._public.round_index

    @property
    def middle(self) -> tuple[int, ...]:
        """The face-up middle cards (empty while the dealer refills it)."""
        return tuple(self._public.middle)

    @property
    def middle_version(self) -> int:
        """A counter that changes whenever the middle changes."""
        return self._public.middle_version

    @property
    def refilling(self) -> bool:
        return self._public.refilling

    @property
    def sweep_due(self) -> bool:
        """Whether the dealer is about to sweep or is refilling (no cards may be put down meanwhile)."""
        return self._public.sweep_due

    @property
    def playing(self) -> bool:
        """Whether swapping is open (after the start of play, before the round ends)."""
        return self._public.playing

    @property
    def pack_size(self) -> int:
        return self._public.pack_size

    @property
    def log(self) -> Sequence[TraceEvent]:
        """Public events of the round so far: swaps, sweeps, refills, stalls, calls, public reveals."""
        return self._log

    @property
    def last_swap(self) -> tuple[float, ...]:
        """When each seat last swapped (−inf if never this round): stillness is a tell."""
        return tuple(self._public.last_swap)

    @property
    def swaps_made(self) -> tuple[int, ...]:
        """How many swaps each seat has made this round."""
        return tuple(self._public.swaps_made)

    @property
    def stall_pending_until(self) -> float | None:
        """End of the objection window of a pending "stalled", if one is pending."""
        return self._public.stall_pending_until

    @property
    def letters(self) -> tuple[int, ...]:
        return self._public.standings_letters

    @property
    def points(self) -> tuple[int, ...]:
        return self._public.standings_points

    @property
    def rounds_won(self) -> tuple[int, ...]:
        return self._public.standings_rounds_won

    @property
    def repertoire(self) -> Repertoire:
        """The gestures of the table with their natural rates: common knowledge, as people know how often others
        touch an ear or cough."""
        return self._repertoire

    @property
    def signals_allowed(self) -> tuple[str, ...]:
        """Gestures a pair may use as its signal under the rules' ``signal_modality``."""
        return self._public.signals_allowed

    @property
    def opponents(self) -> tuple[int, ...]:
        """Every seat not of this seat's pair, in seat order."""
        n = self._public.rules.players
        return tuple(s for s in range(n) if s % (n // 2) != self.pair)
