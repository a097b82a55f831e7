"""The agent boundary: the protocol every policy implements, and a base class with sensible defaults.

An agent sees only its :class:`~kemps_sim.observation.Observation` and answers with an intent
(:mod:`kemps_sim.intents`). Hyperparameters are stored as given in ``__init__`` (the scikit-learn rule), so a
sweep can read them with :meth:`BaseAgent.get_params` and build a varied copy with :meth:`BaseAgent.clone`.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from kemps_sim.intents import Intent
from kemps_sim.observation import Observation
from kemps_sim.perception import Attention, Percept


@runtime_checkable
class Agent(Protocol):
    """A policy for one seat. The engine makes a fresh one per seat per match (from a factory)."""

    name: str

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        """Called once before the first deal with the seat, the table size and the agent's own generator."""

    def choose_signal(self, obs: Observation) -> str:
        """Between rounds, asked of one partner of each pair: the gesture the pair uses as its signal next."""

    def decide(self, obs: Observation) -> Intent:
        """The next intent, given what the seat sees now."""

    def wakes_on(self, percept: Percept, obs: Observation) -> bool:
        """Whether a new percept should wake a waiting seat (it joins ``obs.percepts`` either way)."""

    def wakes_on_middle(self, obs: Observation, arrived: Sequence[int]) -> bool:
        """Whether the cards that just arrived in the middle should wake a waiting seat (else it keeps passing)."""

    def wakes_on_stall(self, obs: Observation) -> bool:
        """Whether hearing someone say "stalled" should wake a waiting seat (else it sleeps on, untimed)."""

    def watches(self, obs: Observation) -> frozenset[str] | None:
        """At the start of a round: the gesture names this seat attends to (None: all); it perceives no other."""

    def gaze(self, obs: Observation) -> Attention | None:
        """Optional, asked after every decision: how to spread the eyes from now on (None: as they are).

        The profile's attention is the start of every round; an agent without this method never changes it.
        """


class BaseAgent:
    """Defaults for the optional parts of the protocol; subclasses implement :meth:`decide`."""

    name = "base"
    #: The game the policy plays (the registry and lineups check it): "kemps" here, "krepet" for Krepet agents.
    game = "kemps"

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        """Keep the seat, the table size and the agent's own generator (draw randomness only from ``rng``)."""
        self.seat = seat
        self.players = players
        self.rng = rng

    #: A signal a subclass wants its pair to start with (if allowed); None: the pair's first candidate, the natural
    #: gesture the table dealt it (``obs.signal_candidates``, :mod:`kemps_sim.conventions`), so no two pairs start
    #: with the same one.
    default_signal: str | None = None

    def choose_signal(self, obs: Observation) -> str:
        """Keep the signal used so far; in the first round take ``default_signal`` if set and allowed, else the
        pair's first candidate (with none dealt, the first allowed gesture)."""
        if obs.signal:
            return obs.signal
        allowed = obs.signals_allowed
        if self.default_signal is not None and self.default_signal in allowed:
            return self.default_signal
        candidates = obs.signal_candidates
        return candidates[0] if candidates else allowed[0]

    def decide(self, obs: Observation) -> Intent:  # pragma: no cover - abstract
        """The next intent, given what the seat sees now: every policy implements this."""
        raise NotImplementedError

    def wakes_on(self, percept: Percept, obs: Observation) -> bool:
        """Every percept wakes the seat unless a policy says which ones matter to it (a cheap test: it saves a
        reaction and a decision for every fidget the policy would ignore)."""
        return True

    def wakes_on_middle(self, obs: Observation, arrived: Sequence[int]) -> bool:
        """Every change of the middle wakes the seat unless a policy says which cards could change its mind.

        ``obs`` already shows the new middle. Answering False keeps the seat waiting *and passing* on the middle,
        so answer False only for cards the policy would not take.
        """
        return True

    def wakes_on_stall(self, obs: Observation) -> bool:
        """Someone's "stalled" wakes the seat unless a policy says it would only go on waiting.

        Answering False keeps the seat asleep and drops its own ``Wait`` timeout: the seat then sleeps until the
        fresh middle or a withdrawn stall wakes everyone. So answer False only when the policy, woken, would wait
        without a timeout (nothing to object to, no card to take, no signal to repeat, no call to make).
        """
        return True

    def watches(self, obs: Observation) -> frozenset[str] | None:
        """Watch every gesture type (None); a policy that reads only some types saves the engine their fidgets."""
        return None

    # scikit-learn style parameters ----------------------------------------------------------------------------
    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        """The hyperparameters ``__init__`` takes, in order."""
        sig = inspect.signature(cls.__init__)
        plain = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        return tuple(name for name, p in sig.parameters.items() if name != "self" and p.kind in plain)

    def get_params(self) -> dict[str, Any]:
        """The hyperparameters as given to ``__init__``."""
        return {name: getattr(self, name) for name in self.param_names()}

    def clone(self, **changes: Any) -> BaseAgent:
        """A fresh agent of the same class with the same hyperparameters, some changed."""
        return type(self)(**{**self.get_params(), **changes})

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{self.name}({params})"
