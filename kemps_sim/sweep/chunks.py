"""Chunks of work: a few matches played together in one task, returned as tidy tables ready to be stored.

A chunk is the unit a worker receives (so task overhead stays small against the matches) and the unit the store
writes (one Parquet file per table per chunk). The worker builds each table once for the whole chunk and encodes
it as Parquet, so the parent only writes bytes. Its id is a hash of the matches it holds, so the same work always
lands in the same file names.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pandas as pd

from kemps_sim.games import game
from kemps_sim.results import FAILED_END_REASONS, SWEEP_TABLES, EndReason
from kemps_sim.sweep.cells import CellPlan
from kemps_sim.sweep.receipts import EncodedTable, encoded

#: The tables of a sweep of the built-in games; ``matches`` is written last and is what marks a chunk finished. A
#: game's own tables beside these come from its record (:func:`game_tables`).
TABLES = SWEEP_TABLES
KEY_COLUMNS = ("cell", "replicate", "seed")
#: The column of a row's scoring rule (:data:`kemps_sim.stats.SCORING_COLUMN`, named here without loading the
#: statistics).
SCORING_COLUMN = "rules.scoring"
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


def game_tables(name: str) -> tuple[str, ...]:
    """Every table a sweep of game ``name`` may store: :data:`TABLES`, then the tables of its record's
    :class:`~kemps_sim.games.GameTables` that are not among them (its events table included). A results folder's
    manifest lists them, and its store reads the tables listed (:meth:`kemps_sim.sweep.store.ResultStore.tables`)."""
    made = game(name).tables()
    own = (*made.makers, *((made.events[0],) if made.events else ()))
    return (*TABLES, *(table for table in own if table not in TABLES))


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
    """Play every match of the chunk and return its tables, encoded (see :func:`chunk_tables`).

    Each match collects its garbage as :func:`kemps_sim.simulate_match` does (fewer collections while it plays,
    then one right after it, while its objects are still in the cache); holding the higher threshold over the
    whole chunk instead let the garbage of a dozen matches pile up and cost more to collect (see
    :mod:`kemps_sim.engine.gc_pause`)."""
    return encode_chunk(chunk_tables(chunk))


def crashed_chunk(chunk: Chunk, error: str) -> ChunkOutput:
    """The tables of a chunk none of whose matches could be played: one ``crashed`` row per match, with ``error``
    (for a chunk that kept killing its worker process; see :mod:`kemps_sim.sweep.recovery`)."""
    plans = {plan.cell.id: plan for plan in chunk.plans}
    scored = game(chunk.plans[0].game).tables().scored
    rows = [{**_lead(task, plans[task.cell], "matches" in scored), **_crashed(task, error)} for task in chunk.tasks]
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
    :class:`~kemps_sim.games.GameTables` of the cell's game), in match order. The rows of the tables the game names
    as ``scored`` also say the cell's scoring rule, as ``rules.scoring`` after the replicate (unless it is a swept
    axis, and so among the parameters already), so that the statistics read it rather than tell it from scores.
    A table no match has rows in keeps its columns (with no rows); a table only crashed matches would have had is
    left out. An agent that misbehaves ends its match with ``end_reason`` ``agent_error``; anything else that goes
    wrong in a match is recorded as ``crashed`` with its error. Either way the chunk goes on with the next match.
    """
    plans = {plan.cell.id: plan for plan in chunk.plans}
    played = game(chunk.plans[0].game)
    play, tables_of = played.hook("play"), played.tables()
    makers = {**tables_of.makers,
              **({tables_of.events[0]: tables_of.events[1:]} if chunk.events and tables_of.events else {})}
    scored = set(tables_of.scored)
    rows: dict[str, list[dict]] = {name: [] for name in ("matches", *makers)}
    first: dict[str, dict] | None = None  # the leads of the first match that was played: they shape empty tables
    for task in chunk.tasks:
        plan = plans[task.cell]
        leads = {name: _lead(task, plan, name in scored) for name in rows}
        try:
            result = play(plan.rules, plan.lineup, plan.profiles, task.seed, config=plan.config, errors="record")
            row = tables_of.row(result)
            made = {name: make(result) for name, (make, _) in makers.items()}
        except Exception as exc:  # a crash in one match must not lose the rest of the sweep
            rows["matches"].append({**leads["matches"], **_crashed(task, f"{type(exc).__name__}: {exc}")})
            continue
        rows["matches"].append({**leads["matches"], **row})
        first = first or leads
        for name, found in made.items():
            rows[name].extend({**leads[name], **each} for each in found)
    tables = {"matches": pd.DataFrame(rows["matches"])}
    if first is not None:
        for name, (_, columns) in makers.items():
            tables[name] = _frame(rows[name], first[name], columns)
    return {name: tables[name] for name in (*TABLES, *(n for n in tables if n not in TABLES)) if name in tables}


def _lead(task: Task, plan: CellPlan, scored: bool = False) -> dict:
    """The columns in front of a match's rows: the cell id, the cell's parameters and the replicate, and for a row
    of a ``scored`` table the cell's scoring rule (``rules.scoring``) unless a parameter gives it already."""
    lead = {"cell": task.cell, **plan.cell.as_dict(), "replicate": task.replicate}
    if scored and plan.scoring is not None and SCORING_COLUMN not in lead:
        lead[SCORING_COLUMN] = plan.scoring
    return lead


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
