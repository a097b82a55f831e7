"""``bluffer``: fake signals bait a wrong Stop Kemps, but only if the partner knows a fake is coming, or it is a wrong
Kemps (004, 000).

With three of a kind freshly made by a swap, the bluffer gives the pair's signal as a fake (with probability
``fake_prob``, once per rank and round), right after that swap: under the pair's protocol (:mod:`agents.fakes`) a
signal made within the fake window after the signaller's own swap is a fake, and a real one waits until the holder
has been still longer. A watcher that has learned the pair's signal sees a deliberate gesture from a player who has
been taking one rank, and calls Stop Kemps: a wrong call, a letter for the watcher's pair (a point for the
bluffers under points scoring). Once or twice: a fake comes right after the faker's own swap, and a seat that was
burnt keeps the pair's honesty by that timing (:mod:`kemps_sim.belief.tells`), so it discounts the pair's gestures
right after its swaps and still believes those after a stillness.

``partner_knows=True``: the pair agreed the protocol, so each partner ignores the other's fakes (and real signals
wait out the window). ``partner_knows=False``: the partner is not told; it reads every signal as real and calls a
wrong Kemps on a fake (004: "a false signal your own partner believes is a wrong Kemps and a letter against you"); its
real signals come as promptly as its fakes, so they share the fakes' timing. Any agent with ``knows_fakes=True``
can partner a bluffer that keeps the protocol.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from kemps_sim_agents.calling import Calling
from kemps_sim_agents.collector import Collector
from kemps_sim_agents.composed import check_bool
from kemps_sim_agents.fakes import may_fake_now
from kemps_sim_agents.signalling import Signalling

from kemps_sim.belief.tracking import TableReader
from kemps_sim.errors import ConfigError
from kemps_sim.intents import Gesture, Intent
from kemps_sim.observation import Observation


class FakeSignalling(Signalling):
    """Signals four of a kind (waiting out the fake window under the protocol) and fakes with three of a kind."""

    acts_before_collecting = True

    def __init__(self, resignal: float, protocol: bool, fake_prob: float, rng: np.random.Generator) -> None:
        super().__init__(resignal, protocol)
        self.fake_prob = fake_prob
        self.rng = rng

    def new_round(self, obs: Observation) -> None:
        self.decided: set[int] = set()  # ranks whose three of a kind was already weighed for a fake this round

    def before_collecting(self, obs: Observation, reader: TableReader, counts: dict[int, int]) -> Intent | None:
        """Fake the signal right after the swap that made a three of a kind (once per rank, with ``fake_prob``)."""
        self._refresh(obs)
        three = next((rank for rank, n in sorted(counts.items()) if n == 3), -1)
        if three < 0 or three in self.decided:
            return None
        last = obs.last_swap[obs.seat]
        if not may_fake_now(obs.now, last):
            return None
        self.decided.add(three)
        if float(self.rng.random()) < self.fake_prob:
            return Gesture(obs.signal)
        return None


@dataclass(repr=False, eq=False)
class Bluffer(Collector):
    """A collector that fakes its pair's signal with three of a kind to bait a wrong Stop Kemps (004, 000). With
    ``partner_knows`` the pair keeps a fake protocol (:mod:`agents.fakes`): a signal within the fake window after
    the signaller's own swap is a fake, set aside by the partner; without it the partner believes every signal and
    may call a wrong Kemps (and learns from it, like any player, through its belief in its own pair's honesty)."""

    partner_knows: bool = True
    fake_prob: float = 1.0

    name = "bluffer"
    description = "fakes the pair's signal with three of a kind to bait a wrong Stop Kemps (004, 000)"
    sources = ("004", "000")

    def __post_init__(self) -> None:
        super().__post_init__()
        check_bool(self.name, "partner_knows", self.partner_knows)
        if isinstance(self.fake_prob, bool) or not isinstance(self.fake_prob, int | float) or not (
                0.0 <= self.fake_prob <= 1.0):
            raise ConfigError(f"bluffer.fake_prob = {self.fake_prob!r}: must be a probability from 0 to 1")

    def make_calling(self) -> Calling:
        """The partner sets this seat's fakes aside when the protocol is agreed (``partner_knows``)."""
        return Calling(self.seat, self.players, self.reader, self.rng.spawn(1)[0], self.caution, self.threshold,
                       self.stop, self.partner_knows or self.knows_fakes, self.watch_span, self.hunches,
                       self.reads_tells, self.shy)

    def make_signalling(self) -> Signalling:
        return FakeSignalling(self.resignal, self.partner_knows, self.fake_prob, self.rng)
