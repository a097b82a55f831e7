"""The Krepet agent boundary: what a player sees when it moves, what it answers, and how it watches.

A Krepet agent moves when its turn comes (:meth:`KrepetAgent.decide` answers a :class:`~kemps_sim.krepet.moves.Move`
from :attr:`KrepetView.moves`) and watches the opponent's turn. How it perceives is not its own choice at every
moment but a habit the engine reads once per game (:class:`Habits`): how much of the opponent's play it follows
(``attention``), where it puts the line between "that was a miss" and "nothing" (``criterion``, signal detection),
how often it overlooks the ace piles when it moves without checking them first (``lapse``), and whether it checks
them before every move (``checks_first``: no lapses, one look more per move). Misses and the noticing of misses
come from these habits and the seat's human profile, drawn by the engine; a built-in never misses on purpose.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from kemps_sim.agent import BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.krepet.moves import Move
from kemps_sim.krepet.rules import KrepetRules
from kemps_sim.krepet.state import State
from kemps_sim.perception import Percept

#: The share of the opponent's moves a player follows while also planning its own next turn: an estimate (no
#: direct source), the half-way point of a quantity every study sweeps.
DEFAULT_ATTENTION = 0.5
#: The chance of overlooking the ace piles at a move made without checking them first: an estimate (no direct
#: source; slips in routine checks are commonly put at one in a hundred to one in ten); swept.
DEFAULT_LAPSE = 0.05


def _share(owner: str, name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
        raise ConfigError(f"{owner}.{name} = {value!r}: must be a probability from 0 to 1")
    return float(value)


@dataclass(frozen=True)
class Habits:
    """How a seat perceives in Krepet (read by the engine once per game). ``criterion`` None keeps the profile's
    observer criterion."""

    attention: float = DEFAULT_ATTENTION
    criterion: float | None = None
    lapse: float = DEFAULT_LAPSE
    checks_first: bool = False

    def __post_init__(self) -> None:
        _share("habits", "attention", self.attention)
        _share("habits", "lapse", self.lapse)
        c = self.criterion
        if c is not None and (isinstance(c, bool) or not isinstance(c, int | float) or not math.isfinite(c)):
            raise ConfigError(f"habits.criterion = {c!r}: must be None (the profile's) or a finite number")
        if not isinstance(self.checks_first, bool):
            raise ConfigError(f"habits.checks_first = {self.checks_first!r}: must be true or false")


@dataclass(frozen=True)
class KrepetView:
    """What the player to move sees: the whole open position (``state``, to be read, never changed), the moves it
    perceives as open (``moves``: every legal move, less the ace-pile moves when it overlooked them) and the
    ace-pile moves among them (``compulsory``)."""

    player: int
    now: float
    rules: KrepetRules
    state: State
    moves: tuple[Move, ...]
    compulsory: tuple[Move, ...]
    overlooked: bool

    @property
    def opponent(self) -> int:
        """The other player."""
        return 1 - self.player


@runtime_checkable
class KrepetAgent(Protocol):
    """A Krepet policy for one player; the engine makes a fresh one per player per game."""

    name: str
    game: str

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        """Called once before the deal with the player (0 or 1), 2, and the agent's own generator."""

    def habits(self) -> Habits:
        """How the player watches and checks (read once per game)."""

    def decide(self, view: KrepetView) -> Move:
        """The next move of the player's turn, one of ``view.moves``."""

    def calls(self, view: KrepetView, percept: Percept) -> bool:
        """Having taken in the opponent's last move as a miss (``percept``), whether to call "Krepet!"."""


class BaseKrepetAgent(BaseAgent):
    """Defaults for a Krepet agent: habits from the hyperparameters ``attention``, ``criterion`` and ``lapse``,
    and a call on every percept (the criterion is the decision). Subclasses implement :meth:`decide`."""

    name = "krepet_base"
    game = "krepet"
    #: The rule source Krepet comes from (seed 002).
    sources = ("002",)
    #: Whether the policy checks the ace piles before every move (no lapses, one look more per move).
    checks_first = False

    def __init__(self, attention: float = DEFAULT_ATTENTION, criterion: float | None = None,
                 lapse: float = DEFAULT_LAPSE) -> None:
        self.attention = attention
        self.criterion = criterion
        self.lapse = lapse
        self.habits()  # a bad value is refused now, naming the agent

    def habits(self) -> Habits:
        """The hyperparameters as the engine's :class:`Habits` (a bad value names the agent)."""
        try:
            return Habits(self.attention, self.criterion, self.lapse, self.checks_first)
        except ConfigError as exc:
            raise ConfigError(str(exc).replace("habits.", f"{self.name}.", 1)) from None

    def calls(self, view: KrepetView, percept: Percept) -> bool:
        """Call on every percept: the criterion already drew the line between "a miss" and "nothing"."""
        return True

    def decide(self, view: KrepetView) -> Move:  # pragma: no cover - abstract
        """The next move, one of ``view.moves``: every policy implements this."""
        raise NotImplementedError
