"""Chunks of work: a few matches played together in one task, returned as tidy tables ready to be stored.

A chunk is the unit a worker receives (so task overhead stays small against the matches) and the unit the store
writes (one Parquet file per table per chunk). The worker builds each table once for the whole chunk and encodes
it as Parquet, so the parent only writes bytes. Its id is a hash of the matches it holds, so the same work always
lands in the same file names.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from kemps_sim.engine import simulate_match
from kemps_sim.engine.gc_pause import fewer_collections
from kemps_sim.krepet import events as krepet_events
from kemps_sim.krepet import records as krepet_records
from kemps_sim.krepet.realtime import play_krepet
from kemps_sim.records import (
    CALLS_COLUMNS,
    EVENT_COLUMNS,
    FOURS_COLUMNS,
    calls_rows,
    events_rows,
    fours_rows,
    pairs_rows,
    rounds_rows,
)
from kemps_sim.results import FAILED_END_REASONS, SWEEP_TABLES, EndReason, MatchResult
from kemps_sim.sweep.cells import CellPlan
from kemps_sim.sweep.receipts import EncodedTable, encoded

#: The tables of a sweep; ``matches`` is written last and is what marks a chunk finished.
TABLES = SWEEP_TABLES
KEY_COLUMNS = ("cell", "replicate", "seed")
#: ``end_reason`` of a match that failed: its agent misbehaved (from the engine) or anything else went wrong.
FAILED = FAILED_END_REASONS


@dataclass(frozen=True)
class Task:
    """One match of the sweep: its cell, replicate number and seed."""

    cell: str
    replicate: int
    seed: int


@dataclass(frozen=True)
class Chunk:
    """Matches to play together, with the plans of the cells they belong to."""

    tasks: tuple[Task, ...]
    plans: tuple[CellPlan, ...]
    events: bool = False

    @property
    def id(self) -> str:
        """16 hex digits of the SHA-256 of the (cell, replicate) list."""
        text = ";".join(f"{t.cell}:{t.replicate}" for t in self.tasks)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def make_chunks(tasks: Sequence[Task], plans: dict[str, CellPlan], size: int, events: bool) -> Iterator[Chunk]:
    """Consecutive runs of ``size`` tasks (in plan order), each with the plans it needs."""
    for start in range(0, len(tasks), size):
        part = tuple(tasks[start:start + size])
        cells = dict.fromkeys(t.cell for t in part)
        yield Chunk(part, tuple(plans[c] for c in cells), events)


@dataclass(frozen=True)
class ChunkOutput:
    """What a worker hands back for a chunk: each table already as Parquet bytes with its size, checksum and row
    count, and the (cell, replicate) and ``end_reason`` of each match.

    The parent only writes the bytes and the receipt (:meth:`kemps_sim.sweep.store.ResultStore.write_chunk`) and
    counts from the small lists, so its CPU stays free for the workers; the bytes travel with the result, so this
    works as well on a cluster whose workers do not share the results folder's filesystem.
    """

    tables: dict[str, EncodedTable]
    keys: tuple[tuple[str, int], ...]
    end_reasons: tuple[str, ...]

    @property
    def failures(self) -> int:
        """Matches of the chunk that ended with an agent error or a crash."""
        return sum(reason in FAILED for reason in self.end_reasons)


def run_chunk(chunk: Chunk) -> ChunkOutput:
    """Play every match of the chunk and return its tables, encoded (see :func:`chunk_tables`)."""
    with fewer_collections():
        return encode_chunk(chunk_tables(chunk))


def crashed_chunk(chunk: Chunk, error: str) -> ChunkOutput:
    """The tables of a chunk none of whose matches could be played: one ``crashed`` row per match, with ``error``
    (for a chunk that kept killing its worker process; see :mod:`kemps_sim.sweep.recovery`)."""
    plans = {plan.cell.id: plan for plan in chunk.plans}
    rows = [{**_lead(task, plans[task.cell]), **_crashed(task, error)} for task in chunk.tasks]
    return encode_chunk({"matches": pd.DataFrame(rows)})


def encode_chunk(tables: dict[str, pd.DataFrame]) -> ChunkOutput:
    """A chunk's tables as the worker hands them back: Parquet bytes, with the matches' keys and end reasons."""
    matches = tables["matches"]
    keys = tuple(zip(matches["cell"].tolist(), matches["replicate"].tolist(), strict=True))
    return ChunkOutput({name: encoded(table) for name, table in tables.items()}, keys,
                       tuple(matches["end_reason"].tolist()))


def chunk_tables(chunk: Chunk) -> dict[str, pd.DataFrame]:
    """Play every match of the chunk and return its tables, each row led by its cell, parameters and replicate.

    Each table is built once for the chunk from the rows of all its matches (plain dicts from
    :mod:`kemps_sim.records`, or :mod:`kemps_sim.krepet.records` for a Krepet sweep), in match order. A table no
    match has rows in keeps its columns (with no rows); a table only crashed matches would have had is left out.
    An agent that misbehaves ends its match with ``end_reason`` ``agent_error``; anything else that goes wrong in
    a match is recorded as ``crashed`` with its error. Either way the chunk goes on with the next match.
    """
    plans = {plan.cell.id: plan for plan in chunk.plans}
    game = _GAMES[chunk.plans[0].game]
    makers = {**game.makers, **({game.events[0]: game.events[1:]} if chunk.events and game.events else {})}
    rows: dict[str, list[dict]] = {name: [] for name in ("matches", *makers)}
    first_lead: dict | None = None  # the lead of the first match that was played: it shapes an empty table
    for task in chunk.tasks:
        plan = plans[task.cell]
        lead = _lead(task, plan)
        try:
            result = game.play(plan, task.seed)
            row = game.row(result)
            made = {name: make(result) for name, (make, _) in makers.items()}
        except Exception as exc:  # a crash in one match must not lose the rest of the sweep
            rows["matches"].append({**lead, **_crashed(task, f"{type(exc).__name__}: {exc}")})
            continue
        rows["matches"].append({**lead, **row})
        first_lead = first_lead or lead
        for name, found in made.items():
            rows[name].extend({**lead, **each} for each in found)
    tables = {"matches": pd.DataFrame(rows["matches"])}
    if first_lead is not None:
        for name, (_, columns) in makers.items():
            tables[name] = _frame(rows[name], first_lead, columns)
    return {name: tables[name] for name in TABLES if name in tables}


Maker = tuple[Callable[[Any], list[dict]], list[str] | None]


@dataclass(frozen=True)
class _Game:
    """How a chunk plays one game's matches and turns each into rows: ``play(plan, seed)``, the ``matches`` row,
    the other tables (each with the function giving one match's rows and its fixed columns; None: the rows' keys),
    and the table ``events = true`` adds (None: none)."""

    play: Callable[[CellPlan, int], Any]
    row: Callable[[Any], dict]
    makers: dict[str, Maker]
    events: tuple[str, Callable[[Any], list[dict]], list[str] | None] | None


def _play_kemps(plan: CellPlan, seed: int) -> MatchResult:
    return simulate_match(plan.rules, plan.lineup, plan.profiles, seed, config=plan.config, errors="record")


def _play_krepet(plan: CellPlan, seed: int) -> Any:
    return play_krepet(plan.rules, plan.lineup, plan.profiles, seed, config=plan.config, errors="record")


_GAMES = {
    "kemps": _Game(_play_kemps, lambda result: _match_row(result),  # looked up when called: defined below
                   {"pairs": (pairs_rows, None), "rounds": (rounds_rows, None), "calls": (calls_rows, CALLS_COLUMNS),
                    "fours": (fours_rows, FOURS_COLUMNS)}, ("events", events_rows, EVENT_COLUMNS)),
    # Krepet's tables are small (a few hundred moves a game), so every move is kept without asking; the whole
    # trace (turns, what the watcher noticed, moves cut off, the end) is the events table, as in Kemps.
    "krepet": _Game(_play_krepet, krepet_records.game_row,
                    {"pairs": (krepet_records.sides_rows, None),
                     "misses": (krepet_records.misses_rows, krepet_records.MISSES_COLUMNS),
                     "calls": (krepet_records.calls_rows, krepet_records.CALLS_COLUMNS),
                     "moves": (krepet_records.moves_rows, krepet_records.MOVES_COLUMNS)},
                    ("events", krepet_events.events_rows, krepet_events.EVENT_COLUMNS)),
}


def _lead(task: Task, plan: CellPlan) -> dict:
    """The columns in front of a match's rows: the cell id, the cell's parameters and the replicate."""
    return {"cell": task.cell, **plan.cell.as_dict(), "replicate": task.replicate}


def _match_row(result: MatchResult) -> dict:
    """A played match's row of the ``matches`` table."""
    return {"seed": result.seed, "end_reason": result.end_reason, "error": result.error or "",
            "rounds": len(result.rounds), "events": result.events,
            "duration": sum(r.end_time for r in result.rounds), "winners": ",".join(map(str, result.winners))}


def _crashed(task: Task, error: str) -> dict:
    """The ``matches`` row of a match that crashed (it has no rows in the other tables)."""
    return {"seed": task.seed, "end_reason": EndReason.CRASHED.value, "error": error, "rounds": 0, "events": 0,
            "duration": 0.0, "winners": ""}


def _frame(rows: list[dict], lead: dict, columns: list[str] | None) -> pd.DataFrame:
    """One table of a chunk from its rows. With no rows it still has the lead's and the table's columns: the lead
    (cell, parameters, replicate) typed as its values are and ``seed`` as a whole number, so that the keys of an
    empty table are stored as they are in a full one (not as doubles); the table's own columns stay untyped
    (``object``), the shape one match's empty table had when tables were built match by match."""
    if rows:
        return pd.DataFrame(rows, columns=[*lead, *columns] if columns is not None else None)
    empty = pd.DataFrame(columns=columns) if columns is not None else pd.DataFrame()
    if "seed" in empty.columns:
        empty["seed"] = empty["seed"].astype("int64")
    front = pd.DataFrame({key: pd.Series([], dtype=pd.Series([value]).dtype) for key, value in lead.items()},
                         index=empty.index)
    return pd.concat([front, empty], axis=1)
