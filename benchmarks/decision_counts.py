"""How many times a seat decides in one round, per built-in agent and preset: the measurement behind the default
of ``EngineConfig.max_decisions_per_round`` (a liveness budget that must leave every real agent ample room).

    python benchmarks/decision_counts.py [--matches 40] [--presets standard kems german]

Prints, per built-in Kemps agent (everyone at the table playing it) and preset, the median, 99th percentile and
largest count of one seat's decisions in one round; the budget's default should stay several times above the
largest.
"""

from __future__ import annotations

import argparse

import kemps_sim_agents
import numpy as np

import kemps_sim.engine.round as round_module
from kemps_sim import EngineConfig, simulate_match
from kemps_sim.build import compiled


def busiest_seats(preset: str, lineup: str, matches: int) -> list[int]:
    """Each round's busiest seat's decision count, over ``matches`` matches (the budget is off while counting)."""
    counts: list[int] = []
    run = round_module.RoundSim.run

    def counted(self):
        try:
            return run(self)
        finally:
            counts.append(max(self.players.decisions))

    round_module.RoundSim.run = counted
    try:
        config = EngineConfig(max_decisions_per_round=10**9)
        for seed in range(matches):
            simulate_match(preset, lineup, seed=seed, config=config, errors="record")
    finally:
        round_module.RoundSim.run = run
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--presets", nargs="+", default=["standard", "kems", "german"])
    args = parser.parse_args()
    if compiled():
        parser.error("this count replaces the engine's methods, which the compiled build's classes do not allow: "
                     "run it on the pure-Python package (pip install -e . without KEMPS_SIM_COMPILE)")
    largest = 0
    print(f"{'agent':<12} {'preset':<10} {'rounds':>6} {'median':>7} {'p99':>6} {'max':>6}")
    for agent in (cls.name for cls in kemps_sim_agents.BUILTINS):  # the policies that play any table by name
        for preset in args.presets:
            counts = np.array(busiest_seats(preset, agent, args.matches))
            largest = max(largest, int(counts.max()))
            print(f"{agent:<12} {preset:<10} {len(counts):>6} {np.median(counts):>7.0f} "
                  f"{np.percentile(counts, 99):>6.0f} {counts.max():>6}")
    budget = EngineConfig().max_decisions_per_round
    print(f"largest: {largest}; default budget {budget} = {budget / largest:.1f}x the largest")


if __name__ == "__main__":
    main()
