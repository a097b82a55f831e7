"""How far to trust each pair's deliberate-looking gestures: a Beta belief per pair over "a deliberate-looking
gesture of this pair is a fake" (004, 000: a fake signal made with three of a kind to bait a wrong Stop Kemps).

The belief is updated whenever the table learns whether a player held four of a kind at some moment: a call
shows it (a right or wrong Kemps says whether the caller's partner held four; a Stop Kemps says it of the accused,
or of the accused pair; hands shown at the end of a round say it seat by seat). Two kinds of evidence count:

- **the seat's own eyes**: the most deliberate-looking percept this seat had of that player's signal in the
  ``window`` seconds before the call; if the player held four of a kind it was a real signal, if not a fake, each
  weighed by the probability that the percept was a deliberate gesture at all (a fidget proves nothing);
- **the cue the table saw**: a call by someone else answered a gesture (its cue); a wrong call whose cue is
  probably the pair's signal is weaker evidence of a fake (the caller may have misread a fidget), a right one of a
  real signal; each weighed by ``public_weight`` and by how likely the cue is the pair's signal;
- **a gesture followed by a swap** (another pair's): a player who has just made four of a kind stops swapping
  (004), so a deliberate-looking gesture after which the player swapped again, with no call between, counts
  ``swap_weight`` of a fake (a holder who keeps swapping to hide, ``camouflage``, pays for it in credibility).

``prior_fakes`` and ``prior_real`` are the pseudo-counts before anything is seen (most pairs never fake: the
default mean is 1/10, worth one gesture seen, so that being burnt once already counts). The seat's own pair starts
trusted (``own_prior_fakes``): a partner who is not told of a bluffing protocol believes its partner until calls
about the partner (its own wrong Kemps above all) show otherwise. A call about the seat itself teaches it nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kemps_sim.belief.tracking import HeardCall, TableReader
from kemps_sim.cards import is_four_of_a_kind
from kemps_sim.perception import Percept
from kemps_sim.seating import NOBODY, pair_of, partner

#: Seconds before a call in which the seat's own percepts of the player count as what the call answered.
WINDOW = 8.0


class Honesty:
    """A Beta(fakes, real) belief per pair, updated from the calls heard (see the module doc)."""

    def __init__(self, pairs: int, own_pair: int, by_pair: bool, prior_fakes: float = 0.1, prior_real: float = 0.9,
                 own_prior_fakes: float = 0.05, public_weight: float = 0.5, swap_weight: float = 1.0,
                 window: float = WINDOW) -> None:
        self.pairs = pairs
        self.own_pair = own_pair
        self.by_pair = by_pair  # stop_kemps_reveals = accused_pair: a wrong Stop Kemps clears both of the pair
        self.fakes = [own_prior_fakes if p == own_pair else prior_fakes for p in range(pairs)]
        self.real = [prior_real] * pairs
        self.public_weight = public_weight
        self.swap_weight = swap_weight
        self.window = window
        self.read = 0
        self._percepts: dict[int, Sequence[Percept]] = {}  # round index -> that round's percept view

    def fake_odds(self, pair: int) -> float:
        """Believed odds that a deliberate-looking gesture of the pair is a fake rather than a real signal."""
        return self.fakes[pair] / self.real[pair]

    def fake_share(self, pair: int) -> float:
        """The believed probability that a deliberate-looking gesture of the pair is a fake."""
        return self.fakes[pair] / (self.fakes[pair] + self.real[pair])

    def swapped_after(self, pair: int, weight: float) -> None:
        """A player of ``pair`` swapped after a gesture that was deliberate with probability ``weight``, with no call
        between: holders stop swapping (004), so count it as ``swap_weight`` of a fake."""
        self.fakes[pair] += self.swap_weight * weight

    def remember(self, round_index: int, percepts: Sequence[Percept]) -> None:
        """Keep the round's percept view so that calls read later (at the next round) still find it."""
        if round_index not in self._percepts:
            self._percepts = {r: v for r, v in self._percepts.items() if r >= round_index - 1}
            self._percepts[round_index] = percepts

    def update(self, reader: TableReader, me: int, deliberate: Callable[[Percept, int], float]) -> bool:
        """Take in the calls heard since the last update; ``deliberate(percept, round)`` is the probability that a
        percept of that round was a deliberate gesture of its gesturer's pair's signal. True if anything changed."""
        calls = reader.calls
        if len(calls) == self.read:
            return False
        for heard in calls[self.read:]:
            self._learn(heard, reader.players, me, deliberate)
        self.read = len(calls)
        return True

    def _learn(self, heard: HeardCall, players: int, me: int,
               deliberate: Callable[[Percept, int], float]) -> None:
        call = heard.call
        about = partner(players, call.seat) if call.accused == NOBODY else call.accused
        percepts = self._percepts.get(heard.round, ())
        for seat, held in truths(heard, players, self.by_pair).items():
            if seat == me:  # the seat knows its own hand: a call about it teaches nothing of its pair's honesty
                continue
            weight = max((deliberate(p, heard.round) for p in percepts
                          if p.gesturer == seat and call.time - self.window <= p.time <= call.time), default=0.0)
            if call.seat != me and seat == about and call.cue:
                weight = max(weight, self.public_weight * deliberate(
                    Percept(seat, call.cue, 0.0, 0.0, "heard", call.time), heard.round))
            if weight > 0.0:
                if held:
                    self.real[pair_of(players, seat)] += weight
                else:
                    self.fakes[pair_of(players, seat)] += weight


def truths(heard: HeardCall, players: int, by_pair: bool) -> dict[int, bool]:
    """What the call showed: whether each seat it settles held four of a kind at the moment of the call (a wrong
    Double Kemps settles no seat unless hands are shown)."""
    call, revealed = heard.call, heard.revealed
    truths = {seat: is_four_of_a_kind(hand) for seat, hand in revealed.items()}
    if call.accused == NOBODY:
        if call.call == "kemps" or call.right:
            truths.setdefault(partner(players, call.seat), call.right)
        return truths
    accused, mate = call.accused, partner(players, call.accused)
    if not call.right:  # nobody accused held it (an ineffective Stop against a Double reads as wrong in play)
        truths.setdefault(accused, False)
        if by_pair:
            truths.setdefault(mate, False)
    elif not by_pair:
        truths.setdefault(accused, True)
    return truths
