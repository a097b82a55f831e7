"""The engine's own ceiling: the same matches played again with every agent answering from a tape of what it
answered the first time, so that agent code costs next to nothing and the engine does exactly the same work.

    python benchmarks/bench_ceiling.py [--matches 200] [--preset standard] [--players 4] [--lineup collector]
                                       [--goal 150] [--profile N]

Every seed is first played with each agent wrapped so that every answer it gives the engine (``start_match``,
``choose_signal``, ``decide``, the wake-up filters, ``watches``, ``gaze``) is kept in order (not timed). Then, seed
by seed, the match is played with the lineup's own agents and with those answers played back, one list look-up a
call, the two timed in turn. An agent draws only from its own generator, so the played-back match is the first one,
event for event: the script compares their traces and prints how many are identical (every one, or the figures mean
nothing). The tapes are kept out of the garbage collector's way (``gc.freeze``), so that both plays collect
garbage as a loop of matches does. Timed in CPU seconds, the process pinned to one core: matches per CPU second with
the agents and played back (the engine, SimPy and the engine's calls into the agents' door), the share of a match
the agents take, the played-back cost per SimPy event against a bare SimPy loop of as many events in the same run,
and what a goal of ``--goal`` matches/s asks of the agents: how many times cheaper they would have to become, or
that the engine alone misses it.

The played-back rate is a ceiling for any work on the agents: with agents that cost nothing, the engine plays no
faster than this. ``--profile N`` prints the N functions with the most time of their own in the played-back
matches (``cProfile``, the pure-Python tree; under the compiled build only its interpreted parts show).

Prints figures only; nothing here asserts a speed (machines are shared and noisy).
"""

from __future__ import annotations

import argparse
import gc
import os
import time
from collections.abc import Callable
from typing import Any

from bench_engine import bare_simpy_seconds_per_event, count_events, load

from kemps_sim import load_rules, simulate_match
from kemps_sim.build import build_name
from kemps_sim.errors import ConfigError
from kemps_sim.lineup import resolve_lineup

#: The agent methods the engine may call, as the engine looks them up (an agent may lack the optional ones).
CALLS = ("choose_signal", "decide", "wakes_on", "wakes_on_middle", "wakes_on_stall", "watches", "gaze")


class Taped:
    """An agent wrapped so that each of its answers to the engine is also appended to ``tape``, in call order."""

    def __init__(self, agent: Any, tape: list[tuple[str, Any]]) -> None:
        self.name = agent.name
        self.agent = agent
        for call in CALLS:
            method = getattr(agent, call, None)
            if method is not None:
                setattr(self, call, _taping(call, method, tape))

    def start_match(self, seat: int, players: int, rng: Any) -> None:
        self.agent.start_match(seat, players, rng)


def _taping(call: str, method: Callable[..., Any], tape: list[tuple[str, Any]]) -> Callable[..., Any]:
    def taping(*args: Any) -> Any:
        answer = method(*args)
        tape.append((call, answer))
        return answer
    return taping


class PlayedBack:
    """An agent that answers every call from a tape, in order, and checks that the engine asks what it asked
    before (else the second match is not the first, and the figures would compare different matches)."""

    def __init__(self, name: str, calls: frozenset[str], tape: list[tuple[str, Any]]) -> None:
        self.name = name
        self.tape = tape
        self.at = 0
        for call in calls:
            setattr(self, call, _playing(call, self))

    def start_match(self, seat: int, players: int, rng: Any) -> None:
        pass


def _playing(call: str, back: PlayedBack) -> Callable[..., Any]:
    tape = back.tape

    def playing(*_: Any) -> Any:
        asked, answer = tape[back.at]
        if asked != call:
            raise RuntimeError(f"the played-back match diverged: asked {call}() where the tape has {asked}()")
        back.at += 1
        return answer
    return playing


def taped_lineup(lineup: str, players: int) -> tuple[list[Callable[[], Taped]], list[list[tuple[str, Any]]],
                                                     list[Taped | None]]:
    """Factories of the lineup's agents, taped: one tape per seat, and the wrapped agents once built."""
    seats = resolve_lineup(lineup, players)
    tapes: list[list[tuple[str, Any]]] = [[] for _ in seats]
    built: list[Taped | None] = [None] * len(seats)

    def factory(seat: int, make: Callable[[], Any]) -> Callable[[], Taped]:
        def made() -> Taped:
            built[seat] = Taped(make(), tapes[seat])
            return built[seat]
        made.name = seats[seat][0]  # type: ignore[attr-defined]
        return made

    return [factory(seat, make) for seat, (_, make) in enumerate(seats)], tapes, built


def played_back_lineup(tapes: list[list[tuple[str, Any]]], built: list[Taped | None]) -> list[Callable[[], Any]]:
    """Factories of agents answering from ``tapes``, each with the methods its taped agent had."""
    def factory(seat: int) -> Callable[[], PlayedBack]:
        taped = built[seat]
        assert taped is not None
        calls = frozenset(call for call in CALLS if hasattr(taped, call))
        made = lambda: PlayedBack(taped.name, calls, tapes[seat])  # noqa: E731
        made.name = taped.name  # type: ignore[attr-defined]
        return made
    return [factory(seat) for seat in range(len(tapes))]


