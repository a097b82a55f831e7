"""A Krepet game's positions rebuilt from its trace alone: the deal made again from the seed, then every landed
move and every judged call applied in order. The replay page draws these positions, and the rebuild checks the
trace: a move that cannot be made, or a call judged otherwise than the trace says, is a :class:`TraceMismatch`.
"""

from __future__ import annotations

from collections.abc import Iterator

from kemps_sim.errors import IllegalMove
from kemps_sim.krepet.deal import deal
from kemps_sim.krepet.moves import Draw, EndTurn, Lay, Move, Pile, TakeBack
from kemps_sim.krepet.realtime import deal_rng
from kemps_sim.krepet.result import KrepetResult
from kemps_sim.krepet.state import State
from kemps_sim.krepet.trace import CallHeard, KrepetEvent, Moved
from kemps_sim.krepet.turns import apply_move, call_krepet
from kemps_sim.retrace import TraceMismatch


def move_of(event: Moved) -> Move:
    """The move a :class:`Moved` event records."""
    if event.kind == "lay":
        return Lay(event.card, Pile.parse(event.src), Pile.parse(event.dst), event.count)
    if event.kind == "take_back":
        return TakeBack(event.count)
    return Draw() if event.kind == "draw" else EndTurn()


def positions(result: KrepetResult) -> Iterator[tuple[KrepetEvent, State]]:
    """Each event of the game with the position right after it (one live state, changed in place: copy what
    must be kept)."""
    state = deal(result.rules, deal_rng(result.seed))
    for event in result.trace:
        if isinstance(event, Moved):
            try:
                apply_move(state, move_of(event))
            except IllegalMove as exc:
                raise TraceMismatch(f"t={event.time:.3f}: {exc}") from None
        elif (isinstance(event, CallHeard) and event.caller != state.to_move and state.result is None
              and call_krepet(state, event.caller) != event.right):
            raise TraceMismatch(f"t={event.time:.3f}: player {event.caller}'s call judged {event.verdict} in "
                                    "the trace, otherwise on the rebuilt position")
        yield event, state
