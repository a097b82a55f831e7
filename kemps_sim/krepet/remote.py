"""A Krepet player played from outside the engine (a person at a browser, or a script standing in for one): what
their page is shown of the board, and how a page's message becomes a move.

The board a player sees (:func:`board_of`) is all that lies face up: the tableau, the ace piles, and of each
player the hand, the Ablage (its top card), the side stack's face-up cards and how many lie face down beneath them,
and how many cards the talon holds (face down). A page never receives the moves the rules allow: noticing an
ace-pile move that must be made is the game (a miss the opponent may call); the page asks for a move by its source
and target pile, and the seat finds it among the legal moves or says why not
(:func:`~kemps_sim.krepet.legal.why_illegal`).
"""

from __future__ import annotations

import math
import queue
from collections.abc import Callable
from typing import Any

from kemps_sim.cards import card_name
from kemps_sim.errors import ConfigError
from kemps_sim.krepet.agent import BaseKrepetAgent, Habits, KrepetView
from kemps_sim.krepet.legal import why_illegal
from kemps_sim.krepet.moves import Draw, EndTurn, Lay, Move, Pile, TakeBack
from kemps_sim.krepet.state import State
from kemps_sim.profiles import PlayerProfile
from kemps_sim.serve.remote import POLL, Report, Sent

#: The kinds of message a Krepet page may send.
KINDS = ("move", "draw", "take_back", "end_turn", "krepet")


def board_of(state: State, player: int) -> dict[str, Any]:
    """What ``player`` sees of the board: everything face up, and of what lies face down only how much."""
    piles = []
    for p in (0, 1):
        side, hidden = state.side[p], state.side_hidden[p]
        piles.append({"talon": len(state.talon[p]), "discard": state.discard[p][-1:],
                      "discard_count": len(state.discard[p]), "side_hidden": min(hidden, len(side)),
                      "side": side[min(hidden, len(side)):], "hand": list(state.hand[p]),
                      "cards_left": state.cards_of(p)})
    board = {"player": player, "to_move": state.to_move, "turn": state.turn, "moves_made": state.moves_made,
             "playing": state.result is None, "tableau": [list(pile) for pile in state.tableau],
             "foundations": [pile[-1:] for pile in state.foundations], "piles": piles}
    shown = [c for pile in board["tableau"] for c in pile] + [c for f in board["foundations"] for c in f] + [
        c for p in piles for key in ("discard", "side", "hand") for c in p[key]]
    board["names"] = {str(card): card_name(card) for card in shown}
    return board


def move_from(data: Any) -> tuple[str, Any]:
    """What a page's message asks for: ``("krepet", None)`` for the call, else ``("move", request)`` with request
    ``{"kind": "move", "src": "hand0", "dst": "T3", "count": 1}``, ``{"kind": "take_back", "count": n}``,
    ``{"kind": "draw"}`` or ``{"kind": "end_turn"}`` (the seat matches it to a legal move)."""
    if not isinstance(data, dict):
        raise ConfigError(f"message {data!r}: must be an object with a 'kind' ({', '.join(KINDS)})")
    kind = data.get("kind")
    if kind == "krepet":
        return "krepet", None
    if kind in ("draw", "end_turn"):
        return "move", Draw() if kind == "draw" else EndTurn()
    count = data.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 13:
        raise ConfigError(f"message.count = {count!r}: must be a number of cards from 1 to 13")
    if kind == "take_back":
        return "move", TakeBack(count)
    if kind == "move":
        piles = []
        for key in ("src", "dst"):
            try:
                piles.append(Pile.parse(str(data.get(key))))
            except ValueError:
                raise ConfigError(f"message.{key} = {data.get(key)!r}: must be a pile such as T3, F0, hand0, "
                                  "side1 or discard0") from None
        return "move", (piles[0], piles[1], count)
    raise ConfigError(f"message.kind = {kind!r}: allowed: {', '.join(KINDS)}")


def wanted(state: State, request: Any) -> Move:
    """The move a request names: a draw, an end of turn or a take-back as they are; a lay from ``src`` to ``dst``
    of ``count`` cards (the card is the one ``count`` from the top of ``src``)."""
    if not isinstance(request, tuple):
        return request
    src, dst, count = request
    pile = state.pile(src)
    return Lay(pile[-count] if len(pile) >= count else -1, src, dst, count)


