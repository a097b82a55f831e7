"""Evaluate the learning baseline: the trained pair's win rate against opponent pairs, and what the model learnt.

Reads the runs of ``scripts/train_ppo.py`` in RUN_DIR (RUN_DIR/seed-*/model.zip with its meta.json) and plays, for
each run, the model beside its training partner against each opponent pair on match seeds 0 to MATCHES-1 (training
never plays a seed below 10^12), each seed with the seating swapped; and the same matches with the partner in the
model's seat, as the reference (:mod:`kemps_sim.rl.evaluate` says how the intervals are computed). Writes to
RUN_DIR/eval (or --out): ``matches.csv`` (one row per match, with its seed and run), ``win_rates.csv`` and
``behaviour.csv``, and prints both tables.

    .venv/bin/python scripts/evaluate_ppo.py runs/ppo --matches 200
    .venv/bin/python scripts/evaluate_ppo.py runs/ppo --opponents random collector --model initial.zip
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

from kemps_sim.cli.script_args import OneLineParser, whole_number
from kemps_sim.errors import ConfigError

POSITIVE = whole_number(1)  # a whole number >= 1 from the command line


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; a usage error exits 2 with one line."""
    from kemps_sim.rl.evaluate import OPPONENTS

    parser = OneLineParser(prog="evaluate_ppo.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", type=Path, metavar="RUN_DIR", help="the folder train_ppo.py wrote (seed-*/ inside)")
    parser.add_argument("--matches", type=POSITIVE, default=100, metavar="M",
                        help="match seeds per run and opponent, each played in both seatings (default 100)")
    parser.add_argument("--opponents", nargs="+", default=list(OPPONENTS), metavar="ENTRY",
                        help="opponent pairs, as lineup entries (default: %(default)s)")
    parser.add_argument("--partner", metavar="ENTRY", help="the model's partner (default: its training partner; "
                        "'ppo' puts the model at both seats)")
    parser.add_argument("--model", default="model.zip", metavar="FILE", help="the model file of each run "
                        "(default model.zip; initial.zip is the untrained network)")
    parser.add_argument("--no-reference", action="store_true", help="do not play the partner in the model's seat")
    parser.add_argument("--workers", type=POSITIVE, help="processes (default: every core)")
    parser.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    parser.add_argument("--out", type=Path, metavar="DIR", help="the output folder (default RUN_DIR/eval)")
    args = parser.parse_args(argv)
    if not 0.0 < args.confidence < 1.0:
        parser.error(f"--confidence {args.confidence!r}: must be strictly between 0 and 1")
    try:
        args.found = find_runs(args.runs, args.model)
    except ConfigError as exc:
        parser.error(str(exc))
    return args


def find_runs(folder: Path, model: str) -> list[tuple[int, Path, dict[str, Any]]]:
    """Each run in ``folder`` as (seed, model file, meta), by seed; a folder without one is a ConfigError."""
    if not folder.is_dir():
        raise ConfigError(f"RUN_DIR {str(folder)!r}: no such folder; give the --out folder of train_ppo.py")
    runs = []
    for meta_file in sorted(folder.glob("seed-*/meta.json")):
        meta = json.loads(meta_file.read_text())
        path = meta_file.with_name(model)
        if not path.is_file():
            raise ConfigError(f"--model {model!r}: no {path}; allowed: a file every run folder holds, such as "
                              "model.zip or initial.zip")
        runs.append((int(meta["seed"]), path, meta))
    if not runs:
        raise ConfigError(f"RUN_DIR {str(folder)!r}: no seed-*/meta.json inside; give the --out folder of "
                          "train_ppo.py after a run finished")
    if len({json.dumps(meta["rules"], sort_keys=True) for _, _, meta in runs}) > 1:
        raise ConfigError(f"RUN_DIR {str(folder)!r}: its runs were trained under different rules; evaluate them "
                          "apart")
    return sorted(runs, key=lambda run: run[0])


