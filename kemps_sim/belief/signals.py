"""Which gesture each pair signals with, learned from the calls the table hears.

Every call is public and carries its cue (the gesture the caller last noticed from the player the call is about),
and a call that ends the round shows hands. So (004: "once the other pair has seen a signal called, they know
it"):

- a Kemps or Double Kemps by a player of pair p, right or wrong, shows p's signal: the caller answered it (a wrong
  Kemps answered a fidget or a fake *of the signal*);
- a right Stop Kemps against pair p shows p's signal, strongly if the revealed hands show that the accused itself
  held four of a kind, weakly if only its partner did (under ``accused_pair``);
- a wrong Stop Kemps says its cue was probably not p's signal.

Beliefs are pseudo-counts over the allowed gestures, so a pair's signal share is count / total. They start at
:data:`NATURAL_PRIOR` (1) for each gesture of the natural pool (:func:`kemps_sim.conventions.natural_among`: made by
accident often enough to hide a signal, not so often as to drown it) and :data:`ODD_PRIOR` (0.25) for each other
allowed gesture: people expect a pair to choose a small, natural signal (004: "a good signal is small, natural and
easy to repeat"), yet an odd one (a cough, a yawn, a blink) is possible. The 0.25 is an estimate: an odd gesture
is a quarter as likely a choice as a natural one. Pairs may change signals between rounds, so older evidence
fades: each new cue first multiplies the pair's counts by ``forget``. The seat's own pair's signal is known, not
learned.
"""

from __future__ import annotations

from kemps_sim.belief.tracking import TableReader
from kemps_sim.cards import is_four_of_a_kind
from kemps_sim.conventions import natural_among
from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE, Repertoire
from kemps_sim.seating import NOBODY, pair_of, partner

#: Prior pseudo-count of a gesture of the natural pool being a pair's signal (module doc).
NATURAL_PRIOR = 1.0
#: Prior pseudo-count of any other allowed gesture (module doc): possible, but not what people expect. Estimate.
ODD_PRIOR = 0.25


def prior_counts(allowed: tuple[str, ...], repertoire: Repertoire = DEFAULT_REPERTOIRE,
                 odd_prior: float = ODD_PRIOR, pairs: int = 1) -> dict[str, float]:
    """The starting pseudo-counts over a pair's possible signals: :data:`NATURAL_PRIOR` for the natural ones (the
    seen ones only when there are at least ``pairs`` of them, as pairs choose: :mod:`kemps_sim.conventions`),
    ``odd_prior`` for the rest (if none is natural, every allowed gesture gets :data:`NATURAL_PRIOR`). An
    ``odd_prior`` of 1 switches the preference off: every allowed gesture alike, as before pairs chose."""
    natural = set(natural_among(repertoire, allowed))
    seen = {g for g in natural if g in repertoire and not repertoire[g].heard}
    if len(seen) >= pairs:
        natural = seen
    if not natural:
        return dict.fromkeys(allowed, NATURAL_PRIOR)
    return {g: NATURAL_PRIOR if g in natural else odd_prior for g in allowed}


class SignalKnowledge:
    """Pseudo-counts over each pair's possible signals, updated from every call heard (see the module doc)."""

    def __init__(self, pairs: int, own_pair: int, learn: float = 20.0, forget: float = 0.25,
                 odd_prior: float = ODD_PRIOR) -> None:
        if isinstance(odd_prior, bool) or not isinstance(odd_prior, int | float) or not 0 < odd_prior <= 1:
            raise ConfigError(f"odd_prior = {odd_prior!r}: must be a pseudo-count > 0 and <= 1 (1: no preference)")
        self.pairs = pairs
        self.odd_prior = odd_prior
        self.own_pair = own_pair
        self.learn = learn
        self.forget = forget
        self.counts: list[dict[str, float]] = [{} for _ in range(pairs)]
        self.read = 0
        self.version = 0  # changes whenever a share may have changed

    def update(self, reader: TableReader, allowed: tuple[str, ...],
               repertoire: Repertoire = DEFAULT_REPERTOIRE) -> bool:
        """Take in the calls heard since the last update; True if anything was learned. The first update sets the
        prior (:func:`prior_counts`) over ``allowed`` from ``repertoire``'s natural rates."""
        if not self.counts[0]:
            prior = prior_counts(allowed, repertoire, self.odd_prior, self.pairs)
            for counts in self.counts:
                counts.update(prior)
            self.version += 1
        calls = reader.calls
        if len(calls) == self.read:
            return False
        players = 2 * self.pairs
        for heard in calls[self.read:]:
            call, cue = heard.call, heard.call.cue
            if not cue:
                continue
            if call.accused == NOBODY:  # Kemps or Double Kemps: about the caller's own pair
                self._learn(pair_of(players, call.seat), cue, self.learn)
                continue
            pair = pair_of(players, call.accused)
            if not call.right:
                self._doubt(pair, cue)
                continue
            held = heard.revealed.get(call.accused)
            if held is not None and is_four_of_a_kind(held):
                self._learn(pair, cue, self.learn)
            elif held is None and partner(players, call.accused) not in heard.revealed:
                self._learn(pair, cue, self.learn / 2)  # nothing shown (play went on): right, about whom unknown
            else:
                self._learn(pair, cue, self.learn / 4)  # only the partner held it: the cue may be a fidget
        self.read = len(calls)
        self.version += 1
        return True

    def _learn(self, pair: int, gesture: str, weight: float) -> None:
        if pair == self.own_pair:
            return
        counts = self.counts[pair]
        for name in counts:
            counts[name] *= self.forget
        counts[gesture] = counts.get(gesture, 0.0) + weight

    def _doubt(self, pair: int, gesture: str) -> None:
        counts = self.counts[pair]
        if pair != self.own_pair and gesture in counts:
            counts[gesture] *= 0.5

    def share(self, pair: int, gesture: str) -> float:
        """The believed probability that ``gesture`` is the pair's signal."""
        counts = self.counts[pair]
        total = sum(counts.values())
        return counts.get(gesture, 0.0) / total if total > 0 else 0.0

    def shares(self, pair: int) -> dict[str, float]:
        """Every gesture's share for the pair, in name order."""
        counts = self.counts[pair]
        total = sum(counts.values())
        return {g: counts[g] / total for g in sorted(counts)} if total > 0 else {}

    def known(self, pair: int) -> str:
        """The pair's most likely signal ("" before any gesture is known)."""
        counts = self.counts[pair]
        return max(sorted(counts), key=lambda g: counts[g]) if counts else ""
