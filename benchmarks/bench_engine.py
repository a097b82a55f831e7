"""Engine speed on one core: matches per second, SimPy events per match, and the cost per dispatched event
relative to a bare SimPy loop with the same number of events, measured in the same run.

    python benchmarks/bench_engine.py [--matches 300] [--preset standard] [--players 4] [--lineup collector]
                                      [--repeats 3]

Prints figures only; nothing here asserts a speed (machines are shared and noisy).
"""

from __future__ import annotations

import argparse
import math
import time

import simpy

import kemps_sim.engine.round as round_module
from kemps_sim import load_rules, simulate_match


class CountingEnvironment(simpy.Environment):
    """A SimPy environment that counts the events it dispatches (used in a separate, untimed pass)."""

    dispatched = 0

    def step(self) -> None:
        CountingEnvironment.dispatched += 1
        super().step()


def count_events(rules, lineup: str, seeds: range) -> int:
    """SimPy events dispatched over the matches of ``seeds``."""
    plain = round_module.simpy.Environment
    round_module.simpy.Environment = CountingEnvironment
    try:
        CountingEnvironment.dispatched = 0
        for seed in seeds:
            simulate_match(rules, lineup, seed=seed)
        return CountingEnvironment.dispatched
    finally:
        round_module.simpy.Environment = plain


def bare_simpy_seconds_per_event(events: int, processes: int = 8) -> float:
    """Seconds per event of processes that only wait on timeouts: the floor any SimPy model pays (best of 3)."""
    return min(_bare_once(events, processes) for _ in range(3))


def _bare_once(events: int, processes: int) -> float:
    env = simpy.Environment()

    def ticker(env: simpy.Environment, step: float):
        while True:
            yield env.timeout(step)

    for i in range(processes):
        env.process(ticker(env, 1.0 + i / processes))
    start = time.perf_counter()
    for _ in range(events):
        env.step()
    return (time.perf_counter() - start) / events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--lineup", default="collector")
    parser.add_argument("--repeats", type=int, default=3, help="timed passes; the fastest is reported")
    args = parser.parse_args()
    rules = load_rules(args.preset, players=args.players)
    seeds = range(args.matches)
    simulate_match(rules, args.lineup, seed=10**6)  # warm imports and caches
    elapsed = math.inf
    for _ in range(args.repeats):  # best of several passes: other load on a shared machine only slows a pass
        start = time.perf_counter()
        trace_events = sum(simulate_match(rules, args.lineup, seed=s).events for s in seeds)
        elapsed = min(elapsed, time.perf_counter() - start)
    dispatched = count_events(rules, args.lineup, seeds)
    bare = bare_simpy_seconds_per_event(dispatched)
    per_event = elapsed / dispatched
    print(f"preset {args.preset}, {args.players} players, lineup {args.lineup!r}, {args.matches} matches, one core")
    print(f"matches per second:          {args.matches / elapsed:8.1f}")
    print(f"SimPy events per match:      {dispatched / args.matches:8.0f}")
    print(f"trace events per match:      {trace_events / args.matches:8.0f}")
    print(f"engine cost per event:       {per_event * 1e6:8.2f} us")
    print(f"bare SimPy cost per event:   {bare * 1e6:8.2f} us")
    print(f"ratio engine / bare:         {per_event / bare:8.2f} x")


if __name__ == "__main__":
    main()
