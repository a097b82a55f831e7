"""Every learning seat of a PettingZoo Kemps table as one entry of a vector environment (SuperSuit), for a learner
that trains one shared policy for all seats.

    python examples/rl/pettingzoo_vector.py --steps 2000

``kemps_v0.parallel_env`` gives every learner an observation each step; the one whose decision is due has its
legal actions in its mask, the others only the no-op, which is ignored. SuperSuit turns the table's learners into
the entries of a Gymnasium-style vector environment, and several tables into one vector. Here a random legal
policy plays it; a learning algorithm takes the same arrays.
"""

from __future__ import annotations

import argparse

import numpy as np
import supersuit

from kemps_sim.rl import kemps_v0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.steps < 1 or args.tables < 1:
        parser.error("--steps and --tables must be at least 1")
    table = kemps_v0.parallel_env(rules="standard", learners=(0, 1, 2, 3))
    vector = supersuit.pettingzoo_env_to_vec_env_v1(table)
    vector = supersuit.concat_vec_envs_v1(vector, args.tables, num_cpus=1, base_class="gymnasium")
    obs, _ = vector.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    returns = np.zeros(vector.num_envs)
    for _ in range(args.steps):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in obs["action_mask"]])
        obs, rewards, _, _, _ = vector.step(actions)
        returns += rewards
    vector.close()
    print(f"{vector.num_envs} entries ({args.tables} tables of 4 learners), {args.steps} steps; "
          f"summed reward per entry: {np.round(returns, 2).tolist()}")


if __name__ == "__main__":
    main()
