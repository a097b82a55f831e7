"""Everything the engine keeps per seat for a whole match: the agent, its human samplers and its memory."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kemps_sim.agent import Agent
from kemps_sim.gestures import FidgetStream, Repertoire
from kemps_sim.observation import Observation
from kemps_sim.perception import Perceiver, Percept
from kemps_sim.profiles import DISTRIBUTION_FIELDS, PlayerProfile
from kemps_sim.streams import GeneratorOrMaker, Streams, built
from kemps_sim.timing import BlockSampler

#: The key of each of a seat's random streams under the seat's seed: fixed, so that a stream added later (or a
#: quantity a study changes) never moves another's numbers.
STREAM_KEYS: dict[str, int] = {"reaction": 0, "reach": 1, "speech": 2, "perception_latency": 3, "gesture_time": 4,
                               "perception": 5, "fidgets": 6, "card_read": 7, "patience": 8,
                               "unwatched_fidgets": 9, "slips": 10, "look_patience": 11}


@dataclass
class SeatKit:
    """One seat's agent and its block-drawn human timings, perceiver and fidget streams.

    Every timing quantity, the perceiver and the fidgets draw from their own generator, so that changing one
    (say, the reach time) leaves the others' random numbers as they were: paired comparisons stay paired.
    """

    seat: int
    agent: Agent
    agent_name: str
    profile: PlayerProfile
    samplers: dict[str, BlockSampler]
    perceiver: Perceiver
    repertoire: Repertoire
    silent: bool
    fidget_rng: np.random.Generator
    slip_rng: GeneratorOrMaker | None = None  # whether a fidget of the pair's own signal looks meant
    memory: dict[str, Any] = field(default_factory=dict)
    streams: Streams | None = None  # the seat's streams, for a stream built only when asked for
    _fidget_streams: dict[tuple[str, ...], FidgetStream] = field(default_factory=dict)
    _look_patience: BlockSampler | None = None

    def __post_init__(self) -> None:
        # Bound methods looked up once: the engine draws one per decision, reach, call and percept.
        self.reaction_next = self.samplers["reaction"].next
        self.reach_next = self.samplers["reach"].next
        self.speech = self.samplers["speech"].next
        self.latency = self.samplers["perception_latency"].next
        self.gesture_time = self.samplers["gesture_time"].next
        self.card_read = self.samplers["card_read"].next
        self.patience = self.samplers["patience"].next
        #: A person at the table: their own times are real, so the engine adds none of its own (the click is the
        #: reach, the key press the word spoken), and an action the rules refuse is refused, not an error.
        self.measured = bool(getattr(self.agent, "measured_times", False))
        if self.measured:
            self.reaction_next = self.reach_next = self.speech = self.gesture_time = self.card_read = _no_time
        self.wakes_on: Callable[[Percept, Observation], bool] = getattr(self.agent, "wakes_on", always)
        self.wakes_on_middle: Callable[[Observation, Sequence[int]], bool] = getattr(
            self.agent, "wakes_on_middle", always)
        self.wakes_on_stall: Callable[[Observation], bool] = getattr(self.agent, "wakes_on_stall", always)
        self._watches = getattr(self.agent, "watches", None)
        self.gaze = getattr(self.agent, "gaze", None)

    @classmethod
    def build(cls, seat: int, agent: Agent, agent_name: str, profile: PlayerProfile, players: int,
              repertoire: Repertoire, silent: bool, seed: np.random.SeedSequence | Streams) -> SeatKit:
        """The seat's independent streams under its seed, one per quantity (:mod:`kemps_sim.streams`);
        the timings' and the slips' are built at their first draw, since some are never drawn from (a fixed
        gesture time, the patience kept by the engine, a pair that never fidgets its own signal)."""
        streams = seed if isinstance(seed, Streams) else Streams.under(seed)
        samplers = {name: profile.sampler(name, streams.later(STREAM_KEYS[name])) for name in DISTRIBUTION_FIELDS}
        return cls(seat=seat, agent=agent, agent_name=agent_name, profile=profile, samplers=samplers,
                   perceiver=profile.perceiver(streams.generator(STREAM_KEYS["perception"]), n_opponents=players - 2),
                   repertoire=repertoire, silent=silent, fidget_rng=streams.generator(STREAM_KEYS["fidgets"]),
                   slip_rng=streams.later(STREAM_KEYS["slips"]), streams=streams)

    def look_patience(self) -> float:
        """A draw of the seat's patience with a middle it looks at (``PlayerProfile.patience``), from a stream
        of its own built at the first draw: an engine that keeps no patience (``EngineConfig.all_looks``) draws
        none, and every other stream stays as it was."""
        sampler = self._look_patience
        if sampler is None:
            assert self.streams is not None
            rng = self.streams.generator(STREAM_KEYS["look_patience"])
            sampler = self._look_patience = self.profile.sampler("patience", rng)
        return sampler.next()

    def slip_chance(self, signal: str) -> float:
        """The chance that an idle gesture of ``signal`` (the pair's own) looks meant: the profile's
        ``slips_per_hour`` over the seat's idle rate of that gesture, at most 1."""
        rate = self.repertoire[signal].rate_for(self.profile.fidget_scale) * 3600.0
        return min(self.profile.slips_per_hour / rate, 1.0) if rate > 0 else 0.0

    def slips(self, chance: float) -> bool:
        """Whether an idle gesture of the pair's own signal, made now, looks meant (with ``chance``)."""
        if chance <= 0.0 or self.slip_rng is None:
            return False
        rng = self.slip_rng = built(self.slip_rng)
        return float(rng.random()) < chance

    def read(self, cards: int) -> float:
        """Seconds to take in ``cards`` cards that just landed in the middle, one after another."""
        total = 0.0
        for _ in range(cards):
            total += self.card_read()
        return total

    def watches(self, obs: Observation) -> frozenset[str] | None:
        """The gesture names the agent watches this round (None: all)."""
        if self._watches is None:
            return None
        chosen = self._watches(obs)
        return None if chosen is None else frozenset(chosen)

    def unwatched_fidgets(self, types: tuple[str, ...]) -> FidgetStream:
        """The seat's fidgets of ``types`` only (gesture types nobody watches), from a generator of their own, so
        that simulating them leaves every other stream as it was (``EngineConfig.all_fidgets``)."""
        assert self.streams is not None
        rng = self.streams.generator(STREAM_KEYS["unwatched_fidgets"])
        others = tuple(name for name in self.repertoire.names if name not in types)
        return self.profile.fidget_stream(rng, self.repertoire, others)

    def fidgets_without(self, exclude: tuple[str, ...]) -> FidgetStream:
        """The seat's fidget stream without some gesture types (spoken ones too at a table where nobody talks).

        One stream per exclusion set, kept for the match, all drawing from the seat's fidget generator.
        """
        if self.silent:
            exclude = tuple(sorted(set(exclude) | {g.name for g in self.repertoire if g.spoken}))
        stream = self._fidget_streams.get(exclude)
        if stream is None:
            stream = self.profile.fidget_stream(self.fidget_rng, self.repertoire, exclude)
            self._fidget_streams[exclude] = stream
        return stream


def always(*_: object) -> bool:
    """The default wake test: every change matters."""
    return True



def _no_time() -> float:
    """No time at all: what the engine adds to a measured seat's actions."""
    return 0.0
