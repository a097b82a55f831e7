"""Chunk receipts: what each finished chunk wrote, so that every chunk file can be verified before it is used.

A sweep writes a chunk in four steps:

1. ``receipts/chunk-ID.pending``: a marker saying the chunk is being written;
2. each table's file, ``TABLE/chunk-ID.parquet`` (under a temporary name unique to the writer, then renamed);
3. ``receipts/chunk-ID.json``, the receipt: for every table file of the chunk its byte size, SHA-256 and row
   count, with the SHA-256 of the receipt's own text, written atomically and last; it marks the chunk finished;
4. the marker is removed.

So a chunk is in one of three states (see :func:`scan`):

* **finished**: its receipt exists; the chunk is *sound* when the receipt reads back exactly as written and the
  chunk's files are exactly those it lists, each with the recorded size and checksum (and row count);
  otherwise it is *damaged*;
* **unfinished**: no receipt, and its marker exists or its ``matches`` file does not (``matches`` is written after
  the other tables): the left-overs of a run that is writing it or was interrupted; readers ignore them and a
  resume removes them;
* **damaged, receipt lost**: a ``matches`` file with neither a receipt nor a marker can only come from a finished
  chunk whose receipt was deleted (a writer creates the marker before any data file and removes it only after the
  receipt is in place), so deleting any one file of a finished chunk, its receipt included, is detected.

Folders of format 1 (before receipts) mark a finished chunk by its ``matches`` file only; their files can be
checked only for being readable Parquet, and a resume gives their chunks receipts (see ``ResultStore.repair``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

#: The results-folder format that has receipts; folders without a ``format`` or with 1 have none.
FORMAT = 2
RECEIPTS = "receipts"
_RECEIPT_KEYS = {"chunk", "files", "format", "receipt_sha256"}
_FILE_KEYS = {"bytes", "path", "rows", "sha256"}


class Damage(Exception):
    """A chunk file is missing, changed or unreadable; the message names the file and what is wrong."""


def chunk_file(table: str, chunk: str) -> str:
    """The path of a chunk's table file, relative to the results folder."""
    return f"{table}/chunk-{chunk}.parquet"


def receipt_file(chunk: str) -> str:
    """The path of a chunk's receipt, relative to the results folder."""
    return f"{RECEIPTS}/chunk-{chunk}.json"


def pending_file(chunk: str) -> str:
    """The path of the marker of a chunk being written, relative to the results folder."""
    return f"{RECEIPTS}/chunk-{chunk}.pending"


def sha256(data: bytes) -> str:
    """The SHA-256 of ``data`` as hex digits."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class FileRecord:
    """What a receipt records of one table file; a format-1 chunk's records leave size, checksum and rows unknown."""

    table: str
    chunk: str
    size: int | None = None
    checksum: str | None = None
    rows: int | None = None

    @property
    def path(self) -> str:
        return chunk_file(self.table, self.chunk)

    def check_size(self, folder: Path) -> None:
        """Raise :class:`Damage` unless the file exists with the recorded size."""
        try:
            size = (folder / self.path).stat().st_size
        except FileNotFoundError:
            raise Damage(f"{self.path} is missing") from None
        if self.size is not None and size != self.size:
            raise Damage(f"{self.path} has {size} bytes, its receipt says {self.size}")

    def check(self, folder: Path) -> bytes:
        """The file's bytes, checked against the record (raise :class:`Damage` if they differ)."""
        try:
            data = (folder / self.path).read_bytes()
        except FileNotFoundError:
            raise Damage(f"{self.path} is missing") from None
        if self.size is not None and len(data) != self.size:
            raise Damage(f"{self.path} has {len(data)} bytes, its receipt says {self.size}")
        if self.checksum is not None and sha256(data) != self.checksum:
            raise Damage(f"{self.path} has changed (its SHA-256 is not the one its receipt records)")
        return data

    def read(self, folder: Path, columns: Iterable[str] | None = None) -> pa.Table:
        """The file's table, checked against the record (raise :class:`Damage` if it differs or does not read).

        ``columns``: read only those of them the file has (the whole file is still checked), in the file's order.
        """
        data = self.check(folder)
        try:
            if columns is None:
                table = pq.read_table(pa.BufferReader(data))
            else:
                wanted = set(columns)
                parquet = pq.ParquetFile(pa.BufferReader(data))
                table = parquet.read(columns=[c for c in parquet.schema_arrow.names if c in wanted])
        except (pa.ArrowException, OSError, ValueError) as exc:
            raise Damage(f"{self.path} is not readable Parquet ({_first_line(exc)})") from None
        if self.rows is not None and table.num_rows != self.rows:
            raise Damage(f"{self.path} has {table.num_rows} rows, its receipt says {self.rows}")
        return table


