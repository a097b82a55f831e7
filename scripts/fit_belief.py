"""Regenerate kemps_sim/belief/fitted.py: the belief's prior model and the rates of the signalling game, measured on
simulated play of the built-in reasoning agents (see kemps_sim.calibration.belief for what is measured and how).

    python scripts/fit_belief.py                     # the committed constants: every preset, 4/6/8 players
    python scripts/fit_belief.py --matches 2 --iterations 1 --output /tmp/fitted.py   # a quick look
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tqdm import tqdm

from kemps_sim.calibration.belief import FitPlan, run

DEFAULT_OUTPUT = Path(__file__).resolve().parent.parent / "kemps_sim" / "belief" / "fitted.py"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    plan = FitPlan()
    parser.add_argument("--matches", type=int, default=plan.matches, help="matches per preset, table size and lineup")
    parser.add_argument("--seed", type=int, default=plan.seed, help="master seed")
    parser.add_argument("--iterations", type=int, default=2, help="passes: play with the last constants, refit")
    parser.add_argument("--max-rounds", type=int, default=plan.max_rounds, help="rounds per match at most")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="where to write the module")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.iterations < 1 or args.max_rounds < 1:
        parser.error("--matches, --iterations and --max-rounds must be whole numbers >= 1")
    plan = FitPlan(matches=args.matches, seed=args.seed, max_rounds=args.max_rounds)
    started = time.perf_counter()
    total = len(list(plan.tables()))
    with tqdm(total=total * args.iterations, unit="match", disable=None) as bar:
        _, rates, provenance = run(plan, args.iterations, str(args.output),
                                       lambda done, _: bar.update(1))
    print(f"wrote {args.output} in {time.perf_counter() - started:.0f} s")
    print("rates:", rates)
    print("calibration by decile (predicted, observed, rows):")
    for rule, rows in provenance["calibration_deciles"].items():
        print(f"  {rule}:")
        for row in rows:
            print("    ", row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
