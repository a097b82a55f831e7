"""What the ``play`` and ``rules`` commands of every game share (the bodies a :class:`~kemps_sim.games.Game`
record's ``play_cli`` and ``rules_cli`` point at): knob overrides read from ``--set``, a knob's value as text, and
the seed of a match played from the command line. Here, below the command line and every game, so that a game's
package (built in or third-party) uses them without importing :mod:`kemps_sim.cli`."""

from __future__ import annotations

import argparse
import secrets
import sys
import tomllib
from typing import Any

from kemps_sim.errors import ConfigError


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """``KNOB=VALUE`` strings to a mapping; values are read as TOML, else taken as plain strings."""
    out: dict[str, Any] = {}
    for item in items:
        knob, sep, raw = item.partition("=")
        if not sep or not knob.strip():
            raise ConfigError(f"--set {item!r}: must be KNOB=VALUE, e.g. --set double_kemps=true")
        try:
            value = tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw
        out[knob.strip()] = value
    return out


def value_text(value: Any) -> str:
    """A knob's value as the table prints it: - for none, on/off, a list joined by /."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return " / ".join(map(str, value))
    return str(value)


def match_seed(args: argparse.Namespace) -> int:
    """The ``--seed``, or, when none is given, a new one drawn at random (so every run plays a new match), which
    :func:`say_seed` then prints."""
    if args.seed is None:
        args.seed = secrets.randbits(32)  # only the choice of seed; the match itself is a function of it
        args.seed_drawn = True
    return args.seed


def say_seed(args: argparse.Namespace) -> None:
    """Print a drawn seed, so the match can be played again (on stderr under ``--json``); called once the match
    has been played, so that a refused option prints its one line and nothing else."""
    if getattr(args, "seed_drawn", False):
        print(f"seed {args.seed} (drawn at random; --seed {args.seed} plays this match again)",
              file=sys.stderr if args.json else sys.stdout)
