"""``kemps-sim sweep``: run (or resume) a sweep spec on local processes or a Dask cluster, then print its summary."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TYPE_CHECKING

from kemps_sim.errors import ConfigError
from kemps_sim.games import game
from kemps_sim.sweep.executors import available_cores
from kemps_sim.sweep.targets import CONFIDENCE, DEFAULT_MAX_MATCHES, SIGN, TARGET_METRICS, metric_problem

if TYPE_CHECKING:  # the sweep machinery loads pandas, pyarrow and SciPy: imported where a sweep runs, not for --help
    from kemps_sim.sweep import SweepRun, SweepSpec

INTERRUPTED = 130
#: Columns of the pairs table a summary may also be grouped by.
PAIRS_COLUMNS = ("pair", "agents", "seats", "replicate", "seed", "end_reason")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``sweep`` sub-command."""
    p = sub.add_parser("sweep", help="run a sweep spec (TOML) and summarise it",
                       description="Run every match of a sweep spec into a Parquet results folder, resuming what "
                                   "the folder already holds, then print the summary table.")
    p.add_argument("spec", metavar="SPEC.toml", help="the sweep spec")
    p.add_argument("--output", default=None, metavar="DIR", help="results folder (default: the spec's output)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None,
                       help=f"local worker processes (default: every core, here {available_cores()})")
    where.add_argument("--serial", action="store_true", help="run in this process, one match after another")
    where.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT|local",
                       help="run on a Dask cluster: a scheduler address, or local to start a LocalCluster")
    p.add_argument("--chunk", type=int, default=None, metavar="N", help="matches per chunk (default: automatic)")
    p.add_argument("--extend", action="store_true",
                   help="accept a spec that adds cells or replicates to the folder's spec")
    p.add_argument("--check", action="store_true", help="only check the spec and print the plan")
    p.add_argument("--no-progress", action="store_true", help="do not show the progress bar")
    target = p.add_argument_group("precision target (or sweep.until_ci, until_metric, max_matches in the spec)")
    target.add_argument("--until-ci", type=float, default=None, metavar="HALFWIDTH",
                        help="add replicates to each cell in rounds until the metric's 95%% interval has at most this "
                             "half-width (0 < HALFWIDTH <= 0.5) or the cell reaches --max-matches")
    target.add_argument("--metric", default=None, metavar="NAME",
                        help="the metric --until-ci narrows: " + ", ".join(TARGET_METRICS)
                             + " (default: win_rate, pair 0's; sign: a round robin's pairings until who wins each "
                               "is known, --until-ci then the tie resolution)")
    target.add_argument("--max-matches", type=int, default=None, metavar="N",
                        help=f"the most matches a cell may play (default: {DEFAULT_MAX_MATCHES})")
    p.add_argument("--by", default=None, metavar="COL[,COL]", help="group the summary by these columns")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check the spec, run what is missing, and print the summary."""
    from kemps_sim.cli.report import print_summary
    from kemps_sim.report import check_by
    from kemps_sim.sweep import plan_tasks, read_spec, run_sweep
    from kemps_sim.sweep.store import QUARANTINE

    if args.workers is not None and args.workers < 1:
        raise ConfigError(f"--workers {args.workers}: must be a whole number >= 1")
    if args.chunk is not None and args.chunk < 1:
        raise ConfigError(f"--chunk {args.chunk}: must be a whole number >= 1")
    spec = read_spec(args.spec, overrides=_target_overrides(args))
    if args.by:  # checked now rather than after the sweep has run
        params = tuple(axis.name for axis in spec.axes)
        check_by(args.by, params, (*params, "cell", *PAIRS_COLUMNS))
    if args.check:
        tasks, plans = plan_tasks(spec)
        print(f"{args.spec}: {len(plans)} cells x {spec.matches} matches = {len(tasks)} matches, "
              f"design {_design_text(spec)}, master seed {spec.seed}, common random numbers "
              f"{'on' if spec.common_random_numbers else 'off'}, output {args.output or spec.output}")
        if spec.until_ci is not None and spec.until_metric == SIGN:
            print(f"  adaptive round robin: each pairing starts with {spec.matches} matches a seating and adds more "
                  "in rounds until who wins it is known (its interval excludes 0) or it is even to within "
                  f"{spec.until_ci:g}, at most {spec.max_matches} matches a seating")
        elif spec.until_ci is not None:
            print(f"  precision target: each cell starts with {spec.matches} matches and adds more in rounds until "
                  f"its {spec.until_metric} {CONFIDENCE:.0%} interval has half-width <= {spec.until_ci:g}, "
                  f"at most {spec.max_matches} matches per cell")
        if spec.compare is not None:
            print(f"  {_compare_text(spec)}")
        for plan in plans.values():
            print(f"  {plan.cell.id}  {plan.cell.label()}")
        return 0
    workers = 1 if args.serial else args.workers
    done = run_sweep(spec, output=args.output, workers=workers, scheduler=args.scheduler, chunk=args.chunk,
                     extend=args.extend, progress=not args.no_progress)
    rate = f" at {done.ran / done.seconds:.1f} matches/s" if done.ran and done.seconds > 0 else ""
    print(textwrap.fill(f"{done.folder}: {done.already_done + done.ran} of {done.planned} matches stored "
                        f"({done.ran} run now on {done.executor}{rate}; {done.already_done} already there)"
                        + (f"; {done.failures} failed (see the matches table's error column)" if done.failures
                           else ""), 100, break_long_words=False, break_on_hyphens=False))
    if done.quarantined:
        print(f"{done.quarantined} damaged chunk{'s' if done.quarantined != 1 else ''} moved into "
              f"{done.folder / QUARANTINE} and run again")
    if done.interrupted:
        print(f"interrupted: every finished chunk is kept; run the same command again to resume "
              f"({'at least ' if spec.until_ci is not None else ''}"
              f"{done.planned - done.already_done - done.ran} matches to go)", file=sys.stderr)
        return INTERRUPTED
    print_summary(done.folder, by=args.by)
    if done.targets:
        _print_targets(spec, done)
    return 0


def _target_overrides(args: argparse.Namespace) -> dict[str, object]:
    """The precision-target options as [sweep] keys, each checked with a one-line error naming the option."""
    overrides: dict[str, object] = {}
    if args.until_ci is not None:
        if not (0 < args.until_ci <= 0.5):  # also refuses nan
            raise ConfigError(f"--until-ci {args.until_ci:g}: must be a half-width above 0 and at most 0.5")
        overrides["until_ci"] = args.until_ci
    if args.metric is not None:
        problem = metric_problem(args.metric)
        if problem:
            raise ConfigError(f"--metric {args.metric}: {problem}")
        overrides["until_metric"] = args.metric
    if args.max_matches is not None:
        if args.max_matches < 1:
            raise ConfigError(f"--max-matches {args.max_matches}: must be a whole number >= 1 (and >= the spec's "
                              "matches)")
        overrides["max_matches"] = args.max_matches
    return overrides


def _print_targets(spec: SweepSpec, done: SweepRun) -> None:
    """How many matches each cell of a targeted sweep needed, and whether it reached the target or the cap."""
    from kemps_sim.sweep import plan_tasks

    labels = {plan.cell.id: plan.cell.label() for plan in plan_tasks(spec)[1].values()}
    target = spec.until_ci
    if spec.until_metric == SIGN:
        settled = sum(cell.why in ("sign", "tie") for cell in done.targets)
        print(f"\nadaptive round robin: who wins each pairing, or even to within {target:g}, at most "
              f"{spec.max_matches} matches per cell; {settled} of {len(done.targets)} cells settled before the cap")
    else:
        reached = sum(cell.reached(target) for cell in done.targets)
        print(f"\nprecision target: {spec.until_metric} {CONFIDENCE:.0%} interval half-width <= {target:g}, "
              f"at most {spec.max_matches} matches per cell; {reached} of {len(done.targets)} cells reached it")
    print(f"  {'cell':16}  {'matches':>7}  {'value':>6}  {'interval':>15}  {'half':>6}  status  parameters")
    for cell in done.targets:
        status = cell.why or ("target" if cell.reached(target) else ("cap" if cell.settled else "open"))
        interval = f"[{cell.ci_low:.3f}, {cell.ci_high:.3f}]" if cell.ci_low == cell.ci_low else "none"
        print(f"  {cell.cell:16}  {cell.matches:>7}  {cell.value:>6.3f}  {interval:>15}  {cell.halfwidth:>6.3f}  "
              f"{status:6}  {labels.get(cell.cell, '')}")


def _compare_text(spec: SweepSpec) -> str:
    """The question of the spec's [compare] table and what answers it, e.g. ``question: Does Double Kemps change
    who wins? answered by pair 0's win_rate at rules.double_kemps = True minus False``."""
    compare = spec.compare
    unit = game(spec.game).unit
    asked = f"question: {compare.question} " if compare.question else "comparison: "
    return (f"{asked}answered by {unit} {compare.pair}'s {compare.metric} at {compare.by} = {compare.a!r} minus "
            f"{compare.b!r}")


def _design_text(spec: SweepSpec) -> str:
    """The design and its sizes, e.g. ``sobol (N = 64, first and total order)``."""
    if spec.design == "sobol":
        orders = "first, total and second" if spec.second_order else "first and total"
        return f"sobol (N = {spec.samples}, {orders} order)"
    if spec.design == "morris":
        return f"morris ({spec.trajectories} trajectories, {spec.levels} levels)"
    if spec.samples:
        return f"{spec.design} ({spec.samples} samples)"
    return spec.design
