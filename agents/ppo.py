"""``ppo``: the learning baseline, a MaskablePPO model trained by ``scripts/train_ppo.py`` in the Gymnasium seat
environment ``kemps_sim/KempsSeat-v0``, played at any seat of a lineup: ``ppo(path='runs/ppo/seed-0/model.zip')``.

It follows no rule source: it plays what training against the lineup taught it. It is asked what the environment
asked it in training: the seat's view encoded as ``kemps-obs-v0`` (:mod:`kemps_sim.rl.encoding`, nothing but what
the seat may see), with the seconds since its previous decision, and the actions the rules allow now
(:mod:`kemps_sim.rl.actions`). Its wake-ups and hooks are those of the environment's learner seat
(:class:`~kemps_sim.rl.driver.LearnerSeat`, :class:`~kemps_sim.agent.BaseAgent`'s defaults): every percept and
every change of the middle wakes it, it watches every gesture, keeps its eyes as its profile spreads them and
keeps its pair's first signal, so that in a lineup it plays exactly as it played in training. By default it takes
the model's most probable allowed action (``deterministic=True``); ``deterministic=False`` draws the action from the
model's distribution with the seat's own generator, so that a match is still the same function of its seed.

A model plays only the table it was trained for: its observation and action sizes must be those of the match's
rules and table size (a one-line error says which are needed). PyTorch and sb3-contrib (``pip install -e
'.[rl,train]'``) are imported only when a model is loaded, never by listing the agents.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from kemps_sim.agent import BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.intents import Intent
from kemps_sim.observation import Observation


class Ppo(BaseAgent):
    """Plays a trained MaskablePPO model (``path``: the ``.zip`` that ``scripts/train_ppo.py`` wrote), asked exactly
    as the learning environment asked it; the most probable allowed action, or drawn if ``deterministic=False``."""

    name = "ppo"
    description = "a trained MaskablePPO model (path='model.zip'): the learning baseline, on the table it learnt"

    def __init__(self, path: str | None = None, deterministic: bool = True) -> None:
        if path is not None and not isinstance(path, str | os.PathLike):
            raise ConfigError(f"ppo.path = {path!r}: must be the path of a model .zip written by "
                              "scripts/train_ppo.py")
        if not isinstance(deterministic, bool):
            raise ConfigError(f"ppo.deterministic = {deterministic!r}: must be True or False")
        self.path = path
        self.deterministic = deterministic
        if path is not None:  # a missing or broken file is refused when the lineup is read, before any match
            from kemps_sim.rl.policy import load_model

            load_model(path, "ppo.path")
        self._policy: Any = None

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        """Keep the seat and generator; the match clock starts at 0 (as the environment's does)."""
        super().start_match(seat, players, rng)
        if self.path is None:
            raise ConfigError("ppo.path = None: give the model to play, the .zip written by scripts/train_ppo.py, "
                              "as ppo(path='runs/ppo/seed-0/model.zip')")
        self._policy = None
        self._round_view: Observation | None = None
        self._elapsed = 0.0  # simulated seconds of the rounds before this one
        self._decided = 0.0  # match time of the previous decision (0 before the first, as in the environment)

    def watches(self, obs: Observation) -> None:
        """Watch every gesture (the default); asked at the start of each round, it also adds the length of the
        round before (its view's clock stopped at its end) to the match clock."""
        previous = self._round_view
        if previous is not None and previous is not obs:
            self._elapsed += previous.now
        self._round_view = obs
        return None

    def decide(self, obs: Observation) -> Intent:
        """The model's intent for the seat's view now."""
        policy = self._policy
        if policy is None:
            from kemps_sim.rl.policy import seat_policy

            policy = self._policy = seat_policy(self.path, obs.rules, obs.repertoire, "ppo.path")
        clock = self._elapsed + obs.now
        since = clock - self._decided
        self._decided = clock
        return policy.decide(obs, since, None if self.deterministic else self.rng)[1]
