"""``kemps-sim report``: the summary table of a sweep's results folder, printed and written as CSV, the test
of a difference between two of its groups, and (``--export csv``) every table of the folder as CSV."""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import textwrap
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kemps_sim.cli.comparison import compare_text, print_answer, spec_question
from kemps_sim.cli.folder import cell_scorings, check_by, game_of, grouping, with_scoring
from kemps_sim.errors import ConfigError
from kemps_sim.games import Game, game
from kemps_sim.metrics import names as metric_names
from kemps_sim.metrics import scored_only_under
from kemps_sim.results import COMPARE_METRICS
from kemps_sim.suggest import did_you_mean

if TYPE_CHECKING:  # pandas and the store load when a folder is read, not for --help
    import pandas as pd

    from kemps_sim.sweep import SweepResults

SUMMARY_CSV = "summary.csv"
#: The longest part of a grouped summary's file name made of its column names (file names stop at 255 bytes).
_STEM_LENGTH = 120

def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``report`` sub-command."""
    p = sub.add_parser("report", help="summarise a sweep's results folder",
                       description="Print the summary table of a sweep (win rates with confidence intervals, call "
                                   "accuracy, conversion, timings) and write it as CSV.")
    p.add_argument("folder", metavar="FOLDER", help="a results folder written by kemps-sim sweep")
    p.add_argument("--by", default=None, metavar="COL[,COL]",
                   help="group by these columns (default: the swept parameters, or the cell)")
    p.add_argument("--csv", default=None, metavar="FILE",
                   help=f"where to write the table (default FOLDER/{SUMMARY_CSV}, or with --by a grouping other "
                        "than the sweep's FOLDER/summary_by_COLUMNS.csv, so that the sweep's table stays)")
    p.add_argument("--compare", nargs=2, default=None, metavar=("A", "B"),
                   help="test the difference between two groups (values of the --by column); paired replicate by "
                        "replicate when both played the same seeds (common random numbers)")
    p.add_argument("--metric", default="win_rate",
                   help=f"the metric --compare tests (default win_rate): {', '.join(COMPARE_METRICS)} "
                        f"({' and '.join(scored_only_under())} only under their scoring rule)")
    p.add_argument("--pair", type=int, default=0, metavar="N",
                   help="the pair whose win rate or score --compare tests (default 0)")
    p.add_argument("--confidence", type=float, default=0.95, metavar="LEVEL",
                   help="the confidence level of every interval (default 0.95)")
    p.add_argument("--plots", action="store_true", help="also write the standard figures as PNG files")
    p.add_argument("--skip-damaged", action="store_true",
                   help="report from the sound chunks only when some chunk files are damaged or missing (the "
                        "default refuses and names them; resuming the sweep recomputes them)")
    p.add_argument("--export", choices=("csv",), default=None,
                   help="also write every table of the folder (matches, pairs, rounds, calls, fours; misses and moves "
                        "of a Krepet sweep; events if stored) as one CSV file each, with the same columns")
    p.add_argument("--export-to", default=None, metavar="DIR",
                   help="the folder --export writes to (default FOLDER/csv/, made if missing)")
    p.add_argument("--sensitivity", default=None, metavar="METRIC",
                   help="for a sobol or morris sweep: the indices of METRIC per swept parameter (pairN_COLUMN, such "
                        "as pair0_won, or a matches-table column such as duration), written as "
                        f"FOLDER/{SENSITIVITY_CSV}; with --plots also as {SENSITIVITY_PNG}")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Load the folder, print and write the summary (and the comparison and figures if asked).

    The comparison is worked out first, so that a bad group or metric stops the command before anything is
    written.
    """
    if not 0.0 < args.confidence < 1.0:
        raise ConfigError(f"--confidence {args.confidence!r}: must be strictly between 0 and 1, such as 0.95")
    if args.metric not in COMPARE_METRICS:
        raise ConfigError(f"--metric {args.metric}: unknown metric{did_you_mean(args.metric, COMPARE_METRICS)}; "
                          f"allowed: {', '.join(COMPARE_METRICS)}")
    if args.export_to is not None and args.export is None:
        raise ConfigError(f"--export-to {args.export_to}: says where --export writes; give --export csv too")
    whole = bool(args.compare or args.sensitivity or args.plots)  # these need the rows; the summary alone does not
    results = load_folder(args.folder, skip_damaged=args.skip_damaged, tables=whole)
    played = game(game_of(results.manifest))
    if args.compare and args.metric not in (allowed := metric_names(played.name, "compare")):
        raise ConfigError(f"--metric {args.metric}: a {played.title} sweep's groups are compared on "
                          f"{' or '.join(allowed)} ({played.unit} --pair N's); the other "
                          f"{played.title} figures are in its summary table")
    tables = comparison = indices = None
    if whole:
        _warn_skipped(results.skipped)
        tables = with_scoring(results)
        comparison = (compare_text(results, args.by, args.metric, *args.compare, pair=args.pair,
                                   confidence=args.confidence, tables=tables) if args.compare else None)
        indices = sensitivity_table(results, args.sensitivity, args.confidence) if args.sensitivity else None
    print_summary(args.folder, by=args.by, csv=args.csv, results=results, confidence=args.confidence,
                  tables=tables, skip_damaged=args.skip_damaged)
    if comparison:
        print()
        print(comparison)
    if indices is not None:
        print()
        print(format_sensitivity(indices))
        target = Path(args.folder) / SENSITIVITY_CSV
        indices.to_csv(target, index=False)
        print(f"indices written to {target}")
    if args.plots:
        written = list(played.hook("figures")(dict(results.tables), Path(args.folder), results.params))
        if indices is not None:
            from kemps_sim.plots import sensitivity_plot, style

            ax = sensitivity_plot(indices)
            written.append(Path(args.folder) / SENSITIVITY_PNG)
            style.save(ax.figure, written[-1])
        for path in written:
            print(f"wrote {path}")
    if args.export:
        from kemps_sim.sweep import export_csv

        paths = export_csv(args.folder, args.export_to, skip_damaged=args.skip_damaged)
        print(f"{len(paths)} tables written as CSV to {paths[0].parent if paths else args.export_to}: "
              + ", ".join(path.name for path in paths))
    return 0


