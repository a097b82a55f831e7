"""``collector``: collects the rank it holds most of, signals on four of a kind, and calls Kemps when it notices
its partner's signal. The basic policy of the sources: pick a rank early and take every card of it (004)."""

from __future__ import annotations

from collections.abc import Sequence

from agents.habits import RoundMemory, holds_four
from kemps_sim.agent import BaseAgent
from kemps_sim.cards import RANK
from kemps_sim.errors import ConfigError
from kemps_sim.intents import CallKemps, Intent, Swap
from kemps_sim.observation import Observation
from kemps_sim.perception import Percept


class Collector(BaseAgent):
    """Takes middle cards of its target rank (the rank it holds most of) and throws its least useful cards."""

    name = "collector"
    description = "collects the rank it holds most of, signals four of a kind, calls on the partner's signal"

    def __init__(self, patience: float = 2.0, resignal: float = 3.0):
        if not patience > 0:
            raise ConfigError(f"collector.patience = {patience!r}: must be a number of seconds > 0")
        if not resignal > 0:
            raise ConfigError(f"collector.resignal = {resignal!r}: must be a number of seconds > 0")
        self.patience = patience
        self.resignal = resignal
        self.memory = RoundMemory()
        self._plan_for: tuple | None = None
        self._plan: Swap | None = None

    def decide(self, obs: Observation) -> Intent:
        memory = self.memory
        memory.refresh(obs, self.patience, self.rng)
        hand, middle = obs.hand, obs.middle
        if obs.owed:
            return Swap((), _best_picks(middle, rank_counts(hand), obs.owed))
        if memory.partner_signalled(obs):
            return CallKemps()
        if holds_four(hand):
            return memory.signal_or_wait(obs, self.resignal)
        key = (hand, middle)
        if key != self._plan_for:  # the plan depends only on the cards: work it out once per hand and middle
            counts, in_middle = rank_counts(hand), rank_counts(middle)
            one = obs.rules.swap == "one_for_one"
            swap = _collecting_swap(hand, middle, counts, in_middle, one) if middle else None
            self._plan_for, self._plan = key, swap
        return self._plan or memory.idle(obs)

    def wakes_on(self, percept: Percept, obs: Observation) -> bool:
        """Only the partner making the pair's signal is worth waking for."""
        return percept.gesturer == obs.partner and percept.gesture == obs.signal

    def wakes_on_middle(self, obs: Observation, arrived: Sequence[int]) -> bool:
        """Wake only for an arrived card of a rank worth taking now (never while holding four).

        The seat was waiting because the middle offered nothing, so only the arrived cards' ranks can change
        that: one joins the most-held rank, or the middle now offers enough of a rank to beat it.
        """
        hand = obs.hand
        if obs.owed:
            return True
        counts = rank_counts(hand)
        most = max(counts.values())
        if most == 4:
            return False
        middle = obs.middle
        for card in arrived:
            rank = RANK[card]
            held = counts.get(rank, 0)
            if held == most or held + sum(RANK[c] == rank for c in middle) > most:
                return True
        return False

    def watches(self, obs: Observation) -> frozenset[str]:
        """It reads only its partner's signal."""
        return frozenset((obs.signal,))


def rank_counts(cards: tuple[int, ...]) -> dict[int, int]:
    """How many cards of each rank (a plain dict: this runs at every decision)."""
    counts: dict[int, int] = {}
    for card in cards:
        rank = RANK[card]
        counts[rank] = counts.get(rank, 0) + 1
    return counts


def _collecting_swap(hand: tuple[int, ...], middle: tuple[int, ...], counts: dict[int, int],
                     in_middle: dict[int, int], one: bool) -> Swap | None:
    """Take middle cards of a rank that joins the most-held rank or beats it, giving the rarest other cards."""
    most = max(counts.values())
    target, best = -1, (0, 0, 0)
    for rank, offered in in_middle.items():
        held = counts.get(rank, 0)
        if held == most or held + offered > most:
            key = (held + offered, held, rank)
            if key > best:
                target, best = rank, key
    if target < 0:
        return None
    take = [c for c in middle if RANK[c] == target]
    give = sorted((c for c in hand if RANK[c] != target), key=lambda c: (counts[RANK[c]], c))
    k = min(len(take), len(give), 1 if one else 4)
    if k == 0:
        return None
    return Swap(tuple(give[:k]), tuple(take[:k]))


def _best_picks(middle: tuple[int, ...], counts: dict[int, int], owed: int) -> tuple[int, ...]:
    """Under drop-first, the ``owed`` middle cards most useful to the hand."""
    ranked = sorted(middle, key=lambda c: (-counts.get(RANK[c], 0), c))
    return tuple(ranked[:owed])
