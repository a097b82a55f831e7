"""MaskablePPO (sb3-contrib) at seat 0 of a Kemps table, then the trained model playing a match by name.

    python examples/rl/sb3_maskable.py --steps 100000 --out runs/sb3
"""

import argparse
from pathlib import Path

import gymnasium
from sb3_contrib import MaskablePPO

import kemps_sim.rl  # noqa: F401  (registers kemps_sim/KempsSeat-v0)
from kemps_sim import simulate_match
from kemps_sim.rl.wrappers import VectorObservation

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=100_000)
parser.add_argument("--out", default="runs/sb3")
args = parser.parse_args()

# One learner at seat 0, its partner a collector, its opponents random: the policy sees the observation vector,
# and MaskablePPO asks the environment for the mask (env.action_masks()) at every step.
env = VectorObservation(gymnasium.make("kemps_sim/KempsSeat-v0", rules="standard", lineup="collector,random"))
model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=1, verbose=0)
model.learn(total_timesteps=args.steps)
Path(args.out).mkdir(parents=True, exist_ok=True)
model.save(f"{args.out}/model.zip")

# The trained model is an agent like any other: here with its partner against a random pair, on seed 7.
result = simulate_match("standard", f"ppo(path='{args.out}/model.zip'),random,collector,random", seed=7)
print("winners:", result.winners, "letters:", result.standings.letters)
