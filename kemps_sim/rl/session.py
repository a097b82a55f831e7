"""What every game's learning session shares: the match being stepped, whether it is over, and rewards paid as the
change of a potential since they were last paid."""

from __future__ import annotations

from typing import Any

from kemps_sim.rl.driver import MatchDriver


class SteppedMatch:
    """A session's match stepped through a :class:`~kemps_sim.rl.driver.MatchDriver`. A game's session sets
    ``driver``, ``result`` (None until the match is over) and ``credited`` (per learner, the potential already
    paid), and defines ``potential(seat)``: what a learner's rewards so far add up to."""

    driver: MatchDriver | None = None
    result: Any = None
    credited: dict[int, float]

    def potential(self, seat: int) -> float:  # pragma: no cover - every game's session defines it
        """What the seat's rewards so far add up to."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop the match still being played, if any."""
        if self.driver is not None:
            self.driver.close()
            self.driver = None

    @property
    def pending(self) -> tuple[int, Any] | None:
        """The learner decision due now, as (seat, what it decides on), or None."""
        return None if self.driver is None else self.driver.pending

    @property
    def over(self) -> bool:
        """Whether the match has ended."""
        return self.result is not None

    def reward_for(self, seat: int) -> float:
        """The seat's reward not yet paid, now paid."""
        now = self.potential(seat)
        paid, self.credited[seat] = now - self.credited[seat], now
        return paid
