"""Timing tells: how long a player had sat still when it made a deliberate-looking gesture, in bins, so that a
pair's honesty can be kept per bin (:mod:`kemps_sim.belief.honesty`).

A fake signal is made to bait a wrong Stop Kemps while the faker is still playing: it comes right after the faker's
own swap, in the same run of movements (004's bluff, made with three of a kind). A holder who has made four of a
kind "stops swapping, sits stiller and looks at the partner; the signal comes a moment later" (004), and a pair
that keeps a fake protocol makes its real signals wait longer still. People learn such a tell from the calls they
hear: a pair whose gestures right after its swaps were shown to be fakes gets those discounted, while its gestures
after a stillness stay credible.

The stillness of a gesture is measured from the gesturer's own last touch of the middle (or from the start of play),
as every seat sees it: that a player's hand went to the middle is seen by everyone (its cards need a look;
:mod:`kemps_sim.belief.tracking`). A seat's own percept carries the moment the gesture was made. A call answered a
cue the seat may not have seen itself; the table only knows when the caller began to speak, so the cue is put
:data:`CUE_LEAD` before that.
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from kemps_sim.belief.tracking import TableReader
from kemps_sim.errors import ConfigError
from kemps_sim.pickling import by_fields
from kemps_sim.profiles import DEFAULT_PERCEPTION_LATENCY, DEFAULT_REACTION
from kemps_sim.trace import CallHeard

#: The edge (seconds of stillness) between a gesture "right after the player's own swap" and one "after a
#: stillness". A player who signals as soon as a swap made its four gestures after a choice reaction and the
#: gesture itself (0.35 s + 0.4 s ≈ 0.75 s with the default profile); 1.5 s, twice that, still reads as part of
#: the same run of movements, while a player who has sat still that long has visibly stopped (004: the holder
#: "sits stiller"; the fitted prior's first stillness bins end at 1 and 2 s). An estimate with that reason, not fitted.
TELL_EDGE = 1.5
#: Seconds from a gesture to the start of a call answering it, at the quickest: one perception latency and one
#: choice reaction of the default profile (0.25 s + 0.35 s). The table hears the call, not the cue, so a cue the
#: seat did not see itself is timed this long before the caller began to speak.
CUE_LEAD = DEFAULT_PERCEPTION_LATENCY.mean + DEFAULT_REACTION.mean


@dataclass(frozen=True)
class TimingTells:
    """The bins of stillness a pair's honesty is kept in: edges ``bounds`` (seconds, increasing; empty: one bin,
    no tell read) and ``cue_lead``, how long before a call's start the cue it answered is put."""

    bounds: tuple[float, ...] = (TELL_EDGE,)
    cue_lead: float = CUE_LEAD

    def __post_init__(self) -> None:
        bounds: tuple[object, ...] = self.bounds  # as given: the check below reads each edge as any value
        numbers = isinstance(bounds, tuple) and all(
            isinstance(b, int | float) and not isinstance(b, bool) and math.isfinite(b) and b > 0 for b in bounds)
        if not numbers or any(a >= b for a, b in itertools.pairwise(self.bounds)):
            raise ConfigError(f"tells.bounds = {bounds!r}: must be a tuple of increasing numbers of seconds > 0 "
                              "(empty: no tell read)")
        lead: object = self.cue_lead
        if isinstance(lead, bool) or not isinstance(lead, int | float) or not (math.isfinite(lead) and lead >= 0):
            raise ConfigError(f"tells.cue_lead = {lead!r}: must be a number of seconds >= 0")

    @property
    def bins(self) -> int:
        """How many bins the honesty is kept in."""
        return len(self.bounds) + 1

    def bin(self, stillness: float | None) -> int | None:
        """The bin of a gesture made after ``stillness`` seconds (None: unknown)."""
        if not self.bounds:
            return 0
        return None if stillness is None else bisect_right(self.bounds, stillness)

    def gesture_bin(self, reader: TableReader, gesturer: int, made_at: float, round_index: int) -> int | None:
        """The bin of a gesture ``gesturer`` made at ``made_at`` in round ``round_index`` (None: not known)."""
        if not self.bounds:
            return 0
        return self.bin(reader.stillness_at(gesturer, made_at, round_index))

    def cue_bin(self, reader: TableReader, call: CallHeard, gesturer: int, round_index: int) -> int | None:
        """The bin of the cue a call answered, put :attr:`cue_lead` before the caller began to speak (a cue made
        before the gesturer's last swap would leave it unknown)."""
        if not self.bounds:
            return 0
        return self.bin(reader.stillness_at(gesturer, call.started - self.cue_lead, round_index))

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied through __init__ (kemps_sim.pickling)


#: No tell read: one bin, every gesture of a pair weighed alike.
NO_TELLS = TimingTells(bounds=())
