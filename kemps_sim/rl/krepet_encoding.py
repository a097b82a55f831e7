"""The canonical observation of a Krepet player for learning agents: version ``krepet-obs-v0``, a flat vector in
[0, 1].

It encodes what lies face up (as a person at the table is shown it, :func:`kemps_sim.krepet.remote.board_of`): the
tableau, the ace piles, both players' hands, the Ablage tops and the side stacks' face-up cards; of what lies face
down only how much. Nothing else: not the talons' order, not the cards under the side stacks' tops, and not whether
a miss is open to call (which the player must notice). Players are counted from the observer (its own block
first), and tableau places from its own row, as the actions count them (:mod:`kemps_sim.rl.krepet_actions`), so
one policy can play either chair. A card is 17 values: its value one-hot (ace low, 13) then its suit one-hot (4);
an empty place is all zero. The blocks, in order:

=============  ===============================  ===============================================================
block          length                           values
=============  ===============================  ===============================================================
tableau        places x 35                      per place from the own row: top card, bottom card (the card a
                                                whole-stack move lays), cards / 13
ace piles      8 x 17                           per ace pile: its top card
players        2 x 214                          own then the opponent's: hand cards from the top (10 places x
                                                17), min(hand cards / 10, 1); side-stack top card, face-up
                                                cards / 13 (at most 1), face-down cards / side_stack_size;
                                                Ablage top card, Ablage cards / 52; talon cards / 52; cards
                                                held / 52; talon turns / (draw steps - 1) (at most 1), cards per
                                                draw now / 10; stuck; skips its next turn
turn           8                                the observer's turn; of the turn being played: drawn, a card got
                                                rid of since the draw, progress, cards last drawn / 10; asked
                                                to call; the percept's strength (1 / (1 + exp(-llr)), 0 unless
                                                asked); the game going on
time           4                                min(game time / 600 s, 1), min(turn / 100, 1), min(moves made /
                                                1000, 1), 1 - exp(-seconds since the player's last decision)
=============  ===============================  ===============================================================

The global state of a centralised critic (:meth:`KrepetEncoder.state`) is player 0's observation (nobody asked to
call) followed by what no player may see: per player the top ten talon cards, the top first (10 x 17), and the
top face-down side-stack card (17); then whether a call would now be right (a miss is open).

The version changes whenever a block does; :data:`OBSERVATION_VERSION` names it, and every step's
``info["observation_version"]`` says it.
"""

from __future__ import annotations

import math

import numpy as np

from kemps_sim.cards import CARDS_PER_DECK, suit_of
from kemps_sim.krepet.cards import value
from kemps_sim.krepet.rules import MAX_DRAW, KrepetRules
from kemps_sim.krepet.state import FOUNDATIONS, State
from kemps_sim.rl.krepet_actions import HAND_PLACES, MAX_STACK, CallChance, Decision

OBSERVATION_VERSION = "krepet-obs-v0"
#: A card's length: value one-hot (13) and suit one-hot (4).
CARD = 17
PLACE = 2 * CARD + 1
PLAYER = HAND_PLACES * CARD + 1 + CARD + 2 + CARD + 7
TURN = 8
TIME = 4
#: The hidden cards the global state shows of each player: the next talon cards, and the top face-down side card.
TALON_SHOWN = 10
HIDDEN = TALON_SHOWN * CARD + CARD
GAME_SECONDS_FULL = 600.0
TURNS_FULL = 100.0
MOVES_FULL = 1000.0


def put_card(out: np.ndarray, at: int, card: int) -> None:
    """Write ``card`` as 17 values at ``out[at:]``: its value one-hot (ace low) then its suit one-hot."""
    out[at + value(card) - 1] = 1.0
    out[at + 13 + suit_of(card)] = 1.0


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-min(max(x, -50.0), 50.0)))


