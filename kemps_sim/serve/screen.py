"""What one person's page is shown, message by message: each message numbered, what it showed remembered until the
page says it has drawn it, and (with a session's data on) every draw and every avatar gesture written down.

Other players are avatars whose gestures, meant or idle, the person sees in plain sight
(:func:`kemps_sim.visibility.on_screen`). Whether a gesture was meant is never sent; as at a real table it shows
only in how it is made: the avatar holds a gesture for ``hold`` seconds, longer the more emphatic it is, and a meant
gesture is more emphatic on average. The emphasis is normal with sd 1 and mean :data:`SCREEN_D` for a meant
gesture, 0 for an idle one, so that :data:`SCREEN_D` is the display's own d' (an ideal observer of the hold times
tells meant from idle with it): the most a person can reach, and what a person's fitted d' is measured against.
"""

from __future__ import annotations

import math
import queue
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from kemps_sim.results import MatchResult
from kemps_sim.seating import partner
from kemps_sim.serve.messages import event_message, view_message
from kemps_sim.study.writer import SessionWriter
from kemps_sim.trace import Gestured, TraceEvent
from kemps_sim.visibility import on_screen

#: The display's d' between a meant gesture and an idle one (the mean emphasis of a meant gesture).
SCREEN_D = 2.0
#: How long an avatar holds a gesture of emphasis 0, and the seconds each unit of emphasis adds (page seconds at
#: real speed), clipped to :data:`HOLD_RANGE`.
HOLD, HOLD_PER_EMPHASIS, HOLD_RANGE = 0.45, 0.15, (0.15, 1.2)


def emphasis_of(event: Gestured, rng: np.random.Generator) -> float:
    """How emphatic a gesture is drawn: normal, sd 1, mean :data:`SCREEN_D` if it was meant, else 0."""
    return float(rng.normal(SCREEN_D if event.deliberate else 0.0, 1.0))


def hold_of(emphasis: float) -> float:
    """How long (page seconds at real speed) an avatar holds a gesture of ``emphasis``."""
    low, high = HOLD_RANGE
    return min(high, max(low, HOLD + HOLD_PER_EMPHASIS * emphasis))


class Screen:
    """The page of the person at ``seat``: messages go to ``outbox`` (JSON-ready dicts, each with its number
    ``id``); ``writer`` (if any) records what was drawn (:meth:`drawn`) and the gestures shown. ``clock`` gives the
    server's seconds since the session began; ``factor`` is the table's wall seconds per simulated second."""

    def __init__(self, seat: int, players: int, outbox: queue.SimpleQueue, factor: float,
                 writer: SessionWriter | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.seat, self.players, self.outbox, self.factor = seat, players, outbox, factor
        self.writer, self.clock = writer, clock
        self.signal: str | None = None
        self.round = -1  # the round of the last view shown
        self._next = 0
        self._shown: dict[int, dict[str, Any]] = {}

    def view(self, view: dict[str, Any]) -> None:
        """Show the seat's view (its hand, the middle, its pair's signal, the standings)."""
        self.signal, self.round = view["signal"], view["round"]
        self._put(view_message(view), what="view", detail="", round=view["round"], sim_time=view.get("time", math.nan),
                  hand=" ".join(map(str, view["hand"])), middle=" ".join(map(str, view["middle"])))

    def event(self, index: int, event: TraceEvent, emphasis: float = 0.0) -> None:
        """Show ``event`` as the person may see it (nothing if they may not); another player's gesture as its
        avatar making it, held for the time its ``emphasis`` gives."""
        shown = on_screen(event, self.seat)
        if shown is None:
            return
        if type(event) is not Gestured or event.seat == self.seat:
            self._put(event_message(index, shown), what="event", detail=type(event).__name__, round=index,
                      sim_time=event.time)
            return
        hold = hold_of(emphasis)
        relation = "partner" if event.seat == partner(self.players, self.seat) else "opponent"
        number = self._put({"type": "gesture", "round": index, "time": event.time, "seat": event.seat,
                            "gesture": event.gesture, "relation": relation, "hold": hold * self.factor},
                           what="gesture", detail=event.gesture, round=index, sim_time=event.time)
        if self.writer is not None:
            self.writer.row("gestures_shown", self.seat, message=number, round=index, sim_time=event.time,
                            gesturer=event.seat, relation=relation, gesture=event.gesture, emphasis=emphasis,
                            hold=hold * self.factor, deliberate=bool(event.deliberate),
                            own_signal=event.gesture == self.signal, holds_four=bool(event.holds_four))

    def notice(self, kind: str, text: str) -> None:
        """A line for the person: ``refused`` (the rules did not allow their action then), ``error`` (their page
        sent what is not an action), ``limited``, ``paused`` or ``resumed``."""
        self._put({"type": kind, "message": text}, what="notice", detail=kind, round=-1, sim_time=math.nan)

    def over(self, result: MatchResult | None, error: BaseException | None) -> None:
        """The end of the match: how it ended and who won; then None (the page's stream is closed)."""
        self._put({"type": "over", "end_reason": None if result is None else result.end_reason,
                   "winners": None if result is None else list(result.winners),
                   "error": None if error is None else str(error)}, what="over", detail="", round=-1,
                  sim_time=math.nan)
        self.outbox.put(None)

    def drawn(self, number: Any, client_time: Any) -> bool:
        """The page drew message ``number`` at ``client_time`` (page clock, s): recorded once; False if no such
        message is waiting for its draw."""
        shown = self._shown.pop(number, None) if isinstance(number, int) else None
        if shown is None or not isinstance(client_time, int | float) or not math.isfinite(client_time):
            return False
        if self.writer is not None:
            self.writer.row("draws", self.seat, message=number, client_time=float(client_time), **shown)
        return True

    @property
    def undrawn(self) -> int:
        """How many messages the page has not yet said it drew."""
        return len(self._shown)

    def _put(self, message: dict[str, Any], **shown: Any) -> int:
        number = self._next
        self._next += 1
        shown.setdefault("hand", "")
        shown.setdefault("middle", "")
        self._shown[number] = {**shown, "server_time": self.clock()}
        self.outbox.put({**message, "id": number})
        return number

