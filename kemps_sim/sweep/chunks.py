"""Chunks of work: a few matches played together in one task, returned as tidy tables ready to be stored.

A chunk is the unit a worker receives (so task overhead stays small against the matches) and the unit the store
writes (one Parquet file per table per chunk). Its id is a hash of the matches it holds, so the same work always
lands in the same file names.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pandas as pd

from kemps_sim.engine import simulate_match
from kemps_sim.records import calls_table, events_table, fours_table, pairs_table, rounds_table
from kemps_sim.results import FAILED_END_REASONS, SWEEP_TABLES, EndReason
from kemps_sim.sweep.cells import CellPlan

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


def run_chunk(chunk: Chunk) -> dict[str, pd.DataFrame]:
    """Play every match of the chunk and return its tables, each row led by its cell, parameters and seed.

    An agent that misbehaves ends its match with ``end_reason`` ``agent_error``; anything else that goes wrong in
    a match is recorded as ``crashed`` with its error. Either way the chunk goes on with the next match.
    """
    plans = {plan.cell.id: plan for plan in chunk.plans}
    collected: dict[str, list[pd.DataFrame]] = {name: [] for name in TABLES}
    for task in chunk.tasks:
        plan = plans[task.cell]
        lead = {"cell": task.cell, **plan.cell.as_dict(), "replicate": task.replicate}
        try:
            tables = _match_tables(plan, task.seed, chunk.events)
        except Exception as exc:  # a crash in one match must not lose the rest of the sweep
            tables = _crashed(task, f"{type(exc).__name__}: {exc}")
        for name, table in tables.items():
            collected[name].append(_lead(table, lead))
    return _stack(collected)


def crashed_chunk(chunk: Chunk, error: str) -> dict[str, pd.DataFrame]:
    """The tables of a chunk none of whose matches could be played: one ``crashed`` row per match, with ``error``
    (for a chunk that kept killing its worker process; see :mod:`kemps_sim.sweep.recovery`)."""
    plans = {plan.cell.id: plan for plan in chunk.plans}
    collected: dict[str, list[pd.DataFrame]] = {"matches": []}
    for task in chunk.tasks:
        lead = {"cell": task.cell, **plans[task.cell].cell.as_dict(), "replicate": task.replicate}
        collected["matches"].append(_lead(_crashed(task, error)["matches"], lead))
    return _stack(collected)


def _crashed(task: Task, error: str) -> dict[str, pd.DataFrame]:
    """A match that crashed: its ``matches`` row, and no rows in the other tables."""
    return {"matches": pd.DataFrame([{"seed": task.seed, "end_reason": EndReason.CRASHED.value, "error": error,
                                      "rounds": 0, "events": 0, "duration": 0.0, "winners": ""}])}


def _stack(collected: dict[str, list[pd.DataFrame]]) -> dict[str, pd.DataFrame]:
    """Each table's frames stacked. A match without rows in a table (no four of a kind, say) adds no rows, and its
    empty frame would turn the stacked columns into ``object``; it is left out unless no match has rows there."""
    return {name: pd.concat([f for f in frames if len(f)] or frames[:1], ignore_index=True)
            for name, frames in collected.items() if frames}


def _match_tables(plan: CellPlan, seed: int, events: bool) -> dict[str, pd.DataFrame]:
    """Play one match and reduce it to its tables (``matches`` first)."""
    result = simulate_match(plan.rules, plan.lineup, plan.profiles, seed, config=plan.config, errors="record")
    tables = {"matches": pd.DataFrame([{
        "seed": seed, "end_reason": result.end_reason, "error": result.error or "", "rounds": len(result.rounds),
        "events": result.events, "duration": sum(r.end_time for r in result.rounds),
        "winners": ",".join(map(str, result.winners))}])}
    for name, make in (("pairs", pairs_table), ("rounds", rounds_table), ("calls", calls_table),
                       ("fours", fours_table)):
        tables[name] = make(result)
    if events:
        tables["events"] = events_table(result)
    return tables


def _lead(table: pd.DataFrame, lead: dict) -> pd.DataFrame:
    """The table with the cell id, the cell's parameters and the replicate in front of its seed and own columns."""
    front = pd.DataFrame({key: [value] * len(table) for key, value in lead.items()}, index=table.index)
    return pd.concat([front, table], axis=1)
