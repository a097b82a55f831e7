"""The seed of a match played from the command line: the one given, or a new one drawn at random and printed."""

from __future__ import annotations

import argparse
import secrets
import sys


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
