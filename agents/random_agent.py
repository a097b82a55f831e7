"""``random``: the baseline. Swaps random cards at random moments; signals when it happens to hold four of a
kind and calls Kemps when it notices its partner's signal, so that a table of them still plays real rounds."""

from __future__ import annotations

import numpy as np
from kemps_sim_agents.habits import RoundMemory, holds_four
from kemps_sim_agents.signal_choice import AUTO, SignalChoice, check_signal_params

from kemps_sim.agent import BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.intents import CallKemps, Intent, Swap
from kemps_sim.observation import Observation
from kemps_sim.perception import Percept


def places(rng: np.random.Generator, n: int, k: int) -> list[int]:
    """``k`` distinct places out of ``n``, in ascending order: ``sorted(rng.choice(n, size=k, replace=False))``.

    One place is drawn as ``rng.integers(n)``, the very draw NumPy's ``choice`` makes for it (Floyd's algorithm
    takes one bounded integer from the same stream, and shuffling one place draws nothing), at a quarter of the
    cost: the baseline swaps at about every other decision.
    """
    if k == 1:
        return [int(rng.integers(n))]
    return sorted(int(i) for i in rng.choice(n, size=k, replace=False))


class RandomAgent(BaseAgent):
    """Legal random play: each decision swaps with probability ``p_swap`` (one to ``max_cards`` cards).

    The baseline of every comparison (no source: it is what play looks like without any of their heuristics). It
    chooses its pair's signal like every built-in (``signal``, ``signal_policy``: :mod:`agents.signal_choice`).
    """

    name = "random"
    description = "legal random swaps; signals four of a kind and calls on the partner's signal (baseline)"

    def __init__(self, p_swap: float = 0.5, max_cards: int = 1, resignal: float = 3.0, signal: str = AUTO,
                 signal_policy: str = "convention"):
        if isinstance(p_swap, bool) or not isinstance(p_swap, int | float) or not 0.0 <= p_swap <= 1.0:
            raise ConfigError(f"random.p_swap = {p_swap!r}: must be a probability from 0 to 1")
        if isinstance(max_cards, bool) or not isinstance(max_cards, int) or not 1 <= max_cards <= 4:
            raise ConfigError(f"random.max_cards = {max_cards!r}: must be a whole number from 1 to 4")
        self.p_swap = p_swap
        self.max_cards = max_cards
        check_signal_params("random", signal, signal_policy)
        self.resignal = resignal
        self.signal = signal
        self.signal_policy = signal_policy
        self.memory = RoundMemory()

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        super().start_match(seat, players, rng)
        self.memory = RoundMemory()
        self.choice = SignalChoice(self.signal, self.signal_policy)

    def choose_signal(self, obs: Observation) -> str:
        return self.choice.choose(obs, self.rng)

    def decide(self, obs: Observation) -> Intent:
        memory = self.memory
        memory.refresh(obs, self.rng)
        rng = self.rng
        middle, hand = obs.middle, obs.hand
        if obs.owed:
            return Swap((), tuple(middle[i] for i in places(rng, len(middle), obs.owed)))
        if memory.partner_signalled(obs):
            return CallKemps()
        if holds_four(hand):
            return memory.signal_or_wait(obs, self.resignal)
        if middle and rng.random() < self.p_swap:
            # as many cards each way, never more than the middle holds now (a refill lays its cards one by one)
            most = 1 if obs.rules.swap == "one_for_one" else min(self.max_cards, len(middle), len(hand))
            k = int(rng.integers(1, most + 1))
            give, take = places(rng, len(hand), k), places(rng, len(middle), k)
            return Swap(tuple(hand[i] for i in give), tuple(middle[i] for i in take))
        return memory.idle(obs)

    def wakes_on(self, percept: Percept, obs: Observation) -> bool:
        """Only the partner making the pair's signal is worth waking for."""
        return percept.gesturer == obs.partner and percept.gesture == obs.signal

    def watches(self, obs: Observation) -> frozenset[str]:
        """It reads only its partner's signal."""
        return frozenset((obs.signal,))
