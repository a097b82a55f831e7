"""A Krepet game's result: how it ended, its size, its trace, and the counts a study of misses and calls needs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar

from kemps_sim.krepet.rules import KrepetRules
from kemps_sim.krepet.trace import CallHeard, KrepetEvent, Moved, Noticed

#: How a game on the clock can end.
END_REASONS = ("out_of_cards", "both_stuck", "timeout", "agent_error")
#: How a heard call can be judged.
VERDICTS = ("right", "too_late", "false_alarm")


@dataclass(frozen=True)
class KrepetResult:
    """One game played on the clock. ``winner`` is None for a draw, a timeout or an agent's error."""

    #: The game it is a result of (:func:`kemps_sim.games.game`: what the replay page asks to draw it).
    game: ClassVar[str] = "krepet"

    rules: KrepetRules
    seed: int
    names: tuple[str, str]
    reason: str
    winner: int | None
    cards_left: tuple[int, int]
    moves: int
    turns: int
    duration: float  # simulated seconds
    trace: tuple[KrepetEvent, ...]
    error: str = ""

    @property
    def callable_misses(self) -> tuple[Moved, ...]:
        """The moves that left an ace-pile move open while a call could still catch it."""
        return tuple(e for e in self.trace if isinstance(e, Moved) and e.missed and e.callable)

    @property
    def calls(self) -> tuple[CallHeard, ...]:
        """Every call heard, in order."""
        return tuple(e for e in self.trace if isinstance(e, CallHeard))

    def summary(self) -> dict[str, Any]:
        """The game in plain numbers: per player the callable misses it made (and how many it had overlooked the ace
        piles for), those caught, its calls by verdict and cards left; the mean latency of right calls (from the
        first miss caught to the call heard)."""
        misses = Counter(e.player for e in self.callable_misses)
        overlooked = Counter(e.player for e in self.callable_misses if e.overlooked)
        caught = Counter()
        verdicts: Counter[tuple[int, str]] = Counter()
        latency: list[float] = []
        for call in self.calls:
            verdicts[call.caller, call.verdict] += 1
            if call.right:
                caught[1 - call.caller] += call.caught
                latency.append(call.time - call.miss_at)
        noticed = sum(isinstance(e, Noticed) and e.real for e in self.trace)
        out: dict[str, Any] = {"seed": self.seed, "reason": self.reason,
                               "winner": -1 if self.winner is None else self.winner, "moves": self.moves,
                               "turns": self.turns, "duration": self.duration, "noticed_misses": noticed,
                               "call_latency_mean": sum(latency) / len(latency) if latency else float("nan")}
        for p in (0, 1):
            out[f"misses_{p}"] = misses[p]
            out[f"overlooked_{p}"] = overlooked[p]
            out[f"caught_{p}"] = caught[p]
            out[f"cards_left_{p}"] = self.cards_left[p]
            for verdict in VERDICTS:
                out[f"calls_{verdict}_{p}"] = verdicts[p, verdict]
        return out
