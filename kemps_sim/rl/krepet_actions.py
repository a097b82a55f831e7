"""Krepet's flat action space for learning agents: every move and call a player may make, numbered, with its mask.

An action names piles as the player sees them, not by the table's numbering: "own side stack", "the opponent's
Ablage", tableau places counted from the player's own row (place 0 is the first of its own row), hand cards by
their place from the top. So one action means the same for either player, and one policy can play both chairs.
The table of actions is fixed by the rules and laid out in blocks:

==============  ==============================================================================================
block           actions
==============  ==============================================================================================
call            let the percept pass (no call; also the Parallel view's no-op), say "Krepet!"
turn            ``EndTurn()``, ``Draw()``
take back       ``TakeBack(n)`` for n = 1 to 26 (a same-suit run holds at most the 26 cards of a suit in two
                decks; the block is left out under ``take_back = "none"``)
lay             ``Lay`` from a source to a target, for every pair the rules can allow: sources are the hand
                (place 0, the top, only; the top ten places under ``hand_access = "any"``), the own side stack,
                the own Ablage and each tableau place; targets the eight ace piles, each tableau place and the
                side stacks and Ablagen of both players (and both talons under ``talon_target = "talon_too"``).
                A lay between tableau places has a count: the top card only (``stack_moves = "top_only"``), the
                top card or the whole stack (``"top_or_whole"``), or 1 to 13 cards (``"any_run"``; a tableau
                stack never holds more than king to ace)
==============  ==============================================================================================

A decision is either a move (the player's turn: :class:`~kemps_sim.krepet.agent.KrepetView`, whose ``moves`` are
what the player perceives as open) or a chance to call (:class:`CallChance`: the watching player took the
opponent's last move in as a miss). :meth:`KrepetActions.mask` is 1 exactly for the actions that stand for the
view's moves, or for the two call actions, which a test confirms over whole games.

Every legal move has an action, but one: a lay from a hand card below the tenth place under ``hand_access =
"any"`` (a hand grows so far only when ``drawn_leftovers = "keep_in_hand"`` keeps what was drawn, or when cards
taken back from the side stack land on a drawn packet). Such moves have no action and
are never offered (:meth:`KrepetActions.unencoded` lists them); drawing or ending the turn is always open, so a
player always has an action.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kemps_sim.krepet.agent import KrepetView
from kemps_sim.krepet.moves import Draw, EndTurn, Lay, Move, Pile, TakeBack
from kemps_sim.krepet.rules import MAX_DRAW, KrepetRules
from kemps_sim.krepet.state import FOUNDATIONS
from kemps_sim.perception import Percept

#: The no-op of the Parallel view, and the answer "no call" to a chance to call.
PASS = 0
CALL = 1
END_TURN = 2
DRAW = 3
#: The longest take-back (a same-suit run up or down, each card one of the 26 of its suit in two decks).
MAX_TAKE_BACK = 26
#: The longest tableau stack (king down to ace).
MAX_STACK = 13
#: How many hand places from the top a lay can name under ``hand_access = "any"`` (a draw takes at most ten).
HAND_PLACES = MAX_DRAW
#: The count of "the whole stack" under ``stack_moves = "top_or_whole"``.
WHOLE = 0

#: A pile as the player sees it: ``(kind, index)``; ``hand`` by place from the top, ``side``, ``discard`` and
#: ``talon`` by owner (0 the player's own, 1 the opponent's), ``tableau`` from the player's own row, ``foundation``
#: as on the table.
Place = tuple[str, int]


@dataclass(frozen=True)
class CallChance:
    """A watching player's chance to say "Krepet!": it took the opponent's last move in as a miss (``percept``,
    with its evidence) and is asked whether to call. ``view`` is the engine's view of the watcher (no moves)."""

    view: KrepetView
    percept: Percept

    @property
    def player(self) -> int:
        """The watching player."""
        return self.view.player

    @property
    def now(self) -> float:
        """Simulated seconds since the game began."""
        return self.view.now


