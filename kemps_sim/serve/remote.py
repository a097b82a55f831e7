"""A seat played from outside the engine: a person at a browser, or a script standing in for one."""

from __future__ import annotations

import math
import queue
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from kemps_sim.agent import Agent, BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.intents import INTENT_TYPES, Gesture, Intent, Swap, Wait
from kemps_sim.observation import Observation

#: Simulated seconds between two looks at the inbox: 20 looks a second, under a person's fastest reaction.
POLL = 0.05
#: A report of what became of an intent sent: (the intent as sent, status, simulated time, round index, problem).
#: Simulated seconds within which a time counts as come (a wait shorter than the clock's resolution would not move
#: it on).
TIME_EPSILON = 1e-9
#: The profile's times a stand-in's intent waits for: a reaction, then the action's own.
ACTION_TIMES = ("reaction", "reach", "speech", "gesture_time")
Report = Callable[["Sent", str, float, int, str], None]


@dataclass(frozen=True)
class Sent:
    """An intent as a page sent it: its running number at the seat, the page's stamps (``client_time`` of the key
    or last click, ``first_client_time`` of a swap's first click; page clock, s), when the server had it
    (``server_time``), and the simulated time before which it is not played (``not_before``: a scripted person's
    own timing on a table that runs on the simulated clock; 0 for a person), and the round it was meant for (the
    round of the view it answered; -1: any): one that arrives after its round is over is not played in the next."""

    intent: Intent
    number: int = 0
    client_time: float = math.nan
    first_client_time: float = math.nan
    server_time: float = math.nan
    not_before: float = 0.0
    round: int = -1


