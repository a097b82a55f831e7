"""What the repository's command lines share: a parser whose usage errors are one line and exit 2 (``kemps-sim``
and its sub-commands, and the scripts ``scripts/calibrate.py``, ``table_realism.py``, ``train_ppo.py``,
``evaluate_ppo.py``, ``ex_gaussian_coverage.py``), and whole-number arguments with a least value."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn

from kemps_sim.suggest import did_you_mean


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``PROG: error: ... (see --help)``) and exit 2, never the usage
    lines; a value that is not one of an option's choices is named with the option and the choices
    (``--game krepit: not one of the choices (did you mean krepet?); allowed: kemps, krepet, snap``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is None or value in action.choices:
            return
        choices = [str(choice) for choice in action.choices]
        raise argparse.ArgumentError(None, f"{option_name(action)} {value}: not one of the choices"
                                           f"{did_you_mean(value, choices)}; allowed: {', '.join(choices)}")

    def unrecognized(self, extras: list[str]) -> NoReturn:
        """Refuse the arguments nothing took (``kemps-sim agents watcher collector``: ``collector``) in one line
        under this parser's name, suggesting an option for a mistyped one."""
        options = [name for action in self._actions for name in action.option_strings if name.startswith("--")]
        hint = next((did_you_mean(word.partition("=")[0], options) for word in extras
                     if word.startswith("--") and did_you_mean(word.partition("=")[0], options)), "")
        self.error(f"unrecognized argument{'s' if len(extras) != 1 else ''}: {' '.join(extras)}{hint}")


def option_name(action: argparse.Action) -> str:
    """How an error names an argument: its long option (``--game``), else its first option, else its metavar or
    destination (``COMMAND``, ``FOLDER``)."""
    long = [name for name in action.option_strings if name.startswith("--")]
    if long or action.option_strings:
        return (long or action.option_strings)[0]
    metavar = action.metavar if isinstance(action.metavar, str) else None
    return metavar or str(action.dest).upper()


def whole_number(least: int) -> Callable[[str], int]:
    """An argument type: a whole number of at least ``least``, else a one-line error naming the text."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least:
            raise argparse.ArgumentTypeError(f"{text!r}: must be a whole number >= {least}")
        return value
    parse.__name__ = f"whole number >= {least}"
    return parse
