"""Kemps for one learner as a Gymnasium environment: ``kemps_sim/KempsSeat-v0``.

One seat learns; the lineup's agents play every other seat inside the engine. An episode is one match, a step one
decision of the learner's seat, due when something it can see changes (or its timed wait runs out) and after its
reaction time; its action then plays out through the same reach and speech times as any agent's. Observations,
actions, masks and rewards are those of the PettingZoo environments (:mod:`kemps_sim.rl.kemps_v0`); the mask is
also offered as :meth:`KempsSeatEnv.action_masks`, the method sb3-contrib's MaskablePPO asks for.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kemps_sim.rl.core import KempsSession
from kemps_sim.rl.encoding import OBSERVATION_VERSION
from kemps_sim.rl.spaces import MatchSeeds, observation_space


class SeatEnv(gym.Env):
    """One learning seat at a table of the lineup's agents, for any game that supplies a session (as the
    PettingZoo views do, :mod:`kemps_sim.rl.views`) and its observation's version."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}
    session_class: ClassVar[type] = KempsSession
    observation_version: ClassVar[str] = OBSERVATION_VERSION

    def __init__(self, rules: Any = None, *, seat: int = 0, **kwargs: Any) -> None:
        self.session = session = self.session_class(rules, learners=(seat,), **kwargs)
        self.seat = session.learners[0]
        self.observation_space = observation_space(session.encoder.size, session.actions.size)
        self.action_space = spaces.Discrete(session.actions.size)
        self.seeds = MatchSeeds()
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict[str, np.ndarray], dict]:
        """Start the next match (the match of ``seed`` if given) and return the seat's first observation."""
        super().reset(seed=seed)
        while self.session.reset(self.seeds.take(seed)) is None:  # a match the seat never decided in: the next
            seed = None
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        """Play the action; return the seat's next observation, its reward, and whether the match is over."""
        session = self.session
        session.act(int(action))
        reward = session.reward_for(self.seat)
        over = session.over
        truncated = over and session.truncated
        return self._observation(), reward, over and not truncated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The actions allowed now, as booleans (sb3-contrib's MaskablePPO calls this)."""
        return self.session.mask(self.seat).astype(bool)

    def _observation(self) -> dict[str, np.ndarray]:
        session = self.session
        return {"observation": session.observe(self.seat), "action_mask": session.mask(self.seat)}

    def _info(self) -> dict[str, Any]:
        session = self.session
        return {"match_seed": session.seed, "since_decision": session.since_decision(self.seat),
                "illegal_action": session.illegal_played, "observation_version": self.observation_version}

    def close(self) -> None:
        """Stop the match being played, if any."""
        self.session.close()


class KempsSeatEnv(SeatEnv):
    """One learning Kemps seat (``seat``, default 0) at a table of the lineup's agents. Arguments as for
    :func:`kemps_sim.rl.kemps_v0.env`, with ``seat`` for ``learners``."""
