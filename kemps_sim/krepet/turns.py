"""What a move does: laying, drawing, taking back, ending the turn, and the "Krepet!" call with its readings.

A turn is a series of draw cycles. Before the first draw and between draws the player may lay cards; a draw is
allowed first in the turn and again only after getting rid of a card since the last one (``go_again_counts``).
Leftover hand cards are laid on the Ablage before the next draw and at the end of the turn
(``drawn_leftovers = "to_discard"``), and an empty talon is made by turning the Ablage over unshuffled.

A move other than a compulsory ace-pile move while one is open is a :class:`~kemps_sim.krepet.state.Miss`; the
opponent's right call (:func:`call_krepet`) ends the mover's turn at once. How long a miss stays callable, whether
the moves since it stand, and what a wrong call costs are the knobs ``miss_callable``, ``interrupted_move`` and
``wrong_call``. Ending the turn with an ace-pile move open is recorded as a miss too, but there is nothing left to
interrupt, so no call can catch it. The game ends when a player holds no cards, or when both are stuck (``stuck_rule``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kemps_sim.errors import IllegalMove
from kemps_sim.krepet.legal import compulsory_moves, why_illegal
from kemps_sim.krepet.moves import Draw, EndTurn, Lay, Move, TakeBack
from kemps_sim.krepet.state import Call, Miss, Result

if TYPE_CHECKING:
    from kemps_sim.krepet.state import State

_KEEP_ON_UNDO = ("misses", "calls", "moves_made", "result", "rules", "snapshot", "pending", "skip_next")


def apply_move(s: State, move: Move) -> State:
    """Make the move for the player to move, or raise a one-line :class:`IllegalMove` naming it and why; returns
    the (changed) state."""
    why = why_illegal(s, move)
    if why is not None:
        raise IllegalMove(f"move {move} by player {s.to_move}: {why}")
    r, p = s.rules, s.to_move
    if r.miss_callable == "next_move":
        _clear_pending(s)
    open_now = compulsory_moves(s)
    if open_now and move not in open_now:
        if not s.pending and r.interrupted_move == "undone":
            s.snapshot = s.copy()
        s.misses.append(Miss(p, s.turn, s.moves_made, move, tuple(open_now)))
        if not isinstance(move, EndTurn):
            s.pending.append(len(s.misses) - 1)
    s.moves_made += 1
    if isinstance(move, Lay):
        _lay(s, move)
    elif isinstance(move, Draw):
        _draw(s)
    elif isinstance(move, TakeBack):
        _take_back(s, move.count)
    else:
        end_turn(s)
        return s
    _after_move(s)
    return s


def _lay(s: State, m: Lay) -> None:
    r, p = s.rules, s.to_move
    src = s.pile(m.src)
    if m.src.kind == "hand":
        src.remove(m.card) if src[-1] != m.card else src.pop()
        moved = [m.card]
    else:
        moved = src[-m.count:]
        del src[-m.count:]
    dst = s.pile(m.dst)
    onto_own = m.dst.owned and m.dst.index == p
    fitting = bool(dst) or not onto_own  # a card on an own empty pile is not laid "passend" (fitting)
    dst.extend(moved)
    if m.src.kind == "side":
        _settle_side(s, m.src.index)
    counts = m.src.kind == "hand" or (r.go_again_counts == "own_cards" and m.src.owned and not onto_own)
    if counts and fitting:
        s.rid_this_cycle += m.count


def _draw(s: State) -> None:
    r, p = s.rules, s.to_move
    if r.drawn_leftovers == "to_discard":
        s.discard[p].extend(s.hand[p])
        s.hand[p].clear()
    if not s.talon[p]:
        s.talon[p] = s.discard[p][::-1]  # turned over: the Ablage's bottom card is the talon's new top
        s.discard[p] = []
        s.passes[p] += 1
    k = min(r.draw_count(s.passes[p]), len(s.talon[p]))
    packet = s.talon[p][-k:]
    del s.talon[p][-k:]
    s.hand[p].extend(reversed(packet))  # the packet is turned over: its deepest card lands on top
    s.last_drawn = tuple(packet)
    s.drawn_this_turn = True
    s.rid_this_cycle = 0
    if s.passes[p] >= len(r.draw_counts) - 1:
        s.idle_drawn[p] += k


def _take_back(s: State, n: int) -> None:
    p = s.to_move
    taken = s.side[p][-n:]
    del s.side[p][-n:]
    s.hand[p].extend(taken)
    _settle_side(s, p)


def _settle_side(s: State, owner: int) -> None:
    """After cards left a side stack: the dealt part shrinks with it and its new top is turned face up."""
    n = len(s.side[owner])
    s.side_base[owner] = min(s.side_base[owner], n)
    s.side_hidden[owner] = min(s.side_hidden[owner], max(s.side_base[owner] - 1, 0))


def _after_move(s: State) -> None:
    if s.progress() > s.best_progress:
        s.best_progress = s.progress()
        s.idle_drawn = [0, 0]
        s.stuck = [False, False]
        s.progress_in_turn = True
    for player in (s.to_move, 1 - s.to_move):
        if s.cards_of(player) == 0:
            s.result = Result("out_of_cards", player, (s.cards_of(0), s.cards_of(1)))
            _clear_pending(s)
            return
    if s.rules.miss_callable == "until_made" and s.pending:
        open_cards = {m.card for m in compulsory_moves(s) if isinstance(m, Lay)}
        s.pending = [i for i in s.pending
                     if any(isinstance(m, Lay) and m.card in open_cards for m in s.misses[i].missed)]
        if not s.pending:
            s.snapshot = None


def end_turn(s: State) -> None:
    """End the mover's turn: lay leftovers aside, judge whether the mover is stuck, and pass the turn."""
    r, p = s.rules, s.to_move
    if r.drawn_leftovers == "to_discard":
        s.discard[p].extend(s.hand[p])
        s.hand[p].clear()
    if not s.progress_in_turn:
        if r.stuck_rule == "one_turn":
            s.stuck[p] = True
        else:
            left = s.reservoir(p)
            s.stuck[p] = left == 0 or (s.passes[p] >= len(r.draw_counts) - 1 and s.idle_drawn[p] >= left)
    _clear_pending(s)
    if all(s.stuck):
        held = (s.cards_of(0), s.cards_of(1))
        winner = None if held[0] == held[1] else int(held[1] < held[0])
        s.result = Result("both_stuck", winner, held)
        return
    nxt = 1 - p
    if s.skip_next[nxt]:
        s.skip_next[nxt] = False
        nxt = p
    s.to_move = nxt
    s.turn += 1
    s.drawn_this_turn = False
    s.rid_this_cycle = 0
    s.progress_in_turn = False
    s.last_drawn = ()


def call_krepet(s: State, caller: int) -> bool:
    """The opponent of the mover calls "Krepet!". Right (a miss is callable): the mover's turn ends at once (after
    taking back the moves since the miss, under ``interrupted_move = "undone"``). Wrong: it costs what
    ``wrong_call`` says. Returns whether the call was right."""
    if s.over:
        raise IllegalMove(f"Krepet! by player {caller}: the game is over")
    if caller not in (0, 1) or caller == s.to_move:
        raise IllegalMove(f"Krepet! by player {caller}: only the opponent of the mover (player "
                          f"{1 - s.to_move}) can call")
    right = bool(s.pending)
    s.calls.append(Call(caller, s.turn, s.moves_made, right))
    if not right:
        if s.rules.wrong_call == "skip_turn":
            s.skip_next[caller] = True
        return False
    if s.rules.interrupted_move == "undone" and s.snapshot is not None:
        snap = s.snapshot
        for name, value in vars(snap).items():
            if name not in _KEEP_ON_UNDO:
                setattr(s, name, value)
    _clear_pending(s)
    s.progress_in_turn = True  # a called turn does not count as stuck
    end_turn(s)
    return True


def _clear_pending(s: State) -> None:
    s.pending = []
    s.snapshot = None
