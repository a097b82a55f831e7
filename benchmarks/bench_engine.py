"""Engine speed on one core: matches per second, SimPy events per match, and the cost per dispatched event
relative to a bare SimPy loop with the same number of events, measured in the same run; then the share of a match
spent inside agent code.

    python benchmarks/bench_engine.py [--matches 300] [--preset standard] [--players 4] [--lineup collector]
                                      [--repeats 3] [--core N | --unpinned]
    python benchmarks/bench_engine.py --table [--matches 100]   # every preset at 4/6/8 players, quickstart lineup
    python benchmarks/bench_engine.py --table --looks              # ... and each row with every look too

``--looks`` also plays each configuration with ``EngineConfig(all_looks=True)`` (every look a person makes is a
decision, as the engine did before it kept the looks that cannot change one) and prints the speed-up of the default
against it: each seed played under both, one match after the other in alternating order, and the CPU seconds of
each summed (a lever of a few percent is lost in the wall-clock noise of passes played one after the other).

The process is pinned to one core (``--core``; ``--unpinned`` lets the operating system place it): the goal is per
core. A match plays in a thread of its own (:mod:`kemps_sim.engine.guard`), started on its caller's core
(:mod:`kemps_sim.engine.placement`), so the two agree (2026-12-03: 98.9 against 98.2 matches/s); before that, an
unpinned run measured where the threads landed (74.9 against 97.3).

Prints figures only; nothing here asserts a speed (machines are shared and noisy).
"""

from __future__ import annotations

import argparse
import math
import os
import time

import simpy

import kemps_sim.engine.guard as guard
import kemps_sim.engine.round as round_module
from kemps_sim import load_rules, simulate_match
from kemps_sim.build import build_name
from kemps_sim.engine.config import EngineConfig
from kemps_sim.presets import preset_names


class CountingEnvironment(simpy.Environment):
    """A SimPy environment that counts the events it dispatches (used in a separate, untimed pass)."""

    dispatched = 0

    def step(self) -> None:
        CountingEnvironment.dispatched += 1
        super().step()


def count_events(rules, lineup: str, seeds: range, config: EngineConfig | None = None) -> int:
    """SimPy events dispatched over the matches of ``seeds``."""
    plain = round_module.simpy.Environment
    round_module.simpy.Environment = CountingEnvironment
    try:
        CountingEnvironment.dispatched = 0
        for seed in seeds:
            simulate_match(rules, lineup, seed=seed, config=config)
        return CountingEnvironment.dispatched
    finally:
        round_module.simpy.Environment = plain


def agent_seconds(rules, lineup: str, seeds: range) -> tuple[float, float]:
    """Seconds inside agent code (every call through the engine's one door, ``Stopwatch.call``) and in all, over
    the matches of ``seeds`` (a separate pass: the clock read around each call costs a little)."""
    inside = 0.0
    door = guard.Stopwatch.call
    clock = time.perf_counter

    def timed(self, seat, what, function, *args):
        nonlocal inside
        started = clock()
        try:
            return door(self, seat, what, function, *args)
        finally:
            inside += clock() - started

    guard.Stopwatch.call = timed
    try:
        start = clock()
        for seed in seeds:
            simulate_match(rules, lineup, seed=seed)
        return inside, clock() - start
    finally:
        guard.Stopwatch.call = door


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


def measure(preset: str, players: int, lineup: str, matches: int, repeats: int, looks: bool = False
            ) -> dict[str, float]:
    """One configuration: matches/s (fastest of ``repeats`` passes), events per match and the ratio to bare SimPy;
    with ``looks`` also matches/s with every look (``all_looks``), passes taking turns with the default's."""
    rules = load_rules(preset, players=players)
    seeds = range(matches)
    simulate_match(rules, lineup, seed=10**6)  # warm imports and caches
    elapsed = math.inf
    for _ in range(repeats):  # best of several passes: other load on a shared machine only slows a pass
        start = time.perf_counter()
        trace_events = sum(simulate_match(rules, lineup, seed=s).events for s in seeds)
        elapsed = min(elapsed, time.perf_counter() - start)
    dispatched = count_events(rules, lineup, seeds)
    bare = bare_simpy_seconds_per_event(dispatched)
    per_event = elapsed / dispatched
    found = {"rate": matches / elapsed, "simpy": dispatched / matches, "trace": trace_events / matches,
             "per_event": per_event, "bare": bare, "ratio": per_event / bare}
    if looks:
        cpu = paired_cpu(rules, lineup, seeds, (EngineConfig(), EngineConfig(all_looks=True)))
        found["looks_rate"] = matches / cpu[1]
        found["looks_speedup"] = cpu[1] / cpu[0]
        found["looks_simpy"] = count_events(rules, lineup, seeds, EngineConfig(all_looks=True)) / matches
    return found


