"""``kemps-sim report``: the summary table of a sweep's results folder, printed and written as CSV."""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Iterable
from pathlib import Path

from kemps_sim.errors import ConfigError
from kemps_sim.sweep import SweepResults, load_results

SUMMARY_CSV = "summary.csv"


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``report`` sub-command."""
    p = sub.add_parser("report", help="summarise a sweep's results folder",
                       description="Print the summary table of a sweep (win rates with confidence intervals, call "
                                   "accuracy, conversion, timings) and write it as CSV.")
    p.add_argument("folder", metavar="FOLDER", help="a results folder written by kemps-sim sweep")
    p.add_argument("--by", default=None, metavar="COL[,COL]",
                   help="group by these columns (default: the swept parameters, or the cell)")
    p.add_argument("--csv", default=None, metavar="FILE",
                   help=f"where to write the table (default FOLDER/{SUMMARY_CSV})")
    p.add_argument("--compare", nargs=2, default=None, metavar=("A", "B"),
                   help="test the difference between two groups (values of the first --by column)")
    p.add_argument("--metric", default="win_rate", help="the metric --compare tests (default win_rate)")
    p.add_argument("--plots", action="store_true", help="also write the standard figures as PNG files")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Load the folder, print and write the summary (and the comparison and figures if asked).

    The comparison is worked out first, so that a bad group or metric stops the command before anything is
    written.
    """
    results = load_folder(args.folder)
    comparison = compare_text(results, args.by, args.metric, *args.compare) if args.compare else None
    print_summary(args.folder, by=args.by, csv=args.csv, results=results)
    if comparison:
        print()
        print(comparison)
    if args.plots:
        from kemps_sim.plots import standard_figures

        written = standard_figures(dict(results.tables), Path(args.folder), results.params)
        for path in written:
            print(f"wrote {path}")
    return 0


def load_folder(folder: str | Path) -> SweepResults:
    """A results folder's tables; one with no finished match yet is a usage error."""
    results = load_results(folder)
    if results["matches"].empty:
        raise ConfigError(f"results folder {str(folder)!r}: holds no finished matches yet")
    return results


def print_summary(folder: str | Path, by: str | None = None, csv: str | None = None,
                  results: SweepResults | None = None) -> SweepResults:
    """Print a results folder's summary table, write it as CSV, and return the loaded results."""
    from kemps_sim import stats

    results = results or load_folder(folder)
    columns = check_by(by, results.params, results["pairs"].columns)
    table = stats.summary_table(dict(results.tables), by=columns)
    target = Path(csv) if csv else Path(folder) / SUMMARY_CSV
    if not target.parent.is_dir():
        raise ConfigError(f"--csv {str(target)!r}: the folder {str(target.parent)!r} does not exist")
    table.to_csv(target, index=False)
    print(stats.format_summary(table))
    agents = results["pairs"].groupby("pair")["agents"].unique()
    if all(len(names) == 1 for names in agents):
        print("pairs: " + ", ".join(f"{pair} = {names[0]}" for pair, names in agents.items()))
    print(textwrap.fill("pairN_win: win rate [95% interval]; kemps_right, stop_right: share of those calls that "
                        "were right; calls K+/K-/S+/S-: right and wrong Kemps (Double Kemps included), right and "
                        "wrong Stop Kemps; fours_kemps, fours_stolen: share of four-of-a-kinds called by their "
                        "pair, or stolen by a Stop Kemps; four_to_call_s: median seconds from four of a kind to a "
                        "right Kemps.", width=118))
    failures = results.failures
    print(f"{len(results['matches'])} matches" + (f", {failures} failed" if failures else "")
          + f"; table written to {target}")
    return results


def compare_text(results: SweepResults, by: str | None, metric: str, first: str, second: str) -> str:
    """The test of the difference in ``metric`` between two groups of one column, as a few readable lines."""
    from kemps_sim import stats

    columns = _by(by, results.params)
    if len(columns) != 1:
        raise ConfigError(f"--compare: needs one column to compare along, not {','.join(columns)}; "
                          "give --by COLUMN")
    column = columns[0]
    if column not in results["matches"].columns:
        allowed = ", ".join(c for c in results["matches"].columns if c not in ("error",))
        raise ConfigError(f"--by {column!r}: no such column; columns are {allowed}")
    values = results["matches"][column]
    a, b = _typed(values, first), _typed(values, second)
    outcome = stats.compare(dict(results.tables), metric, a, b, by=column)
    row = outcome if isinstance(outcome, dict) else (outcome.iloc[0].to_dict() if hasattr(outcome, "iloc")
                                                    else vars(outcome))
    return (f"{row['metric']} by {column}: {row['a']!r} {row['value_a']:.3g} vs {row['b']!r} {row['value_b']:.3g}; "
            f"difference {row['difference']:+.3g} [{row['ci_low']:+.3g}, {row['ci_high']:+.3g}], "
            f"{row['test']} p = {row['p_value']:.3g}")


def _by(by: str | None, params: tuple[str, ...]) -> list[str]:
    if by:
        return [c.strip() for c in by.split(",") if c.strip()]
    return list(params) or ["cell"]


def check_by(by: str | None, params: tuple[str, ...], columns: Iterable[str]) -> list[str]:
    """The ``--by`` columns (default: the swept parameters, else the cell), each checked to exist."""
    chosen = _by(by, params)
    known = list(columns)
    for column in chosen:
        if column not in known:
            raise ConfigError(f"--by {column!r}: no such column; group by the swept parameters "
                              f"({', '.join(params) or 'none'}), cell, or a column of the pairs table")
    return chosen


def _typed(column, text: str):
    """The value of the column that reads as ``text`` (so ``--compare True False`` finds booleans, ``1`` 1.0)."""
    for value in column.drop_duplicates():
        if str(value) == text or _same_number(value, text):
            return value
    listed = ", ".join(sorted(str(v) for v in column.drop_duplicates()))
    raise ConfigError(f"--compare {text!r}: no such group; groups are {listed}")


def _same_number(value, text: str) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return float(text) == float(value)
    except ValueError:
        return False
