"""The results of a sweep on disk: a Parquet dataset with one file per table per finished chunk, a receipt per
finished chunk, and a manifest.

Layout of a results folder (format 2)::

    manifest.json              the spec, its identity, the master seed, the package versions and "format": 2
    matches/ pairs/ rounds/ calls/ fours/ (events/)   one file per table per chunk: chunk-ID.parquet
    receipts/chunk-ID.json     written last: every file of the chunk with its size, SHA-256 and row count; its
                               presence marks the chunk finished (chunk-ID.pending while the chunk is written)
    quarantine/STAMP/...       damaged chunks' files, moved there by a resume before it recomputes them
    .lock                      held by the sweep writing the folder (see :mod:`kemps_sim.sweep.lock`)

Every file is written under a temporary name unique to its writer and renamed into place, so a reader never sees
half a file and an interrupted sweep loses nothing it finished. Readers use only finished chunks and verify every
file they read against its receipt; a damaged chunk (a file missing, truncated, changed or not in its receipt, or
data files whose receipt is gone) stops :func:`load_results` with a one-line error unless ``skip_damaged``, and a
resume moves it into ``quarantine/`` and recomputes it (:mod:`kemps_sim.sweep.receipts` has the rules).
Folders of format 1 (no receipts; a chunk is finished when its ``matches`` file exists) still load, and a resume
gives their chunks receipts.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.frames import settle_dtypes
from kemps_sim.suggest import did_you_mean
from kemps_sim.sweep import receipts
from kemps_sim.sweep.chunks import FAILED, KEY_COLUMNS, TABLES, game_tables
from kemps_sim.sweep.identity import LEGACY_IDENTITY, TARGET_FIELDS, difference, extension_problem
from kemps_sim.sweep.lock import LOCK_NAME, FolderLock
from kemps_sim.sweep.receipts import FORMAT, ChunkScan, Damage, EncodedTable, FileRecord, Receipt
from kemps_sim.sweep.spec import SweepSpec, read_spec, spec_from_mapping

__all__ = ["LEGACY_IDENTITY", "MANIFEST", "QUARANTINE", "TARGET_FIELDS", "ResultStore", "SweepResults",
           "extension_problem", "load_results", "manifest_spec", "one_writer", "package_versions", "settle_dtypes"]

MANIFEST = "manifest.json"
QUARANTINE = "quarantine"
PACKAGES = ("kemps-sim", "numpy", "pandas", "scipy", "simpy", "pyarrow", "SALib")
_Run = TypeVar("_Run", bound=Callable[..., Any])


class ResultStore:
    """A results folder: what it holds, what is finished and sound, and atomic, receipted writes of chunks."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        #: Damaged chunks this store moved into quarantine (see :meth:`repair`).
        self.quarantined = 0
        self._repaired = False

    # Manifest ------------------------------------------------------------------------------------------------------
    def manifest(self) -> dict[str, Any] | None:
        """The folder's manifest, or None if it has none yet."""
        path = self.folder / MANIFEST
        if not path.is_file():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"results folder {str(self.folder)!r}: {MANIFEST} is not readable JSON: {exc}") from None

    def lock(self) -> FolderLock:
        """The folder's writer lock (a context manager; see :mod:`kemps_sim.sweep.lock`)."""
        return FolderLock(self.folder)

    def check(self, spec: SweepSpec, extend: bool = False) -> str:
        """How this spec may use the folder, without writing: ``new``, ``resume`` (same spec) or ``extend``.

        A folder holding a different spec is refused, since mixing them would make rows that no spec describes.
        With ``extend`` a spec that only adds cells or replicates to the folder's spec is accepted.
        """
        current = self.manifest()
        if current is None:
            if self.folder.exists() and (not self.folder.is_dir()
                                         or any(p.name != LOCK_NAME for p in self.folder.iterdir())):
                raise ConfigError(f"output {str(self.folder)!r}: exists and is not a kemps-sim results folder "
                                  "(no manifest.json); choose an empty or new folder")
            return "new"
        if current.get("identity") == spec.identity_text():
            return "resume"
        old = {**LEGACY_IDENTITY, **json.loads(current.get("identity", "{}"))}
        new = json.loads(spec.identity_text())
        if old == new:
            return "resume"
        reason = extension_problem(old, new)
        if extend and reason is None:
            return "extend"
        changed = difference(old, new) or "its identity"
        if old.get("common_random_numbers") != new.get("common_random_numbers"):
            setting = "true" if old.get("common_random_numbers") else "false"
            changed += (f"; its matches were played with common_random_numbers = {setting}: set that in [sweep] "
                        "to resume it")
        if reason is None:
            raise ConfigError(f"output {str(self.folder)!r}: holds the results of a different spec ({changed}); "
                              "use another output folder, or --extend: the new spec only adds cells or replicates")
        raise ConfigError(f"output {str(self.folder)!r}: holds the results of a different spec ({changed}), "
                          f"and it cannot be extended to it: {reason}; use another output folder")

    def claim(self, spec: SweepSpec, extend: bool = False) -> str:
        """Make the folder this spec's (see :meth:`check`), writing its manifest, after :meth:`repair`.

        The caller holds the folder's lock (``run_sweep`` does).
        """
        mode = self.check(spec, extend)
        if not self._repaired:
            self.repair()
        if mode == "new":
            self._write_manifest(spec, history=[])
        elif mode == "extend":
            current = self.manifest() or {}
            self._write_manifest(spec, history=[*current.get("history", []), current.get("spec")])
        else:
            self._keep_question(spec)
        return mode

    def _keep_question(self, spec: SweepSpec) -> None:
        """On a resume, keep the question the spec now asks (its [compare] table, which decides no row) in the
        manifest, so that the summary answers the spec as it stands."""
        manifest = self.manifest() or {}
        recorded = dict(manifest.get("spec") or {})
        if recorded.get("compare") == spec.source.get("compare"):
            return
        if "compare" in spec.source:
            recorded["compare"] = spec.source["compare"]
        else:
            recorded.pop("compare", None)
        self._save_manifest({**manifest, "spec": recorded})

    def _write_manifest(self, spec: SweepSpec, history: list[Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        manifest = {"format": FORMAT, "name": spec.name, "master_seed": spec.seed, "spec": dict(spec.source),
                    "identity": spec.identity_text(),
                    "params": [axis.name for axis in spec.axes], "tables": list(game_tables(spec.game)),
                    "history": history,
                    "versions": package_versions()}
        self._save_manifest(manifest)

    def _save_manifest(self, manifest: Mapping[str, Any]) -> None:
        receipts.write_atomic(self.folder / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True).encode())

    def record_targets(self, targets: Mapping[str, Any]) -> None:
        """Keep a precision-targeted sweep's standing (the target and what each cell needed) in the manifest."""
        manifest = self.manifest()
        if manifest is None:
            return
        manifest["until_ci"] = dict(targets)
        self._save_manifest(manifest)

    # Chunks --------------------------------------------------------------------------------------------------------
    def tables(self) -> tuple[str, ...]:
        """The tables the folder may hold: :data:`~kemps_sim.sweep.chunks.TABLES`, and any other its manifest lists
        (a game's own tables, :func:`~kemps_sim.sweep.chunks.game_tables`)."""
        listed = (self.manifest() or {}).get("tables") or ()
        return (*TABLES, *(str(name) for name in listed if name not in TABLES))

    @property
    def legacy(self) -> bool:
        """Whether the folder is of format 1: no receipts, a chunk is finished when its ``matches`` file exists."""
        manifest = self.manifest()
        return manifest is not None and int(manifest.get("format", 1)) < FORMAT

    def scan(self) -> ChunkScan:
        """The folder's chunks sorted into sound, damaged and unfinished (sizes checked, not checksums)."""
        return receipts.scan(self.folder, self.tables(), legacy=self.legacy)

    def finished_files(self, table: str = "matches") -> list[Path]:
        """The table's files of finished chunks whose receipt and sizes check out, in name order."""
        return sorted(self.folder / receipt.files[table].path for receipt in self.scan().sound.values()
                      if table in receipt.files)

    def done(self) -> set[tuple[str, int]]:
        """The (cell, replicate) of every match stored in a sound chunk (a damaged chunk's matches are to be run)."""
        found: set[tuple[str, int]] = set()
        for receipt in self.scan().sound.values():
            try:
                keys = receipt.files["matches"].read(self.folder).select(["cell", "replicate"]).to_pydict()
            except (Damage, KeyError):
                continue
            found.update(zip(keys["cell"], keys["replicate"], strict=True))
        return found

    def repair(self) -> int:
        """Make the folder safe to resume; return how many damaged chunks were moved into ``quarantine/``.

        Every file of every finished chunk is checked in full; a damaged chunk's files (receipt included) move to
        ``quarantine/STAMP/`` keeping their paths, so nothing is lost and the sweep recomputes the chunk. The
        left-overs of unfinished chunks and temporary files are removed, and the chunks of a format-1 folder are
        given receipts (the folder becomes format 2). Only the holder of the folder's lock may call this.
        """
        manifest = self.manifest()
        if manifest is None:
            return 0
        legacy = int(manifest.get("format", 1)) < FORMAT
        found = receipts.scan(self.folder, self.tables(), legacy=legacy)
        damaged = dict(found.damaged)
        for chunk, receipt in found.sound.items():
            try:
                records = {table: self._adopt(record) if legacy else record
                           for table, record in receipt.files.items()}
                for record in records.values():
                    record.check(self.folder)
            except Damage as exc:
                damaged[chunk] = str(exc)
                continue
            if legacy:
                (self.folder / receipts.RECEIPTS).mkdir(exist_ok=True)
                receipts.write_atomic(self.folder / receipts.receipt_file(chunk), Receipt(chunk, records).render())
            (self.folder / receipts.pending_file(chunk)).unlink(missing_ok=True)
        stamp = f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{os.getpid()}"
        for chunk in damaged:
            for name in found.files.get(chunk, []):
                target = self.folder / QUARANTINE / stamp / name
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(self.folder / name, target)
        self._remove(found, legacy)
        if legacy:
            self._save_manifest({**manifest, "format": FORMAT})
        self.quarantined += len(damaged)
        self._repaired = True
        return len(damaged)

    def _adopt(self, record: FileRecord) -> FileRecord:
        """A format-1 chunk file's record as a receipt keeps it (the file must read as Parquet)."""
        table = record.read(self.folder)
        data = (self.folder / record.path).read_bytes()
        return FileRecord(record.table, record.chunk, len(data), receipts.sha256(data), table.num_rows)

    def clean(self) -> int:
        """Remove temporary files and the files of unfinished chunks; return how many were removed.

        Only the holder of the folder's lock may call this (a chunk being written looks unfinished).
        """
        return self._remove(self.scan(), self.legacy)

    def _remove(self, found: ChunkScan, legacy: bool) -> int:
        removed = 0
        for chunk in found.unfinished:
            for name in found.files.get(chunk, []):
                if not legacy or not name.startswith(receipts.RECEIPTS + "/"):
                    (self.folder / name).unlink(missing_ok=True)
                    removed += 1
        for name in found.temporary:
            (self.folder / name).unlink(missing_ok=True)
            removed += 1
        return removed

    def write_chunk(self, chunk_id: str, tables: Mapping[str, pd.DataFrame | EncodedTable]) -> None:
        """Write a finished chunk: a marker, each table's file atomically, the receipt (last), then drop the marker.

        Tables come encoded from the workers (:class:`~kemps_sim.sweep.receipts.EncodedTable`: the bytes with
        their checksum and row count) or as DataFrames, encoded here. A run killed at any step leaves either a
        marked, unfinished chunk (removed on resume) or a finished one.
        """
        (self.folder / receipts.RECEIPTS).mkdir(parents=True, exist_ok=True)
        pending = self.folder / receipts.pending_file(chunk_id)
        receipts.write_atomic(pending, b"")
        records: dict[str, FileRecord] = {}
        for name in sorted(tables, key=lambda n: n == "matches"):
            table = tables[name]
            ready = table if isinstance(table, EncodedTable) else receipts.encoded(table)
            record = FileRecord(name, chunk_id, len(ready.data), ready.checksum, ready.rows)
            (self.folder / name).mkdir(parents=True, exist_ok=True)
            receipts.write_atomic(self.folder / record.path, ready.data)
            records[name] = record
        receipts.write_atomic(self.folder / receipts.receipt_file(chunk_id), Receipt(chunk_id, records).render())
        pending.unlink()


def one_writer(run: _Run) -> _Run:
    """Decorate ``run_sweep(spec, *, output=None, ...)`` so that it holds its output folder's lock for the whole
    call: from before the folder is checked to after the last round, whatever way the call ends."""

    @functools.wraps(run)
    def locked(spec: SweepSpec | str | Path, *args: Any, output: str | Path | None = None, **kwargs: Any) -> Any:
        if not isinstance(spec, SweepSpec):
            spec = read_spec(spec)
        with FolderLock(output if output is not None else spec.output):
            return run(spec, *args, output=output, **kwargs)

    return locked  # type: ignore[return-value]


@dataclass(frozen=True)
class SweepResults:
    """The tables of a results folder as pandas DataFrames, with the swept parameter names and the manifest."""

    folder: Path
    tables: Mapping[str, pd.DataFrame]
    params: tuple[str, ...]
    manifest: Mapping[str, Any] = field(repr=False)
    #: The damaged chunks left out (with ``skip_damaged``), each with what is wrong with it.
    skipped: Mapping[str, str] = field(default_factory=dict)

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self.tables[name]

    def __getattr__(self, name: str) -> pd.DataFrame:
        tables = object.__getattribute__(self, "tables")
        if name in tables:
            return tables[name]
        raise AttributeError(name)

    def spec(self) -> SweepSpec:
        """The spec the folder was run with, read back from its manifest (see :func:`manifest_spec`)."""
        return manifest_spec(self.manifest, f"{self.folder}/{MANIFEST}")

    @property
    def failures(self) -> int:
        """Matches that ended with an agent error or a crash."""
        return int(self.tables["matches"]["end_reason"].isin(FAILED).sum())


def manifest_spec(manifest: Mapping[str, Any], source: str = MANIFEST) -> SweepSpec:
    """The spec a manifest records, checked to be the one that made the rows.

    The manifest's spec is written with sorted keys, so its axes are put back in the order of ``params`` (the order
    decides a grid's cells and a sampled design's columns). A spec that no longer reads as it was run (an edited
    rules file, a changed default) is refused with a one-line error.
    """
    data = dict(manifest.get("spec") or {})
    axes = dict(data.get("axes") or {})
    order = [name for name in manifest.get("params", ()) if name in axes]
    data["axes"] = {name: axes[name] for name in [*order, *(n for n in axes if n not in order)]}
    spec = spec_from_mapping(data, source=source)
    recorded = {**LEGACY_IDENTITY, **json.loads(manifest.get("identity", "{}"))}
    if recorded != json.loads(spec.identity_text()):
        changed = difference(recorded, json.loads(spec.identity_text()))
        raise ConfigError(f"{source}: its spec no longer reads as it was run ({changed}); a rules file or a "
                          "default changed; give the sweep's spec")
    return spec


def load_results(folder: str | Path, tables: Iterable[str] | None = None, skip_damaged: bool = False) -> SweepResults:
    """The finished results of a sweep folder as tidy DataFrames, one per table (``matches``, ``pairs``, ...).

    Rows are in a canonical order (by cell and replicate, then as recorded), so the same sweep gives identical
    tables whichever executor, worker count or chunk size produced it, and however often it was resumed. Every file
    read is verified against its chunk's receipt (the other tables' files for their size); a damaged chunk raises
    a one-line :class:`ConfigError` naming its file and the remedy, or with ``skip_damaged`` is left out (see
    ``SweepResults.skipped``). Unfinished chunks (a sweep writing or interrupted) are ignored.
    """
    store = ResultStore(folder)
    manifest = store.manifest()
    if manifest is None:
        raise ConfigError(f"results folder {str(folder)!r}: no {MANIFEST}; not a kemps-sim sweep folder")
    known = store.tables()
    names = list(tables) if tables is not None else [t for t in known if (store.folder / t).is_dir()]
    for name in names:
        if name not in known:
            raise ConfigError(f"table {name!r}: unknown{did_you_mean(name, known)}; tables are {', '.join(known)}")
    found = store.scan()
    damaged = dict(found.damaged)
    frames: dict[str, list[pd.DataFrame]] = {name: [] for name in names}
    for chunk, receipt in found.sound.items():
        try:
            read = {name: receipt.files[name].read(store.folder) for name in names if name in receipt.files}
        except Damage as exc:
            damaged[chunk] = str(exc)
            continue
        for name, table in read.items():
            frames[name].append(table.to_pandas())
    if damaged and not skip_damaged:
        raise ConfigError(receipts.damage_text(Path(folder), damaged))
    loaded = {name: _stack(frames[name]) for name in names}
    params = tuple(manifest.get("params", ()))
    return SweepResults(store.folder, loaded, params, manifest, dict(sorted(damaged.items())))


def _stack(frames: list[pd.DataFrame]) -> pd.DataFrame:
    frames = [frame for frame in frames if len(frame)] or frames[:1]
    if not frames:
        return pd.DataFrame(columns=list(KEY_COLUMNS))
    table = pd.concat(frames, ignore_index=True)
    # A match's rows sit together in one file in the order recorded; the running row number keeps that order.
    table["_row"] = range(len(table))
    table = table.sort_values(["cell", "replicate", "_row"], ignore_index=True)
    return settle_dtypes(table.drop(columns="_row"))


def package_versions() -> dict[str, str]:
    """The versions of Python and of the packages that decide a sweep's rows."""
    found = {"python": platform.python_version()}
    for package in PACKAGES:
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = "not installed"
    return found
