"""The tables a sweep writes of each Kemps match (the Kemps record's ``tables``): loaded by the sweep's workers only,
since the records build pandas frames."""

from __future__ import annotations

from kemps_sim.games import GameTables
from kemps_sim.records import (
    CALLS_COLUMNS,
    EVENT_COLUMNS,
    FOURS_COLUMNS,
    calls_rows,
    events_rows,
    fours_rows,
    match_row,
    pairs_rows,
    rounds_rows,
)

#: The rows a Kemps match writes: its ``matches`` row, one row per pair, round, call and four of a kind, and (with
#: ``events = true``) every event of the trace; every table but the events takes the cell's scoring rule.
TABLES = GameTables(match_row,
                    {"pairs": (pairs_rows, None), "rounds": (rounds_rows, None), "calls": (calls_rows, CALLS_COLUMNS),
                     "fours": (fours_rows, FOURS_COLUMNS)},
                    ("events", events_rows, EVENT_COLUMNS),
                    scored=("matches", "pairs", "rounds", "calls", "fours"))
