"""Reading the public log: which cards each seat took and still holds, which ranks it takes and throws, what lies
in the discard pile, how many fresh middles came and when each rank last showed, and every call the table heard
(with the hands it revealed).

Everything here comes from :attr:`Observation.log`, which every seat sees: swaps are public (who took which card
from the middle and put which card down), so "a player taking every nine" is plain to see (004, 001), and so is
the exact card: a card a seat took and has not put back is in its hand. The reader works incrementally (only
events it has not read yet) because agents consult it at every decision.

A reader may be given a ``notice`` test: another seat's swap it does not notice is known only as a swap (its time,
which every seat sees as the player's stillness), not by its cards, and whatever the reader knew of that seat's
hand is forgotten, since any of those cards may have gone (:class:`kemps_sim.belief.Belief` notices what its
seat's eyes were on). Calls, sweeps and fresh middles are always noticed.

A seat that is not asked :meth:`choose_signal` gets no decision after the call that ends a round, so it would
never read that call. The observation is a live view, though: the reader keeps the last one it was handed and
finishes reading that round's log when the next round begins, so every seat learns from every call. It keeps the
swap times of the round before too, so that a call read at the next round can still be timed against the swaps
(:meth:`TableReader.stillness_at`: how long a player had sat still when it made the gesture a call answered).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import NamedTuple

from kemps_sim.cards import RANK
from kemps_sim.cards import RANKS as CARD_RANKS
from kemps_sim.observation import Observation
from kemps_sim.seating import NOBODY
from kemps_sim.trace import CallHeard, PlayStarted, Refilled, Revealed, Swapped, Swept, TraceEvent

RANKS = len(CARD_RANKS)
#: No rank: a seat whose known cards are of two ranks or more (it cannot hold four of a kind).
MIXED = -2


class HeardCall(NamedTuple):
    """A call the table heard, with the hands shown after it (empty if none were shown)."""

    round: int
    call: CallHeard
    revealed: dict[int, tuple[int, ...]]


class TableReader:
    """Per round: cards taken and still held, ranks taken and thrown by every seat, swap times, the discard pile,
    fresh middles; per match: the calls heard."""

    def __init__(self, players: int, seat: int = NOBODY, notice: Callable[[Swapped], bool] | None = None) -> None:
        self.players = players
        self.seat = seat
        self.notice = notice
        self.round = -1
        self.read = 0
        self.calls: list[HeardCall] = []  # the whole match, oldest first
        self._obs: Observation | None = None
        self._log: Sequence[TraceEvent] = ()
        self.swap_times: list[list[float]] = []
        self.started_at = 0.0
        self._start_round(-1)

    def _start_round(self, index: int) -> None:
        n = self.players
        self.past = (self.round, self.swap_times, self.started_at)  # kept so that its calls can still be timed
        self.round = index
        self.read = 0
        self.net = [[0] * RANKS for _ in range(n)]  # cards of each rank each seat took minus those it threw
        self.collectors = [0] * RANKS  # how many seats have a positive net take of each rank
        self.held: list[list[int]] = [[] for _ in range(n)]  # cards each seat took and has not put back
        self.held_rank = [-1] * n  # the one rank of a seat's held cards (-1: none held, MIXED: several)
        self.held_of_rank = [0] * RANKS  # held cards of each rank, over every seat
        self.owed = [0] * n  # cards a seat has put down and not yet picked up (multi_drop_first)
        self.discard = [0] * RANKS  # swept cards of each rank since the last reshuffle
        self.swap_times = [[] for _ in range(n)]
        self.sweeps = 0
        self.started_at = 0.0  # when swapping opened
        self.seen_at = [-1] * RANKS  # the sweep count at which a card of each rank last lay in the middle
        self.others_changed_at = 0.0  # when the middle last changed by someone else's hand (a swap, a deal)

    def refresh(self, obs: Observation) -> None:
        """Read the events added since the last call (finishing the previous round's log at a new round).

        An observation belongs to one round and its log is a live view, so the round can only have changed when
        the object did, and the view is fetched once per object: the common case costs an identity test and a
        length.
        """
        if obs is not self._obs:
            if obs.round_index != self.round:
                if self._obs is not None:
                    self._read(self._log)  # the calls that ended the last round
                self._start_round(obs.round_index)
            self._obs = obs
            self._log = obs.log
        if len(self._log) != self.read:
            self._read(self._log)

    def _read(self, log: Sequence[TraceEvent]) -> None:
        events = log[self.read:]
        self.read += len(events)
        seen_at = self.seen_at
        for event in events:
            if type(event) is Swapped:
                self._swapped(event)
            elif type(event) is Swept:
                self.sweeps += 1
                for card in event.cards:
                    self.discard[RANK[card]] += 1
                self.others_changed_at = event.time
            elif type(event) is Refilled:
                sweeps = self.sweeps
                for card in event.cards:
                    seen_at[RANK[card]] = sweeps
                if event.reshuffled:  # the discards went back into the pack: where they are is unknown again
                    self.discard = [0] * RANKS
                self.others_changed_at = event.time
            elif type(event) is PlayStarted:
                sweeps = self.sweeps
                for card in event.middle:
                    seen_at[RANK[card]] = sweeps
                self.started_at = event.time
                self.others_changed_at = event.time
            elif type(event) is CallHeard:
                self.calls.append(HeardCall(self.round, event, {}))
            elif type(event) is Revealed and self.calls and event.to == NOBODY:
                self.calls[-1].revealed.update(zip(event.seats, event.hands, strict=True))

    def _swapped(self, event: Swapped) -> None:
        seat = event.seat
        self.owed[seat] += len(event.gave) - len(event.took)
        self.swap_times[seat].append(event.time)
        if seat != self.seat:
            self.others_changed_at = event.time
            if self.notice is not None and not self.notice(event):
                self._forget(seat)
                return
        net, collectors, held, held_of_rank = self.net[seat], self.collectors, self.held[seat], self.held_of_rank
        for card in event.took:
            rank = RANK[card]
            net[rank] += 1
            if net[rank] == 1:
                collectors[rank] += 1
            held.append(card)
            held_of_rank[rank] += 1
        for card in event.gave:
            rank = RANK[card]
            net[rank] -= 1
            if net[rank] == 0:
                collectors[rank] -= 1
            if card in held:
                held.remove(card)
                held_of_rank[rank] -= 1
            self.seen_at[rank] = self.sweeps
        if event.took or event.gave:
            ranks = {RANK[c] for c in held}
            self.held_rank[seat] = -1 if not ranks else ranks.pop() if len(ranks) == 1 else MIXED

    def _forget(self, seat: int) -> None:
        """A swap of ``seat`` went unnoticed: any card known to be in its hand may be gone. (The ranks it was seen
        taking, ``net``, stay as remembered: a player who was seen taking nines still seems to collect them.)"""
        for card in self.held[seat]:
            self.held_of_rank[RANK[card]] -= 1
        self.held[seat] = []
        self.held_rank[seat] = -1

    # Questions ------------------------------------------------------------------------------------------------
    def net_taken(self, seat: int, rank: int) -> int:
        """Cards of ``rank`` the seat took this round minus those it threw back."""
        return self.net[seat][rank]

    def collected_rank(self, seat: int, least: int = 1) -> int:
        """The rank the seat seems to collect: most net taken (ties: the higher rank), at least ``least``; else -1."""
        net = self.net[seat]
        best = max(range(RANKS), key=lambda rank: (net[rank], rank))
        return best if net[best] >= least else -1

    def most_taken(self, seat: int) -> int:
        """How many cards of its most-collected rank the seat has taken (net of throws), 0 if none."""
        return max(max(self.net[seat]), 0)

    def takers(self, rank: int, me: int) -> int:
        """How many seats other than ``me`` have net taken cards of ``rank`` this round (they seem to collect it)."""
        return self.collectors[rank] - (self.net[me][rank] > 0)

    def last_swap_before(self, seat: int, time: float) -> float:
        """When the seat last swapped at or before ``time`` (−inf if it had not swapped this round)."""
        times = self.swap_times[seat]
        i = bisect_right(times, time)
        return times[i - 1] if i else float("-inf")

    def stillness_at(self, seat: int, time: float, round_index: int) -> float | None:
        """Seconds the seat had sat still at ``time`` of round ``round_index`` (since its last touch of the middle,
        or since play opened): this round or the one before it (whose calls are read at the start of the next);
        None for an older round, or a time before play opened."""
        if round_index == self.round:
            times, started = self.swap_times[seat], self.started_at
        elif round_index == self.past[0]:
            times, started = self.past[1][seat], self.past[2]
        else:
            return None
        i = bisect_right(times, time)
        last = times[i - 1] if i else started
        return time - last if time >= last else None

    def still_since(self, seat: int) -> float:
        """When the seat last touched the middle (the start of play if it has not yet)."""
        times = self.swap_times[seat]
        return times[-1] if times else self.started_at

    def known_held(self, seat: int) -> tuple[int, int]:
        """``(rank, count)`` of the cards the seat is known to hold (taken, not put back): ``(-1, 0)`` if none,
        ``(MIXED, n)`` if they are of two ranks or more, when the seat cannot hold four of a kind."""
        return self.held_rank[seat], len(self.held[seat])

    def unseen(self, rank: int, seat: int, own_hand: Sequence[int], middle: Sequence[int], copies: int) -> int:
        """Cards of ``rank`` whose place the reading seat does not know, so that they could be among the unknown
        cards of ``seat``'s hand: every copy less those in the reader's own hand, the middle, the discard pile and
        every known hand (``seat``'s own known cards included: they fill known places)."""
        mine = sum(RANK[c] == rank for c in self.held[self.seat]) if self.seat != NOBODY else 0  # in own_hand too
        seen = self.discard[rank] + self.held_of_rank[rank] - mine
        seen += sum(RANK[c] == rank for c in own_hand) + sum(RANK[c] == rank for c in middle)
        return copies - seen
