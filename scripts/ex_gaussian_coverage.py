"""How often an ex-Gaussian fit's nominal 95 % intervals cover the truth, by number of trials and kind of interval:
simulated people whose speech times are drawn around typical values (as ``tests/test_study_recovery.py`` draws
them: mu 0.5-0.7 s, sigma 0.05-0.1 s, tau 0.15-0.25 s; ``--times reaction``: 0.35-0.55, 0.04-0.08, 0.1-0.2), one
sample each, fitted by :func:`kemps_sim.study.ex_gaussian.fit_ex_gaussian`. Regenerates the table in that module's
docstring::

    python scripts/ex_gaussian_coverage.py --trials 30 50 70 150 --people 400
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kemps_sim.cli.script_args import OneLineParser, whole_number
from kemps_sim.study.ex_gaussian import INTERVALS, fit_ex_gaussian

RANGES = {"speech": ((0.5, 0.7), (0.05, 0.1), (0.15, 0.25)), "reaction": ((0.35, 0.55), (0.04, 0.08), (0.1, 0.2))}


def coverage(trials: int, people: int, intervals: str, ranges: tuple, seed: int) -> np.ndarray:
    """The share of ``people`` whose interval of mu, sigma and tau covered their truth."""
    covered = np.zeros(3)
    for person in range(people):
        rng = np.random.default_rng([seed, trials, person])
        mu, sigma, tau = (rng.uniform(*bounds) for bounds in ranges)
        times = mu + sigma * rng.standard_normal(trials) + rng.exponential(tau, trials)
        fitted = fit_ex_gaussian(times, ("mu", "sigma", "tau"), np.random.default_rng(person), intervals=intervals)
        covered += [e.lower <= truth <= e.upper for e, truth in zip(fitted, (mu, sigma, tau), strict=True)]
    return covered / people


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="ex_gaussian_coverage.py", description=__doc__.split("::")[0])
    parser.add_argument("--trials", type=whole_number(10), nargs="+", default=[30, 50, 70, 150], metavar="N",
                        help="sample sizes (default 30 50 70 150)")
    parser.add_argument("--people", type=whole_number(1), default=400, metavar="N",
                        help="simulated people a size (default 400)")
    parser.add_argument("--intervals", nargs="+", choices=INTERVALS, default=["profile", "wald"])
    parser.add_argument("--times", choices=sorted(RANGES), default="speech")
    parser.add_argument("--seed", type=whole_number(0), default=0)
    args = parser.parse_args(argv)
    half = stats.binom.ppf([0.025, 0.975], args.people, 0.95) / args.people
    print(f"{args.people} simulated people a size ({args.times} times); a method covering at exactly 0.95 lands in "
          f"[{half[0]:.3f}, {half[1]:.3f}] 95 % of the time\n")
    print(f"{'trials':>6}  " + "  ".join(f"{kind + ' (mu sigma tau)':<24}" for kind in args.intervals))
    for trials in args.trials:
        shares = [coverage(trials, args.people, kind, RANGES[args.times], args.seed) for kind in args.intervals]
        print(f"{trials:>6}  " + "  ".join(f"{' '.join(f'{s:.3f}' for s in share):<24}" for share in shares),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
