"""Krepet on the SimPy clock: moves that take a decision and a reach, an opponent who watches, and the call race.

The player to move reacts (the profile's ``reaction``; a careful player first looks over the ace piles, one
``card_read`` more), decides on a move from those it perceives (a player who does not check first overlooks the
ace piles with its ``lapse``, so its moves then leave them out), and the move lands after its ``reach`` (ending the
turn takes no reach). Every landed move is one look for the opponent: with its attention on the play it sees the
board fixated, else at the edge of view (the profile's ``peripheral``), else not at all, and it takes the board in
as "a miss" when the evidence (equal-variance signal detection, the profile's d' and the agent's criterion)
passes the criterion, a hit if an ace-pile move really was left open and callable, a false alarm if not. The
percept arrives after the profile's ``perception_latency``; a watcher who calls is heard after its ``speech``.

The call is judged when heard (:func:`kemps_sim.krepet.turns.call_krepet`): right while a miss is callable (the
mover's turn ends at once and a move in the air never lands), ``too_late`` when the watcher had seen a real miss
that is callable no more (the mover made the compulsory move, or the turn ended), ``false_alarm`` otherwise. A
call heard when the turn has already passed to the caller is moot: recorded, with no effect.

Every game ends: by the rules, or at ``KrepetConfig.max_moves`` moves or ``max_time`` simulated seconds
(``timeout``). All randomness comes from one :class:`numpy.random.SeedSequence` root: the deal, each agent, and
each player's timings, perception and lapses, each a stream of its own.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

import numpy as np
import simpy

from kemps_sim.engine.gc_pause import fewer_collections
from kemps_sim.engine.guard import Stopwatch, run_contained
from kemps_sim.engine.live import Live
from kemps_sim.engine.seat import STREAM_KEYS
from kemps_sim.errors import AgentError, ConfigError
from kemps_sim.gestures import Gesture
from kemps_sim.krepet.agent import Habits, KrepetView
from kemps_sim.krepet.deal import deal
from kemps_sim.krepet.legal import compulsory_moves, legal_moves
from kemps_sim.krepet.moves import Draw, EndTurn, Lay, Move, TakeBack
from kemps_sim.krepet.result import KrepetResult
from kemps_sim.krepet.rules import KrepetRules
from kemps_sim.krepet.state import State
from kemps_sim.krepet.trace import CallHeard, GameEnded, KrepetEvent, MoveCut, Moved, Noticed, TurnStarted
from kemps_sim.krepet.turns import apply_move, call_krepet
from kemps_sim.perception import OPPONENT, Attention, Perceiver
from kemps_sim.profiles import PlayerProfile

#: What the watcher looks for: the sight of an ace-pile move left open (a seen cue of ordinary salience).
MISS_CUE = Gesture("open_ace_move")
#: The root keys of a game's streams, and the key of a player's lapse stream beside the timing ones.
DEAL, AGENT, SEAT = range(3)
LAPSE_KEY = 100


@dataclass(frozen=True)
class KrepetConfig:
    """The clock's limits: ``max_moves`` and ``max_time`` (simulated seconds) end a game as ``timeout``;
    ``decide_timeout`` (wall seconds, None: none) holds every call into an agent; ``strict`` checks the
    invariants after every move and that no agent changed the position it was shown."""

    max_moves: int = 5000
    max_time: float = 7200.0
    decide_timeout: float | None = 30.0
    strict: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.max_moves, bool) or not isinstance(self.max_moves, int) or self.max_moves < 1:
            raise ConfigError(f"krepet.max_moves = {self.max_moves!r}: must be a whole number >= 1")
        if isinstance(self.max_time, bool) or not isinstance(self.max_time, int | float) or not self.max_time > 0:
            raise ConfigError(f"krepet.max_time = {self.max_time!r}: must be a number of seconds > 0")
        t = self.decide_timeout
        if t is not None and (isinstance(t, bool) or not isinstance(t, int | float) or not t > 0):
            raise ConfigError(f"krepet.decide_timeout = {t!r}: must be None or a number of seconds > 0")


class _Player:
    """One player's agent, habits, timings, perceiver and lapse stream for a game."""

    def __init__(self, index: int, name: str, agent: Any, habits: Habits, profile: PlayerProfile,
                 seed: np.random.SeedSequence) -> None:
        def stream(key: int) -> np.random.Generator:
            return np.random.default_rng(np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, key)))

        self.index, self.name, self.agent, self.habits = index, name, agent, habits
        # a player played from outside (a person) has its times measured in the world, not drawn: none are added
        self.measured = bool(getattr(agent, "measured_times", False))
        self.reaction = _zero if self.measured else profile.sampler("reaction", stream(STREAM_KEYS["reaction"])).next
        self.reach = _zero if self.measured else profile.sampler("reach", stream(STREAM_KEYS["reach"])).next
        self.speech = _zero if self.measured else profile.sampler("speech", stream(STREAM_KEYS["speech"])).next
        self.latency = profile.sampler("perception_latency", stream(STREAM_KEYS["perception_latency"])).next
        self.card_read = _zero if self.measured else profile.sampler("card_read", stream(STREAM_KEYS["card_read"])).next
        self.lapse_rng = stream(LAPSE_KEY)
        observer = profile.observer if habits.criterion is None else dataclasses.replace(
            profile.observer, criterion=habits.criterion)
        a = habits.attention
        self.attention = Attention(partner=0.0, opponents=a, middle=0.0, own_hand=1.0 - a,
                                   peripheral=profile.attention.peripheral)
        self.observer = observer
        self.perceiver = Perceiver(observer, self.attention, stream(STREAM_KEYS["perception"]), n_opponents=1)
        self.speaking = False


