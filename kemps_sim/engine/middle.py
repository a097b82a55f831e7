"""Fresh middles: when the four middle cards are swept and four new ones laid, under each ``fresh_middle`` knob,
and what an empty pack does (``pack_exhausted``).

- ``nobody_wants``: swept once every player has waited on the same middle and the sweeper, after looking for its
  patience, still sees nobody reaching.
- ``stall_call``: a player says "stalled"; unless someone objects within the window, the middle is swept. Play
  goes on during the window and during the sweep.
- ``all_agree``: swept once every player has said "stalled" on the same middle.
- ``dealer_decides``: swept when the dealer says "stalled".

The sweeper (the dealer, or under ``sweeper = any_player`` whoever acts first: the shortest patience, or the
quickest reaction to a stall) notices (a reaction time), gathers the cards (``sweep_time``) and lays four fresh
ones one at a time (``deal_time`` in all). Under ``refill_opens = each_card`` the others may take each card as it
lands; under ``when_complete`` only once the fourth is face up (a reach that lands earlier is lost). Under
``dealer_busy`` the sweeper's hands are taken meanwhile: a swap it wants waits until the last card is down
(speaking and gesturing do not). Once a sweep is due nobody may put cards down under ``multi_drop_first``; the
sweeper waits for owed picks to land.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any

import numpy as np
import simpy

from kemps_sim.cards import MIDDLE_SIZE
from kemps_sim.engine.config import EngineConfig
from kemps_sim.engine.players import Players
from kemps_sim.scoring import Outcome
from kemps_sim.state import RoundState
from kemps_sim.table import Refill
from kemps_sim.trace import Objected, Refilled, StallSaid, Swept, TraceEvent


class FreshMiddle:
    """Decides when the middle is swept and does the sweeping and dealing in simulated time."""

    def __init__(self, env: simpy.Environment, state: RoundState, record: Callable[[TraceEvent], None],
                 players: Players, config: EngineConfig, deal_rng: np.random.Generator,
                 end: Callable[[Outcome], None]) -> None:
        self.env, self.state, self.record, self.players = env, state, record, players
        self.config, self.deal_rng, self.end = config, deal_rng, end
        self.rules = state.rules
        self.sweeper = state.public.dealer  # who sweeps and deals the fresh cards (sweeper = any_player: whoever acts)
        self.hands_free: simpy.Event | None = None  # while the sweeper deals (dealer_busy): its hands are busy
        self.picks_done: simpy.Event | None = None
        self.stall_token = 0
        self.stall_said_at = 0.0
        self.votes = [-1] * state.rules.players
        self.settling = -1  # the middle version the sweeper is looking at before sweeping (nobody_wants)

    # The middle changed -------------------------------------------------------------------------------------
    def changed(self, arrived: Sequence[int], wake: bool = True) -> None:
        """The middle changed (``arrived`` are the cards that came into it): bump its version, show the table's
        counts, check conservation when strict, and let the seats react (:meth:`Players.middle_changed`); if some
        still pass on it, a sweep may be due."""
        public, table = self.state.public, self.state.table
        public.middle_version += 1
        public.pack_size = len(table.pack)  # the two counts of the table the public side keeps
        public.refilling = table.refilling
        if self.config.strict:
            table.check()
        if self.players.middle_changed(arrived, public.middle_version, wake):
            self.player_passed()

    def open_to_take(self) -> bool:
        """Whether middle cards may be taken now (``refill_opens = when_complete``: not while fresh ones land)."""
        return not (self.state.table.refilling and self.rules.refill_opens == "when_complete")

    # Triggers -------------------------------------------------------------------------------------------------
    def player_passed(self) -> None:
        """Under ``nobody_wants``: once every seat waits on the current middle, the sweeper looks for its patience
        (its profile's ``patience``) and sweeps if the middle is still the same and still nobody wants it."""
        if self.rules.fresh_middle != "nobody_wants" or self.state.public.sweep_due:
            return
        version = self.state.public.middle_version
        if self.settling != version and self._nobody_wants(version):
            self.settling = version
            self.sweeper, patience = self._first_to_act(lambda kit: kit.patience())
            timer = self.env.timeout(patience)
            timer.callbacks.append(lambda _: self._settled(version))

    def _first_to_act(self, draw: Callable[[Any], float]) -> tuple[int, float]:
        """Who sweeps and after how long: the dealer, or (``sweeper = any_player``) the seat whose ``draw`` is
        shortest (every seat draws, in seat order)."""
        kits = self.players.kits
        if self.rules.sweeper == "dealer":
            return self.state.public.dealer, draw(kits[self.state.public.dealer])
        times = [draw(kit) for kit in kits]
        seat = min(range(len(times)), key=times.__getitem__)
        return seat, times[seat]

    def _nobody_wants(self, version: int) -> bool:
        return all(p == version for p in self.players.passed) and not any(self.state.table.owed)

    def _settled(self, version: int) -> None:
        state = self.state
        self.settling = -1
        if not state.over and not state.public.sweep_due and state.public.middle_version == version and \
                self._nobody_wants(version):
            self._due("nobody_wants", noticed=True)

    def stall_said(self, seat: int) -> None:
        """A seat said "stalled" (or voted for a fresh middle)."""
        state = self.state
        now = self.env.now
        self.record(StallSaid(now, seat))
        mode = self.rules.fresh_middle
        if state.public.sweep_due:
            return
        if mode == "stall_call":
            if state.public.stall_pending_until is None:
                self.stall_token += 1
                self.stall_said_at = now
                token = self.stall_token
                state.public.stall_pending_until = now + self.config.objection_window
                timer = self.env.timeout(self.config.objection_window)
                timer.callbacks.append(lambda _: self._window_closed(token))
                if self.config.all_looks:
                    self.players.wake_all()
                else:
                    self.players.stall_heard()
        elif mode == "all_agree":
            self.votes[seat] = state.public.middle_version
            state.public.stall_votes = sum(v == state.public.middle_version for v in self.votes)
            if state.public.stall_votes == self.rules.players:
                self._due("all_agree")
            else:
                self.players.wake_all()
        elif mode == "dealer_decides" and seat == state.public.dealer:
            self._due("dealer_decides")

    def objection(self, seat: int, decided_at: float) -> None:
        """A seat objected: the stall it had seen pending (said at or before it decided) is withdrawn."""
        state = self.state
        self.record(Objected(self.env.now, seat))
        if state.public.stall_pending_until is not None and self.stall_said_at <= decided_at:
            state.public.stall_pending_until = None
            self.stall_token += 1
            self.players.wake_all()

    def picked(self) -> None:
        """A seat finished a drop-first swap; a sweep waiting for it may go ahead."""
        if self.picks_done is not None and not any(self.state.table.owed):
            self.picks_done.succeed()
            self.picks_done = None

    def _window_closed(self, token: int) -> None:
        state = self.state
        if state.over or token != self.stall_token:
            return
        state.public.stall_pending_until = None
        self._due("stall_call")

    # The sweeper's work ---------------------------------------------------------------------------------------
    def _due(self, reason: str, noticed: bool = False) -> None:
        state = self.state
        if self.rules.pack_exhausted == "void_round" and state.table.pack_exhausted:
            self.end(Outcome.VOID_PACK_EXHAUSTED)
            return
        state.public.sweep_due = True
        self.env.process(self._sweep_and_deal(reason, noticed))

    def _sweep_and_deal(self, reason: str, noticed: bool) -> Generator[simpy.Event, Any, None]:
        env, state, config = self.env, self.state, self.config
        table = state.table
        if noticed:  # the sweeper was chosen while looking at the middle; now it notices nobody wants it
            yield env.timeout(self.players.kits[self.sweeper].reaction_next())
        else:
            self.sweeper, reaction = self._first_to_act(lambda kit: kit.reaction_next())  # someone notices
            yield env.timeout(reaction)
        if self.rules.dealer_busy:
            self.hands_free = env.event()
        yield env.timeout(config.sweep_time)
        while any(table.owed) and not state.over:  # no new put-downs land now, so this ends
            self.picks_done = env.event()
            yield self.picks_done
        if state.over:
            return
        swept = tuple(table.middle)
        table.sweep()
        state.public.stall_votes = 0
        self.record(Swept(env.now, self.sweeper, swept, reason))
        self.changed((), wake=False)
        each_card = self.rules.refill_opens == "each_card"
        reshuffled = False
        laid: list[int] = []
        for _ in range(MIDDLE_SIZE):
            yield env.timeout(config.deal_time / MIDDLE_SIZE)
            if state.over:
                return
            result = table.deal_one(self.deal_rng)
            if result is Refill.EXHAUSTED:
                self.end(Outcome.VOID_PACK_EXHAUSTED)
                return
            reshuffled = reshuffled or result is Refill.RESHUFFLED
            laid.append(table.middle[-1])
            self.changed(laid[-1:], wake=each_card)
        state.public.sweep_due = False
        if self.hands_free is not None:
            self.hands_free.succeed()
            self.hands_free = None
        self.record(Refilled(env.now, self.sweeper, tuple(laid), reshuffled))
        if not each_card:
            self.players.fresh_middle(laid, read=MIDDLE_SIZE)  # the fresh middle opens: everyone takes it in
        elif self.rules.fresh_middle == "nobody_wants":
            self.player_passed()  # seats that let every fresh card pass are still passing
        else:
            self.players.fresh_middle(laid)  # a fresh middle restarts everyone's patience before saying "stalled"
