"""An agent assembled from parts a researcher can vary on their own (one module each):

- collecting (:mod:`agents.collecting`): what to collect, what to take and what to throw;
- feeding (:mod:`agents.feeder`): whether to put the partner's rank into the middle;
- signalling (:mod:`agents.signalling`, :mod:`agents.camouflage`, :mod:`agents.bluffer`): when and how to signal,
  fakes and camouflage included;
- attention (:mod:`agents.attention`): where to look, via ``gaze``;
- calling (:mod:`agents.calling`): the shared belief (:mod:`kemps_sim.belief`) that the partner, or an
  opponent, holds four of a kind, and calls chosen by their expected score under the rules' payoffs;
- signal choice (:mod:`agents.signal_choice`): which signal the pair uses next round.

The loop that asks them in turn, each decision, is :mod:`agents.deciding`.

Every built-in is a dataclass of flat keyword hyperparameters stored as given (the scikit-learn rule:
``BaseAgent.get_params`` reads ``__init__``'s signature, ``clone`` rebuilds). The parts are built afresh in
``start_match`` from those hyperparameters, so one agent object never carries state from one match to the next.
Parts see only the seat's observation and what the public log has shown (:mod:`kemps_sim.belief.tracking`).

A new combination is a subclass that adds its hyperparameters as fields and overrides the ``make_*`` hooks, e.g. a
feeder that camouflages its own four of a kind::

    @dataclass(repr=False, eq=False)
    class HiddenFeeder(Feeder):
        churn: float = 2.0
        name = "hidden_feeder"

        def make_signalling(self):
            return CamouflageSignalling(self.resignal, self.churn, 3.0, 1.0, 4.0, self.rng)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from kemps_sim_agents.attention import Looking, check_attention
from kemps_sim_agents.calling import WATCH_SPAN, Calling, CallingPart, check_caution, check_shy, check_threshold
from kemps_sim_agents.collecting import Collecting
from kemps_sim_agents.deciding import DecisionLoop
from kemps_sim_agents.habits import RoundMemory
from kemps_sim_agents.signal_choice import AUTO, DISCIPLINE, SignalChoice, check_signal_params
from kemps_sim_agents.signalling import Signalling

from kemps_sim.agent import BaseAgent
from kemps_sim.belief import TableReader
from kemps_sim.belief.decision import LEISURE, SHY
from kemps_sim.errors import ConfigError
from kemps_sim.fitted_human import FITTED
from kemps_sim.intents import Intent
from kemps_sim.observation import Observation
from kemps_sim.perception import Attention, Percept

#: A typical person weighs a loss about 2.25 times an equal gain when deciding at leisure (Tversky & Kahneman
#: 1992, the loss-aversion coefficient of cumulative prospect theory); a wrong call is a letter the caller gives away.
LOSS_AVERSION = LEISURE
#: The built-ins' weight of a wrong call's cost: fitted to the calibration targets (kemps_sim.fitted_human) between a
#: quarter and :data:`LOSS_AVERSION`, since a caller racing the other side to speak weighs the cost less than a
#: gambler at leisure (time pressure trades accuracy for speed: Heitz 2014, review).
CAUTION = FITTED["agent.caution"]


def check_positive(owner: str, name: str, value: float) -> None:
    """A number of seconds (or a weight) > 0, or a :class:`ConfigError` naming the parameter."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ConfigError(f"{owner}.{name} = {value!r}: must be a number > 0")


def check_bool(owner: str, name: str, value: bool) -> None:
    if not isinstance(value, bool):
        raise ConfigError(f"{owner}.{name} = {value!r}: must be true or false")


