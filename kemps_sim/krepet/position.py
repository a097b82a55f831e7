"""Setting up a Krepet position by card text, for tests, examples and puzzles.

``position(tableau=["8H 7S", "", "KD"], side=("5S 6S", ""), hand=("", "QH"))`` gives a :class:`State` with those
piles (bottom card first) and every card it does not name set aside, so the invariants still hold. Card names are
Kemps' (``7S``, ``10H``, ``QD``; a trailing ``'`` marks the second deck, which is player 1's).
"""

from __future__ import annotations

from collections.abc import Sequence

from kemps_sim.errors import ConfigError
from kemps_sim.krepet.cards import ALL_CARDS, parse, text
from kemps_sim.krepet.presets import load_krepet_rules
from kemps_sim.krepet.rules import KrepetRules
from kemps_sim.krepet.state import FOUNDATIONS, State

Pair = tuple[str, str]


def position(rules: KrepetRules | None = None, *, tableau: Sequence[str] = (), foundations: Sequence[str] = (),
             side: Pair = ("", ""), discard: Pair = ("", ""), talon: Pair = ("", ""), hand: Pair = ("", ""),
             side_base: tuple[int, int] | None = None, to_move: int = 0, drawn: bool = False) -> State:
    """A hand-built position. ``side_base`` says how many bottom cards of each side stack were dealt (default:
    all, so nothing can be taken back); only the top dealt card is face up. ``drawn`` marks the turn's first draw
    as made."""
    rules = rules if rules is not None else load_krepet_rules()
    places = rules.tableau_places
    if len(tableau) > places or len(foundations) > FOUNDATIONS:
        raise ConfigError(f"position: {len(tableau)} tableau places and {len(foundations)} ace piles given; at most "
                          f"{places} and {FOUNDATIONS}")
    state = State(rules=rules, tableau=[parse(t) for t in tableau] + [[] for _ in range(places - len(tableau))])
    state.foundations = [parse(f) for f in foundations] + [[] for _ in range(FOUNDATIONS - len(foundations))]
    for p in (0, 1):
        state.side[p], state.discard[p] = parse(side[p]), parse(discard[p])
        state.talon[p], state.hand[p] = parse(talon[p]), parse(hand[p])
        base = len(state.side[p]) if side_base is None else side_base[p]
        if not 0 <= base <= len(state.side[p]):
            raise ConfigError(f"position: side_base[{p}] = {base}: must be from 0 to {len(state.side[p])}")
        state.side_base[p], state.side_hidden[p] = base, max(base - 1, 0)
    named = [c for group in (state.tableau, state.foundations, state.side, state.discard, state.talon, state.hand)
             for pile in group for c in pile]
    if len(named) != len(set(named)):
        twice = sorted({c for c in named if named.count(c) > 1})
        raise ConfigError(f"position: cards named twice: {text(twice)}")
    state.aside = sorted(set(range(ALL_CARDS)) - set(named))
    state.to_move, state.drawn_this_turn = to_move, drawn
    state.best_progress = state.progress()
    state.check()
    return state
