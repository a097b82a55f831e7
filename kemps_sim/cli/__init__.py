"""The ``kemps-sim`` command line: one sub-command per module in this package.

Usage errors (a bad argument, an unknown preset, a bad knob) print one line and exit with status 2, never a
traceback; :class:`~kemps_sim.errors.KempsError` is how the library reports them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from kemps_sim import __version__
from kemps_sim.cli import agents as agents_cmd
from kemps_sim.cli import play as play_cmd
from kemps_sim.cli import report as report_cmd
from kemps_sim.cli import rules as rules_cmd
from kemps_sim.cli import sweep as sweep_cmd
from kemps_sim.cli import tournament as tournament_cmd
from kemps_sim.errors import KempsError

USAGE_ERROR = 2
COMMANDS = (rules_cmd, play_cmd, agents_cmd, sweep_cmd, report_cmd, tournament_cmd)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="kemps-sim", description="Simulate the real-time card game Kemps and study its strategies.")
    parser.add_argument("--version", action="version", version=f"kemps-sim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except KempsError as exc:
        print(f"kemps-sim {args.command}: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:  # e.g. piped into `head`
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
