"""The calling part of every built-in that reasons: the shared belief (:mod:`kemps_sim.belief`) and calls as
decisions.

Each decision the part brings the seat's :class:`~kemps_sim.belief.Belief` up to date (the public log, the seat's
percepts, what the calls of earlier rounds taught it about every pair's signal and honesty) and asks its
:class:`~kemps_sim.belief.Caller` whether a Kemps, a Double Kemps or (with ``stop``) a Stop Kemps is worth more now
than waiting, under the payoffs of the rules in force. A seat whose pair keeps a fake protocol (``knows_fakes``)
sets the partner's fakes aside (:mod:`agents.fakes`).

What the seat watches follows from the belief and a limit: its own pair's signal, and at most ``watch_span``
other gestures (ties broken by the seat's own hunches: an order of the gestures drawn once per match), those
that promise the most evidence about the other pairs: the
believed share of being a pair's signal, times the signal-to-fidget rate ratio, times the seat's own chance of
noticing it. Nobody keeps every kind of gesture of every opponent in mind: working memory holds about four
chunks (Cowan 2001), and the game itself takes two of them (the rank the seat is collecting and its own pair's
signal), so the default span is two. Before anything is known the span goes to the rarest
gestures (a cough, a yawn: "anything you would never do otherwise is spotted the first time", 004); once a pair's
signal has been seen called it takes its place. A blink, twenty a minute, is never worth a place unless a pair is
believed to use it.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
from kemps_sim_agents.fakes import is_fake

from kemps_sim.belief import Belief, Caller, TableReader
from kemps_sim.belief.decision import SHY
from kemps_sim.compile_hints import mypyc_attr
from kemps_sim.errors import ConfigError
from kemps_sim.intents import Intent
from kemps_sim.observation import Observation
from kemps_sim.perception import Percept
from kemps_sim.seating import partner

#: Working memory holds about four chunks (Cowan 2001), two of them taken by the game (the rank being collected and
#: the pair's own signal): the default number of gestures watched in the other pairs.
WATCH_SPAN = 2
#: Two worths this close (apart from equal ones) may round alike to 9 decimals (within 1e-9 of each other, and a
#: margin for the subtraction's rounding): then the ranking rounds them all (:func:`ranked_by_worth`).
NEAR_TIE = 2e-9
#: A percept wakes a waiting seat if it could multiply the odds that its gesturer holds four by at least this.
WAKE_RATIO = 2.0


def check_caution(owner: str, caution: object) -> None:
    if isinstance(caution, bool) or not isinstance(caution, int | float) or not caution > 0:
        raise ConfigError(f"{owner}.caution = {caution!r}: must be a number > 0 (1 weighs a wrong call's cost as "
                          "much as a right call's gain; above 1 is cautious, below 1 eager)")


def check_shy(owner: str, shy: object) -> None:
    if isinstance(shy, bool) or not isinstance(shy, int | float) or not 0.0 <= shy <= 1.0:
        raise ConfigError(f"{owner}.shy = {shy!r}: must be a share from 0 (a wrong call changes nothing) to 1 (one "
                          "wrong Stop Kemps on a pair brings the caution about its kind of gesture to the loss "
                          "aversion of a choice at leisure)")


def check_threshold(owner: str, threshold: object) -> None:
    if threshold is None:
        return
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0.0 < threshold < 1.0:
        raise ConfigError(f"{owner}.threshold = {threshold!r}: must be None (from the payoffs) or a probability "
                          "strictly between 0 and 1")


def ranked_by_worth(worth: dict[str, float], order: dict[str, float], chosen: set[str]) -> list[str]:
    """The gestures worth watching (``worth`` above 0, not ``chosen`` already), the most worth first; worths equal
    to 9 decimals (float noise) go by the seat's hunches (``order``), then by name.

    Rounding a worth is slow and seldom matters: the gestures are sorted by their worths as they are, and rounded
    only if two neighbours lie within :data:`NEAR_TIE` without being equal. Values that round apart keep their order
    (rounding never reverses two), and two that round alike lie within 1e-9 of each other, so the order is the
    rounded one either way.
    """
    ranked = sorted((-value, order.get(g, 1.0), g) for g, value in worth.items() if value > 0.0 and g not in chosen)
    for i in range(1, len(ranked)):
        if 0.0 < ranked[i][0] - ranked[i - 1][0] <= NEAR_TIE:
            ranked = sorted((-round(-w, 9), hunch, g) for w, hunch, g in ranked)
            break
    return [g for _, _, g in ranked]


class CallingPart(Protocol):
    """What the decision loop asks of a calling part (:class:`Calling`, or a baseline such as ``naive``'s)."""

    def call(self, obs: Observation, reader: TableReader, holding_four: bool) -> Intent | None: ...

    def wakes_on(self, percept: Percept, obs: Observation) -> bool: ...

    def watches(self, obs: Observation) -> frozenset[str]: ...


@mypyc_attr(allow_interpreted_subclasses=True)  # a part a researcher may vary by deriving from it
class Calling:
    """Kemps, Double Kemps and Stop Kemps from the shared belief, decided by expected score."""

    def __init__(self, seat: int, players: int, reader: TableReader, rng: np.random.Generator, caution: float,
                 threshold: float | None, stop: bool, knows_fakes: bool, watch_span: int = WATCH_SPAN,
                 hunches: bool = False, reads_tells: bool = True, shy: float = SHY) -> None:
        mate = partner(players, seat)
        ignore = (lambda p: p.gesturer == mate and is_fake(reader, mate, p.time)) if knows_fakes else None
        self.belief = Belief(seat, players, rng, ignore=ignore, trust_partner=knows_fakes, reads_tells=reads_tells)
        self.hunch_rng = rng.spawn(1)[0]  # the order that breaks ties between gestures equally worth watching
        self.hunches_order: dict[str, float] = {}
        self.caller = Caller(self.belief, caution, threshold, stop, hunches, shy)
        self.stop = stop
        self.watch_span = watch_span
        self.reader = reader

    def call(self, obs: Observation, reader: TableReader, holding_four: bool) -> Intent | None:
        """The call worth making now, or None (``reader``, the agent's own reader of the full log, is unused:
        the belief reads the log as far as the seat noticed it)."""
        self.belief.refresh(obs)
        return self.caller.decide(obs, holding_four)

    def wakes_on(self, percept: Percept, obs: Observation) -> bool:
        """The partner's signal always wakes the seat; an opponent's gesture if it could move the belief."""
        if percept.gesturer == obs.partner:
            return percept.gesture == obs.signal
        belief = self.belief
        if not self.stop or belief.odds is None or belief.pair == belief.pair_by_seat[percept.gesturer]:
            return False
        share = belief.shares(percept.gesturer).get(percept.gesture, 0.0)  # the odds multiply by 1 + share·(ratio−1)
        return share * (belief.odds.percept_ratio(percept.gesture, percept.llr) - 1.0) >= WAKE_RATIO - 1.0

    def watches(self, obs: Observation) -> frozenset[str]:
        """At the start of a round: the pair's own signal and every gesture worth watching in the others."""
        self.reader.refresh(obs)
        belief = self.belief
        belief.refresh(obs)
        chosen = {obs.signal}
        if self.stop and belief.odds is not None and self.watch_span > 0:
            ratio, hits = belief.odds.ratio, belief.odds.hits(obs.attention, "opponent")
            worth: dict[str, float] = {}
            for pair in range(belief.pairs):
                if pair != belief.pair:
                    for g, share in belief.shares(pair).items():
                        worth[g] = max(worth.get(g, 0.0), share * ratio.get(g, 0.0) * hits.get(g, 0.0))
            if not self.hunches_order:
                names = sorted(obs.repertoire.names)
                self.hunches_order = dict(zip(names, self.hunch_rng.random(len(names)).tolist(), strict=True))
            chosen.update(ranked_by_worth(worth, self.hunches_order, chosen)[:self.watch_span])
        belief.watched = frozenset(chosen)
        return belief.watched

