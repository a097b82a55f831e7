"""Fresh middles: when the dealer sweeps the four middle cards and deals four new ones, under each
``fresh_middle`` knob, and what an empty pack does (``pack_exhausted``).

- ``nobody_wants``: swept once every player has waited on the same middle and the dealer, after looking for its
  patience, still sees nobody reaching.
- ``stall_call``: a player says "stalled"; unless someone objects within the window, the dealer sweeps. Play
  goes on during the window and during the sweep.
- ``all_agree``: swept once every player has said "stalled" on the same middle.
- ``dealer_decides``: swept when the dealer says so.

The dealer notices (a reaction time), gathers the cards (``sweep_time``) and lays four fresh ones one at a time
(``deal_time`` in all); the others may take each card as it lands. Under ``dealer_busy`` the dealer's hands are
taken meanwhile: a swap the dealer wants waits until the last card is down (speaking and gesturing do not). Once
a sweep is due nobody may put cards down under ``multi_drop_first``; the dealer waits for owed picks to land.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import simpy

from kemps_sim.cards import MIDDLE_SIZE
from kemps_sim.scoring import Outcome
from kemps_sim.table import Refill
from kemps_sim.trace import Objected, Refilled, StallSaid, Swept

if TYPE_CHECKING:
    from kemps_sim.engine.round import RoundSim


class FreshMiddle:
    """Decides when the middle is swept and does the sweeping and dealing in simulated time."""

    def __init__(self, sim: RoundSim) -> None:
        self.sim = sim
        self.rules = sim.rules
        self.sweep_due = False
        self.dealer_hands_busy = False
        self.hands_free: simpy.Event | None = None
        self.picks_done: simpy.Event | None = None
        self.stall_token = 0
        self.stall_said_at = 0.0
        self.votes = [-1] * sim.rules.players
        self.settling = -1  # the middle version the dealer is looking at before sweeping (nobody_wants)

    # Triggers -------------------------------------------------------------------------------------------------
    def player_passed(self) -> None:
        """Under ``nobody_wants``: once every seat waits on the current middle, the dealer looks for its patience
        (its profile's ``patience``) and sweeps if the middle is still the same and still nobody wants it."""
        sim = self.sim
        if self.rules.fresh_middle != "nobody_wants" or self.sweep_due:
            return
        version = sim.public.middle_version
        if self.settling != version and self._nobody_wants(version):
            self.settling = version
            timer = sim.env.timeout(sim.kits[sim.dealer].patience())
            timer.callbacks.append(lambda _: self._settled(version))

    def _nobody_wants(self, version: int) -> bool:
        sim = self.sim
        return all(p == version for p in sim.passed) and not any(sim.table.owed)

    def _settled(self, version: int) -> None:
        sim = self.sim
        self.settling = -1
        if not sim.over and not self.sweep_due and sim.public.middle_version == version and \
                self._nobody_wants(version):
            self._due("nobody_wants")

    def stall_said(self, seat: int) -> None:
        """A seat said "stalled" (or voted for a fresh middle)."""
        sim = self.sim
        now = sim.env.now
        sim.record_public(StallSaid(now, seat))
        mode = self.rules.fresh_middle
        if self.sweep_due:
            return
        if mode == "stall_call":
            if sim.public.stall_pending_until is None:
                self.stall_token += 1
                self.stall_said_at = now
                token = self.stall_token
                sim.public.stall_pending_until = now + sim.config.objection_window
                timer = sim.env.timeout(sim.config.objection_window)
                timer.callbacks.append(lambda _: self._window_closed(token))
                sim.wake_all()
        elif mode == "all_agree":
            self.votes[seat] = sim.public.middle_version
            sim.public.stall_votes = sum(v == sim.public.middle_version for v in self.votes)
            if sim.public.stall_votes == self.rules.players:
                self._due("all_agree")
            else:
                sim.wake_all()
        elif mode == "dealer_decides" and seat == sim.dealer:
            self._due("dealer_decides")

    def objection(self, seat: int, decided_at: float) -> None:
        """A seat objected: the stall it had seen pending (said at or before it decided) is withdrawn."""
        sim = self.sim
        sim.record_public(Objected(sim.env.now, seat))
        if sim.public.stall_pending_until is not None and self.stall_said_at <= decided_at:
            sim.public.stall_pending_until = None
            self.stall_token += 1
            sim.wake_all()

    def picked(self) -> None:
        """A seat finished a drop-first swap; a sweep waiting for it may go ahead."""
        if self.picks_done is not None and not any(self.sim.table.owed):
            self.picks_done.succeed()
            self.picks_done = None

    def _window_closed(self, token: int) -> None:
        sim = self.sim
        if sim.over or token != self.stall_token:
            return
        sim.public.stall_pending_until = None
        self._due("stall_call")

    # The dealer's work ----------------------------------------------------------------------------------------
    def _due(self, reason: str) -> None:
        sim = self.sim
        if self.rules.pack_exhausted == "void_round" and sim.table.pack_exhausted:
            sim.end(Outcome.VOID_PACK_EXHAUSTED)
            return
        self.sweep_due = sim.public.sweep_due = True
        sim.env.process(self._sweep_and_deal(reason))

    def _sweep_and_deal(self, reason: str) -> Generator[simpy.Event, Any, None]:
        sim = self.sim
        env, table, public, config = sim.env, sim.table, sim.public, sim.config
        yield env.timeout(sim.kits[sim.dealer].reaction_next())  # the dealer notices
        if self.rules.dealer_busy:
            self.dealer_hands_busy = True
            self.hands_free = env.event()
        yield env.timeout(config.sweep_time)
        while any(table.owed) and not sim.over:  # no new put-downs land now, so this ends
            self.picks_done = env.event()
            yield self.picks_done
        if sim.over:
            return
        swept = tuple(table.middle)
        table.sweep()
        public.refilling = True
        public.stall_votes = 0
        sim.record_public(Swept(env.now, sim.dealer, swept, reason))
        sim.middle_changed((), wake=False)
        reshuffled = False
        laid: list[int] = []
        for _ in range(MIDDLE_SIZE):
            yield env.timeout(config.deal_time / MIDDLE_SIZE)
            if sim.over:
                return
            result = table.deal_one(sim.deal_rng)
            if result is Refill.EXHAUSTED:
                sim.end(Outcome.VOID_PACK_EXHAUSTED)
                return
            reshuffled = reshuffled or result is Refill.RESHUFFLED
            laid.append(table.middle[-1])
            public.refilling = table.refilling
            sim.middle_changed(laid[-1:])
        self.sweep_due = public.sweep_due = False
        if self.hands_free is not None:
            self.dealer_hands_busy = False
            self.hands_free.succeed()
            self.hands_free = None
        sim.record_public(Refilled(env.now, sim.dealer, tuple(laid), reshuffled))
        if self.rules.fresh_middle == "nobody_wants":
            self.player_passed()  # seats that let every fresh card pass are still passing
        else:
            sim.wake_all()  # a fresh middle restarts everyone's patience before saying "stalled"