@dataclass(frozen=True)
class Receipt:
    """The files a finished chunk wrote, by table."""

    chunk: str
    files: Mapping[str, FileRecord]

    def render(self) -> bytes:
        """The receipt's exact text: sorted JSON ending with the SHA-256 of the same JSON without that field."""
        body = {"chunk": self.chunk, "format": FORMAT,
                "files": {table: {"path": record.path, "bytes": record.size, "sha256": record.checksum,
                                  "rows": record.rows} for table, record in self.files.items()}}
        return _render({**body, "receipt_sha256": sha256(_render(body))})

    @classmethod
    def parse(cls, data: bytes, chunk: str, tables: Iterable[str]) -> Receipt:
        """The receipt of ``chunk`` read from ``data``; any byte that differs from what was written is
        :class:`Damage`."""
        name = receipt_file(chunk)
        try:
            content = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise Damage(f"{name} is not a readable receipt") from None
        if not isinstance(content, dict) or set(content) != _RECEIPT_KEYS or content.get("chunk") != chunk \
                or not isinstance(content.get("files"), dict) or not content["files"]:
            raise Damage(f"{name} is not a receipt of chunk {chunk}")
        files: dict[str, FileRecord] = {}
        known = set(tables)
        for table, entry in content["files"].items():
            if table not in known or not isinstance(entry, dict) or set(entry) != _FILE_KEYS \
                    or entry["path"] != chunk_file(table, chunk) \
                    or not all(_whole(entry[key]) for key in ("bytes", "rows")) \
                    or not isinstance(entry["sha256"], str):
                raise Damage(f"{name} is not a receipt of chunk {chunk} (its entry {str(table)[:40]!r})")
            files[table] = FileRecord(table, chunk, entry["bytes"], entry["sha256"], entry["rows"])
        receipt = cls(chunk, files)
        if receipt.render() != data:
            raise Damage(f"{name} has changed (it does not read back as written)")
        return receipt


def encode(frame: pd.DataFrame) -> bytes:
    """A table as the bytes of a Parquet file."""
    sink = pa.BufferOutputStream()
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), sink)
    return sink.getvalue().to_pybytes()


@dataclass(frozen=True)
class EncodedTable:
    """A table ready to be written as a chunk file: its Parquet bytes, their SHA-256 and its row count (what the
    receipt records). Made where the chunk ran, so the process writing the folder need not encode or hash."""

    data: bytes
    checksum: str
    rows: int


def encoded(frame: pd.DataFrame) -> EncodedTable:
    """A table encoded as Parquet, with the checksum and row count its receipt will record."""
    data = encode(frame)
    return EncodedTable(data, sha256(data), len(frame))


@dataclass
class ChunkScan:
    """The chunks of a results folder by state, from one look at its files (nothing is read but receipts)."""

    #: Finished chunks whose receipt reads back and whose files exist with the recorded sizes.
    sound: dict[str, Receipt] = field(default_factory=dict)
    #: Damaged chunks, each with what is wrong (naming the file).
    damaged: dict[str, str] = field(default_factory=dict)
    #: Every file of every chunk (data files, receipt, marker), relative to the folder.
    files: dict[str, list[str]] = field(default_factory=dict)
    #: Unfinished chunks (a marker, no receipt): left-overs of an interruption, or being written right now.
    unfinished: set[str] = field(default_factory=set)
    #: Half-written temporary files of any writer.
    temporary: list[str] = field(default_factory=list)


