"""What a results folder's summary and comparisons share: its results read (whole, or only its manifest for a
summary streamed chunk by chunk), the game its sweep played, how its rows are grouped (``--by``), and its tables
with each row's scoring rule."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME, game

if TYPE_CHECKING:  # pandas and the store load when a folder is read, not for --help
    import pandas as pd

    from kemps_sim.sweep import SweepResults

#: The tables the statistics read, which get the ``rules.scoring`` column (not the large events table).
SCORED_TABLES = ("matches", "pairs", "rounds", "calls", "fours")


def load_folder(folder: str | Path, skip_damaged: bool = False, tables: bool = True) -> SweepResults:
    """A results folder's tables; one with no finished match yet is a usage error, and so is a damaged chunk
    unless ``skip_damaged`` (see :func:`kemps_sim.sweep.load_results`).

    With ``tables`` False nothing is loaded (only the manifest is read): the results hold no table, and
    :func:`kemps_sim.report.summarise` reads the folder chunk by chunk, in memory that does not grow with the sweep.
    """
    from kemps_sim.sweep import SweepResults, load_results
    from kemps_sim.sweep.streaming import ChunkReader

    if not tables:
        reader = ChunkReader(folder)
        return SweepResults(reader.store.folder, {}, reader.params, reader.manifest)
    results = load_results(folder, skip_damaged=skip_damaged)
    if results["matches"].empty:
        raise ConfigError(f"results folder {str(folder)!r}: holds no finished matches yet")
    return results


def skipped_text(skipped: Mapping[str, str]) -> str | None:
    """Which damaged chunks were left out (``--skip-damaged``), in one line; None when none were."""
    if not skipped:
        return None
    count = len(skipped)
    return (f"skipped {count} damaged chunk{'s' if count != 1 else ''} ({'; '.join(skipped.values())}); the "
            "summary covers the sound chunks only; resume the sweep to recompute them")


def game_of(manifest: Mapping[str, Any]) -> str:
    """The game a results folder's sweep played (its spec's ``sweep.game``; Kemps if none is named)."""
    sweep = (manifest.get("spec") or {}).get("sweep") or {}
    return str(sweep.get("game", DEFAULT_GAME))


def with_scoring(results: SweepResults) -> dict[str, pd.DataFrame]:
    """The results' tables, each with the scoring rule of its row's cell in a ``rules.scoring`` column.

    A sweep writes the rule on every row of its game's scored tables (see :func:`kemps_sim.sweep.chunks.chunk_tables`),
    and so does a swept ``rules.scoring`` axis: such tables are left as they are. For a folder written before rows
    recorded their rule, the rule is read from the sweep's spec (every cell planned again), so that a metric the rule
    does not score is refused and the summary shows the rule's own score; rows of such older chunks in a folder
    resumed since get theirs the same way. A spec that cannot be planned any more leaves the statistics to tell the
    rule from the scores themselves (see :mod:`kemps_sim.stats._scoring`).
    """
    from kemps_sim.stats import SCORING_COLUMN

    tables = dict(results.tables)
    labelled = [table for table in tables.values() if SCORING_COLUMN in table.columns]
    if labelled and not any(table[SCORING_COLUMN].isna().any() for table in labelled):
        return tables
    rules = cell_scorings(results.manifest)
    if not rules:
        return tables
    return {name: table.assign(**{SCORING_COLUMN: _filled(table, SCORING_COLUMN, rules)})
            if name in SCORED_TABLES and "cell" in table.columns else table for name, table in tables.items()}


def _filled(table: pd.DataFrame, column: str, rules: Mapping[str, str]) -> pd.Series:
    """The table's ``column``, its missing values (or the whole column, if it has none) from each row's cell."""
    from_cells = table["cell"].map(rules)
    return table[column].fillna(from_cells) if column in table.columns else from_cells


def cell_scorings(manifest: Mapping[str, Any]) -> dict[str, str]:
    """The scoring rule of every cell of the manifest's spec, by cell id (empty if the spec cannot be planned)."""
    from kemps_sim.sweep import plan_cells, spec_from_mapping

    try:
        if not game(game_of(manifest)).scored:  # Krepet has no scoring rule
            return {}
    except ConfigError:
        return {}
    try:
        spec = spec_from_mapping(manifest["spec"])
        return {plan.cell.id: str(plan.rules.scoring) for plan in plan_cells(spec)}
    except (ConfigError, KeyError, TypeError, ValueError):
        return {}


def grouping(by: str | None, params: tuple[str, ...]) -> list[str]:
    """The ``--by`` columns as given (comma-separated), else the swept parameters, else the cell."""
    if by:
        return [c.strip() for c in by.split(",") if c.strip()]
    return list(params) or ["cell"]


def check_by(by: str | None, params: tuple[str, ...], columns: Iterable[str]) -> list[str]:
    """The ``--by`` columns (default: the swept parameters, else the cell), each checked to exist."""
    chosen = grouping(by, params)
    known = list(columns)
    for column in chosen:
        if column not in known:
            raise ConfigError(f"--by {column!r}: no such column; group by the swept parameters "
                              f"({', '.join(params) or 'none'}), cell, or a column of the pairs table")
    return chosen
