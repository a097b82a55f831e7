"""A match played live: on which clock its rounds run, and who hears each event the moment it happens.

A sweep plays as fast as the computer can (SimPy's plain environment, the default). People at the table need the
clock of the wall: :meth:`Live.realtime` runs every round on SimPy's real-time environment, ``factor`` wall seconds
to a simulated second, and non-strict, so that a slow moment of the computer delays the table rather than failing
it. The ``listener`` hears every event of the trace as it is recorded, with the index of its round, unfiltered:
a server shows each seat what it may know of it (:func:`kemps_sim.visibility.seen_by`). The clock changes when
things happen in wall time, never what happens: the same match on either clock has the same trace.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import simpy
import simpy.rt

from kemps_sim.errors import ConfigError
from kemps_sim.trace import TraceEvent

Listener = Callable[[int, TraceEvent], None]


@dataclass(frozen=True)
class Live:
    """The clock each round runs on (a factory of SimPy environments) and the listener of every event."""

    clock: Callable[[], simpy.Environment] = simpy.Environment
    listener: Listener | None = None
    #: Hears the game's whole position after each event, for a game whose people are shown a board drawn from it
    #: (Krepet's :func:`kemps_sim.krepet.remote.board_of`); a Kemps match shows views of the seats instead.
    position: Callable[[object], None] | None = None

    def __post_init__(self) -> None:
        if not callable(self.clock):
            raise ConfigError(f"live.clock = {self.clock!r}: must make a SimPy environment, such as simpy.Environment")
        if self.listener is not None and not callable(self.listener):
            raise ConfigError(f"live.listener = {self.listener!r}: must be called with (round index, event), or None")
        if self.position is not None and not callable(self.position):
            raise ConfigError(f"live.position = {self.position!r}: must be called with the game's position, or None")

    @classmethod
    def realtime(cls, factor: float = 1.0, listener: Listener | None = None) -> Live:
        """Rounds on the wall's clock: ``factor`` wall seconds per simulated second (1: real speed)."""
        if isinstance(factor, bool) or not isinstance(factor, int | float) or not 0.0 < factor < float("inf"):
            raise ConfigError(f"live.factor = {factor!r}: must be a number > 0 (wall seconds per simulated second)")
        return cls(lambda: simpy.rt.RealtimeEnvironment(factor=float(factor), strict=False), listener)

    def environment(self) -> simpy.Environment:
        """A new environment for one round."""
        env = self.clock()
        if not isinstance(env, simpy.Environment):
            raise ConfigError(f"live.clock made {type(env).__name__}, not a simpy.Environment")
        return env
