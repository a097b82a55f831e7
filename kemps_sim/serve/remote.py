"""A seat played from outside the engine: a person at a browser, or a script standing in for one."""

from __future__ import annotations

import math
import queue
from collections.abc import Callable
from typing import Any

from kemps_sim.agent import BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.intents import INTENT_TYPES, Intent, Wait
from kemps_sim.observation import Observation

#: Simulated seconds between two looks at the inbox: 20 looks a second, under a person's fastest reaction.
POLL = 0.05


class RemoteSeat(BaseAgent):
    """Its intents arrive in ``inbox`` from another thread (:meth:`send`); between them it looks again every
    ``poll`` simulated seconds. Its times are measured, not drawn (``measured_times``): the engine adds no reaction,
    reach or speech time to what it does, since the person's own are in when the intent arrives.

    ``notify`` (if given) hears why the engine refused an intent (:meth:`refused`), and ``publish`` the seat's view
    (``view_of``: its hand, the middle, its pair's signal, the standings) whenever it changes, read from the seat's
    own observation, so that it holds nothing the seat may not know."""

    name = "remote"
    measured_times = True

    def __init__(self, poll: float = POLL, publish: Callable[[dict[str, Any]], None] | None = None,
                 notify: Callable[[str], None] | None = None) -> None:
        if isinstance(poll, bool) or not isinstance(poll, int | float) or not 0.0 < poll < math.inf:
            raise ConfigError(f"RemoteSeat.poll = {poll!r}: must be a number of seconds > 0")
        self.poll = float(poll)
        self.inbox: queue.SimpleQueue[Intent] = queue.SimpleQueue()
        self._look_again = Wait(self.poll)
        self.publish, self.notify = publish, notify
        self._shown: dict[str, Any] | None = None

    def send(self, intent: Intent) -> None:
        """Queue an intent for the seat's next look (any thread); what is not an intent is refused in one line."""
        if not isinstance(intent, INTENT_TYPES):
            raise ConfigError(f"RemoteSeat.send({intent!r}): not an intent; allowed: "
                              + ", ".join(kind.__name__ for kind in INTENT_TYPES))
        self.inbox.put(intent)

    def refused(self, intent: Intent, problem: str) -> Wait:
        """The engine refused an intent the rules do not allow now (a card taken before the click arrived): say so
        (``notify``) and look again."""
        if self.notify is not None:
            self.notify(problem)
        return self._look_again

    def decide(self, obs: Observation) -> Intent:
        """The oldest intent sent and not yet played, else a look again after ``poll`` seconds (the view published
        first if it changed)."""
        if self.publish is not None:
            view = view_of(obs)
            if view != self._shown:
                self._shown = view
                self.publish(view)
        try:
            return self.inbox.get_nowait()
        except queue.Empty:
            return self._look_again


def view_of(obs: Observation) -> dict[str, Any]:
    """What a person at the seat has in front of them, from the seat's observation: the round, whether play is on,
    the seat's hand, the middle, its pair's signal, and each pair's letters, points and rounds won."""
    return {"round": obs.round_index, "playing": obs.playing, "seat": obs.seat, "hand": list(obs.hand),
            "middle": list(obs.middle), "signal": obs.signal, "letters": list(obs.letters), "points": list(obs.points),
            "rounds_won": list(obs.rounds_won)}
