"""A Krepet game's trace as rows of a sweep's ``events`` table (``events = true`` in the spec), one row per event.

The columns are always the same, in the same order (the seed, the event's type, then every field of every event
type of :mod:`kemps_sim.krepet.trace`), whichever events happened, so that the events of many games stack into one
table, as a Kemps sweep's events table does (:data:`kemps_sim.records.EVENT_COLUMNS`). Tuple fields (the times a
call caught, the cards left) are written as their text.
"""

from __future__ import annotations

from dataclasses import fields
from typing import get_args

from kemps_sim.krepet.result import KrepetResult
from kemps_sim.krepet.trace import KrepetEvent

#: The Krepet trace's event types, in the order of :data:`kemps_sim.krepet.trace.KrepetEvent`.
EVENT_TYPES: tuple[type, ...] = get_args(KrepetEvent)
#: The columns of a Krepet sweep's events table.
EVENT_COLUMNS = ["seed", "event", *dict.fromkeys(f.name for kind in EVENT_TYPES for f in fields(kind))]


def events_rows(result: KrepetResult) -> list[dict]:
    """One row per event of the game's trace, in trace order (each with the keys of its event's fields only)."""
    return [event_row(result.seed, event) for event in result.trace]


def event_row(seed: int, event: KrepetEvent) -> dict:
    """One event as a row of the events table (tuples as their text)."""
    row = {"seed": seed, "event": type(event).__name__}
    for f in fields(event):
        value = getattr(event, f.name)
        row[f.name] = repr(value) if isinstance(value, tuple) else value
    return row