def paired_cpu(rules, lineup: str, seeds: range, configs: tuple[EngineConfig, ...]) -> list[float]:
    """CPU seconds of each config over ``seeds``, every seed played under each config in turn (the order rotating
    from seed to seed), so that other load on the machine falls on all of them alike."""
    spent = [0.0] * len(configs)
    for seed in seeds:
        for step in range(len(configs)):
            i = (seed + step) % len(configs)
            start = time.process_time()
            simulate_match(rules, lineup, seed=seed, config=configs[i])
            spent[i] += time.process_time() - start
    return spent


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--lineup", default="collector")
    parser.add_argument("--repeats", type=int, default=3, help="timed passes; the fastest is reported")
    parser.add_argument("--table", action="store_true",
                        help="every preset at 4, 6 and 8 players (and the quickstart lineup), --matches each")
    parser.add_argument("--looks", action="store_true",
                        help="also play with every look (EngineConfig.all_looks) and print the default's speed-up")
    parser.add_argument("--core", type=int, default=None,
                        help="the core the process (each match's thread too) is pinned to (default: the first allowed)")
    parser.add_argument("--unpinned", action="store_true", help="let the operating system place the threads")
    args = parser.parse_args()
    if args.matches < 1 or args.repeats < 1:
        parser.error(f"--matches {args.matches} / --repeats {args.repeats}: must be whole numbers >= 1")
    can_pin = hasattr(os, "sched_setaffinity")  # Linux
    allowed = sorted(os.sched_getaffinity(0)) if can_pin else []
    if args.core is not None and args.core not in allowed:
        parser.error(f"--core {args.core}: must be one of the cores this process may use, {allowed}")
    if args.unpinned or not can_pin:
        placed = "unpinned" + ("" if can_pin else " (this platform cannot pin a process)")
    else:
        core = allowed[0] if args.core is None else args.core
        os.sched_setaffinity(0, {core})  # threads started from here on inherit it: a match and its watcher alike
        placed = f"pinned to core {core}"
    print(f"machine: {os.cpu_count()} cores, load average {load()} at the start; kemps-sim {build_name()}; {placed}")
    if args.table:
        print_table(args.matches, args.repeats, args.looks)
    else:
        f = measure(args.preset, args.players, args.lineup, args.matches, args.repeats, args.looks)
        print(f"preset {args.preset}, {args.players} players, lineup {args.lineup!r}, {args.matches} matches, one core")
        print(f"matches per second:          {f['rate']:8.1f}")
        print(f"SimPy events per match:      {f['simpy']:8.0f}")
        print(f"trace events per match:      {f['trace']:8.0f}")
        print(f"engine cost per event:       {f['per_event'] * 1e6:8.2f} us")
        print(f"bare SimPy cost per event:   {f['bare'] * 1e6:8.2f} us")
        print(f"ratio engine / bare:         {f['ratio']:8.2f} x")
        if args.looks:
            print(f"with every look:             {f['looks_rate']:8.1f} matches per CPU s, "
                  f"{f['looks_simpy']:.0f} SimPy events a match; the default {f['looks_speedup']:.3f}x as fast "
                  "(paired, CPU time)")
        inside, total = agent_seconds(load_rules(args.preset, players=args.players), args.lineup, range(args.matches))
        per = 1000 / args.matches
        print(f"inside agent code:           {inside * per:8.2f} ms of {total * per:.2f} ms a match "
              f"({100 * inside / total:.0f} %); the engine and SimPy alone: {args.matches / (total - inside):.0f} "
              "matches/s")
    print(f"load average at the end: {load()}")


def print_table(matches: int, repeats: int, looks: bool = False) -> None:
    """Every preset at 4/6/8 players with the default lineup, then the quickstart's lineup on its 4-player standard
    table; ``x std 4p`` is each configuration's cost per match relative to the standard 4-player one, and with
    ``looks`` ``x looks`` its speed-up against every look (``EngineConfig.all_looks``) in the same run."""
    rows = [(preset, players, "collector") for preset in preset_names() for players in (4, 6, 8)]
    rows += [("standard", 4, "collector,watcher")]  # the quickstart's table: watchers, fidgets, two pairs
    print(f"{matches} matches a row, fastest of {repeats} passes, one core")
    print(f"{'preset':14} {'players':>7} {'lineup':18} {'matches/s':>9} {'SimPy ev':>8} {'us/event':>8} "
          f"{'x bare':>7} {'x std 4p':>8}" + (f" {'x looks':>7}" if looks else "") + "  load")
    reference = None
    for preset, players, lineup in rows:
        f = measure(preset, players, lineup, matches, repeats, looks)
        reference = reference or f["rate"]
        extra = f" {f['looks_speedup']:7.3f}" if looks else ""
        print(f"{preset:14} {players:7d} {lineup:18} {f['rate']:9.1f} {f['simpy']:8.0f} {f['per_event'] * 1e6:8.2f} "
              f"{f['ratio']:7.1f} {reference / f['rate']:8.2f}{extra}  {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
