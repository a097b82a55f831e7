"""The attention part: where a seat's eyes go (``Agent.gaze``), asked after every decision.

- ``profile``: never change the profile's attention (returns None: the cheapest).
- ``partner_when_still``: 004's "a partner who has stopped taking cards is probably ready: watch harder": mostly
  on the partner once it has been still for ``still_after`` seconds, otherwise balanced.
- ``adaptive`` (the watcher's): hunt the opponents with an eye kept on the partner, and turn mostly to the partner
  while the partner looks ready (still for ``still_after`` seconds after taking two or more of one rank).

Attention objects are built once and returned as the same objects, so the engine recomputes its detection
thresholds only when the policy really changes its mind.
"""

from __future__ import annotations

from kemps_sim.belief.tracking import TableReader
from kemps_sim.compile_hints import mypyc_attr
from kemps_sim.errors import ConfigError
from kemps_sim.observation import Observation
from kemps_sim.perception import Attention

ATTENTION_POLICIES: tuple[str, ...] = ("profile", "partner_when_still", "adaptive")
BALANCED = Attention.balanced()
ON_PARTNER = Attention.partner_watcher()
HUNTING = Attention(partner=0.2, opponents=0.6, middle=0.15, own_hand=0.05)  # estimate: an eye on the partner
PARTNER_READY = Attention(partner=0.55, opponents=0.35, middle=0.05, own_hand=0.05)  # estimate: still hunting


def check_attention(owner: str, policy: object) -> None:
    if policy not in ATTENTION_POLICIES:
        raise ConfigError(f"{owner}.attention = {policy!r}: must be one of {', '.join(ATTENTION_POLICIES)}")


@mypyc_attr(allow_interpreted_subclasses=True)  # a part a researcher may vary by deriving from it
class Looking:
    """An attention policy by name (:data:`ATTENTION_POLICIES`)."""

    def __init__(self, policy: str, still_after: float = 3.0) -> None:
        self.policy = policy
        self.still_after = still_after

    def gaze(self, obs: Observation, reader: TableReader) -> Attention | None:
        policy = self.policy
        if policy == "profile":
            return None
        partner = obs.partner
        partner_still = obs.now - max(obs.last_swap[partner], 0.0) >= self.still_after
        if policy == "partner_when_still":
            return ON_PARTNER if partner_still else BALANCED
        reader.refresh(obs)
        return PARTNER_READY if partner_still and reader.most_taken(partner) >= 2 else HUNTING
