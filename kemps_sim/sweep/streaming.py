"""A results folder read one chunk at a time, and its summary added up as it is read.

:func:`~kemps_sim.sweep.store.load_results` holds every row of every table at once, which grows with the sweep (a
100,000-match sweep needs about a gigabyte). The summary does not need the rows, only counts and sums per group
(:class:`kemps_sim.stats.streamed.StreamedSummary`), so :func:`summarise_folder` reads each sound chunk's files,
verified against its receipt exactly as ``load_results`` verifies them, keeps only the columns the summary reads,
adds them up and lets them go: memory stays that of one chunk however many matches the folder holds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.sweep import receipts
from kemps_sim.sweep.chunks import KEY_COLUMNS
from kemps_sim.sweep.receipts import Damage
from kemps_sim.sweep.store import MANIFEST, ResultStore

#: Chunks are added up a few at a time, about this many matches together: small chunks each added alone would
#: spend more time grouping than counting, and a thousand matches' columns take a few megabytes.
BATCH_MATCHES = 1000


class ChunkReader:
    """The sound chunks of a results folder, one at a time, each as DataFrames of the columns asked for.

    A chunk whose files do not match its receipt is left out and recorded in :attr:`damaged` (with what is wrong,
    naming the file), as are the damaged chunks the folder's scan finds; :meth:`check` then refuses them unless
    damaged chunks are to be skipped (see ``load_results``).
    """

    def __init__(self, folder: str | Path) -> None:
        self.store = ResultStore(folder)
        manifest = self.store.manifest()
        if manifest is None:
            raise ConfigError(f"results folder {str(folder)!r}: no {MANIFEST}; not a kemps-sim sweep folder")
        self.manifest = manifest
        self.params: tuple[str, ...] = tuple(manifest.get("params", ()))
        self.damaged: dict[str, str] = {}

    def chunks(self, columns: Mapping[str, Sequence[str]]) -> Iterator[dict[str, pd.DataFrame]]:
        """Each sound chunk's tables named in ``columns``, each with those of its columns the file has.

        The chunk's other files are checked against the receipt too (read and hashed, then dropped; read as Parquet
        in a folder of format 1, which has no checksums), so a chunk is used only when all of it is sound, as
        ``load_results`` would find it.
        """
        found = self.store.scan()
        self.damaged.update(found.damaged)
        for chunk, receipt in found.sound.items():
            try:
                for name, record in receipt.files.items():
                    if name not in columns:  # a file without a checksum (format 1) must at least read as Parquet
                        record.check(self.store.folder) if record.checksum else record.read(self.store.folder)
                read = {name: receipt.files[name].read(self.store.folder, wanted)
                        for name, wanted in columns.items() if name in receipt.files}
            except Damage as exc:
                self.damaged[chunk] = str(exc)
                continue
            yield {name: table.to_pandas() for name, table in read.items()}

    def check(self, skip_damaged: bool) -> dict[str, str]:
        """The damaged chunks, sorted; a one-line :class:`ConfigError` naming them unless ``skip_damaged``."""
        if self.damaged and not skip_damaged:
            raise ConfigError(receipts.damage_text(self.store.folder, self.damaged))
        return dict(sorted(self.damaged.items()))


@dataclass(frozen=True)
class FolderSummary:
    """A folder's summary table with the counts printed beside it."""

    table: pd.DataFrame
    matches: int
    failures: int
    #: Each pair's lineup entries (in the order first seen).
    agents: Mapping[int, tuple[str, ...]]
    params: tuple[str, ...]
    #: Damaged chunks left out (with ``skip_damaged``), each with what is wrong with it.
    skipped: Mapping[str, str] = field(default_factory=dict)


def streamable(by: Sequence[str], params: Sequence[str]) -> bool:
    """Whether a summary grouped by ``by`` can be added up chunk by chunk: each column is one every table has (the
    cell, the replicate, the seed or a swept parameter)."""
    return all(column in (*KEY_COLUMNS, *params) for column in by)


def summarise_folder(folder: str | Path, by: Sequence[str], confidence: float = 0.95,
                     scorings: Mapping[str, str] | None = None, skip_damaged: bool = False) -> FolderSummary:
    """The summary table of a results folder (as ``kemps_sim.stats.summary_table`` makes it of the loaded tables,
    with ``scorings``, each cell's scoring rule, as ``kemps-sim report`` adds it), read chunk by chunk.

    A folder without a finished match is a :class:`ConfigError`, as is a damaged chunk unless ``skip_damaged``.
    """
    from kemps_sim.stats import SCORING_COLUMN
    from kemps_sim.stats.streamed import COLUMNS, StreamedSummary

    reader = ChunkReader(folder)
    summary = StreamedSummary(by, scorings)
    wanted = {name: [*by, *needed, SCORING_COLUMN] for name, needed in COLUMNS.items()}
    batch: list[dict[str, pd.DataFrame]] = []
    for tables in reader.chunks(wanted):
        batch.append(tables)
        if sum(len(tables.get("matches", ())) for tables in batch) >= BATCH_MATCHES:
            summary.add(_stacked(batch))
            batch = []
    if batch:
        summary.add(_stacked(batch))
    skipped = reader.check(skip_damaged)
    if not summary.matches:
        raise ConfigError(f"results folder {str(folder)!r}: holds no finished matches yet")
    return FolderSummary(summary.table(confidence), summary.matches, summary.failures,
                         {pair: tuple(names) for pair, names in sorted(summary.agents.items())}, reader.params,
                         skipped)


def _stacked(batch: list[dict[str, pd.DataFrame]]) -> dict[str, pd.DataFrame]:
    """A few chunks' tables as one table each (a table no chunk of the batch has is left out)."""
    names = dict.fromkeys(name for tables in batch for name in tables)
    return {name: pd.concat([tables[name] for tables in batch if name in tables], ignore_index=True)
            for name in names}
