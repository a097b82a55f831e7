"""An event that a sleeping player waits on, rung with a delay: the player's reaction time.

Waking a player and letting it react are one SimPy event instead of two: whoever notices a change rings the
sleeper's alarm with the sleeper's own reaction time, and the player decides when it goes off.
"""

from __future__ import annotations

from simpy.core import NORMAL, Environment
from simpy.events import PENDING, Event


class Alarm(Event):
    """A one-shot event that goes off ``delay`` seconds after it is rung (as :class:`simpy.Timeout` is built)."""

    __slots__ = ()

    def __init__(self, env: Environment) -> None:
        super().__init__(env)

    @property
    def rung(self) -> bool:
        """Whether it has been rung (it may not have gone off yet)."""
        return self._value is not PENDING

    def ring(self, delay: float) -> None:
        """Go off after ``delay`` seconds; ringing a rung alarm does nothing."""
        if self._value is PENDING:
            self._ok = True
            self._value = None
            self.env.schedule(self, NORMAL, delay)