class KrepetEncoder:
    """Turns a player's sight of the board into the ``krepet-obs-v0`` vector, for one set of rules."""

    def __init__(self, rules: KrepetRules) -> None:
        self.rules = rules
        self.row = rules.tableau_per_player
        self.places = rules.tableau_places
        sizes = {"tableau": self.places * PLACE, "foundations": FOUNDATIONS * CARD, "players": 2 * PLAYER,
                 "turn": TURN, "time": TIME}
        self.offsets: dict[str, int] = {}
        start = 0
        for name, length in sizes.items():
            self.offsets[name] = start
            start += length
        self.size = start
        self.state_size = start + 2 * HIDDEN + 1
        self.turn_steps = max(len(rules.draw_counts) - 1, 1)

    def encode(self, board: State, player: int, decision: Decision | None = None, now: float = 0.0,
               since_decision: float = 0.0) -> np.ndarray:
        """The player's vector now (float32): ``decision`` is its pending decision (None: none due), ``now`` the
        game's simulated time, ``since_decision`` the simulated seconds since its last decision."""
        out = np.zeros(self.size, dtype=np.float32)
        self._board(out, board, player)
        at = self.offsets["turn"]
        mine = board.to_move == player and board.result is None
        out[at:at + 6] = (mine, board.drawn_this_turn, board.rid_this_cycle > 0, board.progress_in_turn,
                          len(board.last_drawn) / MAX_DRAW,
                          isinstance(decision, CallChance))
        if isinstance(decision, CallChance):
            out[at + 6] = _sigmoid(decision.percept.llr)
        out[at + 7] = board.result is None
        at = self.offsets["time"]
        out[at:at + TIME] = (min(now / GAME_SECONDS_FULL, 1.0), min(board.turn / TURNS_FULL, 1.0),
                             min(board.moves_made / MOVES_FULL, 1.0), 1.0 - math.exp(-max(since_decision, 0.0)))
        return out

    def _board(self, out: np.ndarray, board: State, player: int) -> None:
        """The face-up board and the face-down counts, from ``player``'s side."""
        at = self.offsets["tableau"]
        for r in range(self.places):
            pile = board.tableau[(r + player * self.row) % self.places]
            if pile:
                put_card(out, at, pile[-1])
                put_card(out, at + CARD, pile[0])
                out[at + 2 * CARD] = min(len(pile) / MAX_STACK, 1.0)
            at += PLACE
        at = self.offsets["foundations"]
        for pile in board.foundations:
            if pile:
                put_card(out, at, pile[-1])
            at += CARD
        at = self.offsets["players"]
        rules, deck = self.rules, float(CARDS_PER_DECK)
        for q in (player, 1 - player):
            hand = board.hand[q]
            for k, card in enumerate(reversed(hand[-HAND_PLACES:])):
                put_card(out, at + k * CARD, card)
            at += HAND_PLACES * CARD
            out[at] = min(len(hand) / HAND_PLACES, 1.0)
            side, hidden = board.side[q], min(board.side_hidden[q], len(board.side[q]))
            if side:
                put_card(out, at + 1, side[-1])
            at += 1 + CARD
            out[at] = min((len(side) - hidden) / MAX_STACK, 1.0)
            out[at + 1] = min(hidden / rules.side_stack_size, 1.0)
            if board.discard[q]:
                put_card(out, at + 2, board.discard[q][-1])
            at += 2 + CARD
            passes = board.passes[q]
            out[at:at + 7] = (min(len(board.discard[q]) / deck, 1.0), min(len(board.talon[q]) / deck, 1.0),
                              min(board.cards_of(q) / deck, 1.0), min(passes / self.turn_steps, 1.0),
                              rules.draw_count(passes) / MAX_DRAW, board.stuck[q], board.skip_next[q])
            at += 7

    def state(self, board: State, now: float = 0.0) -> np.ndarray:
        """The global state (float32 in [0, 1]; see the module docstring). For a centralised critic only."""
        out = np.zeros(self.state_size, dtype=np.float32)
        out[:self.size] = self.encode(board, 0, None, now)
        at = self.size
        for q in (0, 1):
            talon = board.talon[q]
            for k, card in enumerate(reversed(talon[-TALON_SHOWN:])):
                put_card(out, at + k * CARD, card)
            at += TALON_SHOWN * CARD
            hidden = min(board.side_hidden[q], len(board.side[q]))
            if hidden:
                put_card(out, at, board.side[q][hidden - 1])
            at += CARD
        out[at] = bool(board.pending)
        return out
