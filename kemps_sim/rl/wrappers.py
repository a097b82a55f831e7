"""The seat environment as a vector-observation learner sees it: what sb3-contrib's MaskablePPO trains on.

:class:`VectorObservation` hands the policy the ``kemps-obs-v0`` vector alone (the mask stays out of its input);
MaskablePPO still finds the mask, as it asks every environment for ``action_masks()`` through its wrappers
(``get_wrapper_attr``), which :class:`~kemps_sim.rl.seat.KempsSeatEnv` answers. :func:`training_env` builds one
such environment whose matches are a stream of seeds of its own, so that the environments of a vector, and the
runs of different training seeds, never play the same deal.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from kemps_sim.rl.seat import KempsSeatEnv

#: The first match seed of training environment ``i`` of a run with seed ``s`` is
#: ``TRAINING_SEEDS + (s * ENVS_PER_RUN + i) * MATCHES_PER_ENV``: far above the small seeds evaluations use, and
#: each environment has room for ``MATCHES_PER_ENV`` matches of its own.
TRAINING_SEEDS = 10**12
ENVS_PER_RUN = 1000
MATCHES_PER_ENV = 10**7


class VectorObservation(gym.ObservationWrapper):
    """The ``observation`` vector of the seat environment's dict, without its ``action_mask``."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The ``kemps-obs-v0`` vector."""
        return observation["observation"]


def first_match(run_seed: int, index: int) -> int:
    """The seed of the first match that environment ``index`` of the training run ``run_seed`` plays."""
    if not 0 <= index < ENVS_PER_RUN:
        raise ValueError(f"environment index {index}: must be from 0 to {ENVS_PER_RUN - 1}")
    return TRAINING_SEEDS + (run_seed * ENVS_PER_RUN + index) * MATCHES_PER_ENV


def training_env(first: int, **kwargs: Any) -> VectorObservation:
    """A seat environment (``kwargs`` as for :class:`KempsSeatEnv`) seen as a vector, whose next reset without a
    seed plays match ``first + 1``, then ``first + 2`` and so on (resetting to ``first`` sets the stream)."""
    env = KempsSeatEnv(**kwargs)
    env.reset(seed=first)
    return VectorObservation(env)
