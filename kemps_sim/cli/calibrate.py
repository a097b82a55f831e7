"""``kemps-sim calibrate DATA``: fit a person's (or a group's) human parameters to the sessions ``kemps-sim serve
--data DATA`` recorded, print them with their intervals, and write them as a profile file that ``play``,
``tournament`` and sweep specs read (``--profile FILE.toml``, ``base.profile = "FILE.toml"``)."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from kemps_sim.errors import ConfigError

#: The fewest bootstrap resamples allowed: with B resamples a 95 % percentile interval needs 1/(B+1) <= 5 %.
MIN_RESAMPLES = 19


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``calibrate`` sub-command."""
    p = sub.add_parser("calibrate", help="fit a person's human parameters to recorded live-table sessions",
                       description="Fit reaction, reach and speech times and the observer's d' and criterion of a "
                                   "person (or a group) to the sessions of a live table (kemps-sim serve --data "
                                   "DATA), print each estimate with its 95% interval and number of trials, and "
                                   "write them as a profile file (TOML) for play --profile, tournament --profile "
                                   "and a sweep's base.profile. A parameter with too few trials keeps the default.")
    p.add_argument("data", metavar="DATA", help="the folder given to serve --data, or one session's folder")
    p.add_argument("--participant", default=None, metavar="ID",
                   help="the participant to fit (needed when DATA holds several and --group is not given); with "
                        "--group, the profile is this person's estimates partially pooled with the group's")
    p.add_argument("--group", action="store_true",
                   help="fit every participant and pool them (random effects); the profile is the group's")
    p.add_argument("--out", default="profile.toml", metavar="FILE.toml",
                   help="the profile file to write (default profile.toml)")
    p.add_argument("--window", type=float, default=3.0, metavar="S",
                   help="a call up to S seconds after a partner's gesture was drawn answers it (default 3)")
    p.add_argument("--intervals", choices=("profile", "wald", "bootstrap"), default="profile",
                   help="the intervals of the reaction and speech times: profile (likelihood ratio, the default), "
                        "wald (from the observed information) or bootstrap (percentile, --resamples of them drawn "
                        "from --seed)")
    p.add_argument("--seed", type=int, default=0, help="the seed of bootstrap intervals (default 0)")
    p.add_argument("--resamples", type=int, default=199, metavar="N",
                   help=f"resamples of bootstrap intervals (default 199, at least {MIN_RESAMPLES})")
    p.add_argument("--json", action="store_true", help="print the estimates as one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Fit, print and write the profile."""
    if not math.isfinite(args.window) or args.window <= 0:
        raise ConfigError(f"--window {args.window:g}: must be a number of seconds > 0, e.g. 3")
    if args.seed < 0:
        raise ConfigError(f"--seed {args.seed}: must be a whole number >= 0")
    if args.resamples < MIN_RESAMPLES:
        raise ConfigError(f"--resamples {args.resamples}: must be a whole number >= {MIN_RESAMPLES}")
    out = Path(args.out)
    if out.suffix.lower() != ".toml":
        raise ConfigError(f"--out {args.out}: the file name must end in .toml")
    if not out.parent.is_dir():
        raise ConfigError(f"--out {args.out}: folder {str(out.parent)!r} does not exist")
    if out.is_dir():
        raise ConfigError(f"--out {args.out}: is a folder, not a file")
    from kemps_sim.profile_file import write_profile_file  # deferred: fitting loads pandas, SciPy and statsmodels
    from kemps_sim.study.fit import fit_study

    fit = fit_study(args.data, args.participant, args.group, window=args.window, intervals=args.intervals,
                    seed=args.seed, n_resamples=args.resamples)
    profile, record = fit.profile(args.participant), fit.record(args.participant)
    write_profile_file(out, profile, record)
    if args.json:
        rows = [{key: _plain(value) for key, value in row.items()} for row in fit.table().to_dict("records")]
        print(json.dumps({"data": fit.data, "participants": list(fit.participants), "source": record["source"],
                          "estimates": rows, "defaults_kept": record["defaults_kept"],
                          "adjusted": record["adjusted"], "profile": str(out)}, allow_nan=False))
        return 0
    for line in table_lines(fit.table()):
        print(line)
    kept = record["defaults_kept"]
    print(f"profile of {record['source']} written to {out}"
          + (f"; kept the defaults of {', '.join(kept)}" if kept else ""))
    for note in record["adjusted"]:
        print(f"adjusted: {note}")
    return 0


def table_lines(table: Any) -> list[str]:
    """The tidy table as aligned text: participant, parameter, estimate [lower, upper], n, method."""
    rows = [("participant", "parameter", "estimate [95% interval]", "n", "method")]
    for row in table.itertuples(index=False):
        value = f"{row.estimate:.4g} [{row.lower:.4g}, {row.upper:.4g}]" if math.isfinite(row.estimate) else "-"
        rows.append((row.participant, row.parameter, value, str(row.n), row.method))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return ["  ".join([*(r[i].ljust(widths[i]) if i != 3 else r[i].rjust(widths[i]) for i in range(4)), r[4]])
            .rstrip() for r in rows]


def _plain(value: Any) -> Any:
    """A table cell as JSON data: NaN as null, NumPy scalars as Python's."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
