"""The signalling part: what a seat holding four of a kind does about its signal.

:class:`Signalling` is the plain way: stop, signal at once and again every ``resignal`` seconds until someone calls
(the stillness that gives holders away, 004). Under a bluffing pair's protocol (:mod:`agents.fakes`) a real signal
waits until the holder has been still longer than the fake window. Other parts build on it: camouflage keeps
swapping and picks its moment (:mod:`agents.camouflage`), a bluffer fakes with three of a kind
(:mod:`agents.bluffer`).
"""

from __future__ import annotations

from typing import ClassVar

from kemps_sim_agents.fakes import real_signal_wait

from kemps_sim.belief.tracking import TableReader
from kemps_sim.compile_hints import mypyc_attr
from kemps_sim.intents import Gesture, Intent, Wait
from kemps_sim.observation import Observation


# Camouflage and the bluffer's fakes are Python classes deriving from this one, in the compiled build too. A setting
# a subclass overrides in its class body is a ClassVar: compiled code reads any other attribute from the instance.
@mypyc_attr(allow_interpreted_subclasses=True)
class Signalling:
    """Signal on four of a kind and repeat every ``resignal`` seconds; optionally keep the fake protocol."""

    #: Whether a seat holding four of a kind should be woken by a change of the middle (it takes nothing).
    wakes_when_holding: ClassVar[bool] = False
    #: Whether :meth:`before_collecting` can return anything (the plain part: never, so it is not asked).
    acts_before_collecting: ClassVar[bool] = False

    def __init__(self, resignal: float, protocol: bool = False) -> None:
        self.resignal = resignal
        self.protocol = protocol
        #: Whether the part is in the middle of something it must be woken for (a card to take back).
        self.busy = False
        self.round = -1
        self.last_signal = float("-inf")

    def _refresh(self, obs: Observation) -> None:
        if obs.round_index != self.round:
            self.round = obs.round_index
            self.last_signal = float("-inf")
            self.new_round(obs)

    def new_round(self, obs: Observation) -> None:
        """Reset whatever a subclass keeps per round."""

    def holding(self, obs: Observation, reader: TableReader) -> Intent:
        """Holding four of a kind: the signal, or a wait until the next one is due."""
        self._refresh(obs)
        if self.protocol:
            wait = real_signal_wait(obs.now, obs.last_swap[obs.seat])
            if wait > 0:
                return Wait(timeout=wait)
        return self.signal_or_wait(obs)

    def signal_or_wait(self, obs: Observation) -> Intent:
        """The pair's signal if ``resignal`` seconds have passed since the last one, else a wait until then."""
        since = obs.now - self.last_signal
        if since >= self.resignal:
            self.last_signal = obs.now
            return Gesture(obs.signal)
        return Wait(timeout=max(self.resignal - since, 0.05))

    def before_collecting(self, obs: Observation, reader: TableReader, counts: dict[int, int]) -> Intent | None:
        """Something to do before collecting when not holding four of a kind (a fake, a swap back); None here."""
        return None
