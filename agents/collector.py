"""``collector``: collects the rank it holds most of, signals on four of a kind, and calls Kemps when it notices
its partner's signal. The basic policy of the sources: pick a rank early and take every card of it (004)."""

from __future__ import annotations

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

    def decide(self, obs: Observation) -> Intent:
        memory = self.memory
        memory.refresh(obs, self.patience, self.rng)
        hand, middle = obs.hand, obs.middle
        counts = rank_counts(hand)
        if obs.owed:
            return Swap((), _best_picks(middle, counts, obs.owed))
        if memory.partner_signalled(obs):
            return CallKemps()
        if holds_four(hand):
            return memory.signal_or_wait(obs, self.resignal)
        if middle:
            swap = _collecting_swap(hand, middle, counts, one=obs.rules.swap == "one_for_one")
            if swap is not None:
                return swap
        return memory.idle(obs)

    def wakes_on(self, percept: Percept, obs: Observation) -> bool:
        """Only the partner making the pair's signal is worth waking for."""
        return percept.gesturer == obs.partner and percept.gesture == obs.signal


def rank_counts(cards: tuple[int, ...]) -> dict[int, int]:
    """How many cards of each rank (a plain dict: this runs at every decision)."""
    counts: dict[int, int] = {}
    for card in cards:
        rank = RANK[card]
        counts[rank] = counts.get(rank, 0) + 1
    return counts


def _collecting_swap(hand: tuple[int, ...], middle: tuple[int, ...], counts: dict[int, int],
                     one: bool) -> Swap | None:
    """Take middle cards of a rank that joins the most-held rank or beats it, giving the rarest other cards."""
    in_middle = rank_counts(middle)
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