SENSITIVITY_CSV = "sensitivity.csv"
SENSITIVITY_PNG = "sensitivity.png"


def sensitivity_table(results: SweepResults, metric: str, confidence: float) -> pd.DataFrame:
    """Sobol' (S1, ST) or Morris (mu*, sigma) indices of ``metric`` for a sensitivity sweep's folder."""
    from kemps_sim.stats.sensitivity import SensitivityWarning, morris_indices, sobol_indices

    spec = results.spec()
    if spec.design not in ("sobol", "morris"):
        raise ConfigError(f"--sensitivity {metric}: the sweep's design is {spec.design!r}; indices need a sweep "
                          "with design = 'sobol' or 'morris'")
    analyse = sobol_indices if spec.design == "sobol" else morris_indices
    with warnings.catch_warnings():  # the report prints the indices' problems under them (format_sensitivity)
        warnings.simplefilter("ignore", SensitivityWarning)
        return analyse(results, spec, metric=metric, confidence=confidence)


def format_sensitivity(indices: pd.DataFrame) -> str:
    """The indices as a text table, with what they mean and the interval's level."""
    level = f"{100 * indices.attrs.get('confidence', 0.95):g}%"
    metric = indices.attrs.get("metric", "")
    if "ST" in indices:
        shown = indices[["parameter", "S1", "S1_conf", "ST", "ST_conf"]]
        note = (f"Sobol' indices of {metric}: S1 the share of its variance a parameter causes alone, ST alone and "
                f"with the others; *_conf the half-width of the {level} bootstrap interval.")
    else:
        shown = indices[["parameter", "mu_star", "mu_star_conf", "mu", "sigma"]]
        note = (f"Morris screening of {metric}: mu* the mean absolute effect of a parameter over its range, sigma "
                f"how much that effect depends on the others; mu_star_conf the half-width of the {level} "
                "bootstrap interval.")
    points = indices.attrs.get("points")
    tail = f" {points} sample points." if points else ""
    text = shown.to_string(index=False, float_format=lambda v: f"{v:.3f}") + "\n" + textwrap.fill(note + tail, 100)
    problems = [*indices.attrs.get("problems", ()), *filter(None, [indices.attrs.get("suggestion")])]
    if problems:
        text += "\nwarning: these indices do not mean anything yet:" + "".join(
            "\n" + textwrap.fill(line, 100, initial_indent="  ", subsequent_indent="    ") for line in problems)
    return text


