"""A match stepped from outside: the engine plays on until a learner seat must decide, then hands control back.

The engine asks its agents (``decide(view)``) from inside SimPy's processes; a learning algorithm wants to be asked
instead (``step(action)``). :class:`MatchDriver` plays the whole match, unchanged, in a greenlet (a coroutine with a
stack of its own, the ``greenlet`` package): a learner seat's ``decide`` switches back to whoever stepped the
match, with the seat's view, and the action that comes back is the intent it returns. Nothing in the engine knows
the difference, so the learner's intents go through the same checks, reaction, reach and speech times as every
agent's, and the match is the same function of its seed as any other.

A switch costs about a microsecond (a thread hand-off costs tens), and the match keeps no thread of its own, so
an environment can be copied into worker processes, and closed at any point (:meth:`MatchDriver.close`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import greenlet

from kemps_sim.agent import BaseAgent
from kemps_sim.engine.guard import MatchCancelled
from kemps_sim.errors import ConfigError


class MatchDriver:
    """One match, played in its own greenlet until a learner decides; :meth:`start`, then :meth:`answer` each
    decision. Both return the next decision as ``(seat, view)``, or None once the match is over (``result``)."""

    def __init__(self, play: Callable[[], Any]) -> None:
        self._play = play
        self._green = greenlet.greenlet(self._run)
        self._caller: greenlet.greenlet | None = None
        self.result: Any = None
        self.pending: tuple[int, Any] | None = None

    def _run(self) -> None:
        self.result = self._play()

    def start(self) -> tuple[int, Any] | None:
        """Play from the first deal to the first learner decision (or to the end)."""
        return self._switch(())

    def answer(self, intent: Any) -> tuple[int, Any] | None:
        """Give the pending decision's intent; play on to the next learner decision (or to the end)."""
        if self.pending is None:
            raise ConfigError("MatchDriver.answer: no decision is pending (the match is over or not started)")
        return self._switch((intent,))

    def _switch(self, args: tuple) -> tuple[int, Any] | None:
        self._caller = greenlet.getcurrent()
        self.pending = None
        self.pending = self._green.switch(*args)
        return self.pending

    def decide(self, seat: int, view: Any) -> Any:
        """Called inside the match by a learner seat: hand its view out and wait for its intent."""
        assert self._caller is not None
        return self._caller.switch((seat, view))

    @property
    def over(self) -> bool:
        """Whether the match has ended (or was never started and cannot be)."""
        return self._green.dead

    def close(self) -> None:
        """Stop a match still being played (its greenlet unwinds, restoring what the engine changed)."""
        if self._green and not self._green.dead:
            with contextlib.suppress(MatchCancelled):
                self._green.throw(MatchCancelled)
        self.pending = None


class LearnerSeat(BaseAgent):
    """The seat of a learning agent: each decision is handed to the driver, whose caller answers it.

    Its pair's signal is chosen as :class:`~kemps_sim.agent.BaseAgent` chooses it (the pair's first candidate,
    kept all match); its eyes stay as its profile spreads them; every percept and every change of the middle
    wakes it, like any agent that does not filter its wake-ups.
    """

    name = "learner"

    def __init__(self, driver: MatchDriver | None = None) -> None:
        self.driver = driver

    def decide(self, obs: Any) -> Any:
        """The learner's intent, asked of the driver's caller."""
        if self.driver is None:
            raise ConfigError("LearnerSeat: no driver; a learner seat plays only inside a learning environment")
        return self.driver.decide(self.seat, obs)
