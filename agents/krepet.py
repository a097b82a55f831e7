"""The built-in Krepet players: a greedy mover, a careful one, a loader and a lookout.

All four choose among the moves they perceive (:attr:`~kemps_sim.krepet.agent.KrepetView.moves`) by one fixed
order of preference, and differ in how they move and watch:

- ``greedy`` makes a perceived ace-pile move first, then gets rid of cards (side stack and hand onto the tableau,
  hand cards onto the opponent's piles, then its own), then joins a tableau stack onto another when that empties a
  place, then draws, then ends the turn. It never takes cards back and never shuffles the tableau for its own
  sake, so it cannot go round in circles. Moving without checking the ace piles first, it overlooks them with its
  ``lapse`` (the engine draws it; a miss is never chosen).
- ``careful`` moves like ``greedy`` but looks over the ace piles before every move: it never lapses, and every move
  takes one look (``card_read``) longer.
- ``loader`` puts hand cards on the opponent's side stack, Ablage and talon before anything else but the ace piles:
  the opponent gets more cards to get rid of.
- ``lookout`` moves like ``greedy`` and follows the opponent's play more closely (``attention`` 0.9 by default).

Every one watches the opponent with its ``attention`` (the share of the opponent's moves it follows) and
``criterion`` (signal detection: None keeps the profile's) and calls "Krepet!" whenever it takes a move in as a
miss: the criterion is where it draws that line.
"""

from __future__ import annotations

from kemps_sim.krepet.agent import DEFAULT_LAPSE, BaseKrepetAgent, KrepetView
from kemps_sim.krepet.moves import Draw, EndTurn, Lay, Move

#: Preference ranks (lower first); moves ranked SKIP are never chosen while anything else is open.
FOUNDATION, SIDE_TO_TABLEAU, HAND_TO_TABLEAU, HAND_TO_OPPONENT, HAND_TO_OWN, JOIN, DRAW, END, SKIP = range(9)


def preference(view: KrepetView, move: Move) -> int:
    """Where ``move`` stands in the greedy order of the module docstring."""
    if isinstance(move, Lay):
        src, dst = move.src.kind, move.dst.kind
        if dst == "foundation":
            return FOUNDATION
        if dst == "tableau" and src == "side":
            return SIDE_TO_TABLEAU
        if src == "hand":
            if dst == "tableau":
                return HAND_TO_TABLEAU
            return HAND_TO_OPPONENT if move.dst.owned and move.dst.index != view.player else HAND_TO_OWN
        if src == "tableau" and dst == "tableau":
            tableau = view.state.tableau
            empties = move.count == len(tableau[move.src.index]) and bool(tableau[move.dst.index])
            return JOIN if empties else SKIP
        return SKIP
    if isinstance(move, Draw):
        return DRAW
    return END if isinstance(move, EndTurn) else SKIP


class Greedy(BaseKrepetAgent):
    """Ace piles first (as perceived), then whatever gets rid of cards, then draw, then end the turn."""

    name = "greedy"
    description = "Krepet: ace piles first as perceived, then whatever gets rid of cards; lapses with `lapse`"

    def __init__(self, attention: float = 0.5, criterion: float | None = None, lapse: float = DEFAULT_LAPSE) -> None:
        super().__init__(attention, criterion, lapse)

    def rank(self, view: KrepetView, move: Move) -> int:
        return preference(view, move)

    def decide(self, view: KrepetView) -> Move:
        best = min(view.moves, key=lambda m: self.rank(view, m))  # min keeps the first of equals: deterministic
        return best


class Careful(Greedy):
    """Moves like greedy, but checks the ace piles before every move: no lapses, one look slower per move."""

    name = "careful"
    description = "Krepet: checks the ace piles before every move, so never misses one, one look slower a move"
    checks_first = True


class Loader(Greedy):
    """Ace piles first, then hand cards onto the opponent's side stack, Ablage and talon, then as greedy."""

    name = "loader"
    description = "Krepet: loads hand cards onto the opponent's side stack, Ablage and talon first"

    def rank(self, view: KrepetView, move: Move) -> int:
        rank = preference(view, move)
        return SIDE_TO_TABLEAU - 0.5 if rank == HAND_TO_OPPONENT else rank


class Lookout(Greedy):
    """Moves like greedy and watches the opponent closely: attention 0.9 by default."""

    name = "lookout"
    description = "Krepet: moves like greedy and follows the opponent's play closely (attention 0.9)"

    def __init__(self, attention: float = 0.9, criterion: float | None = None, lapse: float = DEFAULT_LAPSE) -> None:
        super().__init__(attention, criterion, lapse)
