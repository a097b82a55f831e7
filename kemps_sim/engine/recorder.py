"""The one place the engine records what happened: every event goes to the trace and to whoever sees it."""

from __future__ import annotations

from kemps_sim.state import RoundState
from kemps_sim.trace import TraceEvent
from kemps_sim.visibility import EVERYONE, TRACE_ONLY, audience, public_form


class Recorder:
    """Appends each event to the round's trace, and to the public log or one seat's private log per
    :func:`kemps_sim.visibility.audience`."""

    __slots__ = ("log", "private", "trace")

    def __init__(self, state: RoundState) -> None:
        self.trace: list[TraceEvent] = []
        self.log = state.public.log
        self.private = state.private

    def __call__(self, event: TraceEvent) -> None:
        """Record ``event``."""
        self.trace.append(event)
        who = audience(event)
        if who == EVERYONE:
            self.log.append(public_form(event))
        elif who != TRACE_ONLY:
            self.private[who].append(event)
