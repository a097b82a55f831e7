"""A Snap match's result: how it ended, who won, the cards each player held, and its trace."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from kemps_snap.rules import SnapRules
from kemps_snap.trace import VERDICTS, CallHeard, Noticed, SnapEvent, Turned


@dataclass(frozen=True)
class SnapResult:
    """One match played on the clock. ``winner`` is None for a draw or an agent's error."""

    #: The game it is a result of (:func:`kemps_sim.games.game`).
    game: ClassVar[str] = "snap"

    rules: SnapRules
    seed: int
    names: tuple[str, ...]
    reason: str
    winner: int | None
    held: tuple[int, ...]
    duration: float  # simulated seconds
    trace: tuple[SnapEvent, ...]
    error: str = ""

    @property
    def calls(self) -> tuple[CallHeard, ...]:
        """Every call heard, in order."""
        return tuple(e for e in self.trace if isinstance(e, CallHeard))

    @property
    def turned(self) -> int:
        """Cards turned face up, every player's."""
        return sum(isinstance(e, Turned) for e in self.trace)

    def summary(self) -> dict[str, Any]:
        """The match in plain numbers: how it ended, its length, matches shown and noticed, and per player its
        calls by verdict and the cards it held at the end."""
        out: dict[str, Any] = {"seed": self.seed, "reason": self.reason,
                               "winner": -1 if self.winner is None else self.winner, "duration": self.duration,
                               "turned": self.turned,
                               "matches_shown": sum(isinstance(e, Turned) and e.match for e in self.trace),
                               "noticed": sum(isinstance(e, Noticed) and e.real for e in self.trace)}
        for p in range(len(self.names)):
            out[f"held_{p}"] = self.held[p]
            for verdict in VERDICTS:
                out[f"calls_{verdict}_{p}"] = sum(c.caller == p and c.verdict == verdict for c in self.calls)
        return out