class RemoteSeat(BaseAgent):
    """Its intents arrive in ``inbox`` from another thread (:meth:`send`); between them it looks again every
    ``poll`` simulated seconds. Its times are measured, not drawn (``measured_times``): the engine adds no reaction,
    reach or speech time to what it does, since the person's own are in when the intent arrives.

    ``publish`` (if given) receives the seat's view (``view_of``, and the simulated ``time``) whenever it changes,
    read from the seat's own observation, so that it holds nothing the seat may not know; ``notify`` hears why the
    engine refused an intent (:meth:`refused`); ``report`` what became of each intent sent (played, refused,
    unplayed); ``gate`` is called at every look (a paused table holds the seat there). After :meth:`stand_in` an
    agent plays the seat, at the human times of the seat's profile."""

    name = "remote"
    measured_times = True

    def __init__(self, poll: float = POLL, publish: Callable[[dict[str, Any]], None] | None = None,
                 notify: Callable[[str], None] | None = None, report: Report | None = None,
                 gate: Callable[[], None] | None = None) -> None:
        if isinstance(poll, bool) or not isinstance(poll, int | float) or not 0.0 < poll < math.inf:
            raise ConfigError(f"RemoteSeat.poll = {poll!r}: must be a number of seconds > 0")
        self.poll = float(poll)
        self.inbox: queue.SimpleQueue[Sent] = queue.SimpleQueue()
        self._look_again = Wait(self.poll)
        self.publish, self.notify, self.report, self.gate = publish, notify, report, gate
        self._shown: dict[str, Any] | None = None
        self._taken: tuple[Sent, float, int] | None = None  # the intent handed to the engine at the last look
        self._held: Sent | None = None  # an intent whose not_before is still to come
        self._stand_in: Agent | None = None
        self._due: tuple[Intent, float] | None = None  # a stand-in's intent and when its human time is up
        self._times: Callable[[Intent], float] | None = None
        self._rng: np.random.Generator | None = None

    def send(self, intent: Intent | Sent) -> None:
        """Queue an intent (bare, or :class:`Sent` with its stamps) for the seat's next look (any thread); what is
        not an intent is refused in one line."""
        sent = intent if isinstance(intent, Sent) else Sent(intent)
        if not isinstance(sent.intent, INTENT_TYPES):
            raise ConfigError(f"RemoteSeat.send({sent.intent!r}): not an intent; allowed: "
                              + ", ".join(kind.__name__ for kind in INTENT_TYPES))
        self.inbox.put(sent)

    def stand_in(self, agent: Agent, seat: int, players: int, rng: np.random.Generator) -> None:
        """From the next look on, ``agent`` plays the seat (its person left): each of its intents waits first for
        a reaction time and the action's own time (reach, speech or gesture) drawn from the seat's profile, as the
        engine would add for an agent, since the seat's times are otherwise measured."""
        agent.start_match(seat, players, rng)
        self._rng, self._stand_in = rng, agent

    def _human_time(self, obs: Observation, intent: Intent) -> float:
        if self._times is None:
            profile = obs.profile
            samplers = {name: profile.sampler(name, self._rng) for name in ACTION_TIMES}

            def human_time(chosen: Intent) -> float:
                action = "reach" if type(chosen) is Swap else "gesture_time" if type(chosen) is Gesture else "speech"
                return samplers["reaction"].next() + samplers[action].next()

            self._times = human_time
        return self._times(intent)

    def refused(self, intent: Intent, problem: str) -> Wait:
        """The engine refused an intent the rules do not allow now (a card taken before the click arrived): say so
        (``notify``, ``report``) and look again."""
        if self._taken is not None:
            sent, time, index = self._taken
            self._taken = None
            if self.report is not None:
                self.report(sent, "refused", time, index, problem)
        if self.notify is not None:
            self.notify(problem)
        return self._look_again

    def decide(self, obs: Observation) -> Intent:
        """The oldest intent sent and not yet played, else a look again after ``poll`` seconds (the view published
        first if it changed)."""
        self.settle()
        if self.publish is not None:
            view = view_of(obs)
            if view != self._shown:
                self._shown = view
                self.publish({**view, "time": obs.now})
        if self.gate is not None:
            self.gate()
        if self._stand_in is not None:
            return self._stood_in(obs)
        sent = self._held
        while sent is None or 0 <= sent.round != obs.round_index:
            if sent is not None:  # meant for a round that is over: its cards and calls mean nothing now
                self._held = None
                if self.report is not None:
                    self.report(sent, "unplayed", obs.now, obs.round_index, "its round was over")
            try:
                sent = self.inbox.get_nowait()
            except queue.Empty:
                return self._look_again
        if sent.not_before > obs.now + TIME_EPSILON:
            self._held = sent
            return Wait(min(self.poll, sent.not_before - obs.now))
        self._held = None
        self._taken = (sent, obs.now, obs.round_index)
        return sent.intent

    def settle(self) -> None:
        """The intent handed to the engine at the last look was not refused: it was played."""
        if self._taken is not None:
            sent, time, index = self._taken
            self._taken = None
            if self.report is not None:
                self.report(sent, "played", time, index, "")

    def unplayed(self) -> list[Sent]:
        """The intents sent that the match ended before playing (the inbox emptied)."""
        left = [] if self._held is None else [self._held]
        self._held = None
        while True:
            try:
                left.append(self.inbox.get_nowait())
            except queue.Empty:
                return left

    def _stood_in(self, obs: Observation) -> Intent:
        if self._due is not None:
            intent, at = self._due
            if obs.now + TIME_EPSILON < at:
                return Wait(at - obs.now)
            self._due = None
            return intent
        intent = self._stand_in.decide(obs)  # type: ignore[union-attr]
        if type(intent) is Wait:  # it looks again no sooner than a person's seat does (its seat's times are zero,
            # so a wait shorter than the clock's resolution would not move it on)
            return intent if intent.timeout is None or intent.timeout >= self.poll else self._look_again
        delay = self._human_time(obs, intent)
        self._due = (intent, obs.now + delay)
        return Wait(delay)


def view_of(obs: Observation) -> dict[str, Any]:
    """What a person at the seat has in front of them, from the seat's observation: the round, whether play is on,
    the seat's hand, the middle, its pair's signal, and each pair's letters, points and rounds won."""
    return {"round": obs.round_index, "playing": obs.playing, "seat": obs.seat, "hand": list(obs.hand),
            "middle": list(obs.middle), "signal": obs.signal, "letters": list(obs.letters), "points": list(obs.points),
            "rounds_won": list(obs.rounds_won)}
