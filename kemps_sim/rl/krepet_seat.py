"""Krepet for one learner as a Gymnasium environment: ``kemps_sim/KrepetSeat-v0``.

One player learns; the lineup's agent plays the other chair inside the engine. An episode is one game, a step one
decision of the learner: a move of its turn or, with ``calls="learn"``, whether to call "Krepet!" on a percept of
a miss. Observations, actions, masks and rewards are those of the PettingZoo environments
(:mod:`kemps_sim.rl.krepet_v0`); the mask is also offered as :meth:`KrepetSeatEnv.action_masks`, the method
sb3-contrib's MaskablePPO asks for.
"""

from __future__ import annotations

from kemps_sim.rl.krepet_core import KrepetSession
from kemps_sim.rl.krepet_encoding import OBSERVATION_VERSION
from kemps_sim.rl.seat import SeatEnv


class KrepetSeatEnv(SeatEnv):
    """One learning player (``seat``, default 0) against the lineup's agent (``greedy`` by default). Arguments as
    for :func:`kemps_sim.rl.krepet_v0.env`, with ``seat`` for ``learners``."""

    session_class = KrepetSession
    observation_version = OBSERVATION_VERSION
