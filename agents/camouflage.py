"""``camouflage``: good players keep swapping after making four of a kind, so nothing changes (004), and signal when
the opponents are not looking.

Keeping on swapping: every ``churn`` seconds the holder swaps one card of its four for a middle card and, at its
next decision, straight back (the card it gave is still in the middle: nobody else collects that rank, the holder
has the other three). When a signal is due it swaps out and back first and signals right after, so the signal
comes from a player who has just swapped like everyone else: the stillness tell (time since a player's last swap,
public) never builds up. It never goes out while a sweep is due or a stall is pending (the dealer might sweep its
card away), nor for ``hold`` seconds after a signal, so that the partner's call finds four of a kind in the hand.

"Not looking", in terms of what an agent can observe: a seat cannot see where the others' eyes are, but it sees
the middle change. Right after a card lands (a throw, a fresh deal), whoever wants it reacts and reaches, and a
player whose hands are busy reaching misses about half of what happens elsewhere (Simons & Chabris 1999, the
engine's ``busy_miss``); eyes follow the hands to the middle. So the holder's signal is due within ``look_away``
seconds of a change of the middle by someone else, or, if the middle stays quiet, after a random delay of up to
``max_delay`` seconds (drawn from the seat's own generator for each four of a kind), so it never waits forever.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from kemps_sim_agents.collector import Collector
from kemps_sim_agents.composed import check_positive
from kemps_sim_agents.signalling import Signalling

from kemps_sim.belief.tracking import TableReader
from kemps_sim.cards import RANK
from kemps_sim.intents import Gesture, Intent, Swap, Wait
from kemps_sim.observation import Observation

#: A holder that swapped back this recently signals as one who is still playing (a reaction time and a bit).
JUST_SWAPPED = 1.0


class CamouflageSignalling(Signalling):
    """Holding four of a kind: keep swapping out and straight back; signal when the opponents look away."""

    wakes_when_holding = True  # a change of the middle is the moment to signal
    acts_before_collecting = True  # taking the card back

    def __init__(self, resignal: float, churn: float, hold: float, look_away: float, max_delay: float,
                 rng: np.random.Generator) -> None:
        super().__init__(resignal)
        self.churn, self.hold, self.look_away, self.max_delay = churn, hold, look_away, max_delay
        self.rng = rng
        self.out: tuple[int, int] | None = None  # (card of the four given, middle card taken) while swapped out
        self.busy = False

    def new_round(self, obs: Observation) -> None:
        self.out, self.busy = None, False
        self.four_since = float("-inf")
        self.delay = 0.0
        self.ready = False

    def holding(self, obs: Observation, reader: TableReader) -> Intent:
        """Hold still after a signal; when the next one is due and the moment is right, swap out and back, then
        signal at once, so that the signal comes from a player who has just swapped like everyone else."""
        self._refresh(obs)
        self.out, self.busy = None, False  # holding four of a kind again: any card given out is back
        now = obs.now
        if self.four_since == float("-inf"):  # a new four of a kind: draw how long a quiet middle may delay us
            self.four_since = now
            self.delay = self.max_delay * float(self.rng.random())
        since_signal = now - self.last_signal
        if since_signal < self.hold:  # the partner may be calling: keep the four in hand
            return Wait(timeout=self.hold - since_signal)
        waited = now - max(self.four_since, self.last_signal)
        if since_signal >= self.resignal and (now - reader.others_changed_at <= self.look_away
                                              or waited >= self.delay):
            self.ready = True  # the moment has come: the next swap back is followed by the signal
        since_swap = now - obs.last_swap[obs.seat]
        if self.ready and since_swap <= JUST_SWAPPED:
            self.ready = False
            self.last_signal = now
            return Gesture(obs.signal)
        out = self._swap_out(obs, reader, due=self.ready or since_swap >= self.churn)
        if out is not None:
            return out
        if self.ready:  # no safe swap now (a sweep is due, the middle is empty): signal anyway
            self.ready = False
            self.last_signal = now
            return Gesture(obs.signal)
        due = [t for t in (self.churn - since_swap, self.delay - waited, self.resignal - since_signal) if t > 0]
        return Wait(timeout=max(min(due), 0.05) if due else 0.5)

    def _swap_out(self, obs: Observation, reader: TableReader, due: bool) -> Swap | None:
        """Swap a card of the four for a middle card (the one fewest others collect), if it is due and safe."""
        middle, hand = obs.middle, obs.hand
        if not due or not middle or obs.sweep_due or obs.refilling or obs.stall_pending_until is not None:
            return None
        take = min(middle, key=lambda c: (reader.takers(RANK[c], obs.seat), c))
        give = hand[-1]
        self.out, self.busy = (give, take), True
        return Swap((give,), (take,))

    def before_collecting(self, obs: Observation, reader: TableReader, counts: dict[int, int]) -> Intent | None:
        """Swapped out: take the card of the four straight back (if someone took it, the four is gone)."""
        self._refresh(obs)
        if self.out is None:
            self.four_since = float("-inf")
            return None
        given, taken = self.out
        if given in obs.middle and taken in obs.hand and not obs.sweep_due:
            return Swap((taken,), (given,))
        self.out, self.busy = None, False
        self.four_since = float("-inf")
        return None


@dataclass(repr=False, eq=False)
class Camouflage(Collector):
    """A collector that hides its four of a kind (004: "good players keep swapping after making it, so nothing
    changes"): it swaps out and straight back every ``churn`` seconds and signals within ``look_away`` seconds of a
    change of the middle, when the opponents' hands and eyes are busy there, or after a random delay of up to
    ``max_delay`` seconds; it holds still for ``hold`` seconds after each signal so the partner's call is right."""

    churn: float = 2.0
    hold: float = 3.0
    look_away: float = 1.0
    max_delay: float = 4.0

    name = "camouflage"
    description = "keeps swapping after four of a kind (out and straight back) and signals when eyes are busy (004)"
    sources = ("004",)

    def __post_init__(self) -> None:
        super().__post_init__()
        for field in ("churn", "hold", "look_away", "max_delay"):
            check_positive(self.name, field, getattr(self, field))

    def make_signalling(self) -> Signalling:
        return CamouflageSignalling(self.resignal, self.churn, self.hold, self.look_away, self.max_delay, self.rng)
