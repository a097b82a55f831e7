"""Which moves the player to move may make, which of them are compulsory, and why any other move is refused.

Sources of a card: the player's hand (the top card, or any under ``hand_access = "any"``), the own side-stack top,
the own Ablage top (onto the ace piles only, unless ``discard_top_to = "anywhere"``), and tableau tops (single
cards or runs, per ``stack_moves``). Targets: the ace piles (up in suit from the ace), the tableau (down in
alternating colour; an empty place takes any card), and the side stacks and Ablagen of both players (one up or
down in the same suit; empty ones per ``empty_piles_take_any``), which take cards from the sources ``load_from``
allows. Every legal ace-pile move is compulsory: the sources are exactly those the source names for a miss.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from kemps_sim.cards import card_name
from kemps_sim.krepet.cards import ALL_CARDS, fits_foundation, fits_suit_step, fits_tableau
from kemps_sim.krepet.moves import (
    OWNED,
    Draw,
    EndTurn,
    Lay,
    Move,
    Pile,
    TakeBack,
    discard,
    foundation,
    side,
    talon,
)

if TYPE_CHECKING:
    from kemps_sim.krepet.state import State


def legal_moves(s: State) -> list[Move]:
    """Every legal move of the player to move, compulsory ace-pile moves first (empty once the game is over)."""
    if s.over:
        return []
    lays = list(_lays(s))
    moves: list[Move] = [m for m in lays if m.dst.kind == "foundation"]
    moves += [m for m in lays if m.dst.kind != "foundation"]
    moves += [TakeBack(n) for n in range(1, _take_back_limit(s) + 1)]
    if can_draw(s):
        moves.append(Draw())
    if can_end_turn(s):
        moves.append(EndTurn())
    return moves


def compulsory_moves(s: State) -> list[Move]:
    """The ace-pile moves open to the player to move: while one exists, any other move is a miss."""
    if s.over:
        return []
    return [m for m in _lays(s) if m.dst.kind == "foundation"]


def can_draw(s: State) -> bool:
    """Whether a draw is allowed: first in the turn, or after getting rid of a card since the last draw."""
    p = s.to_move
    return (not s.drawn_this_turn or s.rid_this_cycle > 0) and s.reservoir(p) > 0


def can_end_turn(s: State) -> bool:
    """Whether the turn may end now (``turn_needs_draw``: not before the first draw if there is anything to draw)."""
    return s.drawn_this_turn or not s.rules.turn_needs_draw or s.reservoir(s.to_move) == 0


def sources(s: State) -> Iterator[tuple[Pile, int]]:
    """Every (pile, card) the player to move may take a single card from."""
    p = s.to_move
    hand = s.hand[p]
    playable = hand if s.rules.hand_access == "any" else hand[-1:]
    for card in dict.fromkeys(playable):
        yield Pile("hand", p), card
    if s.side[p]:
        yield side(p), s.side[p][-1]
    if s.discard[p]:
        yield discard(p), s.discard[p][-1]
    for i, pile in enumerate(s.tableau):
        if pile:
            yield Pile("tableau", i), pile[-1]


def pile_targets(s: State, src: Pile) -> list[Pile]:
    """The side stacks and Ablagen (and talons, under ``talon_target = "talon_too"``) a card from ``src`` may try."""
    r, p = s.rules, s.to_move
    allowed = (src.kind == "hand" or (src.kind == "side" and r.load_from != "hand")
               or (src.kind == "tableau" and r.load_from == "anywhere"))
    if not allowed:
        return []
    targets = [side(p), discard(p), side(1 - p), discard(1 - p)]
    if r.talon_target == "talon_too":
        targets += [talon(p), talon(1 - p)]
    return [t for t in targets if t != src]


def fits_pile(s: State, card: int, dst: Pile) -> bool:
    """Whether ``card`` fits on a side stack, Ablage or talon (one up or down in suit; empty per the rules)."""
    pile = s.pile(dst)
    return fits_suit_step(card, pile[-1]) if pile else s.rules.empty_piles_take_any


def _lays(s: State) -> Iterator[Lay]:
    r = s.rules
    for src, card in sources(s):
        for i, pile in enumerate(s.foundations):
            if fits_foundation(card, pile[-1] if pile else None):
                yield Lay(card, src, foundation(i))
                if not pile:
                    break  # an ace goes to the first empty ace place; the others are the same move
        if src.kind == "discard" and r.discard_top_to == "foundations":
            continue
        for dst in _tableau_targets(s, src, card, 1):
            yield Lay(card, src, dst)
        if src.kind != "discard":
            for dst in pile_targets(s, src):
                if fits_pile(s, card, dst):
                    yield Lay(card, src, dst)
    if r.stack_moves == "top_only":
        return
    for i, pile in enumerate(s.tableau):
        counts = range(2, len(pile) + 1) if r.stack_moves == "any_run" else [len(pile)] if len(pile) > 1 else []
        for n in counts:
            src = Pile("tableau", i)
            for dst in _tableau_targets(s, src, pile[-n], n):
                yield Lay(pile[-n], src, dst, n)


def _tableau_targets(s: State, src: Pile, card: int, count: int) -> Iterator[Pile]:
    whole = src.kind == "tableau" and count == len(s.tableau[src.index])
    for j, pile in enumerate(s.tableau):
        if src.kind == "tableau" and j == src.index:
            continue
        if (not pile and not whole) or (pile and fits_tableau(card, pile[-1])):
            yield Pile("tableau", j)


def _take_back_limit(s: State) -> int:
    """How many top cards of the own side stack could be taken back (0: none)."""
    r, p = s.rules, s.to_move
    pile = s.side[p]
    if r.take_back == "none" or not pile:
        return 0
    reach = len(pile) - (s.side_base[p] if r.take_back == "loaded_run" else s.side_hidden[p])
    n = 1 if reach > 0 else 0
    while n < reach and fits_suit_step(pile[-n], pile[-n - 1]):
        n += 1
    return n


def why_illegal(s: State, move: Move) -> str | None:
    """Why the move is refused, in a few words, or ``None`` if it is legal."""
    if s.over:
        return "the game is over"
    if move in legal_moves(s):
        return None
    p, r = s.to_move, s.rules
    if isinstance(move, Draw):
        if s.reservoir(p) == 0:
            return "nothing left to draw (talon and Ablage are empty)"
        return "no card got rid of since the last draw, so the turn is over: end it"
    if isinstance(move, EndTurn):
        return "the turn needs a draw first (rules.turn_needs_draw = true)"
    if isinstance(move, TakeBack):
        if r.take_back == "none":
            return "taking cards back is off (rules.take_back = 'none')"
        limit = _take_back_limit(s)
        return f"only {limit} card(s) can be taken back here (rules.take_back = {r.take_back!r})"
    if not isinstance(move, Lay):
        return f"not a Krepet move ({type(move).__name__})"
    return _why_lay(s, move)


def _why_lay(s: State, m: Lay) -> str:
    p, r = s.to_move, s.rules
    for pile in (m.src, m.dst):
        size = {"tableau": len(s.tableau), "foundation": len(s.foundations)}.get(pile.kind, 2)
        if pile.kind not in ("tableau", "foundation", *OWNED) or not 0 <= pile.index < size:
            return f"no pile {pile.kind!r} {pile.index} on this table"
    if not isinstance(m.card, int) or not 0 <= m.card < ALL_CARDS:
        return f"card {m.card!r} is not a card id from 0 to {ALL_CARDS - 1}"
    name = card_name(m.card)
    if m.src.owned and m.src.index != p:
        return f"{m.src} is the opponent's: only its own piles and the shared tableau are the mover's to play from"
    if m.src.kind in ("foundation", "talon"):
        return f"cards never leave {m.src.kind} piles by a Lay"
    src = s.pile(m.src)
    if m.count < 1 or m.count > len(src) or src[-m.count] != m.card:
        where = ("in" if m.src.kind == "hand" else "on top of" if m.count == 1
                 else f"the bottom of the top {m.count} cards of")
        if m.src.kind == "hand" and m.card in src and r.hand_access == "top":
            return f"{name} is in the hand but not on top (rules.hand_access = 'top')"
        if m.src.kind != "hand" or m.card not in src:
            return f"{name} is not {where} {m.src}"
    if m.count > 1 and (m.src.kind != "tableau" or m.dst.kind != "tableau"):
        return "only runs in the tableau move together"
    if m.count > 1:
        return f"moving {m.count} cards is not allowed here (rules.stack_moves = {r.stack_moves!r})"
    if m.dst.kind == "foundation" and not s.pile(m.dst) and fits_foundation(m.card, None):
        return "an ace goes to the first empty ace place"
    if m.dst.kind == "foundation":
        return f"{name} does not fit on {m.dst} (ace piles start with an ace and build up in suit)"
    if m.src.kind == "discard" and r.discard_top_to == "foundations":
        return "the Ablage top goes only onto ace piles (rules.discard_top_to = 'foundations')"
    if m.dst.kind == "tableau":
        return f"{name} does not fit on {m.dst} (the tableau builds down in alternating colour)"
    if m.dst.kind == "hand":
        return "cards go into the hand only by drawing or taking back"
    if m.dst.kind == "talon" and r.talon_target == "discard":
        return "talons take no cards (rules.talon_target = 'discard': the Ablage is the pile meant)"
    if m.dst not in pile_targets(s, m.src):
        return f"{m.src} cards may not go onto {m.dst} (rules.load_from = {r.load_from!r})"
    return f"{name} does not fit on {m.dst} (one up or down in the same suit)"
