"""Bad input at the doors of the compiled modules, each case's outcome printed as JSON: run by
``tests/test_compiled_build.py`` in the pure-Python tree and in the compiled one, which must refuse alike (compiled
code checks its declared types on entry, so a door that takes anything declares ``object``).

    python tests/bad_input_probe.py FOLDER   # FOLDER: where kemps_sim and kemps_sim_agents import from
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

sys.path.insert(0, sys.argv[1])

import numpy as np

from kemps_sim import load_rules, simulate_match
from kemps_sim.agent import BaseAgent
from kemps_sim.cards import card_name
from kemps_sim.intents import CallStopKemps, Gesture, Intent, Swap, Wait
from kemps_sim.observation import Observation
from kemps_sim.table import TableState


def misbehaving(intent: Callable[[Observation], Intent]) -> type[BaseAgent]:
    """An agent whose every decision is ``intent(obs)``."""
    class Misbehaving(BaseAgent):
        name = "misbehaving"

        def decide(self, obs: Observation) -> Intent:
            return intent(obs)
    return Misbehaving


def played(intent: Callable[[Observation], Intent]) -> str:
    result = simulate_match("standard", [misbehaving(intent), "collector"], seed=3, errors="record")
    return f"{result.end_reason}: {result.error}"


def table() -> TableState:
    rules = load_rules("standard")
    return TableState.deal(rules, np.random.default_rng(0), dealer=0)[0]


CASES: dict[str, Callable[[], object]] = {
    "a bool seat": lambda: table().swap(True, (0,), (1,)),
    "a text seat": lambda: table().swap("0", (0,), (1,)),
    "a bool card": lambda: (lambda t: t.swap(0, (True,), (t.middle[0],)))(table()),
    "a card that is text": lambda: card_name("x"),
    "a bool card's name": lambda: card_name(True),
    "a stale flag that is text": lambda: played(lambda obs: Wait(stale="yes")),  # type: ignore[arg-type]
    "a timeout that is text": lambda: played(lambda obs: Wait(timeout="1")),  # type: ignore[arg-type]
    "a swap of a bool card": lambda: played(lambda obs: Swap((True,), (obs.middle[0],))),
    "a swap of a list": lambda: played(lambda obs: Swap([obs.hand[0]], [obs.middle[0]])),  # type: ignore[arg-type]
    "a gesture named by a number": lambda: played(lambda obs: Gesture(5)),  # type: ignore[arg-type]
    "an accused that is text": lambda: played(lambda obs: CallStopKemps("1")),  # type: ignore[arg-type]
    "an accused that is a bool": lambda: played(lambda obs: CallStopKemps(True)),
    "a shy that is text": lambda: simulate_match("standard", "watcher(shy='half')", seed=0),
    "a shy that is a bool": lambda: simulate_match("standard", "watcher(shy=True)", seed=0),
    "a caution that is a bool": lambda: simulate_match("standard", "collector(caution=True)", seed=0),
    "a threshold that is text": lambda: simulate_match("standard", "collector(threshold='high')", seed=0),
    "a signal that is None": lambda: simulate_match("standard", "collector(signal=None)", seed=0),
    "a discipline that is a bool": lambda: simulate_match("standard", "collector(signal_discipline=True)", seed=0),
    "an attention that is a number": lambda: simulate_match("standard", "collector(attention=3)", seed=0),
}


def outcome(case: Callable[[], object]) -> str:
    try:
        value = case()
    except Exception as exc:  # the refusal is the outcome compared
        return f"{type(exc).__name__}: {exc}"
    return value if isinstance(value, str) else f"returned {type(value).__name__}"


if __name__ == "__main__":
    print(json.dumps({name: outcome(case) for name, case in CASES.items()}, indent=1))
