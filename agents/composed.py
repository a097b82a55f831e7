"""An agent assembled from parts a researcher can vary on their own (one module each):

- collecting (:mod:`agents.collecting`): what to collect, what to take and what to throw;
- feeding (:mod:`agents.feeder`): whether to put the partner's rank into the middle;
- signalling (:mod:`agents.signalling`, :mod:`agents.camouflage`, :mod:`agents.bluffer`): when and how to signal,
  fakes and camouflage included;
- attention (:mod:`agents.attention`): where to look, via ``gaze``;
- calling (:mod:`agents.calling`, :mod:`agents.watcher`): a threshold on the belief that the partner, or an
  opponent, holds four of a kind;
- signal choice (:mod:`agents.signal_choice`): which signal the pair uses next round.

Every built-in is a dataclass of flat keyword hyperparameters stored as given (the scikit-learn rule:
``BaseAgent.get_params`` reads ``__init__``'s signature, ``clone`` rebuilds). The parts are built afresh in
``start_match`` from those hyperparameters, so one agent object never carries state from one match to the next.
Parts see only the seat's observation and what the public log has shown (:mod:`agents.tracking`).

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

import numpy as np

from agents.attention import Looking, check_attention
from agents.calling import PartnerBelief, check_probability
from agents.collecting import Collecting, best_picks, rank_counts
from agents.habits import RoundMemory
from agents.signal_choice import SignalChoice, check_signal_params
from agents.signalling import Signalling
from agents.tracking import TableReader
from kemps_sim.agent import BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.intents import Intent, Swap
from kemps_sim.observation import Observation
from kemps_sim.perception import Attention, Percept


def check_positive(owner: str, name: str, value: float) -> None:
    """A number of seconds (or a weight) > 0, or a :class:`ConfigError` naming the parameter."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ConfigError(f"{owner}.{name} = {value!r}: must be a number > 0")


def check_non_negative(owner: str, name: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise ConfigError(f"{owner}.{name} = {value!r}: must be a number >= 0")


def check_belief(owner: str, threshold: float, prior: float, stillness: float) -> None:
    """The Kemps belief's hyperparameters: two probabilities and a non-negative weight."""
    check_probability(owner, "threshold", threshold)
    check_probability(owner, "prior", prior)
    check_non_negative(owner, "stillness", stillness)


@dataclass(repr=False, eq=False)
class PartsAgent(BaseAgent):
    """The shared decision loop of the built-ins (not registered itself).

    Each decision, in order: pick up owed cards; call Kemps (or Double Kemps) if the belief in the partner's
    four of a kind passes ``threshold``; call Stop Kemps if a stop-calling part says so; holding four of a kind,
    let the signalling part act; otherwise let it act first (a fake, a camouflage swap back), then feed the
    partner, then collect; with nothing to do, pass (and say "stalled" after ``patience`` seconds).
    """

    patience: float = 2.0
    resignal: float = 3.0
    switch_after: int = 2
    signal: str = "ear"
    signal_policy: str = "fixed"
    attention: str = "profile"

    name = "parts"

    def __post_init__(self) -> None:
        owner = self.name
        check_positive(owner, "patience", self.patience)
        check_positive(owner, "resignal", self.resignal)
        if isinstance(self.switch_after, bool) or not isinstance(self.switch_after, int) or self.switch_after < 1:
            raise ConfigError(f"{owner}.switch_after = {self.switch_after!r}: must be a whole number of sweeps >= 1")
        check_signal_params(owner, self.signal, self.signal_policy)
        check_attention(owner, self.attention)

    # Parts: subclasses override the ones they change ----------------------------------------------------------
    def kemps_belief(self) -> PartnerBelief:
        raise NotImplementedError

    def make_signalling(self) -> Signalling:
        return Signalling(self.resignal)

    def make_feeding(self):  # -> Feeding | None
        return None

    def make_stopping(self):  # -> StopCalling | None
        return None

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        super().start_match(seat, players, rng)
        self.reader = TableReader(players, seat)
        self.memory = RoundMemory()
        self.collecting = Collecting(self.switch_after)
        self.kemps = self.kemps_belief()
        self.signalling = self.make_signalling()
        self.feeding = self.make_feeding()
        self.stopping = self.make_stopping()
        self.looking = Looking(self.attention)
        self.choice = SignalChoice(self.signal, self.signal_policy)
        self._counts_for: tuple[int, ...] | None = None
        self._counts: dict[int, int] = {}

    # The decision loop ----------------------------------------------------------------------------------------
    def decide(self, obs: Observation) -> Intent:
        reader = self.reader
        reader.refresh(obs)
        memory = self.memory
        feeding = self.feeding
        memory.refresh(obs, self.patience if feeding is None else feeding.patience(obs, reader, self.patience),
                       self.rng)
        hand = obs.hand
        if hand != self._counts_for:
            self._counts_for, self._counts = hand, rank_counts(hand)
        counts = self._counts
        if obs.owed:
            return Swap((), best_picks(obs.middle, counts, obs.owed))
        four = len(counts) == 1 and len(hand) == 4
        intent = self.kemps.call(obs, reader, four)
        if intent is None and self.stopping is not None:
            intent = self.stopping.call(obs, reader)
        if intent is not None:
            return intent
        signalling = self.signalling
        if four:
            return signalling.holding(obs, reader)
        if signalling.acts_before_collecting:
            intent = signalling.before_collecting(obs, reader, counts)
            if intent is not None:
                return intent
        collecting = self.collecting
        first = -1
        if feeding is not None:
            first = collecting.avoid = feeding.partner_rank(obs, reader)
            collecting.ensure(obs, reader, counts)
            intent = feeding.feed(obs, reader, counts, collecting)
            if intent is not None:
                return intent
        return collecting.plan(obs, reader, counts, first) or memory.idle(obs)

    # Waking, watching, looking, choosing ---------------------------------------------------------------------
    def wakes_on(self, percept: Percept, obs: Observation) -> bool:
        """The partner making the pair's signal wakes the seat; opponents' gestures only if a part reads them."""
        if percept.gesturer == obs.partner:
            return percept.gesture == obs.signal
        return self.stopping is not None and self.stopping.wakes_on(percept, obs)

    def wakes_on_middle(self, obs: Observation, arrived: Sequence[int]) -> bool:
        """Wake only for arrived cards a part could act on (never while holding four, unless camouflaging)."""
        if obs.owed or self.signalling.busy:
            return True
        hand = obs.hand
        if hand != self._counts_for:
            self._counts_for, self._counts = hand, rank_counts(hand)
        counts = self._counts
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

    def watches(self, obs: Observation) -> frozenset[str] | None:
        """Only the pair's own signal unless a stop-calling part reads the opponents."""
        if self.stopping is not None:
            return self.stopping.watches(obs)
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
class KempsCaller(PartsAgent):
    """A parts agent whose Kemps belief is set by ``threshold``, ``prior``, ``stillness`` and ``knows_fakes``."""

    threshold: float = 0.5
    prior: float = 0.5
    stillness: float = 1.0
    knows_fakes: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        check_belief(self.name, self.threshold, self.prior, self.stillness)
        if not isinstance(self.knows_fakes, bool):
            raise ConfigError(f"{self.name}.knows_fakes = {self.knows_fakes!r}: must be true or false")

    def kemps_belief(self) -> PartnerBelief:
        return PartnerBelief(self.threshold, self.prior, self.stillness, self.knows_fakes)