@dataclass(repr=False, eq=False)
class PartsAgent(BaseAgent):
    """The shared decision loop of the built-ins (not registered itself).

    Each decision, in order: pick up owed cards; make the call the calling part finds worth more than waiting
    (Kemps, Double Kemps, Stop Kemps); holding four of a kind, let the signalling part act; otherwise let it act
    first (a fake, a camouflage swap back), then feed the partner, then collect; object to someone else's
    "stalled" while the middle holds a card it wants; with nothing to do, pass (and say "stalled" after the
    profile's patience).
    """

    resignal: float = 3.0
    switch_after: int = 2
    signal: str = AUTO
    signal_policy: str = "convention"
    signal_discipline: float = DISCIPLINE
    attention: str = "profile"

    name = "parts"
    #: The rule sources the policy's heuristics come from (see ``kemps-sim rules --list``).
    sources: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        owner = self.name
        check_positive(owner, "resignal", self.resignal)
        if isinstance(self.switch_after, bool) or not isinstance(self.switch_after, int) or self.switch_after < 1:
            raise ConfigError(f"{owner}.switch_after = {self.switch_after!r}: must be a whole number of sweeps >= 1")
        check_signal_params(owner, self.signal, self.signal_policy, self.signal_discipline)
        check_attention(owner, self.attention)

    # Parts: subclasses override the ones they change ----------------------------------------------------------
    def make_calling(self) -> CallingPart | None:
        return None

    def make_signalling(self) -> Signalling:
        return Signalling(self.resignal)

    def make_feeding(self):  # -> Feeding | None
        return None

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        super().start_match(seat, players, rng)
        self.reader = TableReader(players, seat)
        self.memory = RoundMemory()
        self.collecting = Collecting(self.switch_after)
        self.calling = self.make_calling()
        self.signalling = self.make_signalling()
        self.feeding = self.make_feeding()
        self.looking = Looking(self.attention)
        self.choice = SignalChoice(self.signal, self.signal_policy, self.signal_discipline)
        self.loop = DecisionLoop(self.reader, self.memory, self.collecting, self.calling, self.signalling,
                                 self.feeding, self.rng)

    # The decision loop (agents/deciding.py) -------------------------------------------------------------------
    def decide(self, obs: Observation) -> Intent:
        """The next intent, from the parts in the order the class's docstring gives (:class:`DecisionLoop`)."""
        return self.loop.decide(obs)

    # Waking, watching, looking, choosing ---------------------------------------------------------------------
    def wakes_on(self, percept: Percept, obs: Observation) -> bool:
        """The partner making the pair's signal wakes the seat; opponents' gestures only if the calling part
        reads them."""
        if self.calling is not None:
            return self.calling.wakes_on(percept, obs)
        return percept.gesturer == obs.partner and percept.gesture == obs.signal

    def wakes_on_middle(self, obs: Observation, arrived: Sequence[int]) -> bool:
        """Wake only for arrived cards a part could act on (never while holding four, unless camouflaging)."""
        return self.loop.wakes_on_middle(obs, arrived)

    def wakes_on_stall(self, obs: Observation) -> bool:
        """Hearing "stalled" matters only to a seat that might act on it (:meth:`DecisionLoop.wakes_on_stall`)."""
        return self.loop.wakes_on_stall(obs)

    def watches(self, obs: Observation) -> frozenset[str] | None:
        """The gestures the calling part reads (the pair's own signal at least)."""
        if self.calling is not None:
            return self.calling.watches(obs)
        return frozenset((obs.signal,))

    @property
    def gaze(self) -> Callable[[Observation], Attention | None] | None:
        """The attention policy's ``gaze(obs)``; None under ``attention="profile"``, so the engine, which looks the
        method up once per match, never asks (the profile's attention stays, at no cost per decision)."""
        return None if self.attention == "profile" else self._gaze

    def _gaze(self, obs: Observation) -> Attention | None:
        return self.looking.gaze(obs, self.reader)

    def choose_signal(self, obs: Observation) -> str:
        return self.choice.choose(obs, self.rng)


@dataclass(repr=False, eq=False)
class ReasoningAgent(PartsAgent):
    """A parts agent that calls from the shared belief: ``caution`` (the weight of a wrong call's cost against a
    right call's gain; 1 is risk-neutral, the default :data:`CAUTION` is fitted to a table of people), ``threshold``
    (None: from the payoffs and the hazard; a probability fixes it), ``stop`` (whether it calls Stop Kemps:
    defends), ``knows_fakes`` (the pair keeps a fake protocol), ``watch_span`` (how many of the other pairs'
    gestures it keeps an eye on, :mod:`agents.calling`), ``hunches`` (whether it may call without having seen
    anything: off, as 004 advises) and ``reads_tells`` (whether it keeps each pair's honesty apart for gestures made
    right after the gesturer's own swap and later ones, so that a fake's timing gives it away:
    :mod:`kemps_sim.belief.tells`) and ``shy`` (the share of the gap between ``caution`` and :data:`LOSS_AVERSION`
    that each wrong Stop Kemps of its pair on a pair closes for its Stop Kemps on that pair's gestures of the same
    timing: once bitten, twice shy, :mod:`kemps_sim.belief.decision`)."""

    caution: float = CAUTION
    threshold: float | None = None
    stop: bool = True
    knows_fakes: bool = False
    watch_span: int = WATCH_SPAN
    hunches: bool = False
    reads_tells: bool = True
    shy: float = SHY

    def __post_init__(self) -> None:
        super().__post_init__()
        check_caution(self.name, self.caution)
        check_shy(self.name, self.shy)
        check_threshold(self.name, self.threshold)
        check_bool(self.name, "stop", self.stop)
        check_bool(self.name, "knows_fakes", self.knows_fakes)
        check_bool(self.name, "hunches", self.hunches)
        check_bool(self.name, "reads_tells", self.reads_tells)
        if isinstance(self.watch_span, bool) or not isinstance(self.watch_span, int) or self.watch_span < 0:
            raise ConfigError(f"{self.name}.watch_span = {self.watch_span!r}: must be a whole number of gestures >= 0")

    def make_calling(self) -> Calling:
        return Calling(self.seat, self.players, self.reader, self.rng.spawn(1)[0], self.caution, self.threshold,
                       self.stop, self.knows_fakes, self.watch_span, self.hunches, self.reads_tells, self.shy)
