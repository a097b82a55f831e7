"""The Snap agent boundary: how a player watches the piles, and whether it calls on what it took in.

Everything a Snap player does with its hands and voice runs on the shared human model: the engine turns its cards
at the pace of the profile's ``reaction`` and ``reach``, decides with the profile's observer and the agent's
:class:`Habits` whether a look at the piles gives a percept of a match, and delays the percept by
``perception_latency`` and the call by ``speech``. An agent chooses only its habits (read once per match) and,
for each percept, whether to call (:meth:`SnapAgent.calls`). It never sees the cards: :class:`SnapView` holds what
a player knows without looking, so a call cannot skip the perception it rests on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from kemps_sim.agent import BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.perception import Percept

#: The share of its gaze a player keeps on the face-up piles while it turns its own cards: an estimate, swept.
DEFAULT_ATTENTION = 0.6


@dataclass(frozen=True)
class Habits:
    """How a player watches: ``attention`` on the piles (the rest on its own hand) and its ``criterion``, the
    evidence a look must pass to be taken in as a match (signal detection; None keeps the profile's)."""

    attention: float = DEFAULT_ATTENTION
    criterion: float | None = None

    def __post_init__(self) -> None:
        a = self.attention
        if isinstance(a, bool) or not isinstance(a, int | float) or not 0.0 <= a <= 1.0:
            raise ConfigError(f"habits.attention = {a!r}: must be a share from 0 to 1")
        c = self.criterion
        if c is not None and (isinstance(c, bool) or not isinstance(c, int | float) or not math.isfinite(c)):
            raise ConfigError(f"habits.criterion = {c!r}: must be None (the profile's) or a finite number")


@dataclass(frozen=True)
class SnapView:
    """What a player knows without looking at the piles: who it is, the time, the rules' size of table, the cards
    it holds, and the calls it has made so far (right, late, false)."""

    player: int
    now: float
    players: int
    held: int
    calls_made: tuple[int, int, int]


@runtime_checkable
class SnapAgent(Protocol):
    """A Snap policy for one player; the engine makes a fresh one per player per match."""

    name: str
    game: str

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        """Called once before the deal with the player, the number of players and the agent's own generator."""

    def habits(self) -> Habits:
        """How the player watches the piles (read once per match)."""

    def calls(self, view: SnapView, percept: Percept) -> bool:
        """Having taken the piles in as a match (``percept``: its evidence and gaze), whether to call "Snap!"."""


class BaseSnapAgent(BaseAgent):
    """Defaults for a Snap agent: habits from the hyperparameters ``attention`` and ``criterion``, and a call on
    every percept (the criterion already drew the line between "a match" and "nothing")."""

    name = "snap_base"
    game = "snap"

    def __init__(self, attention: float = DEFAULT_ATTENTION, criterion: float | None = None) -> None:
        self.attention = attention
        self.criterion = criterion
        self.habits()  # a bad value is refused now, naming the agent

    def habits(self) -> Habits:
        """The hyperparameters as the engine's :class:`Habits` (a bad value names the agent)."""
        try:
            return Habits(self.attention, self.criterion)
        except ConfigError as exc:
            raise ConfigError(str(exc).replace("habits.", f"{self.name}.", 1)) from None

    def calls(self, view: SnapView, percept: Percept) -> bool:
        """Call on every percept."""
        return True
