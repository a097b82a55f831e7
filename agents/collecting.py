"""The collecting part: which rank to collect, which middle cards to take for it, and which hand cards to throw.

Heuristics of the sources (004, 001): pick a rank early (the one held most); switch if it has not shown after
``switch_after`` sweeps; throw what nobody seems to collect (the public log shows which ranks every other seat
takes, so a card of a rank nobody takes feeds nobody). A rank of which three are held is never abandoned: the
fourth card is one swap away, and whoever holds it will throw it sooner or later.

The plan depends only on the hand, the middle, the target and the ranks to avoid; it is worked out once per such
key and cached, because a seat decides many times on the same cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from kemps_sim.belief.tracking import RANKS, TableReader
from kemps_sim.cards import RANK
from kemps_sim.compile_hints import mypyc_attr
from kemps_sim.intents import Swap
from kemps_sim.observation import Observation

#: A target of which this many are held is kept whatever the sweeps say.
KEEP_FROM = 3


def rank_counts(cards: Sequence[int]) -> dict[int, int]:
    """How many cards of each rank (a plain dict: this runs at every decision)."""
    counts: dict[int, int] = {}
    for card in cards:
        rank = RANK[card]
        counts[rank] = counts.get(rank, 0) + 1
    return counts


def best_picks(middle: Sequence[int], counts: dict[int, int], owed: int) -> tuple[int, ...]:
    """Under drop-first, the ``owed`` middle cards most useful to the hand."""
    ranked = sorted(middle, key=lambda c: (-counts.get(RANK[c], 0), c))
    return tuple(ranked[:owed])


@mypyc_attr(allow_interpreted_subclasses=True)  # a part a researcher may vary by deriving from it
class Collecting:
    """Collect one target rank; abandon it after ``switch_after`` sweeps without seeing it; throw wisely.

    ``avoid`` is a rank left to someone else (the feeding part sets it to the partner's rank): never taken, never
    a target, thrown first.
    """

    def __init__(self, switch_after: int) -> None:
        self.switch_after = switch_after
        self.round = -1
        self.avoid = -1
        self._seen_counts: dict[int, int] | None = None
        self._seen_sweeps, self._seen_avoid = -1, -1
        self._plan_for: tuple | None = None
        self._plan: Swap | None = None

    def _new_round(self, index: int) -> None:
        self.round = index
        self.target = -1
        self.chosen_at = 0  # the sweep count when the target was chosen
        self.abandoned = [False] * RANKS
        self._seen_sweeps, self._seen_counts, self._seen_avoid = -1, None, -1

    def refresh(self, obs: Observation, reader: TableReader, counts: dict[int, int]) -> int:
        """The target rank now: keep it, or pick a new one when it is gone or has not shown for too long.

        ``reader`` must be up to date with ``obs``.
        """
        if reader.round != self.round:
            self._new_round(reader.round)
        self._seen_sweeps, self._seen_counts, self._seen_avoid = reader.sweeps, counts, self.avoid
        target = self.target
        if target < 0 or target not in counts or target == self.avoid:
            return self._choose(obs.seat, reader, counts)
        held = counts[target]
        if held < KEEP_FROM and reader.sweeps - max(reader.seen_at[target], self.chosen_at) >= self.switch_after:
            self.abandoned[target] = True
            return self._choose(obs.seat, reader, counts)
        return target

    def ensure(self, obs: Observation, reader: TableReader, counts: dict[int, int]) -> None:
        """:meth:`refresh` if anything the target depends on has changed: only a sweep (the switch rule), a new
        hand, a new rank to avoid or a lost race (a target switched to but not won) can move it."""
        if (reader.sweeps != self._seen_sweeps or counts is not self._seen_counts or reader.round != self.round
                or self.avoid != self._seen_avoid or self.target not in counts):
            self.refresh(obs, reader, counts)

    def _choose(self, seat: int, reader: TableReader, counts: dict[int, int]) -> int:
        """The held rank to collect: most held, not abandoned, least taken by others (ties: the higher rank)."""
        candidates = [r for r in counts if r != self.avoid and not self.abandoned[r]]
        if not candidates:  # every held rank was abandoned: start afresh
            self.abandoned = [False] * RANKS
            candidates = [r for r in counts if r != self.avoid] or list(counts)
        self.target = max(candidates, key=lambda r: (counts[r], -reader.takers(r, seat), r))
        self.chosen_at = reader.sweeps
        return self.target

    # Plans ----------------------------------------------------------------------------------------------------
    def plan(self, obs: Observation, reader: TableReader, counts: dict[int, int], first: int = -1) -> Swap | None:
        """The swap that collects now, or None. ``first`` is a rank to throw before any other (the partner's).

        Brings the target up to date first (``reader`` must be up to date with ``obs``).
        """
        self.ensure(obs, reader, counts)
        hand, middle = obs.hand, obs.middle
        if not middle:
            return None
        key = (hand, middle, self.target, self.avoid, first)  # every swap changes the middle: takes included
        if key != self._plan_for:
            self._plan = self._work_out(obs, reader, hand, middle, counts, first)
            self._plan_for = (hand, middle, self.target, self.avoid, first)  # the plan may have moved the target
        return self._plan

    def _work_out(self, obs: Observation, reader: TableReader, hand: tuple[int, ...], middle: tuple[int, ...],
                  counts: dict[int, int], first: int) -> Swap | None:
        target, avoid = self.target, self.avoid
        held_target = counts.get(target, 0)
        in_middle: dict[int, int] = {}
        for card in middle:
            rank = RANK[card]
            in_middle[rank] = in_middle.get(rank, 0) + 1
        take_rank, best = -1, (0, False, 0, 0)
        for rank, offered in in_middle.items():
            if rank == avoid:
                continue
            held = counts.get(rank, 0)
            if rank == target or held + offered > held_target:
                key = (held + offered, rank == target, held, rank)
                if key > best:
                    take_rank, best = rank, key
        if take_rank < 0:
            return None
        if take_rank != target:
            self.target, self.chosen_at = take_rank, reader.sweeps
        take = [c for c in middle if RANK[c] == take_rank]
        if obs.rules.swap == "one_for_one":
            give = self.best_throw(obs.seat, hand, reader, counts, take_rank, first)
            return Swap((give,), (take[0],)) if give >= 0 else None
        order = self.throw_order(obs.seat, hand, reader, counts, take_rank, first)
        k = min(len(take), len(order))
        return Swap(order[:k], tuple(take[:k])) if k else None

    @staticmethod
    def throw_key(seat: int, reader: TableReader, counts: dict[int, int], first: int, card: int) -> tuple:
        """How readily a hand card is thrown (lowest first): the partner's rank (``first``) first; then the rank
        held least; then the rank fewest other seats collect (a card an opponent collects would feed it); then
        the lower card."""
        rank = RANK[card]
        return (rank != first, counts[rank], reader.collectors[rank] - (reader.net[seat][rank] > 0), card)

    @classmethod
    def throw_order(cls, seat: int, hand: Sequence[int], reader: TableReader, counts: dict[int, int], exclude: int,
                    first: int = -1) -> tuple[int, ...]:
        """Hand cards not of rank ``exclude``, the best to throw first (see :meth:`throw_key`)."""
        return tuple(sorted((c for c in hand if RANK[c] != exclude),
                            key=lambda c: cls.throw_key(seat, reader, counts, first, c)))

    @staticmethod
    def best_throw(seat: int, hand: Sequence[int], reader: TableReader, counts: dict[int, int], exclude: int,
                   first: int = -1) -> int:
        """The first card of :meth:`throw_order` (-1 if none), without sorting: this runs at every plan."""
        collectors, mine = reader.collectors, reader.net[seat]
        best, best_key = -1, None
        for card in hand:
            rank = RANK[card]
            if rank == exclude:
                continue
            key = (rank != first, counts[rank], collectors[rank] - (mine[rank] > 0), card)
            if best_key is None or key < best_key:
                best, best_key = card, key
        return best

    def wants(self, obs: Observation, counts: dict[int, int], arrived: Sequence[int]) -> bool:
        """Whether an arrived middle card could make this part take something (else the seat may keep waiting).

        Uses the target as it stands (call :meth:`refresh` first when the log may have moved it).
        """
        target, avoid = self.target, self.avoid
        held_target = counts.get(target, 0)
        middle = obs.middle
        for card in arrived:
            rank = RANK[card]
            if rank == target:
                return True
            if rank == avoid:
                continue
            held = counts.get(rank, 0)
            if held + len(middle) > held_target:
                for c in middle:  # held + the middle's cards of the rank, counted in a plain loop (a hot path)
                    if RANK[c] == rank:
                        held += 1
                if held > held_target:
                    return True
        return False
