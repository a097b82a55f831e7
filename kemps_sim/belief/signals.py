"""Which gesture each pair signals with, learned from the calls the table hears.

Every call is public and carries its cue (the gesture the caller last noticed from the player the call is about),
and a call that ends the round shows hands. So (004: "once the other pair has seen a signal called, they know
it"):

- a Kemps or Double Kemps by a player of pair p, right or wrong, shows p's signal: the caller answered it (a wrong
  Kemps answered a fidget or a fake *of the signal*);
- a right Stop Kemps against pair p shows p's signal, strongly if the revealed hands show that the accused itself
  held four of a kind, weakly if only its partner did (under ``accused_pair``);
- a wrong Stop Kemps says its cue was probably not p's signal.

Beliefs are pseudo-counts over the allowed gestures (1 each to start: no gesture is favoured before anything is
seen), so a pair's signal share is count / total. Pairs may change signals between rounds, so older evidence
fades: each new cue first multiplies the pair's counts by ``forget``. The seat's own pair's signal is known, not
learned.
"""

from __future__ import annotations

from kemps_sim.belief.tracking import TableReader
from kemps_sim.cards import is_four_of_a_kind
from kemps_sim.seating import NOBODY, pair_of, partner


class SignalKnowledge:
    """Pseudo-counts over each pair's possible signals, updated from every call heard (see the module doc)."""

    def __init__(self, pairs: int, own_pair: int, learn: float = 20.0, forget: float = 0.25) -> None:
        self.pairs = pairs
        self.own_pair = own_pair
        self.learn = learn
        self.forget = forget
        self.counts: list[dict[str, float]] = [{} for _ in range(pairs)]
        self.read = 0
        self.version = 0  # changes whenever a share may have changed

    def update(self, reader: TableReader, allowed: tuple[str, ...]) -> bool:
        """Take in the calls heard since the last update; True if anything was learned."""
        if not self.counts[0]:
            for counts in self.counts:
                counts.update(dict.fromkeys(allowed, 1.0))
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
