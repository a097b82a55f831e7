"""``kemps-sim report``: the summary table of a sweep's results folder, printed and written as CSV, the test
of a difference between two of its groups, and (``--export csv``) every table of the folder as CSV. What is printed
is worked out by :mod:`kemps_sim.report`; this module parses the options and prints."""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME, game
from kemps_sim.metrics import names as metric_names
from kemps_sim.metrics import scored_only_under
from kemps_sim.report import (
    SENSITIVITY_CSV,
    SENSITIVITY_PNG,
    SUMMARY_CSV,
    answer_text,
    compare_text,
    format_sensitivity,
    game_of,
    load_folder,
    sensitivity_table,
    spec_question,
    summarise,
    with_scoring,
)
from kemps_sim.report.folder import skipped_text
from kemps_sim.results import COMPARE_METRICS
from kemps_sim.suggest import did_you_mean

#: How wide a printed line may be: a terminal of 100 columns, as the summary's blocks
#: (:data:`kemps_sim.stats.summary.WIDTH`, not imported here: it loads pandas, which --help should not).
WIDTH = 100

if TYPE_CHECKING:  # pandas and the store load when a folder is read, not for --help
    from collections.abc import Mapping

    import pandas as pd

    from kemps_sim.sweep import SweepResults


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
    check_metric(args.metric, args.folder)
    if args.export_to is not None and args.export is None:
        raise ConfigError(f"--export-to {args.export_to}: says where --export writes; give --export csv too")
    whole = bool(args.compare or args.sensitivity or args.plots)  # these need the rows; the summary alone does not
    results = load_folder(args.folder, skip_damaged=args.skip_damaged, tables=whole)
    played = game(game_of(results.manifest))
    if args.plots and played.hooks.figures is None:
        raise ConfigError(f"--plots: a {played.title} sweep has no standard figures (its game record names none)")
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


def check_metric(metric: str, folder: str | Path) -> None:
    """A ``--metric`` no game compares on is a one-line error listing the metrics of the folder's game (read from its
    manifest; Kemps' when the folder has none to read), before anything is loaded. A metric of another game is
    refused later, with ``--compare``."""
    allowed = COMPARE_METRICS
    played = folder_game(folder)
    if played is not None:
        try:
            allowed = metric_names(played, "compare")
        except ConfigError:  # a game no longer installed: its folder is refused when it is read
            allowed = COMPARE_METRICS
    if metric in allowed or metric in COMPARE_METRICS:
        return
    where = "" if played in (None, DEFAULT_GAME) or allowed is COMPARE_METRICS else f" in a {game(played).title} sweep"
    raise ConfigError(f"--metric {metric}: unknown metric{did_you_mean(metric, allowed)}; allowed{where}: "
                      f"{', '.join(allowed)}")


def folder_game(folder: str | Path) -> str | None:
    """The game a results folder's manifest names (Kemps if it names none), or None when there is no manifest to
    read (loading the folder then says why)."""
    from kemps_sim.sweep.store import ResultStore

    try:
        manifest = ResultStore(folder).manifest()
    except (ConfigError, OSError):
        return None
    return game_of(manifest) if isinstance(manifest, dict) else None


def print_summary(folder: str | Path, by: str | None = None, csv: str | None = None,
                  results: SweepResults | None = None, confidence: float = 0.95,
                  tables: Mapping[str, pd.DataFrame] | None = None, skip_damaged: bool = False,
                  question: Any = None) -> SweepResults:
    """Print a results folder's summary (:func:`kemps_sim.report.summarise`, which writes it as CSV), then the
    answer to the question of the spec's ``[compare]`` table (``question``, by default the one of the spec in the
    folder's manifest; :func:`kemps_sim.report.answer_text`), and return the results the summary was made from."""
    summary = summarise(folder, by, csv, results, confidence, tables, skip_damaged)
    _warn_skipped(summary.skipped)
    print(fitted(summary.text()))
    results = summary.results
    if question is None:
        try:
            question = spec_question(results.manifest)
        except ConfigError as exc:
            print(f"kemps-sim: the spec's [compare] question is not answered: {exc}", file=sys.stderr)
    if question is not None:
        print_answer(folder, question, confidence, skip_damaged, results)
    return results


def fitted(text: str, width: int = WIDTH) -> str:
    """``text`` with every line longer than ``width`` columns wrapped at its spaces (a long path is not broken), so
    that what report and sweep print fits the terminal the docs promise (the table's blocks already do)."""
    return "\n".join(textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False)
                     if len(line) > width else line for line in text.splitlines())


def print_answer(folder: str | Path, question: Any, confidence: float = 0.95, skip_damaged: bool = False,
                 results: SweepResults | None = None) -> None:
    """Print the answer to a spec's ``[compare]`` question after a blank line; a question the results cannot
    answer (a group with no matches yet, say) is said on stderr in one line, since the summary above it stands."""
    try:
        text = answer_text(folder, question, confidence, skip_damaged, results)
    except ConfigError as exc:
        asked = f" ({question.question})" if question.question else ""
        print(f"kemps-sim: the spec's [compare] question{asked} is not answered: {exc}", file=sys.stderr)
        return
    print()
    print(text)


def _warn_skipped(skipped: Mapping[str, str]) -> None:
    """Say on stderr which damaged chunks were left out (``--skip-damaged``)."""
    text = skipped_text(skipped)
    if text:
        print(f"kemps-sim report: {text}", file=sys.stderr)
