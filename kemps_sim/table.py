"""The cards on the table in one round: hands, middle, pack and discard, and the moves the rules allow.

Pure Python and numpy, no time: the engine decides *when* a move happens, this module decides *whether* it is
legal and carries it out. Every refused move raises :class:`IllegalMove` before anything changes, and
:meth:`TableState.check` verifies conservation (every card in exactly one place) after any change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Any, cast

import numpy as np

from kemps_sim.cards import CARDS_PER_DECK, HAND_SIZE, MIDDLE_SIZE, RANK, deck, hand_text, is_four_of_a_kind
from kemps_sim.errors import IllegalMove, InvariantError
from kemps_sim.pickling import by_fields
from kemps_sim.rules import Rules
from kemps_sim.seating import NOBODY

#: How many times one player may redraw under ``redeal_on_deal`` before the deal is declared broken.
MAX_REDRAWS = 1000


class Refill(StrEnum):
    """What happened when the dealer tried to refill the middle."""

    DEALT = "dealt"
    RESHUFFLED = "reshuffled"
    EXHAUSTED = "exhausted"


@dataclass(frozen=True)
class Redeal:
    """A player dealt three or four of a kind showed them and drew as many again (``redeal_on_deal``)."""

    seat: int
    shown: tuple[int, ...]
    drawn: tuple[int, ...]

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied through __init__ (kemps_sim.pickling)


@dataclass(frozen=True)
class Swap:
    """A legal exchange: ``give`` leaves the hand for the middle, ``take`` leaves the middle for the hand."""

    give: tuple[int, ...]
    take: tuple[int, ...]

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied through __init__ (kemps_sim.pickling)


class TableState:
    """Hands, middle, pack (top at the end) and discard of one round, under one set of rules.

    Under ``swap = multi_drop_first`` a swap is two moves, :meth:`drop` then :meth:`pick`; between them the
    player's hand is short by ``owed[seat]`` cards and the middle is long by as many. After a :meth:`sweep` the
    dealer lays fresh cards one at a time (:meth:`deal_one`); players may swap with those already down.
    """

    __slots__ = ("discard", "hands", "middle", "middle_laid", "owed", "pack", "refilling", "rules")

    def __init__(self, rules: Rules, hands: Sequence[Sequence[int]], middle: Sequence[int],
                 pack: Sequence[int], discard: Sequence[int] = (), *, check: bool = True) -> None:
        self.rules = rules
        self.hands: list[list[int]] = [list(h) for h in hands]
        self.middle: list[int] = list(middle)
        self.pack: list[int] = list(pack)
        self.discard: list[int] = list(discard)
        self.owed: list[int] = [0] * len(self.hands)
        self.refilling = False
        self.middle_laid = MIDDLE_SIZE
        if check:
            self.check()

    @classmethod
    def unchecked(cls, rules: Rules, hands: Sequence[Sequence[int]], middle: Sequence[int],
                  pack: Sequence[int] = ()) -> TableState:
        """A table set by hand with no conservation check: part of a table, as a test or an example shows it."""
        return cls(rules, hands, middle, pack, check=False)

    # The deal ---------------------------------------------------------------------------------------------
    @classmethod
    def deal(cls, rules: Rules, rng: np.random.Generator, dealer: int = 0,
             stacked: Sequence[int] | None = None) -> tuple[TableState, list[Redeal]]:
        """Shuffle, deal four cards to every player, apply ``redeal_on_deal``, then deal the middle.

        Players are served starting at the dealer's left (seat ``dealer + 1``); redeals are settled in that
        order before the middle is dealt. A ``stacked`` pack (every card once, the first card dealt first; see
        :func:`stack_pack`) replaces the shuffle, for scripted games.
        """
        n = rules.players
        if stacked is None:
            # The cards are the ids 0..N-1 in order (cards.deck), so shuffling the ids is shuffling the deck: numpy
            # draws the same permutation for an array as for its length, and tolist() gives Python ints at once.
            pack: list[int] = rng.permutation(CARDS_PER_DECK * rules.decks).tolist()
        else:
            if sorted(stacked) != deck(rules.decks):
                raise IllegalMove(f"stacked pack of {len(stacked)} cards: must hold every card of "
                                  f"{rules.decks} deck(s) exactly once")
            pack = [int(c) for c in reversed(stacked)]
        order = dealing_order(n, dealer)
        hands: list[list[int]] = [[] for _ in range(n)]
        for _ in range(HAND_SIZE):
            for seat in order:
                hands[seat].append(pack.pop())
        redeals: list[Redeal] = []
        if rules.redeal_on_deal:
            for seat in order:
                redeals.extend(_redraw(hands[seat], pack, seat, rng, until_clean=bool(rules.redeal_until_clean)))
        middle = [pack.pop() for _ in range(MIDDLE_SIZE)]
        return cls(rules, hands, middle, pack), redeals

    # Queries ----------------------------------------------------------------------------------------------
    def has_four_of_a_kind(self, seat: int) -> bool:
        """Whether the seat's hand is four cards of one rank right now."""
        return is_four_of_a_kind(self.hands[seat])

    def snapshot(self) -> tuple:
        """An immutable copy of everything, for comparing states (tests, traces)."""
        return (tuple(map(tuple, self.hands)), tuple(self.middle), tuple(self.pack), tuple(self.discard),
                tuple(self.owed), self.refilling)

    def holder_of(self, cards: Sequence[int]) -> int:
        """The first seat holding any of ``cards`` (who won a race for them), or ``NOBODY`` if no hand holds one."""
        for seat, hand in enumerate(self.hands):
            if any(card in hand for card in cards):
                return seat
        return NOBODY

    def legal_swaps(self, seat: int) -> list[Swap]:
        """Every swap the ``swap`` knob allows the seat now (empty under ``multi_drop_first``), as
        :func:`swap_problem` judges them."""
        if self.rules.swap == "multi_drop_first":
            return []
        hand, middle, rules = self.hands[seat], self.middle, self.rules
        return [Swap(give, take) for k in swap_sizes(rules)
                for give in combinations(hand, k) for take in combinations(middle, k)
                if swap_problem(rules, seat, hand, middle, 0, give, take) is None]

    def legal_drops(self, seat: int) -> list[tuple[int, ...]]:
        """Under ``multi_drop_first``: the card sets the seat may put down now."""
        if self.rules.swap != "multi_drop_first" or self.owed[seat]:
            return []
        hand, rules = self.hands[seat], self.rules
        return [give for k in range(1, HAND_SIZE + 1) for give in combinations(hand, k)
                if swap_problem(rules, seat, hand, self.middle, 0, give, ()) is None]

    def legal_picks(self, seat: int) -> list[tuple[int, ...]]:
        """Under ``multi_drop_first``: the middle card sets the seat may pick up to finish its swap."""
        k = self.owed[seat]
        if not k:
            return []
        hand, middle, rules = self.hands[seat], self.middle, self.rules
        return [take for take in combinations(middle, k)
                if swap_problem(rules, seat, hand, middle, k, (), take) is None]

    # Moves ------------------------------------------------------------------------------------------------
    def swap(self, seat: object, give: Sequence[object], take: Sequence[object]) -> None:
        """Exchange hand cards ``give`` for middle cards ``take``; each given card lands where one was taken."""
        at = self._seat(seat)
        if self.rules.swap == "multi_drop_first":
            raise IllegalMove("swap: under swap = 'multi_drop_first' a swap is drop() then pick()")
        problem = swap_problem(self.rules, at, self.hands[at], self.middle, 0, give, take)
        if problem is not None:
            raise IllegalMove(f"swap give={hand_text(give)!r} take={hand_text(take)!r}: {problem}")
        hand, middle = self.hands[at], self.middle
        for out, into in zip(cast(Sequence[int], give), cast(Sequence[int], take), strict=True):
            hand[hand.index(out)] = into
            middle[middle.index(into)] = out

    def drop(self, seat: object, give: Sequence[object]) -> None:
        """Under ``multi_drop_first``: put hand cards into the middle, owing as many picks."""
        at = self._seat(seat)
        if self.rules.swap != "multi_drop_first":
            raise IllegalMove(f"drop: only under swap = 'multi_drop_first' (here {self.rules.swap!r})")
        if self.owed[at]:
            raise IllegalMove(f"drop by seat {at}: it must first pick up the {self.owed[at]} card(s) owed")
        problem = swap_problem(self.rules, at, self.hands[at], self.middle, self.owed[at], give, ())
        if problem is not None:
            raise IllegalMove(f"drop by seat {at}: {problem}")
        cards = cast(Sequence[int], give)  # card ids, checked
        hand = self.hands[at]
        for card in cards:
            hand.remove(card)
        self.middle.extend(cards)
        self.owed[at] = len(cards)

    def pick(self, seat: object, take: Sequence[object]) -> None:
        """Under ``multi_drop_first``: pick up exactly as many middle cards as were dropped."""
        at = self._seat(seat)
        if not self.owed[at]:
            raise IllegalMove(f"pick by seat {at}: nothing is owed")
        problem = swap_problem(self.rules, at, self.hands[at], self.middle, self.owed[at], (), take)
        if problem is not None:
            raise IllegalMove(f"pick by seat {at} of {len(take)} card(s): {problem}")
        cards = cast(Sequence[int], take)  # card ids, checked
        for card in cards:
            self.middle.remove(card)
        self.hands[at].extend(cards)
        self.owed[at] = 0

    def sweep(self) -> None:
        """Move the middle to the discard pile; the middle stays short until the dealer has laid four again."""
        self._check_refilling("sweep")
        if any(self.owed):
            raise IllegalMove("sweep: a player is between drop and pick; the middle cannot be swept")
        self.discard.extend(self.middle)
        self.middle.clear()
        self.refilling = True
        self.middle_laid = 0

    def deal_one(self, rng: np.random.Generator) -> Refill:
        """Lay one fresh middle card, first turning the shuffled discards into the pack if it is empty and the
        rules allow (``reshuffle_discards``). On ``EXHAUSTED`` nothing moves."""
        if not self.refilling:
            raise IllegalMove("deal_one: the middle has not been swept")
        outcome = Refill.DEALT
        if not self.pack:
            if self.rules.pack_exhausted == "void_round" or not self.discard:
                return Refill.EXHAUSTED
            self._reshuffle(rng)
            outcome = Refill.RESHUFFLED
        self.middle.append(self.pack.pop())
        self.middle_laid += 1
        if self.middle_laid == MIDDLE_SIZE:
            self.refilling = False
        return outcome

    def refill(self, rng: np.random.Generator) -> Refill:
        """Lay all the fresh middle cards still due; reshuffle the discards or report exhaustion per
        ``pack_exhausted``. On ``EXHAUSTED`` nothing moves: the round is void and the middle stays short."""
        if not self.refilling:
            raise IllegalMove("refill: the middle has not been swept")
        due = MIDDLE_SIZE - self.middle_laid
        outcome = Refill.DEALT
        if len(self.pack) < due:
            if self.rules.pack_exhausted == "void_round" or len(self.pack) + len(self.discard) < due:
                return Refill.EXHAUSTED
            self._reshuffle(rng)
            outcome = Refill.RESHUFFLED
        while self.refilling:
            self.deal_one(rng)
        return outcome

    def _reshuffle(self, rng: np.random.Generator) -> None:
        """The discards, shuffled, go under what is left of the pack."""
        order = rng.permutation(len(self.discard))
        self.pack = [self.discard[i] for i in order] + self.pack
        self.discard = []

    @property
    def pack_exhausted(self) -> bool:
        """Whether the next refill would find the pack empty (and, under ``void_round``, end the round)."""
        return len(self.pack) < MIDDLE_SIZE

    # Conservation -----------------------------------------------------------------------------------------
    def check(self) -> None:
        """Raise :class:`InvariantError` unless every card is in exactly one place and the sizes hold."""
        everything = [c for h in self.hands for c in h] + self.middle + self.pack + self.discard
        if sorted(everything) != deck(self.rules.decks):
            full = deck(self.rules.decks)
            raise InvariantError(f"conservation broken: {len(everything)} cards placed, {len(full)} in the "
                                 f"deck, {len(everything) - len(set(everything))} duplicated")
        if len(self.hands) != self.rules.players:
            raise InvariantError(f"{len(self.hands)} hands at a table of {self.rules.players}")
        for seat, hand in enumerate(self.hands):
            if len(hand) + self.owed[seat] != HAND_SIZE:
                raise InvariantError(f"seat {seat} holds {len(hand)} cards and owes {self.owed[seat]}")
        laid = self.middle_laid if self.refilling else MIDDLE_SIZE
        if not 0 <= laid <= MIDDLE_SIZE:
            raise InvariantError(f"{laid} fresh middle cards laid, at most {MIDDLE_SIZE} allowed")
        expected = laid + sum(self.owed)
        if len(self.middle) != expected:
            raise InvariantError(f"middle holds {len(self.middle)} cards, expected {expected}")

    # Helpers ----------------------------------------------------------------------------------------------
    def _seat(self, seat: object) -> int:
        """``seat`` as given (any value: a move may come from a script), if it is a seat of this table."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise IllegalMove(f"seat = {seat!r}: must be a seat from 0 to {self.rules.players - 1}")
        return seat

    def _check_refilling(self, move: str) -> None:
        if self.refilling:
            raise IllegalMove(f"{move}: the middle is being refilled")


def swap_sizes(rules: Rules) -> range:
    """How many cards one swap may move each way under the ``swap`` knob."""
    return range(1, 2) if rules.swap == "one_for_one" else range(1, HAND_SIZE + 1)


def swap_problem(rules: Rules, seat: int, hand: Sequence[int], middle: Sequence[int], owed: int,
                 give: Sequence[object], take: Sequence[object]) -> str | None:
    """Why the rules forbid ``seat``, holding ``hand`` and owing ``owed`` picks, to give ``give`` for ``take`` from
    ``middle`` now, or None if they allow it: the one statement of swap legality, used by :class:`TableState`, the
    engine's intent check and :meth:`TableState.legal_swaps`. Under ``multi_drop_first`` a put-down alone is
    ``take = ()`` and the pick that finishes it ``give = ()``."""
    if owed:
        if give:
            return f"it must first pick up the {owed} card(s) owed"
        if len(take) != owed:
            return f"must pick exactly the {owed} owed"
    elif rules.swap == "multi_drop_first" and not take:
        if not give:
            return "must put down at least one card"
    elif rules.swap == "one_for_one" and (len(give), len(take)) != (1, 1):
        return "under swap = 'one_for_one' exactly one card goes each way"
    elif len(give) != len(take) or len(give) not in swap_sizes(rules):
        return f"must move as many cards each way, at least one and at most {HAND_SIZE}"
    ids = CARDS_PER_DECK * rules.decks
    if _cards_in(give, hand, ids) and _cards_in(take, middle, ids):  # the usual answer, without the wording
        return None
    for name, chosen, pool, where in (("give", give, hand, f"seat {seat}'s hand"), ("take", take, middle,
                                                                                    "the middle")):
        strangers = [c for c in chosen if type(c) is not int or not 0 <= c < ids]
        if strangers:
            return (f"{name} = {tuple(chosen)!r}: {', '.join(map(repr, strangers))} "
                    f"{'is not a card id' if len(strangers) == 1 else 'are not card ids'}; with {rules.decks} "
                    f"deck(s) card ids are 0 to {ids - 1}")
        cards = cast(Sequence[int], chosen)  # card ids now (given as any values: an agent's, unchecked)
        if len(set(cards)) != len(cards):
            return f"{name} = {hand_text(cards)!r}: names a card twice"
        missing = [c for c in cards if c not in pool]
        if missing:
            return f"{name} = {hand_text(cards)!r}: {hand_text(missing)} not in {where}"
    return None


def _cards_in(chosen: Sequence[object], pool: Sequence[int], ids: int) -> bool:
    """Whether ``chosen`` names card ids below ``ids``, each once, all in ``pool`` (what :func:`swap_problem`
    checks card by card to word its answer)."""
    for card in chosen:
        if type(card) is not int or not 0 <= card < ids or card not in pool:
            return False
    return len(chosen) < 2 or len(set(chosen)) == len(chosen)


def dealing_order(players: int, dealer: int) -> list[int]:
    """The seats in the order they are served: from the dealer's left round to the dealer."""
    return [(dealer + 1 + i) % players for i in range(players)]


