"""The results of a sweep on disk: a Parquet dataset with one file per table per finished chunk, and a manifest.

Layout of a results folder::

    manifest.json          the spec, its identity, the master seed and the package versions
    matches/chunk-ID.parquet   one row per match; written last, so its presence marks the chunk finished
    pairs/ rounds/ calls/ fours/ (events/)   the other tables, one file per chunk

Every file is written under a temporary name and renamed into place, so a reader never sees half a file and an
interrupted sweep loses nothing it finished. Files of a chunk whose ``matches`` file is missing are left-overs of
an interruption; they are removed before a sweep resumes and ignored when results are loaded.
"""

from __future__ import annotations

import json
import os
import platform
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from kemps_sim.errors import ConfigError
from kemps_sim.sweep.chunks import FAILED, KEY_COLUMNS, TABLES
from kemps_sim.sweep.spec import SweepSpec, spec_from_mapping

MANIFEST = "manifest.json"
PACKAGES = ("kemps-sim", "numpy", "pandas", "scipy", "simpy", "pyarrow", "SALib")
#: Identity fields added after folders were first written, with the value an identity without them meant: a folder
#: from before common random numbers played cell-keyed seeds.
LEGACY_IDENTITY = {"common_random_numbers": False}


class ResultStore:
    """A results folder: what it holds, what is finished, and atomic writes of finished chunks."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

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

    def check(self, spec: SweepSpec, extend: bool = False) -> str:
        """How this spec may use the folder, without writing: ``new``, ``resume`` (same spec) or ``extend``.

        A folder holding a different spec is refused, since mixing them would make rows that no spec describes.
        With ``extend`` a spec that only adds cells or replicates to the folder's spec is accepted.
        """
        current = self.manifest()
        if current is None:
            if self.folder.exists() and (not self.folder.is_dir() or any(self.folder.iterdir())):
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
        difference = _difference(old, new) or "its identity"
        if old.get("common_random_numbers") != new.get("common_random_numbers"):
            setting = "true" if old.get("common_random_numbers") else "false"
            difference += (f"; its matches were played with common_random_numbers = {setting}: set that in [sweep] "
                           "to resume it")
        if reason is None:
            raise ConfigError(f"output {str(self.folder)!r}: holds the results of a different spec ({difference}); "
                              "use another output folder, or --extend: the new spec only adds cells or replicates")
        raise ConfigError(f"output {str(self.folder)!r}: holds the results of a different spec ({difference}), "
                          f"and it cannot be extended to it: {reason}; use another output folder")

    def claim(self, spec: SweepSpec, extend: bool = False) -> str:
        """Make the folder this spec's (see :meth:`check`), writing its manifest, and clear left-overs."""
        mode = self.check(spec, extend)
        if mode == "new":
            self._write_manifest(spec, history=[])
        elif mode == "extend":
            current = self.manifest() or {}
            self._write_manifest(spec, history=[*current.get("history", []), current.get("spec")])
        self.clean()
        return mode

    def _write_manifest(self, spec: SweepSpec, history: list[Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        manifest = {"format": 1, "name": spec.name, "master_seed": spec.seed, "spec": dict(spec.source),
                    "identity": spec.identity_text(),
                    "params": [axis.name for axis in spec.axes], "tables": list(TABLES), "history": history,
                    "versions": package_versions()}
        _atomic_write_text(self.folder / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True))

    def record_targets(self, targets: Mapping[str, Any]) -> None:
        """Keep a precision-targeted sweep's standing (the target and what each cell needed) in the manifest."""
        manifest = self.manifest()
        if manifest is None:
            return
        manifest["until_ci"] = dict(targets)
        _atomic_write_text(self.folder / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True))

    # Chunks --------------------------------------------------------------------------------------------------------
    def finished_files(self, table: str = "matches") -> list[Path]:
        """The table's files of finished chunks, in name order."""
        folder = self.folder / table
        if not folder.is_dir():
            return []
        finished = {p.name for p in (self.folder / "matches").glob("chunk-*.parquet")}
        return sorted(p for p in folder.glob("chunk-*.parquet") if p.name in finished)

    def done(self) -> set[tuple[str, int]]:
        """The (cell, replicate) of every match already stored."""
        found: set[tuple[str, int]] = set()
        for path in self.finished_files():
            keys = pq.read_table(path, columns=["cell", "replicate"]).to_pydict()
            found.update(zip(keys["cell"], keys["replicate"], strict=True))
        return found

    def clean(self) -> int:
        """Remove temporary files and the files of unfinished chunks; return how many were removed."""
        removed = 0
        finished = {p.name for p in (self.folder / "matches").glob("chunk-*.parquet")}
        for table in TABLES:
            folder = self.folder / table
            if not folder.is_dir():
                continue
            for path in sorted(folder.iterdir()):
                if path.name.endswith(".tmp") or (path.suffix == ".parquet" and path.name not in finished):
                    path.unlink()
                    removed += 1
        return removed

    def write_chunk(self, chunk_id: str, tables: Mapping[str, pd.DataFrame]) -> None:
        """Write a finished chunk's tables, ``matches`` last, each atomically."""
        for name in sorted(tables, key=lambda n: n == "matches"):
            folder = self.folder / name
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"chunk-{chunk_id}.parquet"
            temporary = path.with_name(path.name + ".tmp")
            pq.write_table(pa.Table.from_pandas(tables[name], preserve_index=False), temporary)
            with open(temporary, "rb") as handle:
                os.fsync(handle.fileno())
            os.replace(temporary, path)


