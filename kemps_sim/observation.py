"""What one seat may see: an agent's live, read-only view of the round's state.

An :class:`Observation` reads the :class:`~kemps_sim.state.RoundState` as it is now (nothing is copied, so it costs
nothing to hand out and always shows the present), and shows only what the seat may know: its own hand, percepts
and private events, and the public side of the table (middle, public log, who swapped when, standings).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

from kemps_sim.gestures import DEFAULT_REPERTOIRE, Repertoire
from kemps_sim.perception import Attention, Perceiver, Percept
from kemps_sim.profiles import DEFAULT_PROFILE, PlayerProfile
from kemps_sim.rules import Rules
from kemps_sim.seating import opponents, pair_of, partner
from kemps_sim.state import RoundState
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


class Observation:
    """One seat's view: own hand, the middle, the public log, own percepts and memory, and the round's status.

    Agents read it; they never change it (their own ``memory`` dict excepted).
    """

    __slots__ = ("_candidates", "_clock", "_hand", "_log", "_patience", "_perceiver", "_percepts", "_private",
                 "_profile", "_public", "_repertoire", "memory", "pair", "partner", "seat", "signal")

    def __init__(self, seat: int, state: RoundState, memory: dict[str, Any] | None = None, *,
                 profile: PlayerProfile = DEFAULT_PROFILE, perceiver: Perceiver | None = None,
                 repertoire: Repertoire = DEFAULT_REPERTOIRE) -> None:
        public = state.public
        n = public.rules.players
        self.seat = seat
        self.partner = partner(n, seat)
        self.pair = pair_of(n, seat)
        #: The signal the seat's pair agreed for this round.
        self.signal = state.signals[self.pair]
        self.memory = memory if memory is not None else {}
        # Only the public side and this seat's own lists are kept: nothing here leads to another hand.
        self._public = public
        self._clock = public.clock
        self._hand = state.table.hands[seat]
        self._percepts = ReadOnlyList(state.percepts[seat])
        self._log = ReadOnlyList(public.log)
        self._private = ReadOnlyList(state.private[seat])
        self._patience = state.patience[seat]
        self._candidates = state.candidates[self.pair]  # the own pair's list only
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
        return self._public.owed[self.seat]

    @property
    def percepts(self) -> Sequence[Percept]:
        """Gestures this seat noticed as possibly deliberate, oldest first (grows during the round)."""
        return self._percepts

    @property
    def private(self) -> Sequence[TraceEvent]:
        """Events only this seat saw: its own hand becoming (or ceasing to be) four of a kind, a race it lost, and
        cards shown to it alone after its wrong Stop Kemps (003)."""
        return self._private

    @property
    def signal_candidates(self) -> tuple[str, ...]:
        """The signals the seat's pair agreed it may use this match, in the order it means to use them
        (:mod:`kemps_sim.conventions`): the pair's secret, shown to no other seat. Empty if the table dealt none."""
        return tuple(self._candidates)

    @property
    def barred_from_stop(self) -> bool:
        """Whether this seat may no longer call Stop Kemps this round (003's penalty for a wrong one)."""
        return self.seat in self._public.barred

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
        """The rules in force."""
        return self._public.rules

    @property
    def now(self) -> float:
        """Simulated seconds since the round began."""
        return self._clock.now

    @property
    def dealer(self) -> int:
        """The seat that dealt this round."""
        return self._public.dealer

    @property
    def round_index(self) -> int:
        """The round, counted from 0."""
        return self._public.round_index

    @property
    def middle(self) -> tuple[int, ...]:
        """The face-up middle cards (while a fresh middle is laid, the cards down so far)."""
        return tuple(self._public.middle)

    @property
    def middle_version(self) -> int:
        """A counter that changes whenever the middle changes."""
        return self._public.middle_version

    @property
    def refilling(self) -> bool:
        """Whether a fresh middle is being laid (under ``refill_opens = when_complete`` nothing may be taken until
        the fourth card is down)."""
        return self._public.refilling

    @property
    def sweep_due(self) -> bool:
        """Whether a sweep is due or the sweeper is laying a fresh middle (no cards may be put down meanwhile)."""
        return self._public.sweep_due

    @property
    def playing(self) -> bool:
        """Whether swapping is open (after the start of play, before the round ends)."""
        return self._public.playing

    @property
    def pack_size(self) -> int:
        """Cards left in the pack (everyone can see the pile shrink)."""
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
    def patience_left(self) -> float | None:
        """Seconds until the seat's patience with the middle runs out (negative once it has), counted from its
        first look at the middle as it is now and drawn by the engine from ``PlayerProfile.patience``, anew for
        every middle; None where the engine keeps no patience (``EngineConfig.all_looks``). A ``Wait(stale=True)``
        sleeps until then, through changes of the middle the agent does not wake for."""
        kept = self._patience
        return kept[0] - self._clock.now if kept else None

    @property
    def stall_pending_until(self) -> float | None:
        """End of the objection window of a pending "stalled", if one is pending."""
        return self._public.stall_pending_until

    @property
    def letters(self) -> tuple[int, ...]:
        """Each pair's letters so far (letters scoring)."""
        return self._public.standings.letters

    @property
    def points(self) -> tuple[int, ...]:
        """Each pair's points so far (points scoring)."""
        return self._public.standings.points

    @property
    def rounds_won(self) -> tuple[int, ...]:
        """Each pair's rounds won so far (rounds-won scoring)."""
        return self._public.standings.rounds_won

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
        return opponents(self._public.rules.players, self.seat)
