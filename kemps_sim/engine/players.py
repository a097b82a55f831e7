"""The seats during one round: their agents' views, the alarms they sleep on, and asking them what to do.

A seat sleeps on an :class:`~kemps_sim.engine.alarm.Alarm` until something it can see changes; whoever notices the
change rings it with the seat's reaction time. Asking an agent goes through one door (:meth:`Players.ask`), where
the answer is checked against the rules and anything an agent raises (even ``SystemExit`` or ``KeyboardInterrupt``:
a match runs in a thread of its own, see :mod:`kemps_sim.engine.guard`) becomes an :class:`AgentError` with context.
Every call into agent code is counted on the match's :class:`~kemps_sim.engine.guard.Stopwatch`, so that a call
that never returns is caught, and each seat's decisions in a round are held to ``EngineConfig.max_decisions_per_round``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import simpy

from kemps_sim.engine.alarm import Alarm
from kemps_sim.engine.checks import IntentChecker
from kemps_sim.engine.config import EngineConfig
from kemps_sim.engine.guard import Stopwatch
from kemps_sim.engine.seat import SeatKit
from kemps_sim.errors import AgentError
from kemps_sim.gestures import Repertoire
from kemps_sim.intents import INTENT_TYPES, Intent, Wait
from kemps_sim.observation import Observation
from kemps_sim.perception import Attention
from kemps_sim.state import RoundState
from kemps_sim.streams import GeneratorOrMaker, built

_INTENT_TYPES = frozenset(INTENT_TYPES)


class Players:
    """Every seat's agent, view and alarm for one round."""

    def __init__(self, env: simpy.Environment, state: RoundState, kits: Sequence[SeatKit], config: EngineConfig,
                 repertoire: Repertoire, tie_rng: GeneratorOrMaker, seed: int, watch: Stopwatch | None = None
                 ) -> None:
        self.env, self.state, self.kits, self.config, self.seed = env, state, kits, config, seed
        self.watch = watch if watch is not None else Stopwatch()
        self.watch.blame = self.agent_error
        #: ``hook(seat, what, function, *args)`` calls agent code (``decide`` or an optional hook) through the match's
        #: stopwatch, so that anything it raises, or a call stuck past ``decide_timeout``, becomes an AgentError with
        #: context. Bound once: agent code is asked about a thousand times a match.
        self.hook: Callable[..., Any] = self._strict_call if config.strict else self.watch.call
        self.tie_rng = tie_rng
        n = state.rules.players
        self.views = [Observation(s, state, kits[s].memory, profile=kits[s].profile, perceiver=kits[s].perceiver,
                                  repertoire=repertoire) for s in range(n)]
        self.waiting: list[Alarm | None] = [None] * n
        self.timed: list[Alarm | None] = [None] * n  # per seat: the alarm its own Wait's timeout may still ring
        #: Whether the engine keeps each seat's patience with the middle (``Wait(stale=True)``); per seat the middle
        #: version it last looked at (-1: none yet) and whether it now waits for its patience to run out.
        self.keeps_patience = not config.all_looks
        self.looked = [-1] * n
        self.stale = [False] * n
        self.passed = [-1] * n  # per seat: the middle version it last let pass (-1: none)
        self.decisions = [0] * n  # per seat: decide() calls this round, held to config.max_decisions_per_round
        self.checker = IntentChecker(state, repertoire)
        self.tie_waiters: list[simpy.Event] = []

    def _strict_call(self, seat: int, what: str, function: Callable[..., Any], *args: Any) -> Any:
        """Under ``EngineConfig.strict``, an agent call that also checks the agent left the table as it found it:
        a seat acts only through its intents, so one that reaches into the table (its own hand included) to move a
        card is caught in the act and named, rather than found out later under whoever decided last."""
        table = self.state.table
        before = _table_snapshot(table)
        answer = self.watch.call(seat, what, function, *args)
        if _table_snapshot(table) != before:
            raise self.agent_error(seat, f"{what}() changed the table (hands, middle, pack or discard) that it may "
                                         "only look at; an agent acts only through the intents it returns")
        return answer

    # Sleeping and waking ----------------------------------------------------------------------------------
    def sleep(self, seat: int, timeout: float | None, stale: bool = False) -> Alarm:
        """The alarm a seat sleeps on; with a timeout it rings by itself (and the seat then reacts as usual); a stale
        wait rings when the seat's patience with the middle runs out (:meth:`_patience_out`)."""
        alarm = Alarm(self.env)
        self.waiting[seat] = alarm
        self.stale[seat] = stale
        if stale:
            left = self.state.patience[seat][0] - self.env.now if self.keeps_patience else 0.0
            self.timed[seat] = alarm
            self.env.timeout(max(left, 0.0)).callbacks.append(lambda _: self._patience_out(seat, alarm))
        elif timeout is not None:
            self.timed[seat] = alarm
            reaction, timed = self.kits[seat].reaction_next, self.timed

            def time_out(_: simpy.Event) -> None:
                if not alarm.rung and timed[seat] is alarm:
                    alarm.ring(reaction())

            self.env.timeout(timeout).callbacks.append(time_out)
        return alarm

    # The patience the engine keeps ---------------------------------------------------------------------------
    def look(self, seat: int) -> None:
        """The seat looks at the middle (at each of its decisions): a middle it has not looked at before starts a
        fresh patience, drawn from its profile."""
        version = self.state.public.middle_version
        if self.looked[seat] != version:
            self.looked[seat] = version
            kept = self.state.patience[seat]
            kept[:] = (self.env.now + self.kits[seat].look_patience(),)

    def _patience_out(self, seat: int, alarm: Alarm) -> None:
        """A stale wait's patience ran out. The seat looks up after its reaction time: at the middle it last looked
        at, to decide (say "stalled"); at a middle that changed meanwhile by cards it did not wake for, to glance
        and start a fresh patience with it (:meth:`_glance`), without deciding anything."""
        if alarm.rung or self.timed[seat] is not alarm:
            return
        reaction = self.kits[seat].reaction_next()
        if not self.keeps_patience or self.state.public.middle_version == self.looked[seat]:
            alarm.ring(reaction)
        else:
            self.env.timeout(reaction).callbacks.append(lambda _: self._glance(seat, alarm))

    def _glance(self, seat: int, alarm: Alarm, _looked: simpy.Event | None = None) -> None:
        """A stale sleeper looks at the middle: its patience starts afresh (a middle it has seen: it decides).
        (``_looked``: the timeout of the look, when this runs as its callback.)"""
        if alarm.rung or self.timed[seat] is not alarm:
            return
        if self.state.public.middle_version == self.looked[seat]:
            alarm.ring(0.0)
            return
        self.look(seat)
        left = self.state.patience[seat][0] - self.env.now
        self.env.timeout(left).callbacks.append(lambda _: self._patience_out(seat, alarm))

    def wake(self, seat: int) -> None:
        """Wake a sleeping seat so it reacts to what changed: its alarm goes off after its reaction time."""
        alarm = self.waiting[seat]
        if alarm is not None and not alarm.rung:
            alarm.ring(self.kits[seat].reaction_next())

    def wake_all(self, read: int = 0) -> None:
        """Wake every sleeper; each first takes in ``read`` middle cards (a fresh middle at the start of play)."""
        for seat, alarm in enumerate(self.waiting):
            if alarm is not None and not alarm.rung:
                kit = self.kits[seat]
                alarm.ring(kit.reaction_next() + kit.read(read) if read else kit.reaction_next())

    def stall_heard(self) -> None:
        """Someone said "stalled": wake every sleeper whose agent says it might act on it (``wakes_on_stall``:
        an objection, a card it still wants); the others sleep on without their own timeout, which is what they
        would have chosen when woken (wait for the fresh middle or a withdrawn stall, both of which wake everyone).
        """
        kits, views = self.kits, self.views
        for seat, alarm in enumerate(self.waiting):
            if alarm is None or alarm.rung:
                continue
            kit = kits[seat]
            if self.hook(seat, "wakes_on_stall", kit.wakes_on_stall, views[seat]):
                alarm.ring(kit.reaction_next())
            else:
                self.timed[seat] = None

    def fresh_middle(self, laid: Sequence[int], read: int = 0) -> None:
        """A fresh middle is down: every sleeper looks at it (a reaction time, and ``read`` cards to take in). A
        seat waiting stale whose agent wants none of the ``laid`` cards (``wakes_on_middle``) only glances and
        starts a fresh patience; every other seat decides, as :meth:`wake_all` has it."""
        if not self.keeps_patience:
            self.wake_all(read)
            return
        kits, views = self.kits, self.views
        for seat, alarm in enumerate(self.waiting):
            if alarm is None or alarm.rung:
                continue
            kit = kits[seat]
            delay = kit.reaction_next() + kit.read(read) if read else kit.reaction_next()
            if self.stale[seat] and not self.hook(seat, "wakes_on_middle", kit.wakes_on_middle, views[seat], laid):
                self.timed[seat] = alarm
                self.env.timeout(delay).callbacks.append(partial(self._glance, seat, alarm))
            else:
                alarm.ring(delay)

    def middle_changed(self, arrived: Sequence[int], version: int, wake: bool) -> bool:
        """The middle is now at ``version``: wake every sleeper the arrived cards concern, after its reaction time
        and the time it takes to read them (``PlayerProfile.card_read``); return whether any sleeper goes on
        passing on the middle.

        A sleeper whose agent says the arrived cards do not concern it (``wakes_on_middle``) goes on waiting and
        passing; with ``wake`` off (a sweep, or cards that may not be taken yet) every sleeper does.
        """
        passed, kits, views = self.passed, self.kits, self.views
        still_passing = False
        for seat, alarm in enumerate(self.waiting):
            if alarm is None or alarm.rung:
                continue
            if wake and self.hook(seat, "wakes_on_middle", kits[seat].wakes_on_middle, views[seat], arrived):
                alarm.ring(kits[seat].reaction_next() + kits[seat].read(len(arrived)))
            elif passed[seat] == version - 1:
                passed[seat] = version
                still_passing = True
        return still_passing

    def tie(self) -> simpy.Event:
        """An event to wait on when other events fall due at this very instant (``env.peek() == env.now``).

        Everything due now arrives first; the waiters then go on in a random order, so exact ties (possible
        with fixed timings) are broken at random, never by seat or scheduling order.
        """
        event = self.env.event()
        self.tie_waiters.append(event)
        if len(self.tie_waiters) == 1:
            self.env.timeout(0).callbacks.append(self._release_ties)
        return event

    def _release_ties(self, _: simpy.Event) -> None:
        waiters, self.tie_waiters = self.tie_waiters, []
        rng = self.tie_rng = built(self.tie_rng)
        for i in rng.permutation(len(waiters)):
            waiters[i].succeed()

    # Asking agents ----------------------------------------------------------------------------------------
    def ask(self, seat: int) -> Intent:
        """The seat's agent's intent now, checked against the rules, after which its attention policy looks."""
        kit = self.kits[seat]
        view = self.views[seat]
        decisions = self.decisions
        decisions[seat] += 1
        if self.keeps_patience:
            self.look(seat)
        if decisions[seat] > self.config.max_decisions_per_round:
            raise self.agent_error(seat, f"more than {self.config.max_decisions_per_round} decisions in one round "
                                   "(engine.max_decisions_per_round): the agent never lets the round move on")
        intent = self.hook(seat, "decide", kit.agent.decide, view)
        if type(intent) not in _INTENT_TYPES:
            raise self.agent_error(seat, f"decide() returned {intent!r}, which is not an intent; allowed: "
                                   + ", ".join(t.__name__ for t in INTENT_TYPES))
        problem = self.checker.problem(seat, intent)
        if problem is not None:
            intent = self._refused(seat, kit, intent, problem)
        if kit.gaze is not None:
            self._look(seat, kit)
        return intent

    def _refused(self, seat: int, kit: SeatKit, intent: Intent, problem: str) -> Intent:
        """An intent the rules do not allow ends the match, as an agent's error, except at a seat whose times are
        measured (a person's: a card they clicked may be gone by the time the click arrives): its agent is told
        (``refused(intent, problem)``) and waits as it answers."""
        refused = getattr(kit.agent, "refused", None) if kit.measured else None
        if refused is None:
            raise self.agent_error(seat, problem)
        instead = self.hook(seat, "refused", refused, intent, problem)
        if type(instead) is not Wait:
            raise self.agent_error(seat, f"refused() returned {instead!r}; allowed: a Wait")
        return instead

    def _look(self, seat: int, kit: SeatKit) -> None:
        """Apply the agent's attention policy: where its eyes go from this decision on."""
        attention = self.hook(seat, "gaze", kit.gaze, self.views[seat])
        if attention is None or attention is kit.perceiver.attention:
            return
        if not isinstance(attention, Attention):
            raise self.agent_error(seat, f"gaze() returned {attention!r}; allowed: an Attention or None")
        kit.perceiver.look(attention)

    def agent_error(self, seat: int, problem: str) -> AgentError:
        """An error naming the agent, seat, simulated time and seed."""
        number = self.state.public.round_index + 1  # rounds are numbered from 1, as in the play-by-play
        return AgentError(f"agent {self.kits[seat].agent_name} at seat {seat}, round {number}, "
                          f"t={self.env.now:.3f} s, seed {self.seed}: {problem}")


def _table_snapshot(table: Any) -> tuple[Any, ...]:
    """Every card's place on the table, as values that agent code cannot change afterwards."""
    return (tuple(map(tuple, table.hands)), tuple(table.middle), tuple(table.pack), tuple(table.discard),
            tuple(table.owed))
