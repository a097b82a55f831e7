"""How far to trust each pair's deliberate-looking gestures: a Beta belief per pair over "a deliberate-looking
gesture of this pair is a fake" (004, 000: a fake signal made with three of a kind to bait a wrong Stop Kemps).

The belief is updated whenever the table learns whether a player held four of a kind at some moment: a call
shows it (a right or wrong Kemps says whether the caller's partner held four; a Stop Kemps says it of the accused,
or of the accused pair; hands shown at the end of a round say it seat by seat). Two kinds of evidence count:

- **the seat's own eyes**: the most deliberate-looking percept this seat had of that player's signal in the
  ``window`` seconds before the call; if the player held four of a kind it was a real signal, if not a fake, each
  weighed by the probability that the percept was a deliberate gesture at all (a fidget proves nothing);
- **the cue the table saw**: a call by someone else answered a gesture (its cue); a wrong call whose cue is
  probably the pair's signal is evidence of a fake, a right one of a real signal, each weighed by how likely the
  cue is the pair's signal and by whose call it was. The seat's own partner counts in full (``partner_weight``):
  partners compare notes between rounds, as they do when they agree a signal (004), so the partner's look is as
  good as the seat's own, and its burn is the pair's letter. A player of another pair counts ``public_weight``:
  the seat cannot ask what it saw, and its percept may have been a misread (a look-alike, a slip) that the seat's
  own view of the gesture would have weighed;
- **a gesture followed by a swap** (another pair's): a player who has just made four of a kind stops swapping
  (004), so a deliberate-looking gesture after which the player swapped again, with no call between, counts
  ``swap_weight`` of a fake (a holder who keeps swapping to hide, ``camouflage``, pays for it in credibility).

``prior_fakes`` and ``prior_real`` are the pseudo-counts before anything is seen (most pairs never fake: the
default mean is 1/10, worth one gesture seen, so that being burnt once already counts: one burn takes the fake odds
from 1/9 to 1.1/0.9, and a single unmistakable signal is then believed at most 1/(1 + 1.22) ≈ 0.45, under what a
Stop Kemps needs; 004: a fake "works once, perhaps twice"). The seat's own pair starts trusted
(``own_prior_fakes``): a partner who is not told of a bluffing protocol believes its partner until calls about the
partner (its own wrong Kemps above all) show otherwise. A call about the seat itself teaches it nothing.

**Timing tells** (:mod:`kemps_sim.belief.tells`): the same Beta belief is kept per bin of the gesturer's stillness
(by default: within 1.5 s of its own swap, or later), each bin starting from the prior, and every piece of evidence
goes to the bin of the gesture it is about (the seat's percept, the table's cue timed from the call, the gesture a
swap followed). A pair that fakes right after its swaps soon has its early gestures discounted while its later ones
stay credible, and its real signals no longer buy credit for its fakes (the belief reads the bins for the other
pairs; its own partner, trusted, is weighed over all bins: :meth:`kemps_sim.belief.Belief.tell`).
``tells=NO_TELLS`` keeps one bin: every gesture of a pair weighed alike. :attr:`Honesty.fakes` and
:attr:`Honesty.real` are the counts over all bins (the one-bin belief) either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kemps_sim.belief.tells import TimingTells
from kemps_sim.belief.tracking import HeardCall, TableReader
from kemps_sim.cards import is_four_of_a_kind
from kemps_sim.perception import Percept
from kemps_sim.seating import NOBODY, pair_of, partner

#: Seconds before a call in which the seat's own percepts of the player count as what the call answered.
WINDOW = 8.0


class Honesty:
    """A Beta(fakes, real) belief per pair and timing bin, updated from the calls heard (see the module doc)."""

    def __init__(self, pairs: int, own_pair: int, by_pair: bool, prior_fakes: float = 0.1, prior_real: float = 0.9,
                 own_prior_fakes: float = 0.05, public_weight: float = 0.5, swap_weight: float = 1.0,
                 window: float = WINDOW, tells: TimingTells | None = None, partner_weight: float = 1.0) -> None:
        self.pairs = pairs
        self.own_pair = own_pair
        self.by_pair = by_pair  # stop_kemps_reveals = accused_pair: a wrong Stop Kemps clears both of the pair
        self.tells = TimingTells() if tells is None else tells
        bins = self.tells.bins
        self.fakes = [own_prior_fakes if p == own_pair else prior_fakes for p in range(pairs)]  # over all bins
        self.real = [prior_real] * pairs
        #: per pair, per bin of stillness (:mod:`kemps_sim.belief.tells`), each from the prior
        self.fakes_by = [[f] * bins for f in self.fakes]
        self.real_by = [[prior_real] * bins for _ in range(pairs)]
        self.public_weight = public_weight
        self.partner_weight = partner_weight
        self.swap_weight = swap_weight
        self.window = window
        self.read = 0
        self._percepts: dict[int, Sequence[Percept]] = {}  # round index -> that round's percept view

    def fake_odds(self, pair: int, bin_: int | None = None) -> float:
        """Believed odds that a deliberate-looking gesture of the pair is a fake rather than a real signal: of a
        gesture in timing bin ``bin_``, or (None) of any gesture, over all bins."""
        if bin_ is None:
            return self.fakes[pair] / self.real[pair]
        return self.fakes_by[pair][bin_] / self.real_by[pair][bin_]

    def fake_share(self, pair: int, bin_: int | None = None) -> float:
        """The believed probability that a deliberate-looking gesture of the pair (in ``bin_``) is a fake."""
        odds = self.fake_odds(pair, bin_)
        return odds / (1.0 + odds)

    def swapped_after(self, pair: int, weight: float, bin_: int | None = None) -> None:
        """A player of ``pair`` swapped after a gesture (in timing bin ``bin_``) that was deliberate with probability
        ``weight``, with no call between: holders stop swapping (004), so count it as ``swap_weight`` of a fake."""
        self._add(pair, False, self.swap_weight * weight, bin_)

    def _add(self, pair: int, held: bool, weight: float, bin_: int | None) -> None:
        """Count ``weight`` of a real signal (``held``) or of a fake in ``bin_`` (None: timing unknown, every bin)."""
        total, by = (self.real, self.real_by) if held else (self.fakes, self.fakes_by)
        total[pair] += weight
        counts = by[pair]
        for b in range(len(counts)) if bin_ is None else (bin_,):
            counts[b] += weight

    def remember(self, round_index: int, percepts: Sequence[Percept]) -> None:
        """Keep the round's percept view so that calls read later (at the next round) still find it."""
        if round_index not in self._percepts:
            self._percepts = {r: v for r, v in self._percepts.items() if r >= round_index - 1}
            self._percepts[round_index] = percepts

    def update(self, reader: TableReader, me: int, deliberate: Callable[[Percept, int], float]) -> bool:
        """Take in the calls heard since the last update; ``deliberate(percept, round)`` is the probability that a
        percept of that round was a deliberate gesture of its gesturer's pair's signal. True if anything changed.
        ``reader`` times the gestures the calls answered (:meth:`TableReader.stillness_at`)."""
        calls = reader.calls
        if len(calls) == self.read:
            return False
        for heard in calls[self.read:]:
            self._learn(heard, reader, me, deliberate)
        self.read = len(calls)
        return True

    def _learn(self, heard: HeardCall, reader: TableReader, me: int,
               deliberate: Callable[[Percept, int], float]) -> None:
        call, players, tells = heard.call, reader.players, self.tells
        about = partner(players, call.seat) if call.accused == NOBODY else call.accused
        percepts = self._percepts.get(heard.round, ())
        for seat, held in truths(heard, players, self.by_pair).items():
            if seat == me:  # the seat knows its own hand: a call about it teaches nothing of its pair's honesty
                continue
            # the most deliberate-looking of the seat's own percepts of that player before the call (the latest of
            # equals), and the bin of its timing
            weight, made_at = 0.0, None
            for p in percepts:
                if p.gesturer == seat and call.time - self.window <= p.time <= call.time:
                    w = deliberate(p, heard.round)
                    if w > 0.0 and w >= weight:
                        weight, made_at = w, p.time
            bin_ = None if made_at is None else tells.gesture_bin(reader, seat, made_at, heard.round)
            if call.seat != me and seat == about and call.cue:
                trust = self.partner_weight if call.seat == partner(players, me) else self.public_weight
                public = trust * deliberate(
                    Percept(seat, call.cue, 0.0, 0.0, "heard", call.time), heard.round)
                if public > weight:
                    weight, bin_ = public, tells.cue_bin(reader, call, seat, heard.round)
            if weight > 0.0:
                self._add(pair_of(players, seat), held, weight, bin_)


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
