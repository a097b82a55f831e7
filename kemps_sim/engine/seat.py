"""Everything the engine keeps per seat for a whole match: the agent, its human samplers and its memory."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kemps_sim.agent import Agent
from kemps_sim.gestures import FidgetStream, Repertoire
from kemps_sim.perception import Perceiver
from kemps_sim.profiles import PlayerProfile
from kemps_sim.timing import BlockSampler


@dataclass
class SeatKit:
    """One seat's agent and its block-drawn human timings, perceiver and fidget stream."""

    seat: int
    agent: Agent
    agent_name: str
    profile: PlayerProfile
    reaction: BlockSampler
    reach: BlockSampler
    speech: BlockSampler
    latency: BlockSampler
    gesture_time: BlockSampler
    perceiver: Perceiver
    fidgets: FidgetStream
    memory: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Bound methods of the hot samplers, looked up once (the engine draws one per decision and per reach).
        self.reaction_next = self.reaction.next
        self.reach_next = self.reach.next
        self.wakes_on = getattr(self.agent, "wakes_on", _always)

    @classmethod
    def build(cls, seat: int, agent: Agent, agent_name: str, profile: PlayerProfile, players: int,
              repertoire: Repertoire, silent: bool, seed: np.random.SeedSequence) -> SeatKit:
        """Spawn the seat's independent streams from its seed: timings, perception and fidgets never share."""
        timing, perception, fidget = (np.random.default_rng(s) for s in seed.spawn(3))
        spoken = tuple(g.name for g in repertoire if g.spoken) if silent else ()
        return cls(
            seat=seat, agent=agent, agent_name=agent_name, profile=profile,
            reaction=profile.sampler("reaction", timing), reach=profile.sampler("reach", timing),
            speech=profile.sampler("speech", timing), latency=profile.sampler("perception_latency", timing),
            gesture_time=profile.sampler("gesture_time", timing),
            perceiver=profile.perceiver(perception, n_opponents=players - 2),
            fidgets=profile.fidget_stream(fidget, repertoire, exclude=spoken),
        )


def _always(percept: object, obs: object) -> bool:
    """The default wake test: every percept matters."""
    return True
