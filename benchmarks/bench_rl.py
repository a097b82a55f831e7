"""Learner decisions per second on one core in the learning environments, beside the engine alone in the same run.

    python benchmarks/bench_rl.py [--decisions 20000] [--repeats 3] [--lineup collector] [--preset standard]
                                  [--players 4] [--envs 4]

For each learner policy (``random``: a legal action drawn at random; ``waiting``: ``Wait()`` four times in five,
else a random legal action, which keeps matches long and close to a cautious player's), it prints the decisions
of ``kemps_sim/KempsSeat-v0`` per wall second and per CPU second of this process (the machines are shared: the
CPU figure is the one a loaded machine does not halve), the decisions per match, and, in the same run, the engine
alone (``simulate_match`` with the lineup's agent at every seat) in matches per CPU second, for the ratio of the
environment's cost per match to the engine's. Then a Gymnasium vector of ``--envs`` seat environments stepped
together (``SyncVectorEnv``). The learner's own choice (NumPy on the mask) is included in every figure. Last, a bare
SimPy loop's cost per event in the same run: how fast this core was, so that figures of two runs can be compared.

Prints figures only; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import gymnasium
import numpy as np
from bench_engine import bare_simpy_seconds_per_event  # this folder is on the path of a script run from it

import kemps_sim.rl  # noqa: F401  (registers the Gymnasium environments)
from kemps_sim import simulate_match
from kemps_sim.rl.actions import NOOP
from kemps_sim.rl.seat import KempsSeatEnv

Policy = Callable[[np.ndarray, np.random.Generator], int]


def random_policy(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A legal action at random, uniformly (an index drawn with ``Generator.integers``: about 2 µs a decision,
    against 6 µs for ``Generator.choice``, so that the figure is the environment's rather than this learner's)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


def waiting_policy(mask: np.ndarray, rng: np.random.Generator) -> int:
    """``Wait()`` four times in five when allowed, else a legal action at random."""
    if mask[NOOP] and rng.random() < 0.8:
        return NOOP
    return random_policy(mask, rng)


POLICIES: dict[str, Policy] = {"random": random_policy, "waiting": waiting_policy}


def run_env(env: KempsSeatEnv, policy: Policy, decisions: int, seed: int) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and matches finished for ``decisions`` learner decisions."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    matches = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(decisions):
        obs, _, terminated, truncated, _ = env.step(policy(obs["action_mask"], rng))
        if terminated or truncated:
            matches += 1
            obs, _ = env.reset()
    return time.perf_counter() - wall, time.process_time() - cpu, matches


def engine_cpu(rules: str, players: int, lineup: str, matches: int) -> float:
    """CPU seconds per match of the engine alone, the lineup at every seat."""
    cpu = time.process_time()
    for seed in range(matches):
        simulate_match(rules if players == 4 else {"preset": rules, "players": players}, lineup, seed=seed)
    return (time.process_time() - cpu) / matches


def run_vector(kwargs: dict, envs: int, decisions: int, seed: int) -> tuple[float, float]:
    """Learner decisions per wall and per CPU second of a SyncVectorEnv of ``envs`` seat environments."""
    vector = gymnasium.make_vec("kemps_sim/KempsSeat-v0", num_envs=envs, vectorization_mode="sync",
                                vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP},
                                **kwargs)
    rng = np.random.default_rng(seed)
    obs, _ = vector.reset(seed=seed)
    steps = decisions // envs
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        obs, *_ = vector.step([random_policy(mask, rng) for mask in obs["action_mask"]])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    vector.close()
    return steps * envs / wall, steps * envs / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--lineup", default="collector")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--envs", type=int, default=4)
    args = parser.parse_args()
    if args.decisions < 1 or args.repeats < 1 or args.envs < 1:
        parser.error("--decisions, --repeats and --envs must be at least 1")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load average {load} at the start")
    print(f"KempsSeat-v0, {args.preset} at {args.players} players, lineup {args.lineup!r} at the other seats; "
          f"{args.decisions} learner decisions a pass, best of {args.repeats}")
    kwargs = {"rules": args.preset, "players": args.players, "lineup": args.lineup}
    print(f"{'learner':10}{'decisions/s':>13}{'per CPU s':>11}{'per match':>11}{'env/engine':>12}  load")
    for name, policy in POLICIES.items():
        env = KempsSeatEnv(**kwargs)
        run_env(env, policy, min(2000, args.decisions), seed=99)  # warm up: imports, caches
        best = None
        for repeat in range(args.repeats):
            wall, cpu, matches = run_env(env, policy, args.decisions, seed=repeat)
            if best is None or cpu < best[1]:
                best = (wall, cpu, matches)
        wall, cpu, matches = best
        per_match = args.decisions / max(matches, 1)
        engine = engine_cpu(args.preset, args.players, args.lineup, max(matches, 20))
        ratio = (cpu / max(matches, 1)) / engine
        load = f"{os.getloadavg()[0]:.2f}"
        print(f"{name:10}{args.decisions / wall:13.0f}{args.decisions / cpu:11.0f}{per_match:11.1f}{ratio:11.2f}x"
              f"  {load}")
        env.close()
    wall_rate, cpu_rate = run_vector(kwargs, args.envs, args.decisions, seed=7)
    print(f"SyncVectorEnv of {args.envs} (random learner): {wall_rate:.0f} decisions/s, {cpu_rate:.0f} per CPU s")
    print(f"a bare SimPy loop in the same run: {bare_simpy_seconds_per_event(100_000) * 1e6:.2f} us an event "
          "(the machine's own speed, to read the figures above against another run's)")
    print("load average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