def tape(rules: Any, lineup: str, seeds: range) -> list[list[Callable[[], Any]]]:
    """Every seed played once with the lineup's agents taped: per seed, the lineup that plays it back."""
    backs = []
    for seed in seeds:
        factories, tapes, built = taped_lineup(lineup, rules.players)
        simulate_match(rules, factories, seed=seed)
        backs.append(played_back_lineup(tapes, built))
    return backs


def play_pair(rules: Any, lineup: str, seed: int, back: list[Callable[[], Any]]) -> tuple[float, float, bool]:
    """CPU seconds of the match with its agents and of the same match played back (``back``), and whether the
    traces agree."""
    cpu = time.process_time
    start = cpu()
    first = simulate_match(rules, lineup, seed=seed)
    live = cpu() - start
    start = cpu()
    second = simulate_match(rules, back, seed=seed)
    taped = cpu() - start
    same = [r.trace for r in first.rounds] == [r.trace for r in second.rounds] and \
        first.standings == second.standings and second.end_reason == first.end_reason
    return live, taped, same


def goal_needs(goal: float, live: float, taped: float) -> str:
    """What a goal of ``goal`` matches/s asks of the agents, from a match's CPU seconds with them (``live``) and
    played back (``taped``, the engine alone)."""
    budget = 1.0 / goal
    agents = live - taped
    if live <= budget:
        return f"for {goal:g} matches/s ({1e3 * budget:.2f} ms a match): met already"
    if taped >= budget:
        return (f"for {goal:g} matches/s ({1e3 * budget:.2f} ms a match): the engine alone takes "
                f"{1e3 * taped:.2f} ms, so no work on the agents reaches it")
    allowed = budget - taped
    return (f"for {goal:g} matches/s ({1e3 * budget:.2f} ms a match): the agents' {1e3 * agents:.2f} ms a match "
            f"would have to fall to {1e3 * allowed:.2f} ms, {agents / allowed:.1f} times cheaper")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--lineup", default="collector")
    parser.add_argument("--goal", type=float, default=150.0, metavar="RATE",
                        help="matches per second to measure the agents' share against (default: 150)")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="also print the N functions with the most time of their own in the taped matches")
    args = parser.parse_args()
    if args.matches < 1 or args.profile < 0:
        parser.error(f"--matches {args.matches} / --profile {args.profile}: must be whole numbers, --matches >= 1")
    if not args.goal > 0 or args.goal == float("inf"):
        parser.error(f"--goal {args.goal:g}: must be a rate above 0 matches/s")
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})  # threads started from here on inherit it: a match and its watcher alike
        placed = f"pinned to core {core}"
    else:
        placed = "unpinned (this platform cannot pin a process)"
    print(f"machine: {os.cpu_count()} cores, load average {load()} at the start; kemps-sim {build_name()}; {placed}")
    try:
        rules = load_rules(args.preset, players=args.players)
        play_pair(rules, args.lineup, 10**6, tape(rules, args.lineup, range(10**6, 10**6 + 1))[0])  # warm up
    except ConfigError as exc:
        parser.error(f"--preset {args.preset} --players {args.players} --lineup {args.lineup}: {exc}")
    backs = tape(rules, args.lineup, range(args.matches))
    gc.collect()
    gc.freeze()  # the tapes live through the run: no collection walks them, as none walks a lone match's loop
    live = taped = 0.0
    identical = 0
    for seed, back in enumerate(backs):
        a, b, same = play_pair(rules, args.lineup, seed, back)
        live, taped, identical = live + a, taped + b, identical + same
    events = count_events(rules, args.lineup, range(args.matches))
    bare = bare_simpy_seconds_per_event(events)
    n = args.matches
    print(f"preset {args.preset}, {args.players} players, lineup {args.lineup!r}, {n} matches, one core, CPU time")
    print(f"identical traces, played back:  {identical}/{n}")
    print(f"with the agents:                {n / live:8.1f} matches/s ({1e3 * live / n:.2f} ms a match)")
    print(f"played back (agents ~free):     {n / taped:8.1f} matches/s ({1e3 * taped / n:.2f} ms a match)")
    print(f"the agents' share of a match:   {100 * (live - taped) / live:8.1f} %")
    print(f"SimPy events per match:         {events / n:8.0f}")
    print(f"played back, cost per event:    {1e6 * taped / events:8.2f} us, {taped / events / bare:.2f}x a bare "
          f"SimPy loop ({1e6 * bare:.2f} us)")
    print(goal_needs(args.goal, live / n, taped / n))
    if args.profile:
        profile(rules, args.lineup, min(n, 40), args.profile)
    print(f"load average at the end: {load()}")


def profile(rules: Any, lineup: str, matches: int, top: int) -> None:
    """The ``top`` functions by own time over ``matches`` played-back matches."""
    import cProfile
    import pstats
    pairs = []
    for seed in range(matches):
        factories, tapes, built = taped_lineup(lineup, rules.players)
        simulate_match(rules, factories, seed=seed)
        pairs.append(played_back_lineup(tapes, built))
    profiler = cProfile.Profile()
    profiler.enable()
    for seed, back in enumerate(pairs):
        simulate_match(rules, back, seed=seed, contained=False)
    profiler.disable()
    print(f"played back, {matches} matches, the functions with the most time of their own:")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


if __name__ == "__main__":
    main()