def scan(folder: Path, tables: Iterable[str], legacy: bool = False) -> ChunkScan:
    """Sort the chunks of a results folder into sound, damaged and unfinished (see the module docstring).

    Sizes are checked here; checksums when the files are read (:meth:`FileRecord.read`) or checked.
    ``legacy``: a format-1 folder, whose finished chunks are those with a ``matches`` file.
    """
    tables = list(tables)
    found = ChunkScan()
    present: dict[str, set[str]] = {}  # chunk -> tables with a file
    for table in tables:
        for name in _names(folder / table):
            if name.endswith(".tmp"):
                found.temporary.append(f"{table}/{name}")
            elif name.startswith("chunk-") and name.endswith(".parquet"):
                chunk = name[len("chunk-"):-len(".parquet")]
                present.setdefault(chunk, set()).add(table)
                found.files.setdefault(chunk, []).append(f"{table}/{name}")
    listed: set[str] = set()
    for name in _names(folder / RECEIPTS):
        if name.endswith(".tmp"):
            found.temporary.append(f"{RECEIPTS}/{name}")
        elif name.startswith("chunk-") and (name.endswith(".json") or name.endswith(".pending")):
            chunk = name[len("chunk-"):].rsplit(".", 1)[0]
            listed.add(chunk)
            found.files.setdefault(chunk, []).append(f"{RECEIPTS}/{name}")
    for chunk in sorted(set(present) | listed):
        if legacy:
            if "matches" in present.get(chunk, ()):
                found.sound[chunk] = Receipt(chunk, {t: FileRecord(t, chunk) for t in sorted(present[chunk])})
            else:
                found.unfinished.add(chunk)
            continue
        # The marker is looked at before the receipt: a writer puts the receipt in place before it removes the
        # marker, so a chunk finishing while we look is never taken for one whose receipt was lost.
        pending = (folder / pending_file(chunk)).exists()
        try:
            data = (folder / receipt_file(chunk)).read_bytes()
        except FileNotFoundError:
            data = None
        if data is None:
            if pending or "matches" not in present.get(chunk, ()):
                found.unfinished.add(chunk)
            else:
                found.damaged[chunk] = (f"{receipt_file(chunk)} is missing (the chunk's data files are not marked "
                                        "finished)")
            continue
        try:
            receipt = Receipt.parse(data, chunk, tables)
            for table in sorted(present.get(chunk, set()) - set(receipt.files)):
                raise Damage(f"{chunk_file(table, chunk)} is not in the chunk's receipt")
            for record in receipt.files.values():
                record.check_size(folder)
        except Damage as exc:
            found.damaged[chunk] = str(exc)
            continue
        found.sound[chunk] = receipt
    return found


def damage_text(folder: Path, damaged: Mapping[str, str], limit: int = 5) -> str:
    """The damaged chunks of a folder as one line naming each damaged file, with the remedy."""
    problems = [damaged[chunk] for chunk in sorted(damaged)]
    shown = "; ".join(problems[:limit]) + (f"; and {len(problems) - limit} more" if len(problems) > limit else "")
    count = f"{len(problems)} damaged chunk{'s' if len(problems) != 1 else ''}"
    return (f"results folder {str(folder)!r}: {count}: {shown}; resume the sweep (run it again on this folder) to "
            "move them into quarantine/ and recompute them, or read only the sound chunks with skip_damaged=True "
            "(kemps-sim report --skip-damaged)")


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` under a temporary name unique to this process, flushed to disk, then renamed."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _render(content: Mapping[str, Any]) -> bytes:
    return (json.dumps(content, indent=1, sort_keys=True) + "\n").encode("utf-8")


def _names(folder: Path) -> list[str]:
    try:
        return sorted(entry.name for entry in os.scandir(folder) if entry.is_file())
    except (FileNotFoundError, NotADirectoryError):
        return []


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:160]
