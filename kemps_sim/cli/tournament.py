"""``kemps-sim tournament``: a round robin between pair strategies (or Krepet players, ``--game krepet``), rated by
Bradley–Terry with intervals.

Every two strategies meet in both seatings (pair 0 and pair 1 swapped), as cells of an ordinary sweep: the
tournament runs on the same executors, resumes the same way, and its folder can be reported like any sweep. The
ratings carry profile-likelihood intervals, one-sided for a strategy that won or lost every match; ``--plots DIR``
draws them and the head-to-head matrix ordered by rating.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kemps_sim.cli.rules import parse_overrides
from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME, game_names
from kemps_sim.sweep.executors import available_cores

if TYPE_CHECKING:
    from collections.abc import Iterable

    import pandas as pd

    from kemps_sim.sweep import SweepResults, SweepRun, SweepSpec

INTERRUPTED = 130


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``tournament`` sub-command."""
    p = sub.add_parser("tournament", help="round robin between pair strategies, with ratings",
                       description="Play every pair of strategies against each other in both seatings, then "
                                   "print Bradley-Terry ratings with profile-likelihood confidence intervals "
                                   "(one-sided for a strategy that won or lost every match) and the head-to-head "
                                   "matrix (also written as CSV to the output folder).")
    p.add_argument("strategies", nargs="+", metavar="STRATEGY",
                   help='agent specs, e.g. collector "watcher(threshold=0.9)" bluffer')
    p.add_argument("--matches", type=int, default=50, help="matches per seating of each pairing (default 50)")
    p.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                   help=f"the game: {', '.join(game_names())} (default {DEFAULT_GAME}: pairs, four players; krepet: "
                        "two players, one per chair)")
    p.add_argument("--rules", default=None, metavar="PRESET|FILE.toml",
                   help="the rules (default standard; for krepet wikibooks)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KNOB=VALUE",
                   help="override one rule knob (repeatable)")
    p.add_argument("--seed", type=int, default=0, help="the master seed (default 0)")
    p.add_argument("--profile", default=None, metavar="FILE.toml",
                   help="the human profile of every seat: a profile file (TOML with a [profile] table, as "
                        "kemps-sim calibrate writes; default: the default profile)")
    p.add_argument("--output", default="results/tournament", metavar="DIR",
                   help="results folder (default results/tournament)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None,
                       help=f"local worker processes (default: every core, here {available_cores()})")
    where.add_argument("--serial", action="store_true", help="run in this process")
    where.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT|local", help="run on a Dask cluster")
    p.add_argument("--extend", action="store_true",
                   help="accept more matches or strategies than the folder's tournament had")
    p.add_argument("--confidence", type=float, default=0.95, metavar="LEVEL",
                   help="confidence level of the rating intervals (default 0.95)")
    p.add_argument("--plots", default=None, metavar="DIR",
                   help="also draw the ratings with their intervals and the head-to-head matrix (ordered by "
                        "rating, with match counts) as ratings.png and head_to_head.png in DIR")
    p.add_argument("--no-progress", action="store_true", help="do not show the progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the round robin (resuming what the folder holds) and print ratings and the head-to-head matrix."""
    if args.matches < 1:
        raise ConfigError(f"--matches {args.matches}: must be a whole number >= 1")
    if args.seed < 0:
        raise ConfigError(f"--seed {args.seed}: must be a whole number >= 0")
    if not 0.0 < args.confidence < 1.0:
        raise ConfigError(f"--confidence {args.confidence}: must be between 0 and 1 (exclusive), e.g. 0.95")
    if args.plots is not None and Path(args.plots).exists() and not Path(args.plots).is_dir():
        raise ConfigError(f"--plots {args.plots!r}: exists and is not a folder")
    profile = None
    if args.profile is not None:
        from kemps_sim.profile_file import load_profile_file

        profile = load_profile_file(args.profile, f"--profile {args.profile}").as_dict()
    from kemps_sim.sweep.tournament import tournament_spec  # deferred: the sweep package loads pandas and SciPy

    spec = tournament_spec(list(args.strategies), args.matches, args.rules, parse_overrides(args.overrides),
                           args.seed, args.output, args.game, profile)
    done = run_sweep(spec, workers=1 if args.serial else args.workers, scheduler=args.scheduler,
                     extend=args.extend, progress=not args.no_progress)
    print(f"{done.folder}: {done.already_done + done.ran} of {done.planned} matches stored "
          f"({done.ran} run now on {done.executor})" + (f"; {done.failures} failed" if done.failures else ""))
    if done.interrupted:
        print("interrupted: every finished chunk is kept; run the same command again to resume")
        return INTERRUPTED
    pairs = load_results(done.folder, tables=["pairs"])["pairs"]
    write_report(pairs, done.folder, confidence=args.confidence, plots=args.plots)
    return 0


def run_sweep(spec: SweepSpec, **options: Any) -> SweepRun:
    """:func:`kemps_sim.sweep.run_sweep`, imported on the first call: the sweep machinery loads pandas, pyarrow and
    SciPy, which parsing the command line (``--help``, a bad argument) should not pay for."""
    from kemps_sim.sweep import run_sweep as run

    return run(spec, **options)


def load_results(folder: str | Path, tables: Iterable[str] | None = None) -> SweepResults:
    """:func:`kemps_sim.sweep.load_results`, imported on the first call, as :func:`run_sweep`."""
    from kemps_sim.sweep import load_results as load

    return load(folder, tables=tables)


def write_report(pairs: pd.DataFrame, folder: str | Path, confidence: float = 0.95,
                 plots: str | Path | None = None) -> list[Path]:
    """Print the ratings and head-to-head summary, write its CSV files (and figures into ``plots``); return paths.

    ``pairs`` is the tournament's stacked pairs table (or the outcomes ``match_outcomes`` makes of it). The
    ratings are fitted once and shared by the text, ``ratings.csv`` and the figures.
    """
    # deferred: the ratings need pandas and SciPy, which parsing the command line should not import
    from kemps_sim.ratings import bradley_terry, head_to_head, head_to_head_counts, match_outcomes, tournament_summary

    outcomes = match_outcomes(pairs) if "pair" in pairs.columns else pairs
    ratings = bradley_terry(outcomes, confidence=confidence)
    print(tournament_summary(outcomes, ratings=ratings))
    folder = Path(folder)
    matrix = head_to_head(outcomes)
    written = [folder / "ratings.csv", folder / "head_to_head.csv"]
    ratings.to_csv(written[0], index=False)
    matrix.to_csv(written[1])
    print(f"ratings and head-to-head matrix written to {written[0]} and {written[1]}")
    if plots is not None:
        from kemps_sim.plots.ratings import tournament_figures  # deferred: plotting is only needed here

        figures = tournament_figures(ratings, matrix, plots, counts=head_to_head_counts(outcomes))
        for path in figures:
            print(f"wrote {path}")
        written += figures
    return written
