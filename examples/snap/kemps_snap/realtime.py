"""Snap on the SimPy clock: every player turns its cards at its own pace, everyone watches, and calls race.

Each player, on its own, reacts (the profile's ``reaction``), lifts its top face-down card and lays it on its
face-up pile after its ``reach``; an empty face-down pile is refilled by turning the face-up pile over (one
reach). A player saying "Snap!" turns nothing until it has said it: its hands wait for its voice.
Every card that lands is one look at the piles for every player still in and not speaking: with its attention on
the piles it sees them fixated, else at the edge of view (the profile's ``peripheral``), else not at all, and it
takes them in as "a match" when the evidence passes its criterion (equal-variance signal detection with the
profile's d', :class:`~kemps_sim.perception.Perceiver`): a hit if two tops really share a rank, a false alarm if
not; a near match (two tops one rank apart) is a lure, seen with half the d' and so taken for a match more often.
The percept arrives after the profile's ``perception_latency``; the agent then calls or keeps quiet, and a call is
heard after the profile's ``speech``.

A call is judged when heard: right while a match shows (the caller takes every matched face-up pile under its
face-down pile), else ``late`` when the caller had seen a real match (free unless ``late_calls_pay``) or ``false``
(it pays ``false_call_penalty`` cards to each other player still in). Calls heard at the same simulated instant
are judged in an order drawn from the match's seed. A player left without a card is out; the match ends when one
player holds every card (``all_cards``) or at ``max_seconds`` (``timeout``: most cards wins, a tie is a draw).
All randomness comes from one :class:`numpy.random.SeedSequence` root: the deal, each agent, each player's timings
and perception, and the order of tied calls, each a stream of its own.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

import numpy as np
import simpy

from kemps_sim.engine.gc_pause import fewer_collections
from kemps_sim.engine.guard import Stopwatch, run_contained
from kemps_sim.engine.seat import STREAM_KEYS
from kemps_sim.errors import AgentError, ConfigError
from kemps_sim.gestures import Gesture
from kemps_sim.perception import OPPONENT, Attention, Perceiver
from kemps_sim.profiles import PlayerProfile
from kemps_snap.agent import Habits, SnapView
from kemps_snap.result import SnapResult
from kemps_snap.rules import SnapRules
from kemps_snap.table import Table, deal
from kemps_snap.trace import VERDICTS, CallHeard, MatchEnded, Noticed, Out, SnapEvent, Turned, TurnedOver

#: Two face-up cards of one rank: a plain sight, seen with twice the d' of an ordinary gesture (an estimate).
MATCH_CUE = Gesture("snap_pair", salience=2.0)
#: Two tops one rank apart, the lure: the same look with the d' of an ordinary gesture, so half the contrast.
NEAR_CUE = Gesture("snap_pair", salience=1.0)
#: The root keys of a match's streams.
DEAL, AGENT, SEAT, TIES = range(4)


@dataclass(frozen=True)
class SnapConfig:
    """The engine's settings (a spec's ``engine.`` keys): ``decide_timeout`` (wall seconds, None: none) holds every
    call into an agent; ``strict`` checks after every move that every card is somewhere, once."""

    decide_timeout: float | None = 30.0
    strict: bool = False

    def __post_init__(self) -> None:
        t = self.decide_timeout
        if t is not None and (isinstance(t, bool) or not isinstance(t, int | float) or not t > 0):
            raise ConfigError(f"engine.decide_timeout = {t!r}: must be None or a number of seconds > 0")
        if not isinstance(self.strict, bool):
            raise ConfigError(f"engine.strict = {self.strict!r}: must be true or false")


class _Player:
    """One player's agent, timings and perceiver for a match, and what it is doing."""

    def __init__(self, index: int, name: str, agent: Any, habits: Habits, profile: PlayerProfile,
                 seed: np.random.SeedSequence) -> None:
        def stream(key: str) -> np.random.Generator:
            return np.random.default_rng(np.random.SeedSequence(seed.entropy,
                                                                spawn_key=(*seed.spawn_key, STREAM_KEYS[key])))

        self.index, self.name, self.agent = index, name, agent
        self.reaction = profile.sampler("reaction", stream("reaction")).next
        self.reach = profile.sampler("reach", stream("reach")).next
        self.speech = profile.sampler("speech", stream("speech")).next
        self.latency = profile.sampler("perception_latency", stream("perception_latency")).next
        observer = profile.observer if habits.criterion is None else dataclasses.replace(
            profile.observer, criterion=habits.criterion)
        a = habits.attention
        attention = Attention(partner=0.0, opponents=a, middle=0.0, own_hand=1.0 - a,
                              peripheral=profile.attention.peripheral)
        self.perceiver = Perceiver(observer, attention, stream("perception"), n_opponents=1)
        self.speaking = self.out = False
        self.hushed: simpy.Event | None = None  # while it calls, its hands wait for this
        self.tally = [0, 0, 0]  # calls right, late, false