@dataclass(frozen=True)
class SweepResults:
    """The tables of a results folder as pandas DataFrames, with the swept parameter names and the manifest."""

    folder: Path
    tables: Mapping[str, pd.DataFrame]
    params: tuple[str, ...]
    manifest: Mapping[str, Any] = field(repr=False)

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
        difference = _difference(recorded, json.loads(spec.identity_text()))
        raise ConfigError(f"{source}: its spec no longer reads as it was run ({difference}); a rules file or a "
                          "default changed; give the sweep's spec")
    return spec


def load_results(folder: str | Path, tables: Iterable[str] | None = None) -> SweepResults:
    """The finished results of a sweep folder as tidy DataFrames, one per table (``matches``, ``pairs``, ...).

    Rows are in a canonical order (by cell and replicate, then as recorded), so the same sweep gives identical
    tables whichever executor, worker count or chunk size produced it, and however often it was resumed.
    """
    store = ResultStore(folder)
    manifest = store.manifest()
    if manifest is None:
        raise ConfigError(f"results folder {str(folder)!r}: no {MANIFEST}; not a kemps-sim sweep folder")
    names = list(tables) if tables is not None else [t for t in TABLES if (store.folder / t).is_dir()]
    for name in names:
        if name not in TABLES:
            raise ConfigError(f"table {name!r}: unknown; tables are {', '.join(TABLES)}")
    loaded = {name: _read_table(store, name) for name in names}
    params = tuple(manifest.get("params", ()))
    return SweepResults(store.folder, loaded, params, manifest)


def _read_table(store: ResultStore, name: str) -> pd.DataFrame:
    frames = [pq.read_table(path).to_pandas() for path in store.finished_files(name)]
    frames = [frame for frame in frames if len(frame)] or frames[:1]
    if not frames:
        return pd.DataFrame(columns=list(KEY_COLUMNS))
    table = pd.concat(frames, ignore_index=True)
    # A match's rows sit together in one file in the order recorded; the running row number keeps that order.
    table["_row"] = range(len(table))
    table = table.sort_values(["cell", "replicate", "_row"], ignore_index=True)
    return _settle_dtypes(table.drop(columns="_row"))


