"""Kemps' flat action space for learning agents: every intent a seat may send, numbered, with its legality mask.

An action names cards by their places, not their ids: "give hand cards 0 and 2 for middle cards 1 and 3" is the
same action whatever the cards are, which is what a policy network can learn. The table of actions is fixed for
an environment (its rules, table size and repertoire) and laid out in blocks:

====================  ==========================================================================================
block                 actions
====================  ==========================================================================================
wait                  ``Wait()`` (until something the seat can see changes), ``Wait(0.5)``, ``Wait(2.0)``
gesture               ``Gesture(name)`` for each gesture of the repertoire, in its order
call                  ``CallKemps()``, ``CallDoubleKemps()``, then ``CallStopKemps(o)`` for each opponent ``o``
                      in seat order counted from the seat's left
table talk            ``SayStalled()``, ``Object()``
swap                  ``Swap(give, take)`` by places: every pair of equally many hand places and middle places the
                      ``swap`` knob allows; under ``multi_drop_first`` also the picks of owed cards (``give=()``)
====================  ==========================================================================================

:meth:`KempsActions.mask` says which actions the rules allow the seat now. It is exactly the engine's own check
(:class:`~kemps_sim.engine.checks.IntentChecker`), which a test confirms action by action over whole matches; a
masked action is refused with an :class:`~kemps_sim.errors.AgentError`, as any agent's illegal intent is.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from kemps_sim.cards import HAND_SIZE, MIDDLE_SIZE
from kemps_sim.gestures import Repertoire
from kemps_sim.intents import (
    WAIT,
    CallDoubleKemps,
    CallKemps,
    CallStopKemps,
    Gesture,
    Intent,
    Object,
    SayStalled,
    Swap,
    Wait,
)
from kemps_sim.observation import Observation
from kemps_sim.rules import Rules
from kemps_sim.scoring import allowed_stop_targets
from kemps_sim.table import swap_sizes

#: The timeouts of the two timed waits (simulated seconds): a quick second look, and a longer patience.
WAIT_TIMEOUTS = (0.5, 2.0)
#: The action every seat may take while it owes no cards: wait until something changes. The no-op of the
#: Parallel view.
NOOP = 0


def middle_places(rules: Rules) -> int:
    """How many middle places the actions and observations name: four, or eight under ``multi_drop_first``
    (cards put down before the pick join the middle; a card beyond the eighth place cannot be named)."""
    return MIDDLE_SIZE + HAND_SIZE if rules.swap == "multi_drop_first" else MIDDLE_SIZE


@dataclass(frozen=True)
class ActionLayout:
    """Where each block of the flat action space starts, and how long it is."""

    gestures: int
    calls: int
    talk: int
    swaps: int
    size: int


class KempsActions:
    """The numbered actions of one environment and, per seat, their legality now."""

    def __init__(self, rules: Rules, repertoire: Repertoire) -> None:
        self.rules = rules
        self.places = middle_places(rules)
        n = rules.players
        names = repertoire.names
        self.gesture_names = names
        allowed_gestures = {g.name for g in repertoire.allowed_signals(rules.signal_modality)}
        if rules.signal_modality == "spoken_allowed":
            allowed_gestures = set(names)
        waits: list[Intent] = [WAIT, *(Wait(t) for t in WAIT_TIMEOUTS)]
        gestures: list[Intent] = [Gesture(name) for name in names]
        self.opponent_slots = n - 2
        swaps: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        for k in swap_sizes(rules):
            for give in combinations(range(HAND_SIZE), k):
                swaps.extend((give, take) for take in combinations(range(self.places), k))
        self.exchanges = len(swaps)
        if rules.swap == "multi_drop_first":
            for k in range(1, HAND_SIZE + 1):
                swaps.extend(((), take) for take in combinations(range(self.places), k))
        self.swap_places = tuple(swaps)
        start_gestures = len(waits)
        start_calls = start_gestures + len(gestures)
        start_talk = start_calls + 2 + self.opponent_slots
        start_swaps = start_talk + 2
        self.layout = ActionLayout(start_gestures, start_calls, start_talk, start_swaps, start_swaps + len(swaps))
        self.fixed: tuple[Intent | None, ...] = (*waits, *gestures, CallKemps(), CallDoubleKemps(),
                                                 *([None] * self.opponent_slots), SayStalled(), Object())
        self._gesture_ok = np.array([name in allowed_gestures for name in names], dtype=bool)
        sizes = np.array([len(take) for _, take in swaps], dtype=np.int64)
        give_bits = np.array([sum(1 << i for i in give) for give, _ in swaps], dtype=np.int64)
        take_bits = np.array([sum(1 << i for i in take) for _, take in swaps], dtype=np.int64)
        self._swap_arrays = (sizes, give_bits, take_bits, np.arange(len(swaps)) >= self.exchanges)
        self._stop_ok = [self._stops(seat) for seat in range(n)]
        self._cache: dict[tuple, np.ndarray] = {}
        noop = np.zeros(self.layout.size, dtype=np.int8)
        noop[NOOP] = 1
        noop.flags.writeable = False
        #: The mask of a seat whose decision is not due: only the no-op, which is ignored.
        self.noop_mask = noop

    @property
    def size(self) -> int:
        """How many actions there are."""
        return self.layout.size

    def _stops(self, seat: int) -> tuple[tuple[int, ...], np.ndarray]:
        """The seat's opponents in order from its left, and which of them the rules let it accuse."""
        n = self.rules.players
        order = tuple((seat + step) % n for step in range(1, n) if step != n // 2)
        targets = set(allowed_stop_targets(self.rules, seat))
        return order, np.array([o in targets for o in order], dtype=bool)

    def intent(self, action: int, view: Observation) -> Intent:
        """The intent action number ``action`` stands for at the seat of ``view`` now."""
        layout = self.layout
        if action < layout.swaps:
            intent = self.fixed[action]
            if intent is None:
                return CallStopKemps(self._stop_ok[view.seat][0][action - layout.calls - 2])
            return intent
        give, take = self.swap_places[action - layout.swaps]
        hand, middle = view.hand, view.middle
        return Swap(tuple(hand[i] for i in give), tuple(middle[i] for i in take))

    def mask(self, view: Observation) -> np.ndarray:
        """Which actions the rules allow the seat of ``view`` now (int8, 1 allowed): the engine's own check."""
        stall_open = self.rules.fresh_middle == "stall_call" and view.stall_pending_until is not None
        key = (view.seat, view.playing, len(view.hand), min(len(view.middle), self.places), view.owed,
               view.barred_from_stop, stall_open)
        mask = self._cache.get(key)
        if mask is None:
            mask = self._cache[key] = self._build(*key)
        return mask

    def _build(self, seat: int, playing: bool, hand: int, middle: int, owed: int, barred: bool,
               stall_open: bool) -> np.ndarray:
        layout, rules = self.layout, self.rules
        mask = np.zeros(layout.size, dtype=np.int8)
        if not owed:
            mask[:layout.gestures] = 1
            mask[layout.gestures:layout.calls] = self._gesture_ok
            mask[layout.talk] = rules.fresh_middle != "nobody_wants"
            mask[layout.talk + 1] = stall_open
        if playing:
            mask[layout.calls] = 1
            mask[layout.calls + 1] = rules.double_kemps
            if not barred:
                mask[layout.calls + 2:layout.talk] = self._stop_ok[seat][1]
            sizes, give_bits, take_bits, picks = self._swap_arrays
            fits = (take_bits >> middle) == 0
            legal = picks & fits & (sizes == owed) if owed else ~picks & fits & (give_bits >> hand == 0)
            mask[layout.swaps:] = legal
        mask.flags.writeable = False
        return mask

    def describe(self, action: int) -> str:
        """The action in words, by places (for logs and the environment card)."""
        layout = self.layout
        if action < layout.calls:
            return repr(self.fixed[action])
        if action < layout.talk:
            if action - layout.calls < 2:
                return repr(self.fixed[action])
            return f"CallStopKemps(opponent {action - layout.calls - 1} from the left)"
        if action < layout.swaps:
            return repr(self.fixed[action])
        give, take = self.swap_places[action - layout.swaps]
        return f"Swap(hand places {give}, middle places {take})"