def _zero() -> float:
    return 0.0


class KrepetSim:
    """One game on the clock (see the module docstring); :meth:`run` plays it and returns the result."""

    def __init__(self, rules: KrepetRules, players: list[_Player], state: State, seed: int, config: KrepetConfig,
                 watch: Stopwatch, live: Live | None = None) -> None:
        self.rules, self.players, self.state, self.seed, self.config, self.watch = \
            rules, players, state, seed, config, watch
        self.env = simpy.Environment() if live is None else live.environment()
        self.listener = None if live is None else live.listener
        self.position = None if live is None else live.position
        self.trace: list[KrepetEvent] = []
        self.reason = ""
        self.in_air: tuple[int, Move] | None = None
        self.miss_times: dict[int, float] = {}  # when each miss (by its index in state.misses) landed
        watch.blame = self._blame

    def run(self) -> KrepetResult:
        """Play until the game ends (or a cap)."""
        env = self.env
        self.mover = env.process(self._play())
        for player in self.players:
            if player.measured:  # a person calls "Krepet!" when they see a miss, not when a percept says so
                env.process(self._listen(player))
        env.run(until=self.mover)
        s = self.state
        if s.result is not None:
            reason, winner = s.result.reason, s.result.winner
        else:
            reason, winner = "timeout", None
        held = (s.cards_of(0), s.cards_of(1))
        self._record(GameEnded(env.now, reason, -1 if winner is None else winner, held, s.moves_made, s.turn))
        return KrepetResult(self.rules, self.seed, (self.players[0].name, self.players[1].name), reason, winner,
                            held, s.moves_made, s.turn, env.now, tuple(self.trace))

    def failed(self, error: BaseException) -> KrepetResult:
        """The game as it stood when an agent's ``error`` ended it (its trace so far kept)."""
        s = self.state
        held = (s.cards_of(0), s.cards_of(1))
        self._record(GameEnded(self.env.now, "agent_error", -1, held, s.moves_made, s.turn))
        return KrepetResult(self.rules, self.seed, (self.players[0].name, self.players[1].name), "agent_error",
                            None, held, s.moves_made, s.turn, self.env.now, tuple(self.trace), str(error))

    # The player to move ------------------------------------------------------------------------------------------
    def _play(self) -> Generator[simpy.Event, Any, None]:
        s, env, config = self.state, self.env, self.config
        while s.result is None and s.moves_made < config.max_moves and env.now < config.max_time:
            turn = s.turn
            self._record(TurnStarted(env.now, s.to_move, turn))
            try:
                yield from self._turn(turn)
            except simpy.Interrupt:  # a right call ended the turn: the move in the air never lands
                if self.in_air is not None:
                    player, move = self.in_air
                    self._record(MoveCut(env.now, player, str(move)))
                self.in_air = None

    def _turn(self, turn: int) -> Generator[simpy.Event, Any, None]:
        s, env, config = self.state, self.env, self.config
        p = s.to_move
        me = self.players[p]
        while s.turn == turn and s.result is None and s.moves_made < config.max_moves and env.now < config.max_time:
            open_now = compulsory_moves(s)
            think = me.reaction()
            lapsed = float(me.lapse_rng.random()) < me.habits.lapse
            if me.habits.checks_first:
                think += me.card_read()
                lapsed = False
            yield env.timeout(think)
            overlooked = lapsed and bool(open_now)
            legal = legal_moves(s)
            moves = tuple(m for m in legal if not overlooked or not _to_foundation(m))
            if not moves:  # it sees nothing to do this time: it looks again
                if me.measured:
                    yield env.timeout(me.agent.poll)
                continue
            view = KrepetView(p, env.now, self.rules, s, moves, tuple(m for m in moves if _to_foundation(m)),
                              overlooked)
            decided_at = env.now
            move = self._decide(me, view)
            if move is None:  # a person who has not chosen yet: look again soon
                yield env.timeout(me.agent.poll)
                continue
            if not isinstance(move, EndTurn):
                self.in_air = (p, move)
                yield env.timeout(me.reach())
                self.in_air = None
            self._land(p, move, open_now, decided_at, overlooked)
            if s.result is None and s.turn == turn:
                self._look(1 - p)

    def _decide(self, me: _Player, view: KrepetView) -> Move | None:
        key = self.state.key() if self.config.strict else None
        move = self.watch.call(me.index, "decide", me.agent.decide, view)
        if move is None and me.measured:
            return None
        if key is not None and self.state.key() != key:
            raise self._blame(me.index, "decide() changed the position it was shown (the view is read-only)")
        if move not in view.moves:
            raise self._blame(me.index, f"decide() returned {move!r}, which is not one of the {len(view.moves)} "
                              "moves it sees (KrepetView.moves)")
        return move

    def _land(self, p: int, move: Move, open_now: list[Move], decided_at: float, overlooked: bool) -> None:
        s = self.state
        misses = len(s.misses)
        apply_move(s, move)
        missed = len(open_now) if len(s.misses) > misses else 0
        if missed:
            self.miss_times[len(s.misses) - 1] = self.env.now
        card, src, dst, kind = _describe(move)
        self._record(Moved(self.env.now, p, str(move), kind, card, src, dst, getattr(move, "count", 1),
                                decided_at, missed, bool(s.pending), overlooked))
        if self.config.strict:
            s.check()

    # The watcher -----------------------------------------------------------------------------------------------
    def _look(self, w: int) -> None:
        """The watcher's look at the move that just landed: a percept (maybe) that it takes in after a latency."""
        watcher = self.players[w]
        if watcher.speaking or watcher.measured:  # a person sees the board with their own eyes
            return
        real = bool(self.state.pending)
        percept = watcher.perceiver.perceive(MISS_CUE, real, OPPONENT, gesturer=1 - w, time=self.env.now)
        if percept is not None:
            self.env.process(self._notice(watcher, percept, real))

    def _notice(self, watcher: _Player, percept: Any, real: bool) -> Generator[simpy.Event, Any, None]:
        env, s = self.env, self.state
        yield env.timeout(watcher.latency())
        if s.result is not None or watcher.speaking:
            return
        view = KrepetView(watcher.index, env.now, self.rules, s, (), (), False)
        calls = bool(self.watch.call(watcher.index, "calls", watcher.agent.calls, view, percept))
        self._record(Noticed(env.now, watcher.index, percept.evidence, percept.llr, percept.gaze, real, calls))
        if calls:
            yield from self._call(watcher, real)

    def _listen(self, person: _Player) -> Generator[simpy.Event, Any, None]:
        """A person's "Krepet!": looked for every ``poll`` seconds while the game goes on, heard at once (their
        own speech time is in when it arrives); whether a miss was really open is judged when it is heard."""
        env, s = self.env, self.state
        while s.result is None:
            yield env.timeout(person.agent.poll)
            if not person.speaking and self.watch.call(person.index, "calls_now", person.agent.calls_now):
                yield from self._call(person, bool(s.pending))

    def _call(self, watcher: _Player, real: bool) -> Generator[simpy.Event, Any, None]:
        """The watcher says "Krepet!": heard after its speech time, and judged then."""
        env, s = self.env, self.state
        watcher.speaking = True
        started = env.now
        yield env.timeout(watcher.speech())
        watcher.speaking = False
        if s.result is not None:
            return
        if s.to_move == watcher.index:  # the turn has passed to the caller: the call is about nothing
            self._record(CallHeard(env.now, watcher.index, started, False, "too_late" if real else
                                        "false_alarm", ()))
            return
        caught = tuple(sorted(self.miss_times[i] for i in s.pending))
        right = call_krepet(s, watcher.index)
        verdict = "right" if right else "too_late" if real else "false_alarm"
        self._record(CallHeard(env.now, watcher.index, started, right, verdict, caught if right else ()))
        if right and self.mover.is_alive:
            self.mover.interrupt("Krepet!")

    def _record(self, event: KrepetEvent) -> None:
        """Add ``event`` to the trace, and tell the live listener (if any) at once."""
        self.trace.append(event)
        if self.listener is not None:
            self.listener(0, event)
        if self.position is not None:
            self.position(self.state)

    def _blame(self, player: int, problem: str) -> AgentError:
        return AgentError(f"agent {self.players[player].name} as player {player}, turn {self.state.turn}, "
                          f"t={self.env.now:.3f} s, seed {self.seed}: {problem}")