class RemoteKrepetSeat(BaseKrepetAgent):
    """A Krepet player whose moves and calls come from a page (:meth:`send`, any thread). Its times are measured
    (``measured_times``): the engine draws no reaction, reach or speech for it, and no percept (a person sees the
    board themselves). When its turn asks for a move and none was sent it answers None, and the engine looks again
    after ``poll`` seconds; a move the rules do not allow is refused in words (``notify``) and looked again for.
    ``publish`` receives the board it sees (:func:`board_of`) whenever it changes; ``report`` what became of each
    input; ``gate`` is called at every look (a paused table holds the game there)."""

    name = "remote"
    measured_times = True

    def __init__(self, player: int, poll: float = POLL, publish: Callable[[dict[str, Any]], None] | None = None,
                 notify: Callable[[str], None] | None = None, report: Report | None = None,
                 gate: Callable[[], None] | None = None) -> None:
        super().__init__(lapse=0.0)
        if isinstance(poll, bool) or not isinstance(poll, int | float) or not 0.0 < poll < math.inf:
            raise ConfigError(f"RemoteKrepetSeat.poll = {poll!r}: must be a number of seconds > 0")
        self.player, self.poll = player, float(poll)
        self.publish, self.notify, self.report, self.gate = publish, notify, report, gate
        self.inbox: queue.SimpleQueue[Sent] = queue.SimpleQueue()
        self.call_box: queue.SimpleQueue[Sent] = queue.SimpleQueue()
        self._shown: dict[str, Any] | None = None
        self._stand_in: Any = None
        self._due: tuple[Move, float] | None = None  # a stand-in's move and when its human time is up
        self._times: Callable[[], float] | None = None
        self.now: Callable[[], float] = lambda: math.nan  # the game's clock (the table sets it)

    def habits(self) -> Habits:
        """A person's own eyes: no lapses drawn for them."""
        return Habits(attention=self.attention, lapse=0.0)

    def send(self, sent: Sent) -> None:
        """Queue a page's input: a call (``sent.intent`` is ``"krepet"``) or a move request."""
        (self.call_box if sent.intent == "krepet" else self.inbox).put(sent)

    def stand_in(self, agent: Any, seat: int, players: int, rng: Any) -> None:
        """From now on ``agent`` (a Krepet agent) plays the seat (its person left): each of its moves lands after
        a reaction and a reach drawn from the default profile, as the engine would add for an agent."""
        agent.start_match(seat, players, rng)
        profile = PlayerProfile()
        reaction, reach = profile.sampler("reaction", rng), profile.sampler("reach", rng)
        self._times = lambda: reaction.next() + reach.next()
        self._stand_in = agent

    def look(self, state: State, now: float) -> None:
        """Publish the board if it changed (the table calls this as events happen, whoever moved)."""
        if self.publish is not None:
            board = board_of(state, self.player)
            if board != self._shown:
                self._shown = board
                self.publish({**board, "time": now})
        if self.gate is not None:
            self.gate()

    def decide(self, view: KrepetView) -> Move | None:
        """The move the oldest request names if the rules allow it now; None while there is none."""
        self.look(view.state, view.now)
        if self._stand_in is not None:
            return self._stood_in(view)
        while True:
            try:
                sent = self.inbox.get_nowait()
            except queue.Empty:
                return None
            move = wanted(view.state, sent.intent)
            if move in view.moves:
                self._report(sent, "played", view.now, "")
                return move
            problem = f"{move}: {why_illegal(view.state, move) or 'not open now'}"
            self._report(sent, "refused", view.now, problem)
            if self.notify is not None:
                self.notify(problem)

    def _stood_in(self, view: KrepetView) -> Move | None:
        if self._due is None:
            self._due = (self._stand_in.decide(view), view.now + self._times())  # type: ignore[misc]
        move, at = self._due
        if view.now < at:
            return None
        self._due = None
        return move if move in view.moves else None

    def calls_now(self) -> bool:
        """Whether the person said "Krepet!" since the last look."""
        try:
            sent = self.call_box.get_nowait()
        except queue.Empty:
            return False
        self._report(sent, "played", self.now(), "")
        return True

    def unplayed(self) -> list[Sent]:
        """The inputs the game ended before playing."""
        left = []
        for box in (self.inbox, self.call_box):
            while True:
                try:
                    left.append(box.get_nowait())
                except queue.Empty:
                    break
        return left

    def settle(self) -> None:
        """Nothing is held back between looks (a move is judged when it is taken)."""

    def _report(self, sent: Sent, status: str, now: float, problem: str) -> None:
        if self.report is not None:
            self.report(sent, status, now, 0, problem)
