"""The ``kemps-sim`` command line: one sub-command per module in this package.

Usage errors (a bad argument, an unknown preset, a bad knob) print one line and exit with status 2, never a
traceback; :class:`~kemps_sim.errors.KempsError` is how the library reports them. Every command treats the other
faults a user meets the same way, in :func:`main`:

* a file or folder that cannot be read or written (an unwritable or impossible output folder, ``--csv`` into a
  read-only place, a full disk: any :class:`OSError`) prints one line naming the path and the problem and exits
  with status 2, like a usage error: the fix is a different path or permissions, not a bug report;
* Ctrl-C (:class:`KeyboardInterrupt`) prints one line and exits with status 130 (128 + SIGINT), as shells do;
  ``sweep`` and ``tournament`` also keep every finished chunk and say how to resume.
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
#: Exit status after Ctrl-C: 128 + SIGINT, as a shell reports it.
INTERRUPTED = 130
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
        print(f"kemps-sim {args.command}: error: {one_problem_text(str(exc))}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
    except OSError as exc:
        print(f"kemps-sim {args.command}: error: {os_error_text(exc)}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        print(f"kemps-sim {args.command}: interrupted (Ctrl-C); nothing more was done", file=sys.stderr)
        return INTERRUPTED


def one_problem_text(message: str) -> str:
    """A sweep spec's list of problems as one line when it lists only one; several stay one per line."""
    head, newline, rest = message.partition("\n")
    marker = ": 1 problem (nothing was run or written)"
    if newline and head.endswith(marker) and "\n" not in rest:
        return f"{head[:-len(marker)]}: {rest.strip()} (nothing was run or written)"
    return message


def os_error_text(exc: OSError) -> str:
    """An OSError as one line naming the path(s) and the problem, e.g. ``'out/x': permission denied``."""
    problem = (exc.strerror or str(exc) or type(exc).__name__).rstrip(".")
    problem = " ".join(problem.split())
    problem = problem[:1].lower() + problem[1:] if problem[:2] != problem[:2].upper() else problem
    if exc.filename is None:
        return f"{problem} ({type(exc).__name__})"
    paths = repr(str(exc.filename)) + (f" -> {str(exc.filename2)!r}" if exc.filename2 is not None else "")
    return f"{paths}: {problem}"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
