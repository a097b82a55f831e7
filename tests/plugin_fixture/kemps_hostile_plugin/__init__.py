"""Agents that misbehave the ways agent code can, for the containment tests: each plays like the collector and,
in a share ``p`` of its matches (drawn from its own stream, so the same seeds misbehave on every executor), does
its one bad thing at its first decision.

The tests install it as a plugin (an ``entry_points.txt`` on ``PYTHONPATH``), so worker processes and Dask workers
find it by name like any third-party agent.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from dataclasses import dataclass

import numpy as np
from kemps_sim_agents import Collector

from kemps_sim.intents import Intent
from kemps_sim.observation import Observation

#: Environment variable naming a file: the killer kills its worker only while that file does not exist yet.
KILL_MARKER = "KEMPS_HOSTILE_KILL_MARKER"
#: Environment variable naming the process the killer must never kill (the one running the tests).
PARENT = "KEMPS_HOSTILE_PARENT"


@dataclass(repr=False, eq=False)
class _Hostile(Collector):
    """A collector that, in a share ``p`` of its matches, misbehaves at its first decision."""

    p: float = 1.0
    name = "hostile"
    description = "test plugin: misbehaves once per match"

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        super().start_match(seat, players, rng)
        self._armed = bool(rng.random() < self.p)

    def decide(self, obs: Observation) -> Intent:
        if self._armed:
            self._armed = False
            self.misbehave()
        return super().decide(obs)

    def misbehave(self) -> None:
        raise NotImplementedError


@dataclass(repr=False, eq=False)
class Looper(_Hostile):
    name = "looper"
    description = "test plugin: loops for ever in decide()"

    def misbehave(self) -> None:
        while True:
            pass


@dataclass(repr=False, eq=False)
class Sleeper(_Hostile):
    name = "sleeper"
    description = "test plugin: sleeps for an hour in decide()"

    def misbehave(self) -> None:
        time.sleep(3600)


@dataclass(repr=False, eq=False)
class Exiter(_Hostile):
    name = "exiter"
    description = "test plugin: calls sys.exit(3) in decide()"

    def misbehave(self) -> None:
        sys.exit(3)


@dataclass(repr=False, eq=False)
class Interrupter(_Hostile):
    name = "interrupter"
    description = "test plugin: raises KeyboardInterrupt in decide()"

    def misbehave(self) -> None:
        raise KeyboardInterrupt


@dataclass(repr=False, eq=False)
class Killer(_Hostile):
    """Kills the worker process it runs in (SIGKILL: nothing in it can react): with ``always`` every time, else
    once per marker file (``KEMPS_HOSTILE_KILL_MARKER``). Never the process named by ``KEMPS_HOSTILE_PARENT``
    (the test's own), so a serial run plays on as a collector."""

    always: bool = False
    name = "killer"
    description = "test plugin: kills its worker process"

    def misbehave(self) -> None:
        if os.getpid() == int(os.environ.get(PARENT, "0")):
            return
        if not self.always:
            marker = os.environ.get(KILL_MARKER)
            if not marker:
                return
            try:
                os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                return
        os.kill(os.getpid(), signal.SIGKILL)


AGENTS = {cls.name: cls for cls in (Looper, Sleeper, Exiter, Interrupter, Killer)}