class SnapSim:
    """One match on the clock (see the module docstring); :meth:`run` plays it and returns the result."""

    def __init__(self, rules: SnapRules, players: list[_Player], table: Table, seed: int, config: SnapConfig,
                 watch: Stopwatch) -> None:
        self.rules, self.players, self.table, self.seed, self.config, self.watch = \
            rules, players, table, seed, config, watch
        self.env = simpy.Environment()
        self.over = self.env.event()
        self.trace: list[SnapEvent] = []
        self.ties = np.random.default_rng(_stream(seed, TIES))
        self.match_since: float | None = None  # when the match showing now first showed
        self.heard: list[tuple[int, float, bool]] = []  # calls heard this instant, not judged yet
        watch.blame = self._blame

    def run(self) -> SnapResult:
        """Play until the match ends."""
        for p in range(len(self.players)):
            self.env.process(self._turner(p))
        self.env.process(self._clock())
        self.env.run(until=self.over)
        return self._result(self.over.value)

    def failed(self, error: BaseException) -> SnapResult:
        """The match as it stood when an agent's ``error`` ended it (its trace so far kept)."""
        return self._result("agent_error", str(error))

    def _result(self, reason: str, error: str = "") -> SnapResult:
        held = tuple(self.table.held(p) for p in range(len(self.players)))
        winner = -1
        if reason != "agent_error":
            best = max(held)
            winner = held.index(best) if held.count(best) == 1 else -1
        self.trace.append(MatchEnded(self.env.now, reason, winner, held))
        return SnapResult(self.rules, self.seed, tuple(p.name for p in self.players), reason,
                          None if winner < 0 else winner, held, self.env.now, tuple(self.trace), error)

    def _end(self, reason: str) -> None:
        if not self.over.triggered:
            self.over.succeed(reason)

    def _clock(self) -> Generator[simpy.Event, Any, None]:
        yield self.env.timeout(self.rules.max_seconds)
        self._end("timeout")

    # Hands -----------------------------------------------------------------------------------------------------
    def _turner(self, p: int) -> Generator[simpy.Event, Any, None]:
        env, t, me = self.env, self.table, self.players[p]
        while not (self.over.triggered or me.out):
            yield env.timeout(me.reaction())
            while me.hushed is not None:  # a player saying "Snap!" does not turn a card meanwhile
                yield me.hushed
            if self.over.triggered or me.out:
                return
            if not t.down[p]:  # turn the face-up pile over: one reach
                yield env.timeout(me.reach())
                if not self.over.triggered and not t.down[p] and t.up[p]:
                    self.trace.append(TurnedOver(env.now, p, t.turn_over(p)))
                    self._moved()
                continue
            t.lift(p)
            yield env.timeout(me.reach())
            if self.over.triggered:
                return
            card = t.land(p)
            self._moved()
            self.trace.append(Turned(env.now, p, card, self.match_since is not None))
            self._look(p)

    def _moved(self) -> None:
        """Note when the match showing now first showed, and check the cards under ``strict``."""
        if not self.table.matched():
            self.match_since = None
        elif self.match_since is None:
            self.match_since = self.env.now
        if self.config.strict:
            self.table.check()

    # Eyes and voices -------------------------------------------------------------------------------------------
    def _look(self, mover: int) -> None:
        """Every player still in and not speaking looks at the piles the card just landed on."""
        real = self.match_since is not None
        cue = MATCH_CUE if real or not self.table.near() else NEAR_CUE
        for w in self.players:
            if w.out or w.speaking:
                continue
            percept = w.perceiver.perceive(cue, real, OPPONENT, gesturer=mover, time=self.env.now)
            if percept is not None:
                self.env.process(self._notice(w, percept, real))

    def _notice(self, me: _Player, percept: Any, real: bool) -> Generator[simpy.Event, Any, None]:
        env = self.env
        yield env.timeout(me.latency())
        if self.over.triggered or me.out or me.speaking:
            return
        view = SnapView(me.index, env.now, len(self.players), self.table.held(me.index), tuple(me.tally))
        calls = bool(self.watch.call(me.index, "calls", me.agent.calls, view, percept))
        self.trace.append(Noticed(env.now, me.index, percept.evidence, percept.gaze, real, calls))
        if not calls:
            return
        me.speaking, me.hushed, started = True, env.event(), env.now
        yield env.timeout(me.speech())
        me.speaking, hushed, me.hushed = False, me.hushed, None
        hushed.succeed()
        if self.over.triggered:
            return
        self.heard.append((me.index, started, real))
        if len(self.heard) == 1:
            env.process(self._judge())

    def _judge(self) -> Generator[simpy.Event, Any, None]:
        """Judge the calls heard at this instant, once every one of them is in, in an order drawn from the seed."""
        yield self.env.timeout(0)  # after the other calls already due now
        heard, self.heard = self.heard, []
        if len(heard) > 1:
            heard = [heard[i] for i in self.ties.permutation(len(heard))]
        for caller, started, real in heard:
            if not self.over.triggered and not self.players[caller].out:
                self._judged(caller, started, real)

    def _judged(self, caller: int, started: float, real: bool) -> None:
        t, rules, now = self.table, self.rules, self.env.now
        matched = t.matched()
        took = paid = 0
        latency = math.nan
        if matched:
            verdict, took, latency = "right", t.take(caller, matched), now - (self.match_since or now)
        else:
            verdict = "late" if real else "false"
            if verdict == "false" or rules.late_calls_pay:
                others = [p.index for p in self.players if p.index != caller and not p.out]
                paid = t.pay(caller, others, rules.false_call_penalty)
        self.players[caller].tally[VERDICTS.index(verdict)] += 1
        self.trace.append(CallHeard(now, caller, started, verdict, took, paid, latency))
        self._moved()
        self._settle()

    def _settle(self) -> None:
        """Players without a card leave; one player left holding cards ends the match."""
        for p in self.players:
            if not p.out and not self.table.held(p.index):
                p.out = True
                self.trace.append(Out(self.env.now, p.index))
        if sum(not p.out for p in self.players) <= 1:
            self._end("all_cards")

    def _blame(self, player: int, problem: str) -> AgentError:
        return AgentError(f"agent {self.players[player].name} as player {player}, t={self.env.now:.3f} s, "
                          f"seed {self.seed}: {problem}")


