"""The ``kemps-sim`` command line: one sub-command per module in this package, imported only when its command is
run, so that ``--version``, ``--help`` and the light commands start without pandas, SciPy or matplotlib.

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
import importlib
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from kemps_sim import __version__
from kemps_sim.cli.script_args import OneLineParser
from kemps_sim.errors import KempsError

USAGE_ERROR = 2
#: Exit status after Ctrl-C: 128 + SIGINT, as a shell reports it.
INTERRUPTED = 130
#: The sub-commands, in the order ``kemps-sim --help`` lists them, with the one-line help it shows. Command NAME
#: lives in module ``kemps_sim.cli.NAME``, imported only when NAME is run (see :class:`LazyCommands`); each help
#: repeats the one the module registers, which tests/test_startup.py checks.
COMMANDS: dict[str, str] = {
    "rules": "show the resolved rule knobs of a preset or rules file",
    "play": "play one match and print what happened",
    "agents": "list the agents a lineup can name: how each reasons, its sources, parameters",
    "sweep": "run a sweep spec (TOML) and summarise it",
    "report": "summarise a sweep's results folder",
    "tournament": "round robin between pair strategies, with ratings",
    "metagame": "which mixture of strategies survives a tournament: Nash, α-Rank, replicator",
    "serve": "serve a live table in the browser, people with agents",
    "calibrate": "fit a person's human parameters to recorded live-table sessions",
}


class LazyCommands(argparse._SubParsersAction):
    """Sub-commands whose modules are imported, and their parsers built, only when the command is named.

    ``kemps-sim --version`` and ``kemps-sim --help`` then never import a command's dependencies (the sweep
    machinery brings pandas, pyarrow and SciPy), and each command pays only for its own. Until then a command
    has a bare placeholder parser carrying the help that ``kemps-sim --help`` lists.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending: set[str] = set()

    def add_lazy(self, name: str, summary: str) -> None:
        """List command ``name`` with its one-line ``summary``; :meth:`parser_for` imports its module later."""
        self.add_parser(name, help=summary)
        self._pending.add(name)

    def parser_for(self, name: str) -> argparse.ArgumentParser:
        """The full parser of command ``name``: its module's ``register`` run on first use, in place of the
        placeholder (the order of the commands is kept)."""
        if name in self._pending:
            scratch = argparse._SubParsersAction(option_strings=[], prog=self._prog_prefix,
                                                 parser_class=self._parser_class)
            importlib.import_module(f"{__name__}.{name}").register(scratch)
            self._name_parser_map.update(scratch._name_parser_map)
            self._pending.discard(name)
        return self._name_parser_map[name]

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        self.parser_for(values[0])
        super().__call__(parser, namespace, values, option_string)


def build_parser() -> OneLineParser:
    """The argument parser with every sub-command listed; a command's own arguments are added when it is named.

    It and every command's parser are a :class:`~kemps_sim.cli.script_args.OneLineParser`: a bad option value or a
    value not among an option's choices is one line naming the option, the value and what is allowed, exit 2."""
    parser = OneLineParser(
        prog="kemps-sim", description="Simulate the real-time card game Kemps and study its strategies.")
    parser.add_argument("--version", action="version", version=f"kemps-sim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, action=LazyCommands)
    for name, summary in COMMANDS.items():
        sub.add_lazy(name, summary)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args, extras = parser.parse_known_args(argv)
    if extras:
        refuse_extras(parser, args.command, extras, list(sys.argv[1:] if argv is None else argv))
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


def refuse_extras(parser: OneLineParser, command: str, extras: list[str], argv: list[str]) -> NoReturn:
    """Refuse arguments nothing took in one line (exit 2): under the command's name when they follow it
    (``kemps-sim agents watcher collector``: the command's parser took the rest), else under kemps-sim's own."""
    at = argv.index(command) if command in argv else len(argv)
    chosen: argparse.ArgumentParser = parser
    if not any(word in extras for word in argv[:at]):
        commands = next(action for action in parser._actions if isinstance(action, LazyCommands))
        chosen = commands.parser_for(command)
    (chosen if isinstance(chosen, OneLineParser) else parser).unrecognized(extras)


def one_problem_text(message: str) -> str:
    """A sweep spec's list of problems as one line when it lists only one (the problem's line names its field, so
    its section head is dropped); several stay one per line under their sections."""
    head, newline, rest = message.partition("\n")
    marker = ": 1 problem (nothing was run or written)"
    problems = [line.strip() for line in rest.splitlines() if line.startswith("    ")]
    if newline and head.endswith(marker) and len(problems) == 1:
        return f"{head[:-len(marker)]}: {problems[0]} (nothing was run or written)"
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