Decision = KrepetView | CallChance


@dataclass(frozen=True)
class KrepetLayout:
    """Where each block of the flat action space starts, and how long the whole is."""

    take_back: int
    take_backs: int
    lays: int
    size: int


class KrepetActions:
    """The numbered actions of one set of rules and, per decision, which of them are open."""

    def __init__(self, rules: KrepetRules) -> None:
        self.rules = rules
        self.row = rules.tableau_per_player
        self.places = rules.tableau_places
        self.hand_places = HAND_PLACES if rules.hand_access == "any" else 1
        take_backs = 0 if rules.take_back == "none" else MAX_TAKE_BACK
        lays = self._lays(rules)
        start = DRAW + 1 + take_backs
        self.layout = KrepetLayout(DRAW + 1, take_backs, start, start + len(lays))
        self.lays = tuple(lays)
        self._index = {lay: start + i for i, lay in enumerate(lays)}
        self._last: tuple[Decision | None, np.ndarray | None] = (None, None)
        call = np.zeros(self.layout.size, dtype=np.int8)
        call[[PASS, CALL]] = 1
        call.flags.writeable = False
        self.call_mask = call
        noop = np.zeros(self.layout.size, dtype=np.int8)
        noop[PASS] = 1
        noop.flags.writeable = False
        #: The mask of a player whose decision is not due: only the no-op, which is ignored.
        self.noop_mask = noop

    @property
    def size(self) -> int:
        """How many actions there are."""
        return self.layout.size

    def _lays(self, rules: KrepetRules) -> list[tuple[Place, Place, int]]:
        """Every (source, target, count) the rules can allow, in the order of the module docstring."""
        tableau = [("tableau", r) for r in range(self.places)]
        owned = [("side", 0), ("discard", 0), ("side", 1), ("discard", 1)]
        if rules.talon_target == "talon_too":
            owned += [("talon", 0), ("talon", 1)]
        runs = {"top_only": (1,), "top_or_whole": (1, WHOLE), "any_run": tuple(range(1, MAX_STACK + 1))}
        sources = [("hand", k) for k in range(self.hand_places)] + [("side", 0), ("discard", 0), *tableau]
        lays: list[tuple[Place, Place, int]] = []
        for src in sources:
            kind = src[0]
            lays += [(src, ("foundation", f), 1) for f in range(FOUNDATIONS)]
            if kind != "discard" or rules.discard_top_to == "anywhere":
                for dst in tableau:
                    if dst != src:
                        lays += [(src, dst, n) for n in (runs[rules.stack_moves] if kind == "tableau" else (1,))]
            loads = (kind == "hand" or (kind == "side" and rules.load_from != "hand")
                     or (kind == "tableau" and rules.load_from == "anywhere"))
            if loads:
                lays += [(src, dst, 1) for dst in owned if dst != src]
        return lays

    # Piles as the player sees them -------------------------------------------------------------------------------
    def _place(self, pile: Pile, player: int) -> Place:
        if pile.kind == "tableau":
            return "tableau", (pile.index - player * self.row) % self.places
        if pile.kind == "foundation":
            return "foundation", pile.index
        return pile.kind, int(pile.index != player)

    def _pile(self, place: Place, player: int) -> Pile:
        kind, index = place
        if kind == "tableau":
            return Pile("tableau", (index + player * self.row) % self.places)
        if kind == "foundation":
            return Pile("foundation", index)
        return Pile(kind, player if kind == "hand" or index == 0 else 1 - player)  # type: ignore[arg-type]

    # Actions and moves -------------------------------------------------------------------------------------------
    def action_of(self, move: Move, view: KrepetView) -> int | None:
        """The action that stands for ``move`` at ``view`` (None: a move no action names; see the module)."""
        if isinstance(move, EndTurn):
            return END_TURN
        if isinstance(move, Draw):
            return DRAW
        if isinstance(move, TakeBack):
            return self.layout.take_back + move.count - 1 if 1 <= move.count <= self.layout.take_backs else None
        p = view.player
        if move.src.kind == "hand":
            hand = view.state.hand[p]
            src: Place = ("hand", len(hand) - 1 - hand.index(move.card))
        else:
            src = self._place(move.src, p)
        count = move.count
        if count > 1 and self.rules.stack_moves == "top_or_whole":
            count = WHOLE
        return self._index.get((src, self._place(move.dst, p), count))

    def intent(self, action: int, view: KrepetView) -> Move | None:
        """The move action number ``action`` stands for at ``view`` (None: a call action, or a source place that
        holds no such card now)."""
        if action < self.layout.take_back:
            return EndTurn() if action == END_TURN else Draw() if action == DRAW else None
        if action < self.layout.lays:
            return TakeBack(action - self.layout.take_back + 1)
        (kind, index), dst, count = self.lays[action - self.layout.lays]
        p, state = view.player, view.state
        src = self._pile((kind, index), p)
        pile = state.pile(src)
        if kind == "hand":
            return Lay(pile[-1 - index], src, self._pile(dst, p)) if index < len(pile) else None
        if count == WHOLE:
            count = len(pile) if len(pile) > 1 else 0
        if not count or len(pile) < count:
            return None
        return Lay(pile[-count], src, self._pile(dst, p), count)

    def answer(self, action: int, decision: Decision) -> Move | bool | None:
        """What the player answers the engine: whether to call, for a chance to call; else the move."""
        if isinstance(decision, CallChance):
            return action == CALL
        return self.intent(action, decision)

    def mask(self, decision: Decision) -> np.ndarray:
        """Which actions are open now (int8, 1 open): the two call actions for a chance to call; for a move, the
        actions of the moves the player perceives (``view.moves``). Read-only; the last one is kept."""
        if isinstance(decision, CallChance):
            return self.call_mask
        seen, kept = self._last
        if seen is decision and kept is not None:
            return kept
        mask = np.zeros(self.layout.size, dtype=np.int8)
        for move in decision.moves:
            action = self.action_of(move, decision)
            if action is not None:
                mask[action] = 1
        mask.flags.writeable = False
        self._last = (decision, mask)
        return mask

    def unencoded(self, view: KrepetView) -> tuple[Move, ...]:
        """The moves of ``view`` that no action names (empty but for the case the module docstring names)."""
        return tuple(m for m in view.moves if self.action_of(m, view) is None)

    def fallback(self, decision: Decision) -> int:
        """The action played instead of one the mask forbids: no call; or end the turn, else draw (one of the two
        is always open)."""
        if isinstance(decision, CallChance):
            return PASS
        mask = self.mask(decision)
        return END_TURN if mask[END_TURN] else DRAW if mask[DRAW] else int(mask.argmax())

    def describe(self, action: int) -> str:
        """The action in words, by places as the player sees them (for logs and the environment card)."""
        fixed = {PASS: "no call", CALL: "call Krepet!", END_TURN: "EndTurn()", DRAW: "Draw()"}
        if action in fixed:
            return fixed[action]
        if action < self.layout.lays:
            return f"TakeBack({action - self.layout.take_back + 1})"
        src, dst, count = self.lays[action - self.layout.lays]
        what = {1: "", WHOLE: " (the whole stack)"}.get(count, f" ({count} cards)") if src[0] == "tableau" else ""
        return f"Lay {_words(src)}{what} -> {_words(dst)}"


def _words(place: Place) -> str:
    kind, index = place
    if kind == "hand":
        return f"hand place {index} from the top"
    if kind == "foundation":
        return f"ace pile {index}"
    if kind == "tableau":
        return f"tableau place {index} from the own row"
    return f"{('own', 'opponent')[index]} {kind}"

