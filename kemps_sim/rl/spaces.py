"""The Gymnasium spaces of a learning environment, and the seeds of its successive matches."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from kemps_sim.errors import ConfigError


def observation_space(size: int, actions: int) -> spaces.Dict:
    """``Dict(observation=Box(0, 1, (size,), float32), action_mask=Box(0, 1, (actions,), int8))``."""
    return spaces.Dict({"observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
                        "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8)})


def state_space(size: int) -> spaces.Box:
    """The global state's space: ``Box(0, 1, (size,), float32)``."""
    return spaces.Box(0.0, 1.0, (size,), dtype=np.float32)


class MatchSeeds:
    """The seed of each match an environment plays: ``reset(seed=s)`` plays match ``s``, and each reset without a
    seed the next one (``s + 1``, ``s + 2``, ...), so that an episode is the simulated match of its seed. Before
    any seed is given, the first comes from fresh operating-system entropy (reported in ``info["match_seed"]``)."""

    def __init__(self) -> None:
        self.next: int | None = None

    def take(self, seed: int | None) -> int:
        """The seed of the match to play now."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
                raise ConfigError(f"reset(seed={seed!r}): must be a whole number >= 0 or None")
            self.next = int(seed)
        elif self.next is None:
            self.next = int(np.random.SeedSequence().generate_state(1, np.uint32)[0])
        chosen, self.next = self.next, self.next + 1
        return chosen
