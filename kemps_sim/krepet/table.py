"""A Krepet game with people at the table (:class:`KrepetTable`): the clocked game on the wall's clock, a person's
player moved from their page, each page shown the board as that player sees it and the game's events as the
opponent may know them (a move, but not whether it was a miss: noticing that is the game)."""

from __future__ import annotations

import dataclasses
import math
import queue
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kemps_sim.engine import Live
from kemps_sim.krepet.events import event_row
from kemps_sim.krepet.presets import load_krepet_rules
from kemps_sim.krepet.realtime import KrepetConfig, play_krepet
from kemps_sim.krepet.remote import RemoteKrepetSeat, move_from
from kemps_sim.krepet.result import KrepetResult
from kemps_sim.krepet.rules import KrepetRules
from kemps_sim.krepet.trace import KrepetEvent, Moved, Noticed
from kemps_sim.lineup import resolve_lineup
from kemps_sim.serve.practice import PRACTICE_SEED, SLOW
from kemps_sim.serve.remote import POLL
from kemps_sim.serve.screen import Screen
from kemps_sim.serve.table_base import PAUSE, LiveTableBase

#: The fields of a move that tell whether it was a miss: the opponent must see that for themselves.
MISS_FIELDS = ("missed", "callable", "overlooked")
#: A practice game ends after this many moves.
PRACTICE_MOVES = 60


def krepet_on_screen(event: KrepetEvent, seat: int) -> dict[str, Any] | None:
    """``event`` as a person playing ``seat`` is shown it (its fields), or None: every event but the model's
    percepts (``Noticed``), a move without whether it was a miss (its own moves' too: the rules say nothing)."""
    if type(event) is Noticed:
        return None
    fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
    if type(event) is Moved:
        fields.update(dict.fromkeys(MISS_FIELDS))
    return {key: list(value) if isinstance(value, tuple) else value for key, value in fields.items()}


class KrepetScreen(Screen):
    """A Krepet player's page: the board it sees, the game's events as it may know them, and the end."""

    def view(self, view: dict[str, Any]) -> None:
        """Show the board (:func:`~kemps_sim.krepet.remote.board_of`)."""
        self.round = 0
        own = view["piles"][self.seat]["hand"]
        self._put({"type": "view", **view}, what="view", detail="", round=0, sim_time=view.get("time", math.nan),
                  hand=" ".join(map(str, own)))

    def event(self, index: int, event: Any, emphasis: float = 0.0) -> None:
        """Show ``event`` as the player may know it."""
        shown = krepet_on_screen(event, self.seat)
        if shown is not None:
            self._put({"type": "event", "round": index, "event": type(event).__name__, **shown}, what="event",
                      detail=type(event).__name__, round=index, sim_time=event.time)

    def over(self, result: Any, error: BaseException | None) -> None:
        """The end of the game: why it ended and who won; then None."""
        self._put({"type": "over", "end_reason": None if result is None else result.reason,
                   "winners": [] if result is None or result.winner is None else [result.winner],
                   "error": None if error is None else str(error)}, what="over", detail="", round=-1,
                  sim_time=math.nan)
        self.outbox.put(None)


class KrepetTable(LiveTableBase):
    """One Krepet game: ``lineup`` names the agents of both players (an entry at a remote player's seat ignored),
    ``remote`` the players moved from outside (each a :class:`RemoteKrepetSeat`); everything else of a live table
    as :class:`~kemps_sim.serve.table_base.LiveTableBase` says. ``config`` caps the game
    (:class:`~kemps_sim.krepet.realtime.KrepetConfig`; a person's moves have no time limit)."""

    game = "krepet"
    page = "krepet.html"

    def __init__(self, rules: KrepetRules | str | Mapping[str, Any] | None, lineup: Sequence[str],
                 remote: Sequence[int], seed: int = 0, factor: float | None = 1.0, profiles: Any = None,
                 poll: float | None = None, data: str | Path | None = None, on_leave: str = PAUSE,
                 rate: float = 10.0, lockstep: bool = False, participants: Mapping[int, str] | None = None,
                 config: KrepetConfig | None = None) -> None:
        self.rules = rules if isinstance(rules, KrepetRules) else load_krepet_rules(rules or "wikibooks")
        super().__init__(2, lineup, remote, seed, factor, dataclasses.asdict(self.rules), data, on_leave, rate,
                         lockstep, participants)
        self.profiles = profiles
        self.seats = {seat: RemoteKrepetSeat(seat, POLL if poll is None else poll, screen.view,
                                             lambda problem, screen=screen: screen.notice("refused", problem),
                                             self._reported(seat), self._gate)
                      for seat, screen in self.screens.items()}
        for remote_seat in self.seats.values():
            remote_seat.now = lambda: math.nan if self._env is None else self._env.now
        self.lineup = [self._factory(seat) if seat in self.seats else lineup[seat] for seat in range(2)]
        self.live = Live(self._clock, self._heard, self._position)
        self.config = dataclasses.replace(config or KrepetConfig(), decide_timeout=None)

    def join(self, timeout: float | None = None) -> KrepetResult | None:
        """Wait for the end of the game (at most ``timeout`` wall seconds); the result, None if not over."""
        return super().join(timeout)

    def practice(self, seat: int) -> KrepetTable:
        """A short game (:data:`PRACTICE_MOVES` moves) at these rules against the same agent, slow
        (:data:`~kemps_sim.serve.practice.SLOW`); nothing is recorded."""
        return KrepetTable(self.rules, self.names, [seat], seed=self.seed + PRACTICE_SEED,
                           factor=1.0 if self.factor is None else self.factor, profiles=[SLOW, SLOW],
                           on_leave=self.on_leave, config=KrepetConfig(max_moves=PRACTICE_MOVES))

    def _screen(self, seat: int, box: queue.SimpleQueue) -> Screen:
        return KrepetScreen(seat, 2, box, 1.0 if self.factor is None else self.factor, self.writer, self.clock)

    def _parse(self, data: Any) -> Any:
        kind, request = move_from(data)
        return "krepet" if kind == "krepet" else request

    def _columns(self, action: Any) -> dict[str, Any]:
        if action == "krepet":
            return {"kind": "call", "call": "krepet", "accused": -1}
        if action is None:
            return {"kind": "", "accused": -1}
        text = f"{action[0]} -> {action[1]} ({action[2]})" if isinstance(action, tuple) else str(action)
        return {"kind": "move", "move": text, "accused": -1}

    def _match(self) -> KrepetResult:
        return play_krepet(self.rules, self.lineup, self.profiles, self.seed, config=self.config, live=self.live)

    def _stand_in(self, seat: int) -> None:
        factory = resolve_lineup(self.on_leave, 2, game="krepet")[0][1]
        self.seats[seat].stand_in(factory(), seat, 2, self._display)

    def _heard(self, index: int, event: KrepetEvent) -> None:
        if self.writer is not None:
            self.writer.event(event_row(self.seed, event))
        for screen in self.screens.values():
            screen.event(index, event)

    def _position(self, state: Any) -> None:
        now = math.nan if self._env is None else self._env.now
        for seat in self.seats.values():
            seat.look(state, now)


