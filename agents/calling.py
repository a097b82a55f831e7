"""The calling part for Kemps: a belief that the partner holds four of a kind, and a threshold on it.

Evidence, as log-odds added to the prior's (each term a log-likelihood ratio):

- every percept of the partner making the pair's signal within the last ``window`` seconds adds its ``llr``: the
  engine's percepts carry the log-likelihood ratio d·x of a deliberate gesture against a fidget;
- stillness (004: "a player who has just made four of a kind stops swapping"; "a partner who has stopped taking
  cards is probably ready"): the time since the partner's last swap, through :data:`STILLNESS_LLR`, weighed by
  ``stillness``.

``prior`` is the probability that a signal-type gesture by the partner is deliberate before looking at it; the
default 0.5 makes every percept of the signal a call at the default ``threshold`` 0.5, as at a real table, while
a cautious caller (0.9) waits for clear or repeated evidence and an eager one (0.3) calls on anything. A caller
that ``knows_fakes`` ignores the partner's signals that the pair's protocol marks as fakes (:mod:`agents.fakes`).

The stillness table was measured, not assumed: at 30 random moments of every round of 150 matches of four
collectors (standard rules; 134,400 seat-moments), the time since each seat's last swap was binned for seats
holding four of a kind and for the others. A holder sits still for a few seconds (it is called soon), while a
player with nothing to take may sit still far longer, so a short stillness is weak evidence for four of a kind
and a long one is evidence against.
"""

from __future__ import annotations

import math

from agents.fakes import is_fake
from agents.tracking import TableReader
from kemps_sim.errors import ConfigError
from kemps_sim.intents import CallDoubleKemps, CallKemps, Intent
from kemps_sim.observation import Observation

#: Seconds a percept counts as evidence: a holder re-signals every few seconds and calls come within about one.
WINDOW = 8.0
#: Log-likelihood ratio (holds four against not) of the seconds since a seat's last swap: (upper bound, llr).
#: Measured on collector tables (see the module doc): P(still | holder) / P(still | other) per bin.
STILLNESS_LLR: tuple[tuple[float, float], ...] = (
    (1.0, 0.31), (2.0, 0.53), (4.0, 0.39), (8.0, 0.05), (16.0, -0.33), (32.0, -0.59), (math.inf, -1.59))


def logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def check_probability(owner: str, name: str, value: float) -> float:
    """A probability strictly between 0 and 1, or a :class:`ConfigError` naming the parameter."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 < value < 1.0:
        raise ConfigError(f"{owner}.{name} = {value!r}: must be a probability strictly between 0 and 1")
    return float(value)


def stillness_llr(obs: Observation, seat: int) -> float:
    """How much likelier (log) a holder of four of a kind is than another player to have been still this long."""
    still = obs.now - max(obs.last_swap[seat], 0.0)
    for bound, llr in STILLNESS_LLR:
        if still < bound:
            return llr
    return STILLNESS_LLR[-1][1]


class PartnerBelief:
    """Reads the partner's signal percepts and decides when to call Kemps (or Double Kemps)."""

    def __init__(self, threshold: float, prior: float, stillness: float, knows_fakes: bool,
                 window: float = WINDOW) -> None:
        self.need = logit(threshold)
        self.base = logit(prior)
        self.stillness = stillness
        self.knows_fakes = knows_fakes
        self.window = window
        self._obs: Observation | None = None
        self.read = 0
        self.evidence: list[tuple[float, float]] = []  # (made at, llr) of the partner's signals

    def log_odds(self, obs: Observation) -> float:
        """Log-odds that the partner holds four of a kind now (the prior's alone if there is no evidence)."""
        now, window = obs.now, self.window
        odds = self.base + sum(llr for made, llr in self.evidence if now - made <= window)
        return odds + self.stillness * stillness_llr(obs, obs.partner) if self.stillness else odds

    def call(self, obs: Observation, reader: TableReader, holding_four: bool) -> Intent | None:
        """Kemps (Double Kemps when holding four and the rules allow it) if the belief passes the threshold."""
        if obs is not self._obs:  # a new round (an observation belongs to one round; its views are live)
            self._obs, self._percepts, self.read, self.evidence = obs, obs.percepts, 0, []
        elif not self.evidence and len(self._percepts) == self.read:
            return None  # nothing new, nothing pending: the common case
        percepts = self._percepts
        if len(percepts) != self.read:
            partner, signal = obs.partner, obs.signal
            for p in percepts[self.read:]:
                if p.gesturer == partner and p.gesture == signal:
                    if self.knows_fakes and is_fake(reader, partner, p.time):
                        continue
                    self.evidence.append((p.time, p.llr))
            self.read = len(percepts)
        if not self.evidence:
            return None
        now, window = obs.now, self.window
        self.evidence = [e for e in self.evidence if now - e[0] <= window]
        if not self.evidence or self.log_odds(obs) < self.need:
            return None
        self.evidence = []  # the call answers this evidence: do not call on it again if play goes on
        return CallDoubleKemps() if holding_four and obs.rules.double_kemps else CallKemps()
