"""Why seats decide: every decision of a match counted by what woke the seat and what it then did.

    python benchmarks/wake_causes.py [--matches 100] [--preset standard] [--players 4] [--lineup collector]
                                     [--all-looks]

A seat decides at its first look at an open round, when it has just finished an action of its own, or when its
alarm goes off: rung by a change of
the middle its agent cares about (``wakes_on_middle``), by a percept (``wakes_on``), by everyone being woken
(play opening, someone saying "stalled", a fresh middle laid, a call heard), or by the timeout of its own
``Wait``. Most of a match's time is spent in these decisions, so this table says where a faster engine would
have to save: decisions that end in ``Wait`` come from the human model (every player keeps its own patience per
middle and looks at every fresh middle), not from the engine. ``--all-looks`` counts them with every look a person
makes, as before the engine asked agents which changes concern them (``EngineConfig.all_looks``). Counts are per
match; nothing is timed.
"""

from __future__ import annotations

import argparse
import collections
import sys

import kemps_sim.engine.players as players_module
from kemps_sim import load_rules, simulate_match
from kemps_sim.build import compiled
from kemps_sim.engine.alarm import Alarm
from kemps_sim.engine.config import EngineConfig
from kemps_sim.intents import Wait

#: Which code rang an alarm, by the name of the engine function two frames up.
CAUSES = {"middle_changed": "a middle change it cares about", "wake": "a percept",
          "_open_play": "everyone woken: play opens", "stall_said": "everyone woken: someone said stalled",
          "stall_heard": "someone said stalled (a seat it concerns)",
          "fresh_middle": "a fresh middle it decides on",
          "_patience_out": "its patience with the middle ran out", "_glance": "its patience ran out (at a glance)",
          "objection": "everyone woken: an objection", "_sweep_and_deal": "everyone woken: a fresh middle",
          "_heard": "everyone woken: a call heard", "time_out": "its own Wait's timeout",
          "<lambda>": "its own Wait's timeout"}  # (the name before the compiled build)


#: The key under which :func:`count` counts the glances that restart a stale sleeper's patience (no decision).
GLANCES = "glances"


def count(preset: str, players: int, lineup: str, matches: int, config: EngineConfig | None = None
          ) -> collections.Counter:
    """(cause, intent) -> decisions over ``matches`` matches, by patching the engine's alarm and ask for the run."""
    causes: dict[int, str] = {}
    pending: dict[tuple[int, int], Alarm] = {}
    counts: collections.Counter = collections.Counter()
    ring, sleep, ask = Alarm.ring, players_module.Players.sleep, players_module.Players.ask

    def tagged_ring(self: Alarm, delay: float) -> None:
        if not self.rung:
            frame = sys._getframe(1)
            name = frame.f_code.co_name
            if name == "wake_all":  # the function that called wake_all says why everyone woke
                frame = frame.f_back
                name = frame.f_code.co_name
                if name == "fresh_middle":  # under all_looks a fresh middle wakes everyone
                    name = frame.f_back.f_code.co_name
            causes[id(self)] = CAUSES.get(name, name)
        ring(self, delay)

    def tracked_sleep(self, seat: int, timeout: float | None, stale: bool = False) -> Alarm:
        alarm = sleep(self, seat, timeout, stale)
        pending[(id(self), seat)] = alarm
        return alarm

    def counted_ask(self, seat: int):
        alarm = pending.pop((id(self), seat), None)
        if alarm is not None:
            cause = causes.pop(id(alarm), "?")
        else:
            cause = "its own action just ended" if self.decisions[seat] else "the round's first look (play open)"
        intent = ask(self, seat)
        kind = type(intent).__name__
        if type(intent) is Wait:
            kind = ("Wait (stale)" if intent.stale else "Wait (until woken)" if intent.timeout is None
                    else "Wait (with a timeout)")
        counts[(cause, kind)] += 1
        return intent

    def counted_look(self, seat: int) -> None:
        if sys._getframe(1).f_code.co_name == "_glance":  # a look that is not a decision
            counts[(GLANCES, "")] += 1
        look(self, seat)

    look = players_module.Players.look
    Alarm.ring, players_module.Players.sleep, players_module.Players.ask = tagged_ring, tracked_sleep, counted_ask
    players_module.Players.look = counted_look
    try:
        rules = load_rules(preset, players=players)
        for seed in range(matches):
            simulate_match(rules, lineup, seed=seed, config=config)
    finally:
        Alarm.ring, players_module.Players.sleep, players_module.Players.ask = ring, sleep, ask
        players_module.Players.look = look
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--lineup", default="collector")
    parser.add_argument("--all-looks", action="store_true", help="every look a person makes (EngineConfig.all_looks)")
    args = parser.parse_args()
    if compiled():
        parser.error("this count replaces the engine's methods, which the compiled build's classes do not allow: "
                     "run it on the pure-Python package (pip install -e . without KEMPS_SIM_COMPILE)")
    if args.matches < 1:
        parser.error(f"--matches {args.matches}: must be a whole number >= 1")
    counts = count(args.preset, args.players, args.lineup, args.matches, EngineConfig(all_looks=args.all_looks))
    glances = counts.pop((GLANCES, ""), 0)
    total = sum(counts.values())
    print(f"preset {args.preset}, {args.players} players, lineup {args.lineup!r}, {args.matches} matches: "
          f"{total / args.matches:.1f} decisions per match")
    by_cause: collections.Counter = collections.Counter()
    for (cause, _), n in counts.items():
        by_cause[cause] += n
    for cause, n in by_cause.most_common():
        outcomes = ", ".join(f"{kind} {m / args.matches:.1f}" for (c, kind), m in counts.most_common() if c == cause)
        print(f"  {cause:42} {n / args.matches:6.1f} a match ({100 * n / total:4.1f} %): {outcomes}")
    waits = sum(n for (_, kind), n in counts.items() if kind.startswith("Wait"))
    print(f"  decisions that end in Wait: {waits / args.matches:.1f} a match ({100 * waits / total:.1f} %)")
    print(f"  glances that restart a stale sleeper's patience, no decision: {glances / args.matches:.1f} a match")


if __name__ == "__main__":
    main()
