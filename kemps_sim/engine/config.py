"""Engine settings that are not rules of the game: table timings, liveness caps and strictness."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from kemps_sim.errors import ConfigError

_POSITIVE = ("max_round_seconds", "decide_timeout")


@dataclass(frozen=True)
class EngineConfig:
    """How the engine runs a match; every field is validated and has a documented default.

    The table timings are the dealer's handwork and the table's pause after "stalled"; how long players look before
    saying it is their own (``PlayerProfile.patience``).
    """

    max_round_seconds: float = 600.0  # liveness: a round still running after this simulated time ends as timeout
    max_rounds: int = 200  # liveness: a match still running after this many rounds ends unfinished
    # Seconds after "stalled" during which anyone may object (004: "if nobody objects"). Estimate: an objector must
    # react (≈0.35 s), read the middle (≈0.4 s a card) and speak (≈0.35 s), so the table waits about two seconds.
    objection_window: float = 2.0
    # Seconds the dealer's hands need to gather the four middle cards onto the discard pile. Estimate from the
    # keystroke-level model (Card, Moran & Newell 1980: 0.4 s to move a hand between places): reach, gather and
    # square the cards, put them down, come back, ≈2 s.
    sweep_time: float = 2.0
    # Seconds to deal four fresh middle cards face up, one at a time. Time-study benchmark of a normal pace: 52
    # cards dealt into four piles in 0.5 min, 0.58 s a card (Niebel & Freivalds, Methods, Standards, and Work
    # Design); turning each card face up in a row takes a little longer: an estimate of 0.7 s a card.
    deal_time: float = 2.8
    strict: bool = False  # check the conservation invariant after every change of the table (tests use it)
    fidgets: bool = True  # simulate natural fidgets (turn off only to isolate a mechanism in a study)
    # Also simulate the fidgets of gesture types nobody watches and no pair signals with (left out otherwise: they
    # could change nothing). They come from a stream of their own, so the match plays exactly as without them; only
    # the trace gains their Gestured events. For telling a match (`kemps-sim play --fidgets`), not for sweeps.
    all_fidgets: bool = False
    # Wall-clock seconds one call into an agent (decide() or a hook) may take before the agent is deemed never to
    # decide (None: no limit). A guard only: it can end a match with an error, never change the outcome of a match
    # that finishes. Enforced from the thread that started the match (engine.guard): no signal or main thread is
    # needed. Built-in agents decide in well under a millisecond, so 30 s is only ever reached by a hung agent.
    decide_timeout: float | None = 30.0
    # Liveness: a seat asked to decide more often than this in one round ends the match as its agent's error. Every
    # decision costs at least a reaction time, so this also bounds a round's events. The built-in agents' busiest
    # round needs about 1,100 (the random agent, human timings; benchmarks/decision_counts.py measures it).
    max_decisions_per_round: int = 5000
    # Make every look a person at the table makes a decision of its agent, even those that cannot change what it does
    # (someone's "stalled" to a player with nothing to object to, a patience running out after a change it did not
    # care about, a fresh middle it wants none of). Off, the engine keeps those looks: it asks the agent which
    # changes concern it (``wakes_on_stall``, ``wakes_on_middle``) and keeps the patience of a ``Wait(stale=True)``
    # itself: fewer decisions, the same game in distribution (tests/test_look_equivalence.py compares the two). On:
    # the engine as it was before, trace for trace.
    all_looks: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "decide_timeout" and value is None:
                continue
            if f.type == "bool":
                if not isinstance(value, bool):
                    raise ConfigError(f"engine.{f.name} = {value!r}: must be true or false")
            elif f.type == "int":
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise ConfigError(f"engine.{f.name} = {value!r}: must be a whole number >= 1")
            elif (isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value)
                  or value < 0 or (f.name in _POSITIVE and value <= 0)):
                raise ConfigError(f"engine.{f.name} = {value!r}: must be a finite number of seconds"
                                  + (" > 0" if f.name in _POSITIVE else " >= 0"))

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> EngineConfig:
        """Settings from a mapping; an unknown name is refused with the list of known ones."""
        known = [f.name for f in fields(cls)]
        for key in data:
            if key not in known:
                raise ConfigError(f"engine.{key}: unknown engine setting; allowed: {', '.join(known)}")
        return cls(**data)
