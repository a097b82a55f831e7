"""The Snap players: a snapper, who calls when what it saw is clear enough, and a hasty one, who calls on anything.

Both watch the face-up piles with their ``attention`` and take a look in as "a match" when the evidence passes the
observer's criterion (the profile's; signal detection with the profile's d', as every percept of the library).
What each look shows decides the evidence: a real match, a near match (two tops one rank apart, a lure seen with
less d', so it passes the criterion more often than a plain non-match) or nothing.

- ``snapper`` calls only when the evidence of its percept reaches ``threshold`` (above the criterion): fewer right
  calls, far fewer false ones.

- ``hasty`` watches more closely (``attention`` 0.8) and calls on every percept: it wins more races and pays for
  every near match and glimpse it took for a match.
"""

from __future__ import annotations

import math

from kemps_sim.errors import ConfigError
from kemps_sim.perception import Percept
from kemps_snap.agent import DEFAULT_ATTENTION, BaseSnapAgent, SnapView


class Snapper(BaseSnapAgent):
    """Calls "Snap!" when the evidence of what it took in as a match reaches ``threshold``."""

    name = "snapper"
    description = "Snap: calls when the evidence that a match shows reaches `threshold`"

    def __init__(self, attention: float = DEFAULT_ATTENTION, threshold: float = 1.0) -> None:
        if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not math.isfinite(threshold):
            raise ConfigError(f"snapper.threshold = {threshold!r}: must be a finite number (evidence, in d' units)")
        self.threshold = threshold
        super().__init__(attention)

    def calls(self, view: SnapView, percept: Percept) -> bool:
        """Call when the evidence is strong enough."""
        return percept.evidence >= self.threshold


class Hasty(BaseSnapAgent):
    """Watches the piles closely and calls on every percept of a match, near matches and glimpses included."""

    name = "hasty"
    description = "Snap: calls on every percept of a match, lures and glimpses included"

    def __init__(self, attention: float = 0.8) -> None:
        super().__init__(attention)
