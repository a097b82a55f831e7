"""What each built-in agent costs per call: every call the engine makes into agent code (``decide``, the wake-up
filters ``wakes_on`` / ``wakes_on_middle`` / ``wakes_on_stall``, ``watches`` at a round's start, ``choose_signal``,
``start_match``), timed at the engine's one door to agent code (``Stopwatch.call``) and grouped by method.

    python benchmarks/bench_agents.py [--matches 100] [--preset standard] [--players 4] [--agents collector watcher]
    python benchmarks/bench_agents.py --agents "my_plugin(speed=2)" collector    # your agent beside a built-in

For each agent (the same agent at every seat, the same seeds for every agent) it prints the calls a match and the
microseconds a call of each method, the agent's milliseconds a match and their share of the match's CPU time. The
timed pass reads the clock twice per call (about 0.1 µs each), which the figures include; compare agents and
methods with each other, not with ``bench_engine.py``'s untimed rate.

Prints figures only; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict

from kemps_sim_agents import LEARNED

import kemps_sim.engine.guard as guard
from kemps_sim import load_rules, simulate_match
from kemps_sim.errors import AgentError, ConfigError
from kemps_sim.lineup import resolve_lineup
from kemps_sim.presets import preset_names
from kemps_sim.registry import builtin_names

LEARNED_NAMES = {agent.name for agent in LEARNED}


def per_call(rules, agent: str, seeds: range) -> tuple[dict[str, tuple[int, float]], float]:
    """``{method: (calls, seconds)}`` over the matches of ``seeds`` with ``agent`` at every seat, and the CPU
    seconds of those matches in all."""
    spent: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    door = guard.Stopwatch.call
    clock = time.perf_counter

    def timed(self, seat, what, function, *args):
        started = clock()
        try:
            return door(self, seat, what, function, *args)
        finally:
            tally = spent[what]
            tally[0] += 1
            tally[1] += clock() - started

    simulate_match(rules, agent, seed=10**6)  # warm imports and caches
    guard.Stopwatch.call = timed
    try:
        start = time.process_time()
        for seed in seeds:
            simulate_match(rules, agent, seed=seed, contained=False)
        total = time.process_time() - start
    finally:
        guard.Stopwatch.call = door
    return {what: (int(calls), seconds) for what, (calls, seconds) in spent.items()}, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--preset", default="standard", choices=preset_names())
    parser.add_argument("--players", type=int, default=4, choices=(4, 6, 8))
    parser.add_argument("--agents", nargs="+", default=None, metavar="AGENT",
                        help="agents to measure, each as a lineup writes it (a plugin's name, parameters: "
                             "'collector(caution=0.5)'); default: every built-in that needs no model file")
    args = parser.parse_args()
    if args.matches < 1:
        parser.error(f"--matches {args.matches}: must be a whole number >= 1")
    rules = load_rules(args.preset, players=args.players)
    for entry in args.agents or ():
        try:
            resolve_lineup(entry, rules.players)
        except ConfigError as exc:
            parser.error(f"--agents {entry}: {exc}")
    builtins = [name for name in builtin_names("kemps") if name not in LEARNED_NAMES]
    seeds = range(args.matches)
    print(f"machine: {os.cpu_count()} cores, load average {load()} at the start")
    print(f"preset {args.preset}, {args.players} players, {args.matches} matches an agent (the same seeds), one core")
    agents = args.agents or builtins
    width = max(11, *(len(agent) for agent in agents))
    print(f"{'agent':{width}} {'method':15} {'calls/match':>11} {'us/call':>8} {'ms/match':>8} {'share':>6}")
    for agent in agents:
        try:
            spent, total = per_call(rules, agent, seeds)
        except (AgentError, ConfigError) as exc:
            print(f"bench_agents.py: {agent}: {exc}", file=sys.stderr)
            return 1
        inside = sum(seconds for _, seconds in spent.values())
        for what, (calls, seconds) in sorted(spent.items(), key=lambda item: -item[1][1]):
            print(f"{agent:{width}} {what:15} {calls / args.matches:11.1f} {seconds / calls * 1e6:8.2f} "
                  f"{seconds / args.matches * 1e3:8.3f} {seconds / total:6.1%}")
        print(f"{agent:{width}} {'(all agent code)':15} {'':11} {'':8} {inside / args.matches * 1e3:8.3f} "
              f"{inside / total:6.1%}   of {total / args.matches * 1e3:.2f} ms a match  load {os.getloadavg()[0]:.2f}",
              flush=True)
    print(f"load average at the end: {load()}")
    return 0


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
