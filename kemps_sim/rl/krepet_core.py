"""The Krepet game behind every Krepet learning environment: players, seeds, rewards, observations and the state.

:class:`KrepetSession` holds one environment's settings and plays one game at a time on the clock
(:func:`~kemps_sim.krepet.realtime.play_krepet`, unchanged) through a :class:`~kemps_sim.rl.driver.MatchDriver`;
the PettingZoo views (:mod:`kemps_sim.rl.krepet_v0`) and the Gymnasium environment
(:mod:`kemps_sim.rl.krepet_seat`) are thin layers over it. A learner (:class:`KrepetLearnerSeat`) decides each
move of its turns, from the moves it perceives, and, with ``calls="learn"``, whether to call "Krepet!" each time
it takes the opponent's move in as a miss (with ``calls="always"`` it calls then, as the built-in players do). Its
habits (attention, criterion, lapse, checking first) are a :class:`~kemps_sim.krepet.agent.Habits`, the
built-ins' by default, so the engine draws its perception, lapses and times as for any player.

**Rewards** are potential differences, paid to every learner at its next step. With ``reward="game"`` (the
default) the only reward comes at the end: +1 for the winner, -1 for the loser, 0 for a draw or a game ended at a
cap (``timeout``). With ``reward="cards"`` a player's potential is (the opponent's cards held - its own) / 52,
cards held being its talon, Ablage, side stack and hand; it changes when a card leaves a player or is laid on the
opponent's piles, and a game's rewards add up to that difference at its end, which is positive exactly for the
winner of a game played out.

**An action the mask forbids** is, with ``illegal="fallback"`` (the default), played as the player's fallback:
no call, or end the turn, else draw; the step's ``info["illegal_action"]`` says so. With ``illegal="raise"`` it is
a :class:`~kemps_sim.errors.ConfigError` naming the action.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from kemps_sim.cards import CARDS_PER_DECK
from kemps_sim.engine.live import Live
from kemps_sim.engine.match import resolve_profiles
from kemps_sim.errors import ConfigError
from kemps_sim.krepet.agent import BaseKrepetAgent, Habits, KrepetView
from kemps_sim.krepet.game import GAME
from kemps_sim.krepet.moves import Move
from kemps_sim.krepet.presets import load_krepet_rules
from kemps_sim.krepet.realtime import KrepetConfig, play_krepet
from kemps_sim.krepet.result import KrepetResult
from kemps_sim.krepet.rules import KrepetRules
from kemps_sim.krepet.state import State
from kemps_sim.lineup import LineupLike, resolve_lineup
from kemps_sim.perception import Percept
from kemps_sim.rl.driver import MatchDriver
from kemps_sim.rl.krepet_actions import CallChance, Decision, KrepetActions
from kemps_sim.rl.krepet_encoding import KrepetEncoder
from kemps_sim.rl.session import SteppedMatch

REWARDS = ("game", "cards")
#: What an action whose mask is 0 does: play the player's fallback instead, or raise.
ILLEGAL = ("fallback", "raise")
#: Whether a learner decides its calls ("learn") or calls on every percept of a miss ("always").
CALLS = ("learn", "always")


def _choice(field: str, value: Any, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ConfigError(f"{field} = {value!r}: must be one of {', '.join(allowed)}")
    return value


class KrepetLearnerSeat(BaseKrepetAgent):
    """The chair of a learning agent: each decision is handed to the driver, whose caller answers it."""

    name = "learner"

    def __init__(self, driver: MatchDriver | None = None, habits: Habits | None = None, asks_calls: bool = True
                 ) -> None:
        self._habits = habits or Habits()
        super().__init__(self._habits.attention, self._habits.criterion, self._habits.lapse)
        self.driver = driver
        self.asks_calls = asks_calls

    def habits(self) -> Habits:
        """The habits the environment was given (the built-ins' by default)."""
        return self._habits

    def decide(self, view: KrepetView) -> Move:
        """The learner's move, asked of the driver's caller."""
        return self._ask(view)

    def calls(self, view: KrepetView, percept: Percept) -> bool:
        """Whether to call on a percept of a miss: asked of the driver's caller, or always (``calls="always"``)."""
        return bool(self._ask(CallChance(view, percept))) if self.asks_calls else True

    def _ask(self, decision: Decision) -> Any:
        if self.driver is None:
            raise ConfigError("KrepetLearnerSeat: no driver; a learner plays only inside a learning environment")
        return self.driver.decide(self.seat, decision)


class KrepetSession(SteppedMatch):
    """One environment's game: who learns, who plays the other chair, and what each learner is told."""

    def __init__(self, rules: Any = None, *, lineup: LineupLike = "greedy", learners: Sequence[int] = (0,),
                 profiles: Any = None, reward: str = "game", illegal: str = "fallback", calls: str = "learn",
                 habits: Habits | Mapping[str, Any] | None = None,
                 config: KrepetConfig | Mapping[str, Any] | None = None) -> None:
        self.rules = rules if isinstance(rules, KrepetRules) else load_krepet_rules(rules)
        learners = tuple(learners)
        if not learners or any(isinstance(s, bool) or not isinstance(s, int | np.integer) or s not in (0, 1)
                               for s in learners) or len(set(learners)) != len(learners):
            raise ConfigError(f"learners = {learners!r}: give one or both players, 0 and 1, each once")
        self.learners = tuple(int(s) for s in learners)
        self.reward = _choice("reward", reward, REWARDS)
        self.illegal = _choice("illegal", illegal, ILLEGAL)
        self.calls = _choice("calls", calls, CALLS)
        self.habits = _habits(habits)
        self.config = _config(config)
        self.seats = resolve_lineup(lineup, 2, game=GAME.name)
        self.profiles = resolve_profiles(profiles, 2)  # checked now, not at the first reset
        self.actions = KrepetActions(self.rules)
        self.encoder = KrepetEncoder(self.rules)
        self.state_size = self.encoder.state_size
        self.driver: MatchDriver | None = None
        self.board: State | None = None
        self.now = 0.0
        self.seed = 0
        self.result: KrepetResult | None = None
        self.illegal_played = False
        self.decided_at: dict[int, float] = dict.fromkeys(self.learners, 0.0)
        self.credited: dict[int, float] = dict.fromkeys(self.learners, 0.0)

    # Playing ---------------------------------------------------------------------------------------------------
    def reset(self, seed: int) -> tuple[int, Decision] | None:
        """Start the game of ``seed`` (ending any game still running); return the first learner decision."""
        self.close()
        self.seed = int(seed)
        self.result = None
        self.board = None
        self.now = 0.0
        self.illegal_played = False
        self.decided_at = dict.fromkeys(self.learners, 0.0)
        self.credited = dict.fromkeys(self.learners, 0.0)
        driver = self.driver = MatchDriver(lambda: None)
        lineup: list[Any] = []
        for seat, (label, factory) in enumerate(self.seats):
            if seat in self.learners:
                factory = functools.partial(KrepetLearnerSeat, driver, self.habits, self.calls == "learn")
                label = KrepetLearnerSeat.name
            entry = functools.partial(factory)
            entry.name = label  # type: ignore[attr-defined]  (the player's name in the result)
            lineup.append(entry)
        live = Live(position=self._position)
        driver._play = functools.partial(play_krepet, self.rules, lineup, self.profiles, self.seed,
                                         config=self.config, live=live, contained=False)
        return self._next(driver.start())

    def act(self, action: int) -> tuple[int, Decision] | None:
        """Play the pending decision's action; return the next learner decision (None: the game is over)."""
        driver = self.driver
        if driver is None or driver.pending is None:
            raise ConfigError("step: the game is over or was never started; call reset() first")
        seat, decision = driver.pending
        mask = self.actions.mask(decision)
        self.illegal_played = not 0 <= action < len(mask) or not mask[action]
        if self.illegal_played:
            if self.illegal == "raise":
                what = self.actions.describe(action) if 0 <= action < len(mask) else f"not 0 to {len(mask) - 1}"
                raise ConfigError(f"action {action} ({what}): not allowed for player {seat} now (its action_mask "
                                  "is 0); allowed: the actions whose mask is 1")
            action = self.actions.fallback(decision)
        self.decided_at[seat] = decision.now
        return self._next(driver.answer(self.actions.answer(action, decision)))

    def _next(self, pending: tuple[int, Decision] | None) -> tuple[int, Decision] | None:
        if pending is None:
            self.result = self.driver.result if self.driver is not None else None
            if self.result is not None:
                self.now = self.result.duration
        else:
            self.now = pending[1].now
        return pending

    def _position(self, board: object) -> None:
        """The game's live position, heard after every event (the board every observation is read from)."""
        self.board = board  # type: ignore[assignment]


    # What learners are told ------------------------------------------------------------------------------------


    @property
    def truncated(self) -> bool:
        """Whether the game ended at a cap (``KrepetConfig.max_moves`` or ``max_time``) rather than by the rules."""
        return self.result is not None and self.result.reason == "timeout"

    def potential(self, seat: int) -> float:
        """What the player's rewards so far add up to (see the module's docstring)."""
        if self.reward == "game":
            winner = None if self.result is None else self.result.winner
            return 0.0 if winner is None else 1.0 if winner == seat else -1.0
        board = self.board
        if self.result is not None:
            held = self.result.cards_left
        elif board is None:
            return 0.0
        else:
            held = (board.cards_of(0), board.cards_of(1))
        return (held[1 - seat] - held[seat]) / CARDS_PER_DECK


    def since_decision(self, seat: int) -> float:
        """Simulated seconds from the player's last decision to now (its pending one, the latest learner decision
        of the game, or the game's end)."""
        return max(self.now - self.decided_at[seat], 0.0)

    def decision_of(self, seat: int) -> Decision | None:
        """The player's decision if it is due now."""
        pending = self.pending
        return pending[1] if pending is not None and pending[0] == seat else None

    def observe(self, seat: int) -> np.ndarray:
        """The player's ``krepet-obs-v0`` vector now (zeros before the deal)."""
        if self.board is None:
            return np.zeros(self.encoder.size, dtype=np.float32)
        return self.encoder.encode(self.board, seat, self.decision_of(seat), self.now, self.since_decision(seat))

    def mask(self, seat: int) -> np.ndarray:
        """The player's open actions if its decision is due now; else only the no-op (the Parallel view's). A new
        array each time: a learner may keep it."""
        decision = self.decision_of(seat)
        return (self.actions.noop_mask if decision is None else self.actions.mask(decision)).copy()

    def state(self) -> np.ndarray:
        """The global state (:meth:`kemps_sim.rl.krepet_encoding.KrepetEncoder.state`): for a centralised critic
        only; no player may see it."""
        if self.board is None:
            return np.zeros(self.state_size, dtype=np.float32)
        return self.encoder.state(self.board, self.now)


def _habits(habits: Habits | Mapping[str, Any] | None) -> Habits:
    if habits is None or isinstance(habits, Habits):
        return habits or Habits()
    if not isinstance(habits, Mapping):
        raise ConfigError(f"habits = {habits!r}: must be a Habits or a mapping of its fields")
    allowed = [f.name for f in dataclasses.fields(Habits)]
    unknown = [k for k in habits if k not in allowed]
    if unknown:
        raise ConfigError(f"habits.{unknown[0]} = {habits[unknown[0]]!r}: not a habit; allowed: {', '.join(allowed)}")
    return Habits(**habits)


def _config(config: KrepetConfig | Mapping[str, Any] | None) -> KrepetConfig:
    if config is None or isinstance(config, KrepetConfig):
        return config or KrepetConfig()
    if not isinstance(config, Mapping):
        raise ConfigError(f"config = {config!r}: must be a KrepetConfig or a mapping of its fields")
    allowed = [f.name for f in dataclasses.fields(KrepetConfig)]
    unknown = [k for k in config if k not in allowed]
    if unknown:
        raise ConfigError(f"config.{unknown[0]} = {config[unknown[0]]!r}: not a Krepet engine setting; allowed: "
                          f"{', '.join(allowed)}")
    return KrepetConfig(**config)
