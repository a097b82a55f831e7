"""Dealing a Krepet game from a seeded random generator, and deciding who starts.

Each player shuffles a full deck of their own (player 0 the first deck, player 1 the second), lays
``tableau_per_player`` cards in a row (player 0's row is tableau places 0-3, player 1's 4-7), counts
``side_stack_size`` cards onto the side stack (only the top face up) and keeps the rest as the face-down talon.
The higher side-stack top starts; on a tie both cut their talons at random and the higher cut card starts, cut
again while they tie. Randomness comes only from the given :class:`numpy.random.Generator`.
"""

from __future__ import annotations

import numpy as np

from kemps_sim.cards import CARDS_PER_DECK
from kemps_sim.krepet.presets import load_krepet_rules
from kemps_sim.krepet.rules import KrepetRules
from kemps_sim.krepet.state import State, start_value

MAX_CUTS = 1000


def deal(rules: KrepetRules | None = None, rng: np.random.Generator | int | None = None) -> State:
    """A freshly dealt game; the same rules and seed give the same deal. ``rng`` may be a seed (``None``: 0)."""
    rules = rules if rules is not None else load_krepet_rules()
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(0 if rng is None else rng)
    n, k = rules.tableau_per_player, rules.side_stack_size
    decks = [[int(c) + p * CARDS_PER_DECK for c in gen.permutation(CARDS_PER_DECK)] for p in (0, 1)]
    tableau = [[decks[p][i]] for p in (0, 1) for i in range(n)]
    state = State(rules=rules, tableau=tableau)
    for p in (0, 1):
        state.side[p] = decks[p][n:n + k]
        state.side_base[p] = k
        state.side_hidden[p] = k - 1
        state.talon[p] = decks[p][n + k:]
    state.to_move = starting_player(state, gen)
    state.best_progress = state.progress()
    return state


def starting_player(state: State, rng: np.random.Generator) -> int:
    """Who starts: the higher side-stack top, then the higher card at a random cut of each talon."""
    ace = state.rules.start_ace
    tops = [start_value(state.side[p][-1], ace) for p in (0, 1)]
    if tops[0] != tops[1]:
        return int(tops[1] > tops[0])
    for _ in range(MAX_CUTS):
        cuts = [start_value(t[int(rng.integers(len(t)))], ace) for t in state.talon]
        if cuts[0] != cuts[1]:
            return int(cuts[1] > cuts[0])
    return int(rng.integers(2))