def _settle_dtypes(table: pd.DataFrame) -> pd.DataFrame:
    """One dtype per column whatever the chunking: a file in which a column happened to be empty stores it as
    null, which would otherwise turn the stacked column into ``object``. Text columns become ``str`` and number
    columns ``float64`` (missing values as NaN); mixed columns stay ``object`` with None for missing values."""
    for column in table.columns:
        values = table[column]
        if values.dtype != object:
            continue
        present = values.dropna()
        if len(present) and all(isinstance(v, str) for v in present):
            table[column] = values.astype("str")
        elif len(present) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in present):
            table[column] = values.astype("float64")
        else:
            table[column] = values.astype(object).where(values.notna(), None)
    return table


def package_versions() -> dict[str, str]:
    """The versions of Python and of the packages that decide a sweep's rows."""
    found = {"python": platform.python_version()}
    for package in PACKAGES:
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = "not installed"
    return found


def _atomic_write_text(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def extension_problem(old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """Why the spec identity ``new`` does not merely add cells or replicates to ``old`` (None if it does).

    Everything must stay as it was except: more matches per cell, more levels on a listed axis (every old level
    kept, the axes in the same order), more samples of a random or sobol design and more trajectories of a morris
    design (whose first samples or trajectories stay the same).
    """
    for key in sorted(set(old) | set(new)):
        if key not in ("matches", "samples", "trajectories", "axes", *TARGET_FIELDS) and old.get(key) != new.get(key):
            return f"{key} changed"
    target = _target_problem(old, new)
    if target:
        return target
    if new.get("matches", 0) < old.get("matches", 0):
        return f"matches went down from {old['matches']} to {new['matches']}"
    if old.get("samples") != new.get("samples") and (
            new.get("design") not in ("random", "sobol") or (new.get("samples") or 0) < (old.get("samples") or 0)):
        return "only a random or sobol design can draw more samples (a Latin hypercube is redrawn whole)"
    if (new.get("trajectories") or 0) < (old.get("trajectories") or 0):
        return f"trajectories went down from {old['trajectories']} to {new['trajectories']}"
    old_axes, new_axes = old.get("axes", []), new.get("axes", [])
    if [name for name, _ in old_axes] != [name for name, _ in new_axes]:
        return "the axes are not the same ones in the same order"
    for (name, before), (_, after) in zip(old_axes, new_axes, strict=True):
        if isinstance(before, list) and isinstance(after, list):
            if any(level not in after for level in before):
                return f"axis {name} lost a level"
        elif before != after:
            return f"axis {name} changed its range"
    return None


#: The identity fields of a precision-targeted sweep (present only when it has ``until_ci``).
TARGET_FIELDS = ("until_ci", "until_metric", "max_matches")


def _target_problem(old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """Why a change of precision target does not merely add replicates: a plain sweep may gain a target, and a
    target may tighten (until_ci down) or its cap rise; anything that could leave stored matches unexplained by the
    new spec (a looser target, a lower cap, another metric, dropping the target) is refused."""
    if old.get("until_ci") is None:
        return None
    if new.get("until_ci") is None:
        return "until_ci was dropped (a plain sweep cannot describe the replicates the target added)"
    if new["until_metric"] != old["until_metric"]:
        return f"until_metric changed from {old['until_metric']} to {new['until_metric']}"
    if new["until_ci"] > old["until_ci"]:
        return f"until_ci went up from {old['until_ci']} to {new['until_ci']} (only a tighter target adds matches)"
    if new["max_matches"] < old["max_matches"]:
        return f"max_matches went down from {old['max_matches']} to {new['max_matches']}"
    return None


def _difference(old: Mapping[str, Any], new: Mapping[str, Any], prefix: str = "") -> str:
    """The first field in which two spec identities differ, as ``field: old -> new``."""
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if isinstance(a, Mapping) and isinstance(b, Mapping):
            inner = _difference(a, b, f"{prefix}{key}.")
            if inner:
                return inner
        elif a != b:
            return f"{prefix}{key}: {_short(a)} -> {_short(b)}"
    return ""


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
