"""Seating arithmetic, said once: partners sit across the table, seat ``s`` plays in pair ``s % pairs``.

With ``n`` players in ``n // 2`` pairs, the partner of seat ``s`` is ``(s + n // 2) % n``, pair ``p`` is seats
``p`` and ``p + n // 2``, and a seat's opponents are every seat of another pair.
"""

from __future__ import annotations

#: The seat value of "no seat": the accused of a Kemps, the audience of a public reveal, the winner of no race.
NOBODY = -1


def partner(players: int, seat: int) -> int:
    """The seat across the table from ``seat``."""
    return (seat + players // 2) % players


def pair_of(players: int, seat: int) -> int:
    """The pair that ``seat`` plays in."""
    return seat % (players // 2)


def pair_seats(players: int, pair: int) -> tuple[int, int]:
    """The two seats of ``pair``, lower first."""
    return pair, pair + players // 2


def opponents(players: int, seat: int) -> tuple[int, ...]:
    """Every seat of another pair than ``seat``'s, in seat order."""
    own = seat % (players // 2)
    return tuple(s for s in range(players) if s % (players // 2) != own)
