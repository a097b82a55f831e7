"""What the repository's scripts share on their command lines: a parser whose usage errors are one line and exit
2, and whole-number arguments with a least value (``scripts/calibrate.py``, ``table_realism.py``,
``train_ppo.py``, ``evaluate_ppo.py``, ``ex_gaussian_coverage.py``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``PROG: error: ... (see --help)``) and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


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
