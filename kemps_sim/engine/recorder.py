"""The one place the engine records what happened: every event goes to the trace, to whoever sees it, and, in a
match played live, to its listener (:mod:`kemps_sim.engine.live`)."""

from __future__ import annotations

from kemps_sim.engine.live import Listener
from kemps_sim.state import RoundState
from kemps_sim.trace import TraceEvent
from kemps_sim.visibility import EVERYONE, TRACE_ONLY, audience, public_form


class Recorder:
    """Appends each event to the round's trace, and to the public log or one seat's private log per
    :func:`kemps_sim.visibility.audience`."""

    __slots__ = ("listener", "log", "private", "round_index", "trace")

    def __init__(self, state: RoundState, listener: Listener | None = None) -> None:
        self.trace: list[TraceEvent] = []
        self.log = state.public.log
        self.private = state.private
        self.listener = listener
        self.round_index = state.public.round_index

    def __call__(self, event: TraceEvent) -> None:
        """Record ``event``."""
        self.trace.append(event)
        if self.listener is not None:  # a match played live: someone hears every event as it happens
            self.listener(self.round_index, event)
        who = audience(event)
        if who == EVERYONE:
            self.log.append(public_form(event))
        elif who != TRACE_ONLY:
            self.private[who].append(event)
