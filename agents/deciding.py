"""The decision loop the built-ins share, over their parts: what a seat does each time it looks, and whether a
change of the middle or a "stalled" concerns it.

:class:`~kemps_sim_agents.composed.PartsAgent` builds its parts afresh each match and hands them to a
:class:`DecisionLoop`; a subclass changes the parts (its ``make_*`` hooks), not the loop. The loop is a module of
its own so that the optional compiled build (``KEMPS_SIM_COMPILE=1``) compiles it with the parts it calls, while
the agents' classes, which users subclass, stay Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from kemps_sim_agents.calling import CallingPart
from kemps_sim_agents.collecting import Collecting, best_picks, rank_counts
from kemps_sim_agents.habits import RoundMemory
from kemps_sim_agents.signalling import Signalling

from kemps_sim.belief.tracking import TableReader
from kemps_sim.intents import Intent, Swap
from kemps_sim.observation import Observation


class FeedingPart(Protocol):
    """What the loop asks of a feeding part (:class:`agents.feeder.Feeding`)."""

    def hurry_now(self, obs: Observation, reader: TableReader) -> float | None: ...

    def partner_rank(self, obs: Observation, reader: TableReader) -> int: ...

    def feed(self, obs: Observation, reader: TableReader, counts: dict[int, int],
             collecting: Collecting) -> Intent | None: ...


class DecisionLoop:
    """One seat's decisions for one match, from its parts (see :class:`~kemps_sim_agents.composed.PartsAgent`
    for the order in which they are asked)."""

    def __init__(self, reader: TableReader, memory: RoundMemory, collecting: Collecting, calling: CallingPart | None,
                 signalling: Signalling, feeding: FeedingPart | None, rng: np.random.Generator) -> None:
        self.reader = reader
        self.memory = memory
        self.collecting = collecting
        self.calling = calling
        self.signalling = signalling
        self.feeding = feeding
        self.rng = rng
        self._counts_for: tuple[int, ...] | None = None
        self._counts: dict[int, int] = {}

    def decide(self, obs: Observation) -> Intent:
        reader = self.reader
        reader.refresh(obs)
        memory = self.memory
        feeding = self.feeding
        memory.refresh(obs, self.rng, None if feeding is None else feeding.hurry_now(obs, reader))
        hand = obs.hand
        counts = self.rank_counts(hand)
        if obs.owed:
            return Swap((), best_picks(obs.middle, counts, obs.owed))
        four = len(counts) == 1 and len(hand) == 4
        if self.calling is not None:
            call = self.calling.call(obs, reader, four)
            if call is not None:
                return call
        signalling = self.signalling
        if four:
            return signalling.holding(obs, reader)
        if signalling.acts_before_collecting:
            early = signalling.before_collecting(obs, reader, counts)
            if early is not None:
                return early
        collecting = self.collecting
        first = -1
        intent: Intent | None = None
        if feeding is not None:
            first = collecting.avoid = feeding.partner_rank(obs, reader)
            collecting.ensure(obs, reader, counts)
            intent = feeding.feed(obs, reader, counts, collecting)
        if intent is None:
            intent = collecting.plan(obs, reader, counts, first)
        return memory.objection(obs, intent is not None) or intent or memory.idle(obs)

    def rank_counts(self, hand: tuple[int, ...]) -> dict[int, int]:
        """How many cards of each rank the hand holds, worked out once per hand (the seat decides many times on
        the same cards)."""
        if hand != self._counts_for:
            self._counts_for, self._counts = hand, rank_counts(hand)
        return self._counts

    def wakes_on_middle(self, obs: Observation, arrived: Sequence[int]) -> bool:
        """Wake only for arrived cards a part could act on (never while holding four, unless camouflaging)."""
        if obs.owed or self.signalling.busy:
            return True
        hand = obs.hand
        counts = self.rank_counts(hand)
        if len(counts) == 1 and len(hand) == 4:
            return self.signalling.wakes_when_holding
        collecting, feeding = self.collecting, self.feeding
        if feeding is not None or obs.sweep_due:
            # Fresh cards after a sweep may switch the target; a partner's swap may show its rank: read the log.
            # A card thrown by a player changes neither, so the current target answers (the common case).
            reader = self.reader
            reader.refresh(obs)
            if feeding is not None:
                collecting.avoid = feeding.partner_rank(obs, reader)
                if collecting.avoid in counts:
                    return True  # a card to feed the partner: any change of the middle is a chance
            collecting.ensure(obs, reader, counts)
        return collecting.wants(obs, counts, arrived)

    def wakes_on_stall(self, obs: Observation) -> bool:
        """Hearing "stalled" matters only to a seat that might act on it: cards owed, four of a kind held, a
        signalling or feeding part at work, or a middle card it would take (and so object to the sweep for). Any
        other seat would wait for the fresh middle, so it sleeps on. (A stall is no news about anyone's hand: the
        calling part is not asked.)"""
        signalling = self.signalling
        if obs.owed or signalling.busy or signalling.acts_before_collecting or self.feeding is not None:
            return True
        hand = obs.hand
        counts = self.rank_counts(hand)
        if len(counts) == 1 and len(hand) == 4:
            return True
        reader = self.reader
        reader.refresh(obs)
        return self.collecting.plan(obs, reader, counts) is not None
