"""Does the simulated table play like people? Every cell of the realism sweeps beside the calibration targets.

Runs experiments/realism.toml (every preset with the default and the quickstart lineup, 4 players),
experiments/realism_players.toml (the standard rules at 6 and 8 players) and experiments/realism_d_prime.toml (the
standard rules with every seen d' at 0.5, 1 and 1.5 times the default, for the gain in Kemps precision with d'),
or reads folders already run
(``--folder``), and prints per cell each target's statistic with its interval beside the target and a mark:
✓ when they agree (the intervals overlap; a bound is not excluded), ✗ when not, - when the cell has nothing to
measure. It ends with one line per target saying in how many cells it holds. A folder run before is resumed, not
run again: delete it (or give --matches or --output) to measure the model as it is now.

    .venv/bin/python scripts/table_realism.py                  # 60 matches a cell: about a minute on two cores
    .venv/bin/python scripts/table_realism.py --matches 200 --workers 2
    .venv/bin/python scripts/table_realism.py --folder results/realism results/realism_players results/realism_d_prime
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import pandas as pd

from kemps_sim.calibration import compare_to_targets, load_targets, sweep_statistics, table_statistics
from kemps_sim.calibration.contrast import ACUITY, GAIN, precision_gain
from kemps_sim.cli.script_args import OneLineParser, whole_number
from kemps_sim.errors import ConfigError
from kemps_sim.sweep import load_results, read_spec, run_sweep
from kemps_sim.sweep.cells import plan_cells

POSITIVE = whole_number(1)  # a whole number >= 1 from the command line

ROOT = Path(__file__).resolve().parent.parent
SPECS = tuple(ROOT / "experiments" / f"{name}.toml" for name in ("realism", "realism_players", "realism_d_prime"))
#: The statistics shown on each cell's line of round ends, with their short labels.
ENDS = (("right_kemps", "right K"), ("right_stop", "right S"), ("wrong_call", "wrong"), ("other", "other"))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; a usage error exits 2 with one line."""
    parser = OneLineParser(prog="table_realism.py", description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--folder", nargs="+", metavar="DIR", help="read these sweep folders instead of running")
    source.add_argument("--spec", nargs="+", metavar="SPEC.toml", type=Path,
                        help="run these specs instead of the two realism specs")
    parser.add_argument("--matches", type=POSITIVE, metavar="N", help="matches per cell (default: the specs', 60); "
                        "the results go to OUTPUT-mN so that a folder never mixes sizes")
    parser.add_argument("--workers", type=POSITIVE, metavar="W", help="worker processes (default: every core)")
    parser.add_argument("--output", type=Path, metavar="DIR", help="put each spec's folder in DIR (named as the "
                        "spec's output folder) instead of where the spec says")
    parser.add_argument("--targets", type=Path, metavar="FILE", help="a targets file (default: the package's)")
    parser.add_argument("--confidence", type=float, default=0.95, help="interval level (default: 0.95)")
    args = parser.parse_args(argv)
    if args.folder and (args.matches or args.workers or args.output):
        parser.error("--folder reads stored results: --matches, --workers and --output apply only to a run")
    if not 0.0 < args.confidence < 1.0:
        parser.error(f"--confidence {args.confidence!r}: must be strictly between 0 and 1")
    args.parser = parser
    return args


def run_specs(specs: tuple[Path, ...], matches: int | None, workers: int | None, output: Path | None) -> list[Path]:
    """Run (or resume) each spec and return its folder; say what was run and what was already there."""
    folders = []
    for path in specs:
        spec = read_spec(path, overrides={"matches": matches} if matches else None)
        folder = Path(spec.output)
        if output is not None:
            folder = output / folder.name
        if matches:
            folder = folder.with_name(f"{folder.name}-m{matches}")
        done = run_sweep(spec, output=folder, workers=workers, progress=False)
        stored = f", {done.already_done} stored before: delete the folder to measure the model as it is now" \
            if done.already_done else ""
        print(f"{folder}: {done.planned} matches ({done.ran} run now in {done.seconds:.0f} s{stored})",
              file=sys.stderr)
        folders.append(folder)
    return folders


def cell_labels(results) -> dict[str, str]:
    """Each cell's label: its rules, table size and lineup."""
    spec = results.spec()
    labels = {}
    for plan in plan_cells(spec):
        values = plan.cell.as_dict()
        rules = values.get("rules", spec.base.get("rules", "standard"))
        others = "".join(f", {key} {value}" for key, value in values.items() if key not in ("rules", "players",
                                                                                             "lineup"))
        labels[plan.cell.id] = f"{rules}, {plan.rules.players} players, lineup {plan.lineup}{others}"
    return labels


def print_contrast(results, targets, confidence: float, held: dict[str, list[int]]) -> None:
    """For a sweep over d': each lineup's Kemps precision at every d' and the gain from the lowest to the highest
    beside the targets on it, counted in ``held``."""
    along = [t for t in targets if t.statistic == GAIN]
    if ACUITY not in results.params or not along:
        return
    gain = precision_gain(results.tables, by=("lineup",), confidence=confidence)
    by_level = table_statistics(results.tables, ("lineup", ACUITY), confidence)
    precision = by_level[by_level["statistic"] == "kemps_precision"]
    for row in compare_to_targets(gain, along).itertuples(index=False):
        levels = precision[precision["lineup"] == row.lineup]
        shown = ", ".join(f"{number(level)}: {number(value)}" for level, value in zip(levels[ACUITY],
                                                                                      levels["estimate"], strict=True))
        print(f"\nd' contrast, lineup {row.lineup}: Kemps precision by d' ({shown})")
        target = targets[row.target]
        print(f"  {mark(row.agrees)} {row.target}  {number(row.estimate)} {interval(row.low, row.high)} "
              f"target {target.interval_text()}")
        if row.agrees is not None:
            held[row.target][1] += 1
            held[row.target][0] += bool(row.agrees)


def number(value: float) -> str:
    """A value in three significant figures, or - when there is none."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.3g}"


def interval(low: float, high: float) -> str:
    """``[low, high]``, or nothing when the statistic has no interval."""
    return "" if math.isnan(low) or math.isnan(high) else f"[{number(low)}, {number(high)}]"


def mark(agrees) -> str:
    """✓ for agreement, ✗ for none, - when there was nothing to compare."""
    return "-" if agrees is None or (isinstance(agrees, float) and math.isnan(agrees)) else ("✓" if agrees else "✗")


def print_cell(label: str, matches: int, measured: pd.DataFrame, compared: pd.DataFrame, targets) -> None:
    """One cell: its round ends at a glance, then a line per target."""
    print(f"\n{label} ({matches} matches)")
    by_stat = measured.set_index("statistic")
    for tail, words in (("", "ends of all rounds"), ("_first", "first rounds"), ("_later", "later rounds")):
        parts = [f"{short} {number(by_stat.loc[f'{end}_share{tail}', 'estimate'])}" for end, short in ENDS]
        rounds = int(by_stat.loc[f"right_kemps_share{tail}", "n"])
        print(f"  {words} ({rounds}): " + ", ".join(parts))
    width = max(len(t.name) for t in targets)
    for row in compared.itertuples(index=False):
        target = targets[row.target]
        value = "" if target.value is None or target.bound else f"{number(target.value)} "
        spread = "(parameters)" if row.basis == "parameters" and row.low == row.high else interval(row.low, row.high)
        print(f"  {mark(row.agrees)} {row.target:<{width}}  {number(row.estimate):>8} "
              f"{spread:<19} target {value}{target.interval_text()}")


def main(argv: list[str] | None = None) -> int:
    """Run or read the realism sweeps and print every cell beside the targets, then the count per target."""
    args = parse_args(argv)
    try:
        targets = load_targets(args.targets)
        folders = [Path(f) for f in args.folder] if args.folder else run_specs(
            tuple(args.spec or SPECS), args.matches, args.workers, args.output)
        loaded = [load_results(folder) for folder in folders]
    except ConfigError as exc:
        args.parser.exit(2, f"{args.parser.prog}: error: {exc}\n")
    held = {name: [0, 0] for name in targets.names}  # target: [cells where it holds, cells measured]
    for results in loaded:
        labels = cell_labels(results)
        measured = sweep_statistics(results, args.confidence)
        compared = compare_to_targets(measured, targets)
        played = results.tables["matches"].groupby("cell").size()
        for cell, label in labels.items():
            if cell not in played.index:
                continue
            rows = compared[compared["cell"] == cell]
            print_cell(label, int(played[cell]), measured[measured["cell"] == cell], rows, targets)
            for row in rows.itertuples(index=False):
                if row.agrees is not None and not (isinstance(row.agrees, float) and math.isnan(row.agrees)):
                    held[row.target][1] += 1
                    held[row.target][0] += bool(row.agrees)
        print_contrast(results, targets, args.confidence, held)
    print(f"\nTargets (version {targets.version}, {targets.date}; ✓ = intervals overlap, or the bound holds):")
    width = max(len(name) for name in targets.names)
    for target in targets:
        hits, cells = held[target.name]
        print(f"  {hits:>2} of {cells:>2} cells  {target.name:<{width}}  {target.statistic} "
              f"{number(target.value) + ' ' if target.value is not None and not target.bound else ''}"
              f"{target.interval_text()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
