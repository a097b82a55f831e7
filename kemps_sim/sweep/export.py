"""A results folder's tables as CSV files, for people and tools that do not read Parquet.

:func:`export_csv` writes one file per table the folder holds (``matches.csv``, ``pairs.csv``, ``rounds.csv``,
``calls.csv``, ``fours.csv``; a Krepet sweep's ``misses.csv`` and ``moves.csv``; ``events.csv`` when the sweep
stored events), each with exactly the columns and rows :func:`~kemps_sim.sweep.load_results` gives. Every file is
written under a temporary name first and all are renamed into place only once every table is written, so an error
while writing leaves no half-written file and the files already there as they were.

Reading them back: ``pd.read_csv(path)`` gives the same numbers bit for bit (with pandas 2, pass
``float_precision="round_trip"``) and true/false columns as booleans. CSV has one spelling, an empty field, for a
missing value and for empty text, so a text column reads back with missing values where the table held empty text
(such as ``matches.error`` when no agent failed), and a true/false column with gaps (some ``events`` columns) reads
back as text or objects.

Layering: built on :mod:`kemps_sim.sweep.store`; ``kemps_sim.sweep`` exports it and ``kemps-sim report`` uses it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from kemps_sim.errors import ConfigError
from kemps_sim.sweep.store import load_results

#: The folder, inside the results folder, the CSV files go to unless another is given.
CSV_FOLDER = "csv"


def export_csv(folder: str | Path, target: str | Path | None = None, tables: Iterable[str] | None = None,
               skip_damaged: bool = False) -> list[Path]:
    """Write each table of the results ``folder`` (or only ``tables``) as ``TABLE.csv`` in ``target`` (default
    ``FOLDER/csv/``, made if missing) and return the paths written, in the store's table order.

    A file of the same name already there is replaced; other files are left alone. A folder that is not a results
    folder, an unknown table name or a damaged chunk (unless ``skip_damaged``) is a one-line :class:`ConfigError`
    raised before anything is written.
    """
    results = load_results(folder, tables=tables, skip_damaged=skip_damaged)
    out = Path(target) if target is not None else Path(folder) / CSV_FOLDER
    if out.exists() and not out.is_dir():
        raise ConfigError(f"export folder {str(out)!r}: exists and is not a folder; give a folder for the CSV files")
    out.mkdir(parents=True, exist_ok=True)
    staged: list[tuple[Path, Path]] = []
    try:
        for name, table in results.tables.items():
            final = out / f"{name}.csv"
            temporary = out / f".{name}.csv.{os.getpid()}.tmp"
            staged.append((temporary, final))
            table.to_csv(temporary, index=False)
        for temporary, final in staged:
            os.replace(temporary, final)
    finally:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
    return [final for _, final in staged]