def _to_foundation(move: Move) -> bool:
    return isinstance(move, Lay) and move.dst.kind == "foundation"


def _describe(move: Move) -> tuple[int, str, str, str]:
    """(card, source, target, kind) of a move for the trace."""
    if isinstance(move, Lay):
        return move.card, str(move.src), str(move.dst), "lay"
    if isinstance(move, Draw):
        return -1, "talon", "hand", "draw"
    if isinstance(move, TakeBack):
        return -1, "side", "hand", "take_back"
    return -1, "", "", "end_turn"


def _stream(seed: int, *key: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(seed, spawn_key=key)


def deal_rng(seed: int) -> np.random.Generator:
    """The generator a game of this seed deals from (so that its deal can be made again from the seed alone)."""
    return np.random.default_rng(_stream(seed, DEAL))


def play_krepet(rules: KrepetRules | str | None = None, lineup: Any = "greedy", profiles: Any = None,
                seed: int = 0, *, config: KrepetConfig | None = None, errors: str = "raise",
                live: Live | None = None, contained: bool = True) -> KrepetResult:
    """Play one Krepet game on the clock; the same arguments and seed give the same result, always.

    ``lineup`` names one agent for both players or one per player (``"greedy,lookout(attention=0.9)"``);
    ``profiles`` one :class:`~kemps_sim.profiles.PlayerProfile` (or mapping) for both or one per player. An agent
    that raises, answers a move it was not shown, or hangs past ``config.decide_timeout`` ends the game: an
    :class:`~kemps_sim.errors.AgentError`, or with ``errors="record"`` a result with reason ``agent_error``.
    ``live`` plays it on another clock and tells a listener every event as it happens
    (:class:`kemps_sim.engine.Live`: the wall's clock for people at the table); the game is the same.

    ``contained=False`` plays in the calling thread instead, with no wall-clock limit on agent calls (their errors
    are still the agent's) and the garbage collector's thresholds left as they are: for a caller that steps the game
    from outside, such as a learning environment (:mod:`kemps_sim.rl`), whose learner players hand control back to
    it while they decide, with other games paused meanwhile. The result is the same.
    """
    from kemps_sim.engine.match import resolve_profiles
    from kemps_sim.krepet.presets import load_krepet_rules
    from kemps_sim.lineup import resolve_lineup

    if errors not in ("raise", "record"):
        raise ConfigError(f"errors = {errors!r}: must be 'raise' or 'record'")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ConfigError(f"seed = {seed!r}: must be a whole number >= 0")
    seed = int(seed)
    config = config or KrepetConfig()
    rules = rules if isinstance(rules, KrepetRules) else load_krepet_rules(rules or "wikibooks")
    seats = resolve_lineup(lineup, 2, game="krepet")
    seat_profiles = resolve_profiles(profiles, 2)
    names = (seats[0][0], seats[1][0])
    box: dict[str, KrepetSim] = {}

    def play(watch: Stopwatch) -> KrepetResult:
        players = []
        for p, (name, factory) in enumerate(seats):
            watch.blame = functools.partial(_early_error, name, seed)
            agent = watch.call(p, "start_match", _start, factory, p, _stream(seed, AGENT, p))
            habits = watch.call(p, "habits", agent.habits)
            if not isinstance(habits, Habits):
                raise _early_error(name, seed, p, f"habits() returned {habits!r}; allowed: a Habits")
            players.append(_Player(p, name, agent, habits, seat_profiles[p], _stream(seed, SEAT, p)))
        state = deal(rules, deal_rng(seed))
        sim = box["sim"] = KrepetSim(rules, players, state, seed, config, watch, live)
        return sim.run()

    def failed(error: BaseException) -> KrepetResult:
        if errors == "raise" or not isinstance(error, AgentError):
            raise error
        sim = box.get("sim")
        if sim is None:
            return KrepetResult(rules, seed, names, "agent_error", None, (0, 0), 0, 0, 0.0, (), str(error))
        return sim.failed(error)

    try:
        if not contained:  # paused in a greenlet, as several matches may be at once: the thresholds stay as they are
            return play(Stopwatch(None))
        with fewer_collections():
            return run_contained(play, config.decide_timeout, failed)
    except AgentError as exc:
        return failed(exc)


def _start(factory: Any, player: int, stream: np.random.SeedSequence) -> Any:
    agent = factory()
    agent.start_match(player, 2, np.random.default_rng(stream))
    return agent


def _early_error(name: str, seed: int, player: int, problem: str) -> AgentError:
    return AgentError(f"agent {name} as player {player}, before the deal, seed {seed}: {problem}")
