"""``kemps-sim tournament``: a round robin between pair strategies (or Krepet players, ``--game krepet``), rated by
Bradley–Terry with intervals.

Every two strategies meet in both seatings (pair 0 and pair 1 swapped), as cells of an ordinary sweep: the
tournament runs on the same executors, resumes the same way, and its folder can be reported like any sweep. The
ratings carry profile-likelihood intervals, one-sided for a strategy that won or lost every match; ``--plots DIR``
draws them and the head-to-head matrix ordered by rating.

``--spec FILE.toml`` reads named team strategies from a tournament spec file instead of the command line
(:mod:`kemps_sim.sweep.teams`): the report then reads by the teams' names. The file's settings stand unless an
option is given: ``--matches``, ``--seed``, ``--rules``, ``--profile`` and ``--output`` replace the file's values and
each ``--set`` knob is laid over its ``[tournament.set]``; ``--game`` is refused (the strategies are the file's
game's agents).

``--vary KEY=V1,V2`` plays every seating under every rule variant (``rules=standard,german``, ``double_kemps=false,
true``; laid over the file's ``[tournament.vary]``), and the ratings are then reported per variant: ratings pooled
over different rules would rate no game anyone plays. ``--adaptive RESOLUTION`` makes it an adaptive round robin
(:mod:`kemps_sim.sweep.tournament_options`): ``--matches`` is where every pairing starts, ``--max-matches`` its cap,
and the report begins with how the pairings settled and the matches saved against a full round robin.
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
    from collections.abc import Iterable, Mapping, Sequence

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
    p.add_argument("strategies", nargs="*", metavar="STRATEGY",
                   help='agent specs, e.g. collector "watcher(threshold=0.9)" bluffer (or --spec)')
    p.add_argument("--spec", default=None, metavar="FILE.toml",
                   help="a tournament spec file declaring named team strategies ([tournament] and "
                        "[strategies.NAME] tables) instead of STRATEGY arguments; the options below replace its "
                        "values when given (--set knobs are laid over its [tournament.set]), except --game")
    p.add_argument("--matches", type=int, default=None,
                   help="matches per seating of each pairing (default 50, or the spec file's)")
    p.add_argument("--game", choices=game_names(), default=None,
                   help=f"the game: {', '.join(game_names())} (default {DEFAULT_GAME}: pairs, four players; krepet: "
                        "two players, one per chair); not with --spec, whose file names its game")
    p.add_argument("--rules", default=None, metavar="PRESET|FILE.toml",
                   help="the rules (default standard; for krepet wikibooks)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KNOB=VALUE",
                   help="override one rule knob (repeatable)")
    p.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2",
                   help="play every seating under each rule variant, e.g. rules=standard,german or "
                        "double_kemps=false,true (repeatable: every combination; laid over the spec file's "
                        "[tournament.vary]); the ratings are then reported per variant")
    p.add_argument("--adaptive", type=float, default=None, metavar="RESOLUTION",
                   help="an adaptive round robin: a pairing gets more matches, round by round, only while its winner "
                        "is uncertain and it is not even to within RESOLUTION (0 < RESOLUTION <= 0.5, e.g. 0.05); "
                        "--matches is then where every pairing starts")
    p.add_argument("--max-matches", type=int, default=None, metavar="N",
                   help="the most matches per seating of an adaptive round robin (default: enough for every pairing "
                        "to settle by sign or as a tie, at most 2000)")
    p.add_argument("--seed", type=int, default=None, help="the master seed (default 0, or the spec file's)")
    p.add_argument("--profile", default=None, metavar="FILE.toml",
                   help="the human profile of every seat: a profile file (TOML with a [profile] table, as "
                        "kemps-sim calibrate writes; default: the default profile)")
    p.add_argument("--output", default=None, metavar="DIR",
                   help="results folder (default results/tournament; with --spec the file's, else results/NAME)")
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
    if args.spec is not None and args.strategies:
        raise ConfigError(f"--spec {args.spec}: the spec file declares the strategies; give --spec or STRATEGY "
                          f"arguments ({' '.join(args.strategies)}), not both")
    if args.spec is None and not args.strategies:
        raise ConfigError("strategies: none given; name at least 2 agent specs (e.g. collector watcher) or give "
                          "--spec FILE.toml")
    if args.spec is not None and args.game is not None:
        raise ConfigError(f"--game {args.game}: the spec file names its game ([tournament] game); leave --game out "
                          "with --spec")
    if args.matches is not None and args.matches < 1:
        raise ConfigError(f"--matches {args.matches}: must be a whole number >= 1")
    if args.seed is not None and args.seed < 0:
        raise ConfigError(f"--seed {args.seed}: must be a whole number >= 0")
    if not 0.0 < args.confidence < 1.0:
        raise ConfigError(f"--confidence {args.confidence}: must be between 0 and 1 (exclusive), e.g. 0.95")
    if args.plots is not None and Path(args.plots).exists() and not Path(args.plots).is_dir():
        raise ConfigError(f"--plots {args.plots!r}: exists and is not a folder")
    _check_adaptive(args)
    from kemps_sim.sweep.tournament_options import parse_vary  # deferred with the sweep package, as below

    vary = parse_vary(args.vary) or None
    profile = None
    if args.profile is not None:
        from kemps_sim.profile_file import load_profile_file

        profile = load_profile_file(args.profile, f"--profile {args.profile}").as_dict()
    # deferred: the sweep package loads pandas and SciPy
    from kemps_sim.sweep.tournament import team_tournament_spec, tournament_spec

    teams = None
    if args.spec is not None:
        tournament = team_tournament_spec(args.spec, matches=args.matches, seed=args.seed, rules=args.rules,
                                          overrides=parse_overrides(args.overrides), profile=profile,
                                          output=args.output, adaptive=args.adaptive,
                                          max_matches=args.max_matches, vary=vary)
        spec, teams = tournament.spec, tournament.teams
    else:
        check_strategies(args.strategies, args.game or DEFAULT_GAME)
        spec = tournament_spec(list(args.strategies), 50 if args.matches is None else args.matches, args.rules,
                               parse_overrides(args.overrides), 0 if args.seed is None else args.seed,
                               args.output or "results/tournament", args.game or DEFAULT_GAME, profile,
                               adaptive=args.adaptive, max_matches=args.max_matches, vary=vary)
    done = run_sweep(spec, workers=1 if args.serial else args.workers, scheduler=args.scheduler,
                     extend=args.extend, progress=not args.no_progress)
    if teams is not None:
        keep_teams(done.folder, teams)
    print(f"{done.folder}: {done.already_done + done.ran} of {done.planned} matches stored "
          f"({done.ran} run now on {done.executor})" + (f"; {done.failures} failed" if done.failures else ""))
    if done.interrupted:
        print("interrupted: every finished chunk is kept; run the same command again to resume")
        return INTERRUPTED
    if getattr(done, "targets", ()) and spec.until_metric == "sign":
        print(adaptive_text(done.targets, spec.until_ci, spec.max_matches))
    results = load_results(done.folder, tables=["pairs"])
    pairs = results["pairs"]
    if teams is not None:
        pairs = named_pairs(pairs, teams)
    write_report(pairs, done.folder, confidence=args.confidence, plots=args.plots,
                 variants=variant_columns(pairs, getattr(results, "params", ())),
                 levels={axis.name: axis.levels for axis in spec.axes if axis.levels is not None})
    return 0


def check_strategies(strategies: Sequence[str], game: str) -> None:
    """Each STRATEGY argument an agent of ``game`` can be made from, checked before the sweep spec is built: a bad one
    is one line naming the strategy as given and what is allowed (the spec would list the problem under its lineup
    twice, in sections the user never wrote). A malformed argument (several agents, none) is left to the spec."""
    from kemps_sim.lineup import entry_problem, make_factory, parse_entry, split_lineup  # deferred, as below

    for strategy in strategies:
        try:
            if len(split_lineup(strategy)) != 1:
                continue
            make_factory(*parse_entry(strategy, game), game)
        except ConfigError as exc:
            raise ConfigError(f"strategy {strategy!r}: {entry_problem(str(exc))}") from None


def _check_adaptive(args: argparse.Namespace) -> None:
    """One-line errors for ``--adaptive`` and ``--max-matches`` (a spec file's own values are checked with it)."""
    if args.adaptive is not None and not 0.0 < args.adaptive <= 0.5:
        raise ConfigError(f"--adaptive {args.adaptive}: must be a tie resolution above 0 and at most 0.5 (a deal's "
                          "payoff runs from -1/2 to 1/2), e.g. 0.05")
    if args.max_matches is None:
        return
    if args.max_matches < 1:
        raise ConfigError(f"--max-matches {args.max_matches}: must be a whole number >= 1, the most matches per "
                          "seating of an adaptive round robin")
    if args.spec is None and args.adaptive is None:
        raise ConfigError(f"--max-matches {args.max_matches}: only an adaptive round robin has a cap; add "
                          "--adaptive RESOLUTION or leave --max-matches out")
    start = args.matches if args.matches is not None else None if args.spec is not None else 50
    if start is not None and args.max_matches < start:
        raise ConfigError(f"--max-matches {args.max_matches}: must be >= the {start} matches per seating every "
                          "pairing starts with (--matches)")


def adaptive_text(targets: Sequence[Any], resolution: float, cap: int) -> str:
    """How the pairings of an adaptive round robin settled (by sign, as ties, at the cap) and the matches it played
    against a full round robin of the same confidence (:func:`kemps_sim.sweep.adaptive.matches_saved`)."""
    from kemps_sim.sweep.adaptive import matches_saved

    whys = {"sign": 0, "tie": 0, "cap": 0}
    for target in targets:  # both cells of a pairing carry its settling
        whys[target.why or "running"] = whys.get(target.why or "running", 0) + 1
    counts = {why: count // 2 for why, count in whys.items()}
    played, full = matches_saved({target.cell: target.matches for target in targets})
    parts = [f"{counts['sign']} by sign", f"{counts['tie']} as a tie (even to within {resolution:g})",
             f"{counts['cap']} at the cap"] + ([f"{counts['running']} unsettled"] if counts.get("running") else [])
    saved = f" ({1 - played / full:.0%} saved)" if full else ""
    total = sum(counts.values())
    return (f"adaptive round robin: {total} pairing{'s' if total != 1 else ''}, at most {cap} matches a seating; "
            "settled "
            + ", ".join(parts) + f"\n{played} matches; a full round robin needs {full}{saved}")


def variant_columns(pairs: pd.DataFrame, params: Sequence[str]) -> list[str]:
    """The columns of the pairs table that name a rule variant (:func:`kemps_sim.metagame.analysis.variant_columns`:
    the swept parameters other than the lineup), so that the report and ``kemps-sim metagame`` split alike."""
    from kemps_sim.metagame.analysis import variant_columns as columns

    return columns(pairs, list(params))


def keep_teams(folder: str | Path, teams: Mapping[str, tuple[str, ...]]) -> None:
    """Keep a team tournament's strategies in its results folder (once the run made it a results folder), so that
    its results can be read by name later (:func:`kemps_sim.sweep.teams.strategy_labels`)."""
    from kemps_sim.sweep.store import MANIFEST
    from kemps_sim.sweep.teams import write_teams

    if (Path(folder) / MANIFEST).is_file():
        write_teams(folder, teams)


def named_pairs(pairs: pd.DataFrame, teams: Mapping[str, tuple[str, ...]]) -> pd.DataFrame:
    """The pairs table read by the teams' names, after a legend of what each name seats."""
    from kemps_sim.sweep.teams import label_pairs, strategy_labels, team_label

    width = max(len(name) for name in teams)
    print("strategies:")
    for name, entries in teams.items():
        print(f"  {name:<{width}}  {team_label(entries)}")
    return label_pairs(pairs, strategy_labels(teams))


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
                 plots: str | Path | None = None, variants: Sequence[str] = (),
                 levels: Mapping[str, Sequence[Any]] | None = None) -> list[Path]:
    """Print the ratings and head-to-head summary, write its CSV files (and figures into ``plots``); return paths.

    ``pairs`` is the tournament's stacked pairs table (or the outcomes ``match_outcomes`` makes of it). The
    ratings are fitted once and shared by the text, ``ratings.csv`` and the figures. With ``variants`` (columns of
    ``pairs`` naming a rule variant) every variant is rated on its own: the text per variant, one ``variant``
    column in ``ratings.csv`` (``rules=german, rules.double_kemps=True``), the head-to-head matrices stacked in
    ``head_to_head.csv`` with the variant as the first index column, and the figures in ``plots/variantN/``; the
    variants in the order of their ``levels`` (each column's levels as the spec lists them), else as they come.
    """
    # deferred: the ratings need pandas and SciPy, which parsing the command line should not import
    import pandas as pd

    folder = Path(folder)
    written = [folder / "ratings.csv", folder / "head_to_head.csv"]
    if not variants:
        ratings, matrix, figures = _rate(pairs, confidence, plots)
        ratings.to_csv(written[0], index=False)
        matrix.to_csv(written[1])
    else:
        parts = sorted(pairs.groupby(list(variants), sort=False, dropna=False),
                       key=lambda part: _level_order(part[0], variants, levels or {}))
        rated, matrices, figures = [], [], []
        for number, (key, part) in enumerate(parts):
            values = key if isinstance(key, tuple) else (key,)
            label = ", ".join(f"{column}={value}" for column, value in zip(variants, values, strict=True))
            print(f"variant{number}: {label} ({number + 1} of {len(parts)})")
            where = Path(plots) / f"variant{number}" if plots is not None else None
            ratings, matrix, drawn = _rate(part.drop(columns=list(variants)), confidence, where)
            ratings.attrs, matrix.attrs = {}, {}  # the fit's details, which concat would compare
            rated.append(ratings.assign(variant=label)[["variant", *ratings.columns]])
            matrices.append(pd.concat({label: matrix}, names=["variant", matrix.index.name or "strategy"]))
            figures += drawn
            print()
        pd.concat(rated, ignore_index=True).to_csv(written[0], index=False)
        pd.concat(matrices).to_csv(written[1])
    what = "ratings and head-to-head matrix" + (f", per variant ({', '.join(variants)})," if variants else "")
    print(f"{what} written to {written[0]} and {written[1]}")
    for path in figures:
        print(f"wrote {path}")
    return written + figures


def _level_order(key: Any, variants: Sequence[str], levels: Mapping[str, Sequence[Any]]) -> tuple[int, ...]:
    """Where a variant's values stand among each column's listed levels (an unlisted value after them)."""
    values = key if isinstance(key, tuple) else (key,)
    order = []
    for column, value in zip(variants, values, strict=True):
        listed = list(levels.get(column, ()))
        order.append(next((i for i, level in enumerate(listed) if level == value), len(listed)))
    return tuple(order)


def _rate(pairs: pd.DataFrame, confidence: float, plots: str | Path | None) -> tuple[pd.DataFrame, pd.DataFrame,
                                                                                      list[Path]]:
    """Print one tournament's ratings and head-to-head summary; its ratings, its matrix and its figures (drawn into
    ``plots`` when given)."""
    from kemps_sim.ratings import bradley_terry, head_to_head, head_to_head_counts, match_outcomes, tournament_summary

    outcomes = match_outcomes(pairs) if "pair" in pairs.columns else pairs
    ratings = bradley_terry(outcomes, confidence=confidence)
    print(tournament_summary(outcomes, ratings=ratings))
    matrix = head_to_head(outcomes)
    figures = []
    if plots is not None:
        from kemps_sim.plots.ratings import tournament_figures  # deferred: plotting is only needed here

        figures = tournament_figures(ratings, matrix, plots, counts=head_to_head_counts(outcomes))
    return ratings, matrix, figures
