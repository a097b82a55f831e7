"""The canonical observation of a Kemps seat for learning agents: version ``kemps-obs-v0``, a flat vector in [0, 1].

It encodes what the seat's :class:`~kemps_sim.observation.Observation` shows and nothing else (the seat's own hand,
the public table, its own percepts, the standings, time), so it holds only what the seat may know (the global
state of a centralised critic is :meth:`kemps_sim.rl.core.KempsSession.state`). Seats are counted
from the observer (offset 1 is the seat on its left; its partner sits at offset ``players / 2``), and pairs from
its own, so one policy can play any seat. The blocks, in order:

=================  =====================================  ====================================================
block              length                                 values
=================  =====================================  ====================================================
hand               4 places x 13 ranks                    one-hot rank of each hand place (zero if empty)
hand ranks         13                                     cards of each rank in hand / 4
middle             places x 13 ranks                      one-hot rank of each middle place (4, or 8 under
                                                          ``multi_drop_first``)
status             8                                      own four of a kind, owed / 4, barred from Stop Kemps,
                                                          playing, a fresh middle being laid, a sweep due, a
                                                          "stalled" pending, pack size / cards in the pack
signal             gestures                               the pair's agreed signal, one-hot
percepts           (players - 1) x gestures x 2           per other seat and gesture: exp(-age / 2 s) of the
                                                          latest percept, and min(percepts this round / 5, 1)
swaps              players x 2                            per seat from the observer: exp(-age / 5 s) of its
                                                          last swap, and min(swaps this round / 20, 1)
standings          pairs                                  per pair from the observer's: letters / 5, points /
                                                          target or rounds won / rounds to play, at most 1
time               3                                      min(round time / 60 s, 1), min(round / 50, 1),
                                                          1 - exp(-seconds since the seat's last decision)
=================  =====================================  ====================================================

The version changes whenever a block does; :data:`OBSERVATION_VERSION` names it and the environment card
(``docs/environments/kemps.md``) lists it.
"""

from __future__ import annotations

import math

import numpy as np

from kemps_sim.cards import HAND_SIZE, RANK
from kemps_sim.observation import Observation
from kemps_sim.rl.actions import middle_places
from kemps_sim.rules import Rules
from kemps_sim.scoring import LETTERS

OBSERVATION_VERSION = "kemps-obs-v0"
RANKS = 13
STATUS = 8
TIME = 3
#: Seconds over which a percept's and a swap's recency fade to 1/e.
PERCEPT_FADE = 2.0
SWAP_FADE = 5.0
PERCEPTS_FULL = 5.0
SWAPS_FULL = 20.0
ROUND_SECONDS_FULL = 60.0
ROUNDS_FULL = 50.0


class ObservationEncoder:
    """Turns a seat's view into the ``kemps-obs-v0`` vector, for one environment's rules and repertoire."""

    def __init__(self, rules: Rules, gesture_names: tuple[str, ...]) -> None:
        self.rules = rules
        n = rules.players
        self.players = n
        self.places = middle_places(rules)
        self.gestures = {name: i for i, name in enumerate(gesture_names)}
        g = len(gesture_names)
        sizes = {"hand": HAND_SIZE * RANKS, "ranks": RANKS, "middle": self.places * RANKS, "status": STATUS,
                 "signal": g, "percepts": (n - 1) * g * 2, "swaps": n * 2, "standings": rules.pairs, "time": TIME}
        self.offsets: dict[str, int] = {}
        start = 0
        for name, length in sizes.items():
            self.offsets[name] = start
            start += length
        self.size = start
        self.pack_cards = 52.0 * rules.decks
        #: Per seat: [the view of the round, percepts taken in, {slot: [latest time, count]}].
        self._percepts: dict[int, list] = {}
        if rules.scoring == "letters":
            self.full_score = float(len(LETTERS))
        elif rules.scoring == "points":
            self.full_score = float(rules.target_points or 1)
        else:
            self.full_score = float(rules.rounds_to_play or 1)

    def _percepts_of(self, view: Observation) -> dict[int, list[float]]:
        """Per (other seat, gesture) slot seen this round: [time of the latest percept, percepts so far], kept up
        to date from the percepts added since the seat's last encoding (a round's list only grows)."""
        kept = self._percepts.get(view.seat)
        if kept is None or kept[0] is not view:
            kept = self._percepts[view.seat] = [view, 0, {}]
        _, seen, slots = kept
        percepts = view.percepts
        if len(percepts) > seen:
            n, seat, g, gestures = self.players, view.seat, len(self.gestures), self.gestures
            for percept in percepts[seen:]:
                slot = ((percept.gesturer - seat) % n - 1) * g + gestures[percept.gesture]
                time = percept.time if percept.time == percept.time else view.now
                entry = slots.get(slot)
                if entry is None:
                    slots[slot] = [time, 1.0]
                else:
                    entry[0] = time
                    entry[1] += 1.0
            kept[1] = len(percepts)
        return slots

    def encode(self, view: Observation, since_decision: float = 0.0) -> np.ndarray:
        """The seat's vector now (float32); ``since_decision`` is the simulated time since its last decision."""
        out = np.zeros(self.size, dtype=np.float32)
        at = self.offsets
        n, seat = self.players, view.seat
        hand = view.hand
        base = at["hand"]
        ranks = at["ranks"]
        for place, card in enumerate(hand):
            rank = RANK[card]
            out[base + place * RANKS + rank] = 1.0
            out[ranks + rank] += 0.25
        base = at["middle"]
        for place, card in enumerate(view.middle[:self.places]):
            out[base + place * RANKS + RANK[card]] = 1.0
        base = at["status"]
        four = len(hand) == HAND_SIZE and RANK[hand[0]] == RANK[hand[1]] == RANK[hand[2]] == RANK[hand[3]]
        out[base:base + STATUS] = (four, view.owed / HAND_SIZE, view.barred_from_stop, view.playing, view.refilling,
                                   view.sweep_due, view.stall_pending_until is not None,
                                   min(view.pack_size / self.pack_cards, 1.0))
        signal = self.gestures.get(view.signal)
        if signal is not None:
            out[at["signal"] + signal] = 1.0
        now = view.now
        base = at["percepts"]
        for slot, (latest, count) in self._percepts_of(view).items():
            out[base + 2 * slot] = math.exp(min(latest - now, 0.0) / PERCEPT_FADE)
            out[base + 2 * slot + 1] = min(count / PERCEPTS_FULL, 1.0)
        base = at["swaps"]
        last_swap, swaps_made = view.last_swap, view.swaps_made
        for offset in range(n):
            other = (seat + offset) % n
            when = last_swap[other]
            if when > -math.inf:
                out[base + 2 * offset] = math.exp(-max(now - when, 0.0) / SWAP_FADE)
            out[base + 2 * offset + 1] = min(swaps_made[other] / SWAPS_FULL, 1.0)
        base = at["standings"]
        scoring = self.rules.scoring
        scores = view.letters if scoring == "letters" else view.points if scoring == "points" else view.rounds_won
        pairs = self.rules.pairs
        for offset in range(pairs):
            out[base + offset] = min(max(scores[(view.pair + offset) % pairs] / self.full_score, 0.0), 1.0)
        base = at["time"]
        out[base] = min(now / ROUND_SECONDS_FULL, 1.0)
        out[base + 1] = min(view.round_index / ROUNDS_FULL, 1.0)
        out[base + 2] = 1.0 - math.exp(-max(since_decision, 0.0))
        return out
