"""A Kemps match with people at the table (:class:`LiveTable`): the engine's match on the wall's clock with the
people's seats played from their pages, each shown what a person there may see."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from kemps_sim.engine import EngineConfig, Live, simulate_match
from kemps_sim.lineup import resolve_lineup
from kemps_sim.presets import load_rules
from kemps_sim.records import event_row
from kemps_sim.results import MatchResult
from kemps_sim.rules import Rules
from kemps_sim.serve.messages import intent_columns, intent_from
from kemps_sim.serve.practice import PRACTICE_SEED, SLOW
from kemps_sim.serve.remote import POLL, RemoteSeat
from kemps_sim.serve.screen import emphasis_of
from kemps_sim.serve.table_base import DISPLAY_STREAM, DRAW_GRACE, PAUSE, LiveTableBase, TableStopped
from kemps_sim.trace import Gestured, TraceEvent

__all__ = ["DISPLAY_STREAM", "DRAW_GRACE", "PAUSE", "LiveTable", "TableStopped"]


class LiveTable(LiveTableBase):
    """One Kemps match: ``lineup`` names the agents of the other seats (one entry per seat, any entry at a remote
    seat ignored), ``remote`` the seats played from outside (each a :class:`RemoteSeat`), ``factor`` wall seconds
    per simulated second (None: the simulated clock); everything else of a live table as
    :class:`~kemps_sim.serve.table_base.LiveTableBase` says. ``packs`` stacks the first rounds' packs
    (:func:`kemps_sim.engine.simulate_match`), for a scripted session such as a test; ``max_rounds`` ends the match
    after that many rounds (a practice round); ``profiles`` are the seats' human profiles, as in a simulated match.
    """

    game = "kemps"
    page = "seat.html"

    def __init__(self, rules: Rules | str | Mapping[str, Any] | None, lineup: Sequence[str], remote: Sequence[int],
                 seed: int = 0, factor: float | None = 1.0, profiles: Any = None, poll: float | None = None,
                 data: str | Path | None = None, on_leave: str = PAUSE, rate: float = 10.0,
                 packs: Sequence[Sequence[int]] = (), lockstep: bool = False,
                 participants: Mapping[int, str] | None = None, max_rounds: int | None = None) -> None:
        self.rules = rules if isinstance(rules, Rules) else load_rules(rules)
        super().__init__(self.rules.players, lineup, remote, seed, factor, self.rules.as_dict(), data, on_leave,
                         rate, lockstep, participants)
        self.profiles, self.packs = profiles, tuple(packs)
        self.seats = {seat: RemoteSeat(POLL if poll is None else poll, screen.view,
                                       lambda problem, screen=screen: screen.notice("refused", problem),
                                       self._reported(seat), self._gate) for seat, screen in self.screens.items()}
        self.lineup = [self._factory(seat) if seat in self.seats else lineup[seat] for seat in range(self.players)]
        self.live = Live(self._clock, self._heard)
        # a seat that looks every poll seconds decides that often, and again when woken or refused: the cap on
        # decisions grows with twice the round's looks
        looks = 2 * math.ceil(EngineConfig().max_round_seconds / min(s.poll for s in self.seats.values()))
        # a paused table holds its people's seats for as long as it takes: no time limit on a decision
        self.config = replace(EngineConfig(), max_decisions_per_round=EngineConfig().max_decisions_per_round + looks,
                              decide_timeout=None, max_rounds=max_rounds or EngineConfig().max_rounds)

    def join(self, timeout: float | None = None) -> MatchResult | None:
        """Wait for the end of the match (at most ``timeout`` wall seconds); the result, None if not over, and an
        error the match ended with raised here."""
        return super().join(timeout)

    def practice(self, seat: int) -> LiveTable:
        """One round at this table's rules and agents, the person at ``seat`` and the others slow
        (:data:`~kemps_sim.serve.practice.SLOW`), on the wall's clock at this table's speed; nothing is recorded."""
        return LiveTable(self.rules, self.names, remote=[seat], seed=self.seed + PRACTICE_SEED,
                         factor=1.0 if self.factor is None else self.factor, profiles=[SLOW] * self.players,
                         on_leave=self.on_leave, max_rounds=1)

    def _parse(self, data: Any) -> Any:
        return intent_from(data, self.players)

    def _columns(self, action: Any) -> dict[str, Any]:
        return intent_columns(action)

    def _match(self) -> MatchResult:
        return simulate_match(self.rules, self.lineup, self.profiles, self.seed, config=self.config, live=self.live,
                              packs=self.packs)

    def _stand_in(self, seat: int) -> None:
        factory = resolve_lineup(self.on_leave, self.players)[0][1]
        self.seats[seat].stand_in(factory(), seat, self.players, self._display)

    def _heard(self, index: int, event: TraceEvent) -> None:
        if self.writer is not None:
            self.writer.event(event_row(self.seed, index, event))
        emphasis = emphasis_of(event, self._display) if type(event) is Gestured else 0.0
        for screen in self.screens.values():
            screen.event(index, event, emphasis)
