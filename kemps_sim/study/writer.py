"""A session's data written as the match goes: each row appended to its table's JSON-lines file and flushed at
once (a crashed server leaves every finished row on disk), and at the end every table also as Parquet and CSV
with the schema's dtypes, beside the match's own tables (as a sweep writes them for the game) and its trace
(events)."""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.games import GameTables, game
from kemps_sim.study.schema import SCHEMA_VERSION, TABLES

#: What a participant id may be: short, and nothing but letters, digits, '-' and '_'.
PARTICIPANT_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
#: The tables appended row by row while the match goes: the schema's and the trace.
STREAMED = (*TABLES, "events")


def new_id(prefix: str) -> str:
    """An unguessable, anonymous id such as ``p-3f9a1c0e``."""
    return f"{prefix}-{secrets.token_hex(4)}"


class SessionWriter:
    """Writes one session into ``folder / session_id``: ``session.json`` (what was played, by whom, the schema
    version and whether it finished), ``<table>.jsonl`` as rows come (:meth:`row`, :meth:`event`), and at
    :meth:`close` ``<table>.parquet`` and ``<table>.csv``. Safe to call from several threads. Each person's
    ``participants`` id is drawn anew unless given (a person who comes back for another session keeps theirs)."""

    def __init__(self, folder: str | Path, meta: Mapping[str, Any], seats: list[int],
                 participants: Mapping[int, str] | None = None) -> None:
        root = Path(folder)
        if root.exists() and not root.is_dir():
            raise ConfigError(f"--data {folder}: exists and is not a folder")
        self.session = new_id("s")
        self.path = root / self.session
        self.path.mkdir(parents=True, exist_ok=False)
        given = dict(participants or {})
        for seat, pid in given.items():
            if seat not in seats or not isinstance(pid, str) or not PARTICIPANT_ID.fullmatch(pid):
                raise ConfigError(f"participants[{seat!r}] = {pid!r}: give a seat of a person ({seats}) and an id of "
                                  "1 to 40 letters, digits, '-' or '_' (no names: ids are anonymous)")
        self.participants = {seat: given.get(seat) or new_id("p") for seat in seats}
        self.meta = {"schema_version": SCHEMA_VERSION, "session": self.session,
                     "participants": {str(seat): pid for seat, pid in self.participants.items()},
                     **dict(meta), "status": "playing"}
        self._lock = threading.Lock()
        self._files: dict[str, IO[str]] = {}
        self._write_meta()

    def row(self, table: str, seat: int, **values: Any) -> None:
        """Append one row of ``table`` (a schema table) for the person at ``seat``."""
        names = TABLES[table]
        record = {"session": self.session, "participant": self.participants[seat], "seat": seat, **values}
        unknown = set(record) - set(names)
        if unknown:
            raise ValueError(f"{table}: no columns {sorted(unknown)}")
        self._append(table, record)

    def event(self, row: Mapping[str, Any]) -> None:
        """Append one event of the trace, as a row of the game's events table (and ``session``)."""
        self._append("events", {"session": self.session, **row})

    def close(self, result: Any, status: str) -> Path:
        """Finish the session: every streamed table as Parquet and CSV, the match's tables if it ended (those the
        game's record names, :meth:`kemps_sim.games.Game.tables`), and ``status`` (finished, stopped, failed) in
        ``session.json``. Returns the session's folder."""
        with self._lock:
            for handle in self._files.values():
                handle.close()
            self._files.clear()
        made = game(self.meta["game"]).tables()
        for table in STREAMED:
            _save(read_rows(self.path / f"{table}.jsonl", table, made), self.path / table)
        if result is not None:
            for name, (rows, names) in made.makers.items():
                frame = pd.DataFrame(rows(result), columns=names)
                _save(frame.assign(session=self.session), self.path / name)
        self.meta["status"] = status
        self._write_meta()
        return self.path

    def _append(self, table: str, record: dict[str, Any]) -> None:
        line = json.dumps(record, default=_plain, allow_nan=True)
        with self._lock:
            handle = self._files.get(table)
            if handle is None:
                handle = self._files[table] = open(self.path / f"{table}.jsonl", "a", encoding="utf-8")  # noqa: SIM115
            handle.write(line + "\n")
            handle.flush()

    def _write_meta(self) -> None:
        target = self.path / "session.json"
        partial = target.with_suffix(".json.partial")
        partial.write_text(json.dumps(self.meta, indent=2, default=_plain) + "\n", encoding="utf-8")
        partial.replace(target)


def read_rows(path: Path, table: str, made: GameTables) -> pd.DataFrame:
    """The rows of a JSON-lines table as a frame with the schema's columns and dtypes (the events with those of
    the game's events table, ``made``); a torn last line, from a crash mid-write, is left out."""
    records = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return typed(pd.DataFrame.from_records(records), table, made)


def typed(frame: pd.DataFrame, table: str, made: GameTables) -> pd.DataFrame:
    """``frame`` with exactly ``table``'s columns, in order, each of its dtype (the events: the game's columns)."""
    if table == "events":
        return frame.reindex(columns=["session", *(made.events[2] if made.events else frame.columns)])
    spec = TABLES[table]
    frame = frame.reindex(columns=list(spec))
    return frame.astype({name: dtype for name, (dtype, _) in spec.items()})


def _save(frame: pd.DataFrame, stem: Path) -> None:
    frame.to_parquet(stem.with_suffix(".parquet"), index=False)
    frame.to_csv(stem.with_suffix(".csv"), index=False)


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):  # a NumPy scalar
        return value.item()
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    raise TypeError(f"not JSON data: {value!r}")
