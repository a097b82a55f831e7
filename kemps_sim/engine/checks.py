"""The rules' side of the agent boundary: is this intent allowed for this seat, here and now?

:meth:`IntentChecker.problem` says what is wrong and what would have been allowed; the engine turns it into an
:class:`~kemps_sim.errors.AgentError` naming the agent, seat, simulated time and seed.
"""

from __future__ import annotations

from typing import Any

from kemps_sim.errors import IllegalMove
from kemps_sim.gestures import Repertoire
from kemps_sim.intents import CALL_INTENTS, Gesture, Intent, Object, SayStalled, Swap, Wait
from kemps_sim.scoring import Call, CallKind, check_call, check_seat
from kemps_sim.state import RoundState
from kemps_sim.table import swap_problem


class IntentChecker:
    """Checks intents against the rules and the seat's situation before the engine carries them out."""

    def __init__(self, state: RoundState, repertoire: Repertoire) -> None:
        self.state = state
        self.rules = state.rules
        self.repertoire = repertoire

    def problem(self, seat: int, intent: Intent) -> str | None:
        """Why the rules forbid ``intent`` for ``seat`` now, or None if they allow it."""
        kind = type(intent)  # for the set tests; the branches test type(intent), which type checkers narrow
        owed = self.state.table.owed[seat]
        if owed and kind is not Swap and kind not in CALL_INTENTS:
            return (f"{intent!r}: the seat has put down cards and owes {owed}; it must pick them up first "
                    f"(Swap(give=(), take=<{owed} middle cards>)) or call")
        if type(intent) is Wait:
            given: Any = intent  # its fields as the agent set them: any values until checked here
            timeout = given.timeout
            if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)
                                        or not timeout > 0):
                return f"Wait(timeout={timeout!r}): timeout must be None or a number of seconds > 0"
            if given.stale is not False and (given.stale is not True or timeout is not None):
                return (f"{intent!r}: stale must be true or false, and a stale Wait takes no timeout (it lasts "
                        "the seat's patience with the middle)")
        elif type(intent) is Swap:
            return self._swap(seat, intent)
        elif type(intent) is Gesture:
            return self._gesture(intent)
        elif kind in CALL_INTENTS:
            return self._call(seat, intent)
        elif kind is SayStalled:
            if self.rules.fresh_middle == "nobody_wants":
                return ("SayStalled: under fresh_middle = 'nobody_wants' the middle is swept when every player "
                        "waits on it; nobody calls a stall")
        elif kind is Object and (self.rules.fresh_middle != "stall_call"
                                 or self.state.public.stall_pending_until is None):
            return ("Object: allowed only during the objection window of a pending stall "
                    "(fresh_middle = 'stall_call')")
        return None

    def _swap(self, seat: int, intent: Swap) -> str | None:
        table, rules = self.state.table, self.rules
        given: Any = intent  # its fields as the agent set them: any values until checked here
        give, take = given.give, given.take
        if not isinstance(give, tuple) or not isinstance(take, tuple):
            return f"{intent!r}: give and take must be tuples of card ids"
        if not self.state.public.playing:
            return f"{intent!r}: play has not started (start = {rules.start!r})"
        owed = table.owed[seat]
        if rules.swap == "multi_drop_first" and not owed and not take:
            return f"{intent!r}: name the middle cards to pick up after putting these down"
        # Under multi_drop_first the put-down happens first, so the cards to take are checked against the middle
        # as it is now (they may be none of the cards put down).
        problem = swap_problem(rules, seat, table.hands[seat], table.middle, owed, give, take)
        return None if problem is None else f"{intent!r}: {problem}"

    def _gesture(self, intent: Gesture) -> str | None:
        given: Any = intent  # its name as the agent set it: any value until checked here
        name = given.name
        if not isinstance(name, str) or name not in self.repertoire:
            return f"Gesture({name!r}): not in the repertoire; allowed: " + ", ".join(self.repertoire.names)
        modality = self.rules.signal_modality
        if modality != "spoken_allowed" and self.repertoire[name] not in self.repertoire.allowed_signals(modality):
            what = "a spoken gesture" if modality == "silent" else "a gesture that is heard"
            return (f"Gesture({name!r}): {what} is forbidden under signal_modality = {modality!r}; allowed: "
                    + ", ".join(g.name for g in self.repertoire.allowed_signals(modality)))
        return None

    def _call(self, seat: int, intent: Intent) -> str | None:
        if not self.state.public.playing:
            return f"{intent!r}: calls are allowed only while play is on"
        kind = CALL_INTENTS[type(intent)]
        if kind is CallKind.STOP_KEMPS and seat in self.state.public.barred:
            return (f"{intent!r}: this seat made a wrong Stop Kemps and may not call it again this round "
                    "(wrong_stop_penalty_003)")
        accused = getattr(intent, "accused", None)
        try:
            if accused is not None:
                check_seat(self.rules, "accused", accused)  # before a Call, whose accused is typed, holds it
            check_call(self.rules, Call(kind, seat, accused))
        except IllegalMove as exc:
            return f"{intent!r}: {exc}"
        return None
