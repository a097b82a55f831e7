"""How often a person's page may send: a token bucket per seat, so that a stuck key or a script cannot flood the
table, while a person's fastest real play (a few actions a second) never meets it."""

from __future__ import annotations

import math

from kemps_sim.errors import ConfigError


class RateLimit:
    """At most ``rate`` inputs a second on average, in bursts of up to ``burst`` (default twice the rate)."""

    def __init__(self, rate: float, burst: float | None = None) -> None:
        if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 < rate < math.inf:
            raise ConfigError(f"rate = {rate!r}: must be a number of inputs a second > 0")
        self.rate = float(rate)
        self.burst = 2.0 * self.rate if burst is None else float(burst)
        self._tokens, self._last = self.burst, -math.inf

    def refusal(self, now: float) -> str | None:
        """Take one input at ``now`` (seconds, any steady clock): None if allowed, else why not."""
        elapsed = now - self._last if self._last > -math.inf else 0.0
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        self._last = now
        if self._tokens < 1.0:
            return f"too many inputs: at most {self.rate:g} a second (bursts of {self.burst:g}); this one was dropped"
        self._tokens -= 1.0
        return None