def _stream(seed: int, *key: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(seed, spawn_key=key)


def play_snap(rules: SnapRules | str | None = None, lineup: Any = "snapper", profiles: Any = None, seed: int = 0, *,
              config: SnapConfig | None = None, errors: str = "raise") -> SnapResult:
    """Play one Snap match on the clock; the same arguments and seed give the same result, always.

    ``lineup`` names one agent for every player or one per player (``"snapper,hasty"``); ``profiles`` one
    :class:`~kemps_sim.profiles.PlayerProfile` (or mapping) for all or one per player. An agent that raises or
    hangs past ``config.decide_timeout`` ends the match: an :class:`~kemps_sim.errors.AgentError`, or with
    ``errors="record"`` a result with reason ``agent_error``.
    """
    from kemps_sim.engine.match import resolve_profiles
    from kemps_sim.lineup import resolve_lineup
    from kemps_snap.presets import load_snap_rules

    if errors not in ("raise", "record"):
        raise ConfigError(f"errors = {errors!r}: must be 'raise' or 'record'")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ConfigError(f"seed = {seed!r}: must be a whole number >= 0")
    seed, config = int(seed), config or SnapConfig()
    rules = rules if isinstance(rules, SnapRules) else load_snap_rules(rules)
    seats = resolve_lineup(lineup, rules.players, game="snap")
    seat_profiles = resolve_profiles(profiles, rules.players)
    box: dict[str, SnapSim] = {}

    def play(watch: Stopwatch) -> SnapResult:
        players = []
        for p, (name, factory) in enumerate(seats):
            watch.blame = functools.partial(_early_error, name, seed)
            agent = watch.call(p, "start_match", _start, factory, p, rules.players, _stream(seed, AGENT, p))
            habits = watch.call(p, "habits", agent.habits)
            if not isinstance(habits, Habits):
                raise _early_error(name, seed, p, f"habits() returned {habits!r}; allowed: a Habits")
            players.append(_Player(p, name, agent, habits, seat_profiles[p], _stream(seed, SEAT, p)))
        sim = box["sim"] = SnapSim(rules, players, deal(rules, np.random.default_rng(_stream(seed, DEAL))), seed,
                                   config, watch)
        return sim.run()

    def failed(error: BaseException) -> SnapResult:
        if errors == "raise" or not isinstance(error, AgentError):
            raise error
        sim = box.get("sim")
        if sim is None:
            names = tuple(name for name, _ in seats)
            return SnapResult(rules, seed, names, "agent_error", None, (0,) * len(names), 0.0, (), str(error))
        return sim.failed(error)

    try:
        with fewer_collections():
            return run_contained(play, config.decide_timeout, failed)
    except AgentError as exc:
        return failed(exc)


def _start(factory: Any, player: int, players: int, stream: np.random.SeedSequence) -> Any:
    agent = factory()
    agent.start_match(player, players, np.random.default_rng(stream))
    return agent


def _early_error(name: str, seed: int, player: int, problem: str) -> AgentError:
    return AgentError(f"agent {name} as player {player}, before the deal, seed {seed}: {problem}")
