"""The prior that a player holds four of a kind now, from play alone: what the public log shows of its hand, how
long it has sat still, how long the round has run, the table size and the swap rule.

Two parts are logic, not statistics. A card a player took and has not put back is in its hand (swaps are public),
so a player known to hold cards of two ranks cannot hold four of a kind, one known to hold four cards of one rank
does, and one still owed its picks (``multi_drop_first``) holds fewer than four cards. And if fewer cards of the
rank it collects are unaccounted for (not in the reading seat's own hand, the middle, the discard pile or another
player's known cards) than it still needs, it cannot have them.

Everything else is a table fitted to simulated play by ``scripts/fit_belief.py`` (in
:mod:`kemps_sim.belief.fitted`, see :mod:`kemps_sim.calibration.belief`):

    logit P(holds four) = table[players][k][still][elapsed]

with ``k`` the number of known cards of its one rank (0-3), ``still`` the bin of seconds since its last touch of
the middle (a holder stops swapping, 004) and ``elapsed`` the bin of seconds since play opened; one table per
swap rule, since the rule changes how fours are made and how still their holders sit. A player taking
every nine is two nines from a signal (004, 001): the model says how far.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from typing import Any

from kemps_sim.belief import fitted
from kemps_sim.belief.tracking import MIXED, TableReader
from kemps_sim.cards import HAND_SIZE
from kemps_sim.rules import Rules

#: Upper bounds of the stillness bins (seconds since the player's last touch of the middle).
STILL_BOUNDS: tuple[float, ...] = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
#: Upper bounds of the bins of seconds since play opened.
ELAPSED_BOUNDS: tuple[float, ...] = (10.0, 20.0, 40.0, 80.0, 160.0)
#: Log-odds standing for "impossible" and "certain" (finite, so that sums stay numbers).
IMPOSSIBLE, CERTAIN = -60.0, 60.0
#: ``k`` values of the fitted table: known cards of the player's one rank, 0 to 3 (4 is certain).
KNOWN_LEVELS = 4


def still_bin(seconds: float) -> int:
    return bisect_right(STILL_BOUNDS, seconds)


def elapsed_bin(seconds: float) -> int:
    return bisect_right(ELAPSED_BOUNDS, seconds)


def known_cards(reader: TableReader, seat: int, own_hand: Sequence[int], middle: Sequence[int],
                copies: int) -> int:
    """The fitted model's ``k`` for ``seat`` as the reading seat sees it, or -1 if four of a kind is impossible and
    ``HAND_SIZE`` if it is certain."""
    if reader.owed[seat] > 0:
        return -1
    rank, k = reader.known_held(seat)
    if rank == MIXED:
        return -1
    if k >= HAND_SIZE:
        return HAND_SIZE
    if rank >= 0 and reader.unseen(rank, seat, own_hand, middle, copies) < HAND_SIZE - k:
        return -1
    return k


class HoldPrior:
    """Log-odds that a player holds four of a kind now, from the fitted model (see the module doc)."""

    def __init__(self, rules: Rules, coefficients: Mapping[str, Any] | None = None) -> None:
        """The model of the rules' swap rule, from ``coefficients`` (by swap rule; default the fitted ones)."""
        tables = (fitted.PRIOR if coefficients is None else coefficients)[rules.swap]
        size = str(rules.players) if str(rules.players) in tables else max(tables, key=int)
        self.table: list[list[list[float]]] = [[list(row) for row in block] for block in tables[size]]
        self.copies = 4 * rules.decks

    def log_odds(self, reader: TableReader, seat: int, now: float, own_hand: Sequence[int],
                 middle: Sequence[int]) -> float:
        """Log-odds that ``seat`` holds four of a kind at ``now``, as the reader's seat sees the table."""
        k = known_cards(reader, seat, own_hand, middle, self.copies)
        if k < 0:
            return IMPOSSIBLE
        if k >= HAND_SIZE:
            return CERTAIN
        return self.table[k][still_bin(now - reader.still_since(seat))][elapsed_bin(now - reader.started_at)]


def probability(log_odds: float) -> float:
    """The probability of a log-odds value (0 and 1 at the impossible and certain ends)."""
    if log_odds <= IMPOSSIBLE:
        return 0.0
    if log_odds >= CERTAIN:
        return 1.0
    return 1.0 / (1.0 + math.exp(-log_odds))
