"""The rules' side of the agent boundary: is this intent allowed for this seat, here and now?

Every refusal is an :class:`~kemps_sim.errors.AgentError` naming the agent, seat, simulated time and seed, and
saying what would have been allowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kemps_sim.cards import hand_text
from kemps_sim.errors import IllegalMove
from kemps_sim.gestures import Repertoire
from kemps_sim.intents import (
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
from kemps_sim.scoring import Call, CallKind, check_call

if TYPE_CHECKING:
    from kemps_sim.engine.round import RoundSim


class IntentChecker:
    """Checks intents against the rules and the seat's situation before the engine carries them out."""

    def __init__(self, sim: RoundSim, repertoire: Repertoire) -> None:
        self.sim = sim
        self.rules = sim.rules
        self.repertoire = repertoire

    def check(self, seat: int, intent: Intent) -> None:
        """Raise :class:`AgentError` if the rules forbid ``intent`` for ``seat`` now."""
        kind = type(intent)
        owed = self.sim.table.owed[seat]
        if owed and kind not in (Swap, CallKemps, CallStopKemps, CallDoubleKemps):
            self._refuse(seat, f"{intent!r}: the seat has put down cards and owes {owed}; it must pick them up "
                               f"first (Swap(give=(), take=<{owed} middle cards>)) or call")
        if kind is Wait:
            timeout = intent.timeout
            if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)
                                        or not timeout > 0):
                self._refuse(seat, f"Wait(timeout={timeout!r}): timeout must be None or a number of seconds > 0")

        elif kind is Swap:
            self._check_swap(seat, intent)
        elif kind is Gesture:
            self._check_gesture(seat, intent)
        elif kind in (CallKemps, CallStopKemps, CallDoubleKemps):
            self._check_call(seat, intent)
        elif kind is SayStalled:
            if self.rules.fresh_middle == "nobody_wants":
                self._refuse(seat, "SayStalled: under fresh_middle = 'nobody_wants' the middle is swept when every "
                                   "player waits on it; nobody calls a stall")
        elif kind is Object and (self.rules.fresh_middle != "stall_call"
                                 or self.sim.public.stall_pending_until is None):
            self._refuse(seat, "Object: allowed only during the objection window of a pending stall "
                               "(fresh_middle = 'stall_call')")

    def _refuse(self, seat: int, problem: str) -> None:
        raise self.sim.agent_error(seat, problem)

    def _check_swap(self, seat: int, intent: Swap) -> None:
        table, rules = self.sim.table, self.rules
        give, take = intent.give, intent.take
        if not isinstance(give, tuple) or not isinstance(take, tuple):
            self._refuse(seat, f"{intent!r}: give and take must be tuples of card ids")
        if not self.sim.public.playing:
            self._refuse(seat, f"{intent!r}: play has not started (start = {rules.start!r})")
        owed = table.owed[seat]
        if rules.swap == "multi_drop_first" and owed:
            if give or len(take) != owed:
                self._refuse(seat, f"{intent!r}: seat owes {owed} card(s); send Swap(give=(), take=<{owed} "
                                   "middle cards>)")
        elif rules.swap == "one_for_one" and (len(give), len(take)) != (1, 1):
            self._refuse(seat, f"{intent!r}: under swap = 'one_for_one' exactly one card goes each way")
        elif not 1 <= len(give) == len(take) <= 4:
            self._refuse(seat, f"{intent!r}: must move as many cards each way, 1 to 4")
        hand, middle = table.hands[seat], table.middle
        if len(set(give)) != len(give) or any(c not in hand for c in give):
            self._refuse(seat, f"Swap give={hand_text(give)!r}: not all in the seat's hand ({hand_text(hand)})")
        if len(set(take)) != len(take) or any(c not in middle for c in take):
            self._refuse(seat, f"Swap take={hand_text(take)!r}: not all in the middle ({hand_text(middle)})")

    def _check_gesture(self, seat: int, intent: Gesture) -> None:
        name = intent.name
        if name not in self.repertoire:
            self._refuse(seat, f"Gesture({name!r}): not in the repertoire; allowed: "
                         + ", ".join(self.repertoire.names))
        if self.rules.signal_modality == "silent" and self.repertoire[name].spoken:
            self._refuse(seat, f"Gesture({name!r}): a spoken gesture is forbidden under signal_modality = 'silent'")

    def _check_call(self, seat: int, intent: Intent) -> None:
        sim = self.sim
        if not sim.public.playing:
            self._refuse(seat, f"{intent!r}: calls are allowed only while play is on")
        if type(intent) is CallStopKemps:
            if seat in sim.barred:
                self._refuse(seat, f"{intent!r}: this seat made a wrong Stop Kemps and may not call it again this "
                                   "round (wrong_stop_penalty_003)")
            call = Call(CallKind.STOP_KEMPS, seat, intent.accused)
        elif type(intent) is CallDoubleKemps:
            call = Call(CallKind.DOUBLE_KEMPS, seat)
        else:
            call = Call(CallKind.KEMPS, seat)
        try:
            check_call(self.rules, call)
        except IllegalMove as exc:
            self._refuse(seat, f"{intent!r}: {exc}")
