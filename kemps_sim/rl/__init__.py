"""Learning environments over the real-time engine (``pip install -e '.[rl]'``).

- :mod:`kemps_sim.rl.kemps_v0`: Kemps for PettingZoo, ``env()`` (AEC) and ``parallel_env()``;
- ``kemps_sim/KempsSeat-v0``: Kemps for one learner, a Gymnasium environment (:class:`kemps_sim.rl.seat.KempsSeatEnv`);
- :mod:`kemps_sim.rl.krepet_v0` and ``kemps_sim/KrepetSeat-v0``: the same for Krepet;
- the learning baseline (``pip install -e '.[rl,train]'``): :mod:`kemps_sim.rl.training` (sb3-contrib's MaskablePPO,
  ``scripts/train_ppo.py``), :mod:`kemps_sim.rl.evaluate` (``scripts/evaluate_ppo.py``) and the agent ``ppo``, which
  plays a trained model in any lineup (:mod:`kemps_sim.rl.policy`).

Importing this package registers the Gymnasium environments, so ``gymnasium.make("kemps_sim/KempsSeat-v0")`` works
after ``import kemps_sim.rl`` (or as ``gymnasium.make("kemps_sim.rl:kemps_sim/KempsSeat-v0")``).
"""

from __future__ import annotations

import gymnasium

SEAT_ENVS = {"kemps_sim/KempsSeat-v0": "kemps_sim.rl.seat:KempsSeatEnv",
             "kemps_sim/KrepetSeat-v0": "kemps_sim.rl.krepet_seat:KrepetSeatEnv"}

for _id, _entry in SEAT_ENVS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point=_entry)
