"""Fit the uncertain parameters of the human model to the calibration targets, and write them as the defaults.

Plays every candidate on the calibration cells (every preset, with the default lineup and a collecting pair against
watchers, 4 players) with the same seeds, sets the cells beside the targets (kemps_sim/calibration/targets.toml) and
lets Optuna's TPE sampler search for the candidate that misses them least (:mod:`kemps_sim.calibration.fit`). It
prints each trial, then the best candidate with the range of values the targets cannot tell from it, and each
target beside what the best candidate's cells measured. The first candidate is the defaults in force (a refit
starts where the last fit ended; ``--cold`` leaves it out). ``--write`` puts the result into
kemps_sim/fitted_human.py, which the profile's defaults read; without it nothing is written.

    .venv/bin/python scripts/calibrate.py                        # 40 trials of 30 matches a cell: about 25 minutes
    .venv/bin/python scripts/calibrate.py --trials 60 --matches 40 --write
    .venv/bin/python scripts/calibrate.py --trials 2 --matches 4 --output /tmp/fitted_human.py --write   # a check
"""

from __future__ import annotations

import argparse
import datetime
import pprint
import sys
from pathlib import Path

from kemps_sim import fitted_human
from kemps_sim.calibration.fit import PARAMETERS, Fit, fit
from kemps_sim.cli.script_args import OneLineParser, whole_number

POSITIVE = whole_number(1)  # a whole number >= 1 from the command line

ROOT = Path(__file__).resolve().parent.parent
FITTED = ROOT / "kemps_sim" / "fitted_human.py"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = OneLineParser(prog="calibrate.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=POSITIVE, default=40, help="candidates to try (default: 40)")
    parser.add_argument("--matches", type=POSITIVE, default=30, help="matches a cell per candidate (default: 30)")
    parser.add_argument("--seed", type=POSITIVE, default=2026, help="the seed of the matches and the sampler")
    parser.add_argument("--workers", type=POSITIVE, help="worker processes (default: every core)")
    parser.add_argument("--write", action="store_true", help="write the fitted defaults (else only print them)")
    parser.add_argument("--output", type=Path, default=FITTED, help=f"where --write writes (default: {FITTED})")
    parser.add_argument("--cold", action="store_true", help="do not try the defaults in force first")
    return parser.parse_args(argv)


def module_text(result: Fit, today: datetime.date, command: str) -> str:
    """The text of the fitted-defaults module."""
    provenance = {"script": "scripts/calibrate.py", "command": command, "date": today.isoformat(),
                  **result.settings, "loss": round(float(result.trials["loss"].min()), 4),
                  "loss_noise": round(result.noise, 4)}
    fitted = {name: round(value, 3) for name, value in result.best.items()}
    spread = {name: (round(low, 3), round(high, 3)) for name, (low, high) in result.spread().items()}
    why = {p.name: p.why for p in PARAMETERS}
    return (
        '"""Human-model parameters fitted to the calibration targets by ``scripts/calibrate.py``: do not edit; run'
        ' the\nscript (``--write``). The defaults read them (:mod:`kemps_sim.perception`, :mod:`kemps_sim.profiles`,\n'
        ':mod:`agents.signal_choice`, :mod:`agents.composed`); :mod:`kemps_sim.calibration.fit` says how they are '
        'fitted."""\n\n'
        "#: How the values were made: the command, the date, the trials, the cells and the targets' version.\n"
        f"PROVENANCE = {pprint.pformat(provenance, width=110, sort_dicts=False)}\n\n"
        "#: What each fitted parameter is.\n"
        f"MEANING = {pprint.pformat(why, width=110, sort_dicts=False)}\n\n"
        "#: The fitted value of each parameter (dotted profile names).\n"
        f"FITTED = {pprint.pformat(fitted, width=110, sort_dicts=False)}\n\n"
        "#: The range of each parameter over the trials whose loss is within two noise deviations of the best: the\n"
        "#: values the targets cannot tell apart (a wide range: the targets leave the parameter free).\n"
        f"SPREAD = {pprint.pformat(spread, width=110, sort_dicts=False)}\n")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)

    def report(number: int, params: dict[str, float], loss: float) -> None:
        shown = ", ".join(f"{name} {value:.3f}" for name, value in params.items())
        print(f"trial {number + 1:3d}/{args.trials}: {shown}: loss {loss:.4f}", flush=True)

    start = [] if args.cold else [dict(fitted_human.FITTED)]  # a refit starts from the defaults in force
    result = fit(args.trials, args.matches, args.seed, args.workers, report=report, start=start)
    print(f"\nbest (loss {result.trials['loss'].min():.4f}, noise of the loss {result.noise:.4f}):")
    for name, value in result.best.items():
        low, high = result.spread()[name]
        print(f"  {name:22s} {value:7.3f}   targets cannot tell apart {low:.3f} to {high:.3f}")
    comparison = result.comparison
    print("\nthe best candidate's cells beside the targets (cells in agreement / cells):")
    for target, rows in comparison.groupby("target", sort=False):
        agree = int(rows["agrees"].fillna(False).astype(bool).sum())
        print(f"  {target:44s} {rows['estimate'].min():8.3g} to {rows['estimate'].max():8.3g}   "
              f"target [{rows['target_low'].iloc[0]:.3g}, {rows['target_high'].iloc[0]:.3g}]   {agree}/{len(rows)}")
    if args.write:
        command = "python scripts/calibrate.py " + " ".join(argv if argv is not None else sys.argv[1:])
        args.output.write_text(module_text(result, datetime.date.today(), command.strip()), encoding="utf-8")
        print(f"\nwrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