def load_folder(folder: str | Path, skip_damaged: bool = False, tables: bool = True) -> SweepResults:
    """A results folder's tables; one with no finished match yet is a usage error, and so is a damaged chunk
    unless ``skip_damaged`` (see :func:`kemps_sim.sweep.load_results`).

    With ``tables`` False nothing is loaded (only the manifest is read): the results hold no table, and
    :func:`print_summary` reads the folder chunk by chunk, in memory that does not grow with the sweep.
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


def print_summary(folder: str | Path, by: str | None = None, csv: str | None = None,
                  results: SweepResults | None = None, confidence: float = 0.95,
                  tables: Mapping[str, pd.DataFrame] | None = None, skip_damaged: bool = False,
                  question: Any = None) -> SweepResults:
    """Print a results folder's summary table, write it as CSV, and return the results (``tables``: the results'
    tables with their scoring rule, from :func:`with_scoring`, when the caller has them already).

    Results without tables (``load_folder(..., tables=False)``, the default here) are summarised chunk by chunk
    (:func:`kemps_sim.sweep.streaming.summarise_folder`: the same numbers, in flat memory) when the summary is
    grouped by columns every table has; grouped by another column of the pairs table, the tables are loaded.

    The summary ends with the answer to the question of the spec's ``[compare]`` table (``question``, by default
    the one of the spec in the folder's manifest), worked out from the tables its metric needs
    (:func:`kemps_sim.cli.comparison.answer_text`).
    """
    results = _summarise(folder, by, csv, results, confidence, tables, skip_damaged)
    if question is None:
        try:
            question = spec_question(results.manifest)
        except ConfigError as exc:
            print(f"kemps-sim: the spec's [compare] question is not answered: {exc}", file=sys.stderr)
    if question is not None:
        print_answer(folder, question, confidence, skip_damaged, results)
    return results


def _summarise(folder: str | Path, by: str | None, csv: str | None, results: SweepResults | None,
               confidence: float, tables: Mapping[str, pd.DataFrame] | None, skip_damaged: bool) -> SweepResults:
    """The summary table printed and written (see :func:`print_summary`), and the results it was made from."""
    from kemps_sim import stats
    from kemps_sim.sweep.streaming import streamable, summarise_folder

    results = results or load_folder(folder, tables=False)
    target = Path(csv) if csv else Path(folder) / summary_csv_name(grouping(by, results.params), results.params)
    played = game(game_of(results.manifest))
    if not played.streamed:
        return _loaded_summary(played, folder, by, target, results, confidence, skip_damaged)
    if not results.tables:
        if streamable(grouping(by, results.params), results.params):
            summary = summarise_folder(folder, grouping(by, results.params), confidence,
                                       cell_scorings(results.manifest), skip_damaged)
            _warn_skipped(summary.skipped)
            _show(summary.table, target, summary.agents, summary.matches, summary.failures)
            return results
        results = load_folder(folder, skip_damaged=skip_damaged)
        _warn_skipped(results.skipped)
    columns = check_by(by, results.params, results["pairs"].columns)
    table = stats.summary_table(tables or with_scoring(results), by=columns, confidence=confidence)
    agents = {pair: tuple(names) for pair, names in results["pairs"].groupby("pair")["agents"].unique().items()}
    _show(table, target, agents, len(results["matches"]), results.failures)
    return results


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


def _loaded_summary(played: Game, folder: str | Path, by: str | None, target: Path, results: SweepResults,
                    confidence: float, skip_damaged: bool) -> SweepResults:
    """Print and write the summary of a sweep of a game whose summary reads its tables whole (Krepet's,
    :mod:`kemps_sim.krepet.stats`: a few rows a game besides the moves), rather than streamed."""
    from kemps_sim import stats
    from kemps_sim.stats.summary import WIDTH, group_legend
    from kemps_sim.sweep import load_results

    summary, legend = played.hook("summary"), played.hook("legend")
    if not results.tables:
        results = load_results(folder, tables=played.summary_tables, skip_damaged=skip_damaged)
        if results["matches"].empty:
            raise ConfigError(f"results folder {str(folder)!r}: holds no finished matches yet")
        _warn_skipped(results.skipped)
    columns = check_by(by, results.params, results["pairs"].columns)
    table = summary(results.tables, by=columns, confidence=confidence)
    if not target.parent.is_dir():
        raise ConfigError(f"--csv {str(target)!r}: the folder {str(target.parent)!r} does not exist")
    table.to_csv(target, index=False)
    print(stats.format_summary(table))
    agents = results["pairs"].groupby("pair")["agents"].unique()
    if all(len(names) == 1 for names in agents):
        print(f"{played.unit}s: " + ", ".join(f"{p} = {names[0]}" for p, names in agents.items()))
    rows = group_legend(table)
    print(textwrap.fill((f"{rows}; " if rows else "") + legend
                        + f". Intervals are {100 * confidence:g}% confidence intervals.", width=WIDTH))
    print(f"{len(results['matches'])} {played.count_word}"
          + (f", {results.failures} failed" if results.failures else "")
          + f"; {_written(target)}")
    return results


def _show(table: pd.DataFrame, target: Path, agents: Mapping[Any, Sequence[str]], matches: int,
          failures: int) -> None:
    """Write the summary table as CSV at ``target`` and print it with the pairs' agents, a legend and the counts."""
    from kemps_sim import stats
    from kemps_sim.stats.summary import summary_legend

    if not target.parent.is_dir():
        raise ConfigError(f"--csv {str(target)!r}: the folder {str(target.parent)!r} does not exist")
    table.to_csv(target, index=False)
    print(stats.format_summary(table))
    if all(len(names) == 1 for names in agents.values()):
        print("pairs: " + ", ".join(f"{pair} = {names[0]}" for pair, names in agents.items()))
    print("\n".join(summary_legend(table)))
    print(f"{matches} matches" + (f", {failures} failed" if failures else "") + f"; {_written(target)}")


def _written(target: Path) -> str:
    """Where the table went, and, for a grouped summary beside a sweep's own, that the sweep's table is kept."""
    if target.name.startswith("summary_by_") and (target.parent / SUMMARY_CSV).is_file():
        return f"table written to {target} ({SUMMARY_CSV} beside it keeps the sweep's per-cell table)"
    return f"table written to {target}"


def _warn_skipped(skipped: Mapping[str, str]) -> None:
    """Say on stderr which damaged chunks were left out (``--skip-damaged``)."""
    if skipped:
        count = len(skipped)
        print(f"kemps-sim report: skipped {count} damaged chunk{'s' if count != 1 else ''} "
              f"({'; '.join(skipped.values())}); the summary covers the sound chunks only; resume the "
              "sweep to recompute them", file=sys.stderr)