def stack_pack(rules: Rules, hands: Sequence[Sequence[int]], middle: Sequence[int] = (), dealer: int = 0,
               then: Sequence[int] = ()) -> list[int]:
    """A stacked pack (first card dealt first) that deals exactly ``hands`` and ``middle``, then ``then`` as the
    next cards to come off the pack, then the remaining cards in id order: the deal of a scripted game."""
    placed = [c for h in hands for c in h] + list(middle) + list(then)
    if len(hands) != rules.players or any(len(h) != HAND_SIZE for h in hands) or len(middle) not in (0, MIDDLE_SIZE):
        raise IllegalMove(f"stack_pack: give {rules.players} hands of {HAND_SIZE} cards and a middle of "
                          f"{MIDDLE_SIZE} (or none)")
    if len(set(placed)) != len(placed) or any(c not in range(len(deck(rules.decks))) for c in placed):
        raise IllegalMove("stack_pack: a card is named twice or is not in the deck")
    rest = [c for c in deck(rules.decks) if c not in set(placed)]
    middle = list(middle) or rest[:MIDDLE_SIZE]
    rest = [c for c in rest if c not in middle]
    out = [hands[seat][i] for i in range(HAND_SIZE) for seat in dealing_order(rules.players, dealer)]
    return out + middle + list(then) + rest


def _redraw(hand: list[int], pack: list[int], seat: int, rng: np.random.Generator,
            until_clean: bool) -> list[Redeal]:
    """Show three or four of a kind, shuffle them back into the pack and draw as many; with ``until_clean``
    repeat while the new hand shows one again (003 describes one redraw)."""
    redeals: list[Redeal] = []
    for _ in range(MAX_REDRAWS if until_clean else 1):
        counts: dict[int, int] = {}
        for card in hand:
            counts[RANK[card]] = counts.get(RANK[card], 0) + 1
        rank = next((r for r, k in counts.items() if k >= 3), None)
        if rank is None:
            return redeals
        shown = tuple(c for c in hand if RANK[c] == rank)
        for card in shown:
            hand.remove(card)
        pack.extend(shown)
        order = rng.permutation(len(pack))
        pack[:] = [pack[i] for i in order]
        drawn = tuple(pack.pop() for _ in shown)
        hand.extend(drawn)
        redeals.append(Redeal(seat, shown, drawn))
    if not until_clean:
        return redeals
    raise InvariantError(f"seat {seat} redrew {MAX_REDRAWS} times without a clean hand")
