"""A results folder's summary: the table (win rates with intervals, call accuracy, conversion, timings, or what
the folder's game summarises), the lines printed under it, and the CSV file it is written to.

Kemps folders are summed chunk by chunk in flat memory (:func:`kemps_sim.sweep.streaming.summarise_folder`) when
grouped by columns every table has; a game whose record does not stream its summary (Krepet) has its tables loaded
and summarised by its ``summary`` hook. :func:`summarise` returns a :class:`Summary`; ``kemps-sim report`` and
``kemps-sim sweep`` print it.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import Game, game
from kemps_sim.report.folder import cell_scorings, check_by, game_of, grouping, load_folder, with_scoring

if TYPE_CHECKING:  # pandas and the store load when a folder is read
    import pandas as pd

    from kemps_sim.sweep import SweepResults

SUMMARY_CSV = "summary.csv"
#: The longest part of a grouped summary's file name made of its column names (file names stop at 255 bytes).
_STEM_LENGTH = 120


@dataclass(frozen=True)
class Summary:
    """A folder's summary table as written to ``path``, the lines that go under it (who played, the legend, the
    counts), the results it was made from and the damaged chunks left out (``--skip-damaged``)."""

    table: pd.DataFrame
    notes: tuple[str, ...]
    path: Path
    results: SweepResults = field(repr=False)
    skipped: Mapping[str, str] = field(default_factory=dict)

    def text(self) -> str:
        """The table as text and the lines under it, as ``kemps-sim report`` prints them."""
        from kemps_sim import stats

        return "\n".join([stats.format_summary(self.table), *self.notes])


def summarise(folder: str | Path, by: str | None = None, csv: str | Path | None = None,
              results: SweepResults | None = None, confidence: float = 0.95,
              tables: Mapping[str, pd.DataFrame] | None = None, skip_damaged: bool = False) -> Summary:
    """The summary of a results folder, grouped ``by`` (comma-separated columns; default the swept parameters, else
    the cell), written as CSV to ``csv`` (default: :func:`summary_csv_name` in the folder).

    ``results``: the folder's results when the caller has them (without tables, as ``load_folder(...,
    tables=False)`` gives, the summary streams); ``tables``: those results' tables with their scoring rule
    (:func:`~kemps_sim.report.folder.with_scoring`).
    """
    from kemps_sim import stats
    from kemps_sim.sweep.streaming import streamable, summarise_folder

    results = results or load_folder(folder, tables=False)
    target = Path(csv) if csv else Path(folder) / summary_csv_name(grouping(by, results.params), results.params)
    played = game(game_of(results.manifest))
    if not played.streamed:
        return _loaded(played, folder, by, target, results, confidence, skip_damaged)
    skipped: Mapping[str, str] = {}
    if not results.tables:
        if streamable(grouping(by, results.params), results.params):
            streamed = summarise_folder(folder, grouping(by, results.params), confidence,
                                        cell_scorings(results.manifest), skip_damaged)
            _write(streamed.table, target)
            notes = _notes(streamed.table, streamed.agents, streamed.matches, streamed.failures, target)
            return Summary(streamed.table, notes, target, results, streamed.skipped)
        results = load_folder(folder, skip_damaged=skip_damaged)
        skipped = results.skipped
    columns = check_by(by, results.params, results["pairs"].columns)
    table = stats.summary_table(tables or with_scoring(results), by=columns, confidence=confidence)
    agents = {pair: tuple(names) for pair, names in results["pairs"].groupby("pair")["agents"].unique().items()}
    _write(table, target)
    return Summary(table, _notes(table, agents, len(results["matches"]), results.failures, target), target, results,
                   skipped)


def summary_csv_name(columns: Sequence[str], params: tuple[str, ...]) -> str:
    """The file a summary grouped by ``columns`` is written to: :data:`SUMMARY_CSV` for the sweep's own grouping
    (its swept parameters, else its cells), so that another grouping never replaces the sweep's table, and
    ``summary_by_<columns>.csv`` otherwise.

    Characters other than letters, digits, ``.``, ``_`` and ``-`` become ``-``, columns are joined by ``+``, and a
    name that had to be changed or shortened gets eight hex digits of the columns' hash, so that two groupings
    never share a file and any column name gives a plain file name.
    """
    if list(columns) == grouping(None, params):
        return SUMMARY_CSV
    parts = [re.sub(r"[^A-Za-z0-9._-]+", "-", column).strip(".-") or "column" for column in columns]
    stem = "+".join(parts)
    if stem != "+".join(columns) or len(stem) > _STEM_LENGTH:
        digest = hashlib.sha256("\0".join(columns).encode()).hexdigest()[:8]
        stem = f"{stem[:_STEM_LENGTH]}-{digest}"
    return f"summary_by_{stem}.csv"


def _loaded(played: Game, folder: str | Path, by: str | None, target: Path, results: SweepResults,
            confidence: float, skip_damaged: bool) -> Summary:
    """The summary of a sweep of a game whose summary reads its tables whole (Krepet's,
    :mod:`kemps_sim.krepet.stats`: a few rows a game besides the moves), rather than streamed."""
    from kemps_sim.stats.summary import WIDTH, group_legend
    from kemps_sim.sweep import load_results

    summary, legend = played.hook("summary"), played.hook("legend")
    if not results.tables:
        results = load_results(folder, tables=played.summary_tables, skip_damaged=skip_damaged)
        if results["matches"].empty:
            raise ConfigError(f"results folder {str(folder)!r}: holds no finished matches yet")
    columns = check_by(by, results.params, results["pairs"].columns)
    table = summary(results.tables, by=columns, confidence=confidence)
    _write(table, target)
    notes = []
    agents = results["pairs"].groupby("pair")["agents"].unique()
    if all(len(names) == 1 for names in agents):
        notes.append(f"{played.unit}s: " + ", ".join(f"{p} = {names[0]}" for p, names in agents.items()))
    rows = group_legend(table)
    notes.append(textwrap.fill((f"{rows}; " if rows else "") + (legend or "")
                               + f". Intervals are {100 * confidence:g}% confidence intervals.", width=WIDTH))
    notes.append(f"{len(results['matches'])} {played.count_word}"
                 + (f", {results.failures} failed" if results.failures else "") + f"; {_written(target)}")
    return Summary(table, tuple(notes), target, results, results.skipped)


def _write(table: pd.DataFrame, target: Path) -> None:
    """Write the summary table as CSV at ``target`` (a missing folder is a one-line error naming it)."""
    if not target.parent.is_dir():
        raise ConfigError(f"--csv {str(target)!r}: the folder {str(target.parent)!r} does not exist")
    table.to_csv(target, index=False)


def _notes(table: pd.DataFrame, agents: Mapping[Any, Sequence[str]], matches: int, failures: int,
           target: Path) -> tuple[str, ...]:
    """The lines under a Kemps summary: the pairs' agents, the legend and the counts."""
    from kemps_sim.stats.summary import summary_legend

    notes = []
    if all(len(names) == 1 for names in agents.values()):
        notes.append("pairs: " + ", ".join(f"{pair} = {names[0]}" for pair, names in agents.items()))
    notes += summary_legend(table)
    notes.append(f"{matches} matches" + (f", {failures} failed" if failures else "") + f"; {_written(target)}")
    return tuple(notes)


def _written(target: Path) -> str:
    """Where the table went, and, for a grouped summary beside a sweep's own, that the sweep's table is kept."""
    if target.name.startswith("summary_by_") and (target.parent / SUMMARY_CSV).is_file():
        return f"table written to {target} ({SUMMARY_CSV} beside it keeps the sweep's per-cell table)"
    return f"table written to {target}"