def write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    """Rows as CSV, the columns those of the first row."""
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _number(value: float, digits: int = 3) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    """Play the evaluation, write its tables and print them."""
    args = parse_args(argv)
    from kemps_sim.gestures import DEFAULT_REPERTOIRE
    from kemps_sim.presets import load_rules
    from kemps_sim.rl import evaluate
    from kemps_sim.rl.policy import seat_policy

    runs = args.found
    rules = load_rules(runs[0][2]["rules"])
    try:  # a model that cannot play these rules is refused before any match
        for _, path, _ in runs:
            seat_policy(path, rules, DEFAULT_REPERTOIRE, "--model")
    except ConfigError as exc:
        print(f"evaluate_ppo.py: error: {exc}", file=sys.stderr)
        return 2
    partner = args.partner or runs[0][2]["partners"][0]
    models = [(seed, f"ppo(path={str(path)!r})") for seed, path, _ in runs]
    if partner == "ppo":
        work = [task for seed, entry in models for task in evaluate.tasks(
            [(seed, entry)], entry, rules, args.opponents, range(args.matches), reference=False)]
    else:
        work = evaluate.tasks(models, partner, rules, args.opponents, range(args.matches),
                              reference=not args.no_reference)
    workers = min(args.workers or os.cpu_count() or 1, len(work))
    out = args.out or args.runs / "eval"
    out.mkdir(parents=True, exist_ok=True)
    print(f"{len(runs)} run(s) of {args.runs} ({args.model}) beside {partner}: {len(work)} tasks of up to 25 seeds x "
          f"{rules.pairs} seatings, {workers} process(es)", flush=True)

    def progress(done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            print(f"  {done}/{total} tasks", flush=True)

    rows = evaluate.run_tasks(work, workers, progress)
    rates = evaluate.win_rates(rows, args.confidence)
    behaviour = evaluate.behaviour_summary(rows)
    write_csv(out / "matches.csv", rows)
    write_csv(out / "win_rates.csv", rates)
    write_csv(out / "behaviour.csv", behaviour)
    level = f"{args.confidence:.0%}"
    print(f"\nwin rate of the pair (IQM over {len(runs)} run(s), {level} stratified bootstrap interval; reference: "
          f"{partner} in the model's seat, {level} interval over seeds)")
    print(f"{'opponent':<12} {'IQM':>6} {'interval':>15}  {'reference':>9} {'interval':>15}  per run")
    for row in rates:
        print(f"{row['opponent']:<12} {_number(row['iqm']):>6} [{_number(row['low'])}, {_number(row['high'])}]  "
              f"{_number(row['reference']):>9} [{_number(row['reference_low'])}, {_number(row['reference_high'])}]"
              f"  {row['per_run']}")
    print("\nbehaviour of the model's seat per match (gestures made holding four / not; of the signal's form; calls "
          "and their accuracy)")
    print(f"{'pair':<10} {'opponent':<12} {'g four':>6} {'g not':>6} {'s four':>6} {'s not':>6} {'Kemps':>6} "
          f"{'acc':>5} {'Stop':>6} {'acc':>5} {'swaps':>6} {'races':>6}")
    for row in behaviour:
        print(f"{row['label']:<10} {row['opponent']:<12} {row['gestures_four']:>6.2f} {row['gestures_no_four']:>6.2f} "
              f"{row['signals_four']:>6.2f} {row['signals_no_four']:>6.2f} {row['kemps_calls']:>6.2f} "
              f"{_number(row['kemps_accuracy'], 2):>5} {row['stop_calls']:>6.2f} {_number(row['stop_accuracy'], 2):>5} "
              f"{row['swaps']:>6.1f} {row['races_lost']:>6.1f}")
    print(f"\nwritten: {out / 'matches.csv'}, {out / 'win_rates.csv'}, {out / 'behaviour.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
