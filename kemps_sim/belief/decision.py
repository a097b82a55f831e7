"""Calls as decisions: call now when the expected score of calling beats that of waiting (the speed-accuracy
trade-off of the game).

With belief p that the call is right and stakes (gain G if right, loss L if wrong, M lost if the other side
settles it first: :mod:`kemps_sim.belief.payoffs`), calling now is worth p·G − (1 − p)·L. Waiting buys evidence:
the next look at the holder's signal settles the matter, unless the other side calls first, which happens with
probability h (the hazard) in the time that look takes, so waiting is worth p·(1 − h)·G − p·h·M. Calling is better
when

    p ≥ p* = w·L / (w·L + h·(G + M)),

with ``w`` the caller's weight on losses (its risk attitude: 1 neutral, above 1 cautious, below 1 eager). Without
a hazard nobody should call before being sure; an opponent's Stop Kemps about to steal the four pulls the threshold
down (004: "call Stop Kemps the instant you see the signal: a race to speak is one you can lose"). The hazard is
h = 1 − exp(−λ·τ): λ the rate at which the other side settles it (measured on simulated play,
:mod:`kemps_sim.belief.fitted`) and τ the expected seconds to the caller's next sight of the signal, from its own
hit probability.

**What a look can settle.** A partner's signal and a fake look alike, so however often the signal is seen the
belief in the partner's four stops at p̄ = P(H) / (P(H) + P(F)) (:meth:`Belief.limit`): the next look does not
settle the matter, it brings the belief to p̄ at most, and a call made then is still wrong with probability
1 − p̄. Waiting for that look is worth (p/p̄)·(1 − h)·(p̄·G − (1 − p̄)·w·L) − p·h·M, so a Kemps is called when

    p ≥ p* = w·L / (w·L + h·(G + M) + (1 − h)·w·L·(1 − p̄)/p̄),

which is the threshold above at p̄ = 1 and lies below p̄ whenever anything hurries the caller (h > 0), so a belief
that rises toward its limit crosses it; if a call at the limit is not worth making (p̄·G < (1 − p̄)·w·L), waiting
means never calling and p* = w·L / (w·L + G + h·M). Without this, a caller whose p* lay above p̄ waited for a look
that could never settle anything, round after round (a table of loss-averse callers never called at all). Stop Kemps
keeps p̄ = 1: its limit is the opponents' honesty, and a seat that distrusts a pair's gestures rightly leaves them
alone.

:class:`Caller` applies this to every call a seat may make: Kemps or Double Kemps on its partner and Stop Kemps on
each player it may accuse. A call answers something seen: 004 warns "do not call on a hunch: you need to have seen
the signal", and Kemps is the partner noticing the signal, so a call needs a percept of its player since that
player last touched the middle, unless the public log makes the four of a kind certain (``hunches=True`` lifts
this, to study players who call on takes and time alone). A fixed ``threshold`` replaces p* for researchers who
want one.

**Once bitten, twice shy.** A caller racing the other side weighs a wrong call lightly (its ``risk``, fitted to a
table of people), but a wrong Stop Kemps of its pair on another pair closes a share ``shy`` of the gap between that
weight and :data:`LEISURE`, the loss aversion of a choice made at leisure, for its calls about that pair on the same
kind of gesture: after an error people answer more cautiously (post-error slowing is a raised response criterion:
Rabbitt 1966, Dutilh et al. 2012), and the burn is remembered against whoever caused it and how (004: a fake "works
once, perhaps twice"). The kind is the timing bin of the gesture (:mod:`kemps_sim.belief.tells`): a pair burnt by
gestures made right after the gesturer's swap stays quick to call on one made after a stillness. Only the other
pairs make a seat shy, as only they are suspected of deceiving it (:meth:`Belief.tell`): a wrong Kemps answered the
partner's accident, which says nothing of the next signal. By default one burn closes the whole gap (``shy=1``);
``shy=0`` switches it off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from kemps_sim.belief import fitted
from kemps_sim.belief.model import Belief
from kemps_sim.belief.payoffs import Stakes, kemps_stakes, stop_stakes
from kemps_sim.belief.tracking import TableReader
from kemps_sim.intents import CallDoubleKemps, CallKemps, CallStopKemps, Intent
from kemps_sim.observation import Observation
from kemps_sim.pickling import by_fields
from kemps_sim.rules import Rules
from kemps_sim.scoring import allowed_stop_targets
from kemps_sim.seating import NOBODY, opponents, pair_of, pair_seats

#: A typical person weighs a loss about 2.25 times an equal gain when deciding at leisure (Tversky & Kahneman
#: 1992, the loss-aversion coefficient of cumulative prospect theory); a wrong call is a letter the caller gives away.
LEISURE = 2.25
#: The share of the gap between a caller's weight on losses and :data:`LEISURE` that each wrong Stop Kemps of its
#: pair on another pair closes, for its calls about that pair on the same kind of gesture: all of it, so that a fake
#: "works once" on a seat and its partner, and "perhaps twice" (004) only on the seats of another pair or on a gesture
#: of another kind (half the gap left the watchers' wrong Stop Kemps against a told bluffing pair at 0.9 of the first
#: round's in the second: tests/test_shy_callers.py).
SHY = 1.0
#: The longest wait for a next look that is taken into account (seconds): beyond it the hazard is 1 anyway.
MAX_WAIT = 120.0


def hazard(rate: float, wait: float) -> float:
    """P(the other side settles it within ``wait`` seconds) at ``rate`` a second."""
    return 1.0 - math.exp(-rate * min(wait, MAX_WAIT))


def _pull(stakes: Stakes, hazard_: float, loss: float, limit: float) -> float:
    """What calling now gains over waiting per unit of belief (module doc): ``h·(G + M)`` when the next look settles
    it (``limit`` 1); with a ``limit`` below 1, also the wrong-call risk that waiting would leave; and when a call at
    the limit is not worth making, waiting means never calling: ``G + h·M``."""
    if limit >= 1.0:
        return hazard_ * (stakes.gain + stakes.missed)
    if limit * stakes.gain > (1.0 - limit) * loss:
        return hazard_ * (stakes.gain + stakes.missed) + (1.0 - hazard_) * loss * (1.0 - limit) / limit
    return stakes.gain + hazard_ * stakes.missed


def threshold(stakes: Stakes, hazard_: float, risk: float, limit: float = 1.0) -> float:
    """p*: the belief above which calling now is worth more than waiting (1 if waiting never costs anything);
    ``limit``: the most further sightings could make the belief (1: the next look settles the matter)."""
    loss = risk * stakes.loss
    pull = _pull(stakes, hazard_, loss, limit)
    return loss / (loss + pull) if pull > 0 else 1.0


def advantage(p: float, stakes: Stakes, hazard_: float, risk: float, limit: float = 1.0) -> float:
    """Expected value of calling now less that of waiting (positive: call)."""
    loss = risk * stakes.loss
    return p * _pull(stakes, hazard_, loss, limit) - (1.0 - p) * loss


@dataclass(frozen=True)
class Choice:
    """The call chosen: its intent, the belief it rests on and the threshold it passed."""

    intent: Intent
    belief: float
    threshold: float

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied through __init__ (kemps_sim.pickling)


class Caller:
    """Chooses a seat's calls from its :class:`Belief` (see the module doc).

    ``risk`` weighs losses (cautious above 1, eager below); ``threshold`` (None: from the payoffs) fixes p*;
    ``stop`` lets the seat call Stop Kemps at all; ``hunches`` lets it call without having seen anything; ``shy``
    is the share of the gap to :data:`LEISURE` that each of its pair's wrong Stop Kemps on another pair closes
    (module doc).
    """

    def __init__(self, belief: Belief, risk: float = 1.0, threshold: float | None = None, stop: bool = True,
                 hunches: bool = False, shy: float = SHY) -> None:
        self.belief = belief
        self.risk = risk
        self.shy = shy
        self.burns: list[list[int]] = []  # per pair, per timing bin: the seat's pair's wrong Stop Kemps on it
        self._burns_read = 0
        self.fixed = threshold
        self.stop = stop
        self.hunches = hunches
        self.rules: Rules | None = None
        self.last: Choice | None = None
        # The belief's state (Belief.version) when no call could be made though a seat was open (one that may not
        # be accused now, say): until the belief reads something new, none can be, so the answer stays "no call".
        self._quiet: tuple[int, ...] | None = None
        self._looked = False

    def _start(self, rules: Rules) -> None:
        seat, belief = self.belief.seat, self.belief
        self.rules = rules
        self.kemps = kemps_stakes(rules, seat)
        self.double = kemps_stakes(rules, seat, double=True) if rules.double_kemps else None
        self.targets = allowed_stop_targets(rules, seat)
        self.stops = {t: stop_stakes(rules, seat, t) for t in self.targets}
        n = rules.players
        # the seats that may be accused, pair by pair (lowest pair first)
        self.stop_pairs = tuple(tuple(s for s in pair_seats(n, pair) if s in self.stops)
                                for pair in sorted({pair_of(n, t) for t in self.targets}))
        # every seat a call may be about: the partner, and those that may be accused if the seat calls Stop Kemps
        self.about = (belief.partner, *(s for members in self.stop_pairs for s in members)) if self.stop \
            else (belief.partner,)
        partner = belief.partner
        self.stealing_pairs = len({pair_of(n, o) for o in opponents(n, seat)
                                   if partner in allowed_stop_targets(rules, o)})
        self.burns = [[0] * belief.tells.bins for _ in range(rules.pairs)]
        rates = fitted.RATES
        self.steal_known, self.steal_unknown = rates["steal_known"], rates["steal_unknown"]
        self.kemps_rate = rates["kemps_after_signal"]
        # the lowest threshold any hazard could give: below it no belief is worth computing in full
        self.floor_kemps = self._p_star(self.kemps, 1.0)
        self.floor_stop = min((self._p_star(s, 1.0) for s in self.stops.values()), default=1.0)

    def _p_star(self, stakes: Stakes, hazard_: float, risk: float | None = None, limit: float = 1.0) -> float:
        return self.fixed if self.fixed is not None else threshold(stakes, hazard_, self.risk if risk is None else risk,
                                                                   limit)

    def risk_about(self, seat: int) -> float:
        """The weight on a wrong call's cost for a call about ``seat``: ``risk``, raised toward :data:`LEISURE` by
        every wrong Stop Kemps the seat's pair called on ``seat``'s pair on a gesture of the timing bin that ``seat``'s
        gesture now falls in (:meth:`Belief.tell`; every bin's burns at most, when it is not known); never lowered."""
        rules = self.rules
        assert rules is not None  # set at the first decision
        counts = self.burns[pair_of(rules.players, seat)] if self.burns else ()
        if not any(counts) or not self.shy or self.risk >= LEISURE:
            return self.risk
        bin_ = self.belief.tell(seat)
        burns = max(counts) if bin_ is None else counts[bin_]
        if not burns:
            return self.risk
        return LEISURE - (LEISURE - self.risk) * (1.0 - self.shy) ** burns

    def _count_burns(self) -> None:
        """Add the seat's pair's wrong Stop Kemps heard since the last decision to :attr:`burns`, each in the timing
        bin of the cue it answered (every bin when that is not known: :mod:`kemps_sim.belief.tells`)."""
        belief = self.belief
        assert self.rules is not None  # set at the first decision
        reader, n = belief.reader, self.rules.players
        for heard in reader.calls[self._burns_read:]:
            call = heard.call
            if not call.right and pair_of(n, call.seat) == belief.pair and call.accused != NOBODY:
                about = call.accused
                counts = self.burns[pair_of(n, about)]
                bin_ = belief.tells.cue_bin(reader, call, about, heard.round)
                for b in range(len(counts)) if bin_ is None else (bin_,):
                    counts[b] += 1
        self._burns_read = len(reader.calls)

    # Deciding -------------------------------------------------------------------------------------------------
    def decide(self, obs: Observation, holding_four: bool) -> Intent | None:
        """The call worth making now, or None. The belief must be up to date (``Belief.refresh``)."""
        if self.rules is None:
            self._start(obs.rules)
        if len(self.belief.reader.calls) > self._burns_read:
            self._count_burns()
        version = None
        if not self.hunches:
            # Without hunches a call needs something seen of the seat it is about, or its four made certain
            # (_worth_a_look): with no such seat (most decisions), or at the same evidence as when no call could be
            # made, there is none to make.
            if not self.belief.any_open(self.about):
                self.last = None
                return None
            version = self.belief.version()
            if version == self._quiet:
                self.last = None
                return None
        self._looked = False
        best: tuple[float, Choice] | None = None
        for value, choice in self._candidates(obs, holding_four):
            if best is None or value > best[0]:
                best = (value, choice)
        if not self._looked:
            self._quiet = version
        self.last = best[1] if best is not None else None
        return best[1].intent if best is not None else None

    def _candidates(self, obs: Observation, holding_four: bool):
        belief = self.belief
        partner = belief.partner
        if self._worth_a_look(obs, partner, self.floor_kemps):
            p = belief.probability(obs, partner)
            h = hazard(self.stealing_pairs * self._steal_rate(obs), self._wait(obs, partner))
            risk = self.risk_about(partner)
            options: list[tuple[Stakes, Intent]] = [(self.kemps, CallKemps())]
            if holding_four and self.double is not None:
                options.append((self.double, CallDoubleKemps()))
            limit = belief.limit(obs, partner) if self.fixed is None else 1.0
            for stakes, intent in options:
                p_star = self._p_star(stakes, h, risk, limit)
                if p >= p_star:
                    yield advantage(p, stakes, h, risk, limit), Choice(intent, p, p_star)
        if not self.stop or obs.barred_from_stop or not self.targets:
            return
        for members in self.stop_pairs:
            open_ = [s for s in members if self._worth_a_look(obs, s, self.floor_stop)]
            if not open_:
                continue
            # under accused_pair either may be named (both show); otherwise only one the call can answer for
            named = members if obs.rules.stop_kemps_reveals == "accused_pair" else open_
            accused = max(named, key=lambda s: (belief.probability(obs, s), -s))
            p = belief.stop_right(obs, accused)
            stakes = self.stops[accused]
            h = hazard(self.kemps_rate, self._wait(obs, accused))
            risk = self.risk_about(accused)
            p_star = self._p_star(stakes, h, risk)
            if p >= p_star:
                yield advantage(p, stakes, h, risk), Choice(CallStopKemps(accused), p, p_star)

    def _worth_a_look(self, obs: Observation, seat: int, floor: float) -> bool:
        """Whether a call about ``seat`` is open now: something was seen of it since its last touch of the middle,
        or the public log makes its four certain, or (with ``hunches``) the prior alone, at most the belief without
        news (Λ <= 1), could pass ``floor``."""
        belief = self.belief
        if belief.has_news(seat) or belief.certain(seat):
            self._looked = True
            return True
        if not self.hunches:
            return False
        lp = belief.log_prior(obs, seat)
        return lp > -30.0 and 1.0 / (1.0 + math.exp(-lp)) >= floor

    def _wait(self, obs: Observation, seat: int) -> float:
        """Expected seconds until this seat next notices ``seat``'s signal, if ``seat`` is signalling."""
        belief = self.belief
        hits = belief.hits(obs, seat)
        rate = belief.signal_rate * sum(share * hits.get(g, 0.0) for g, share in belief.shares(seat).items())
        return 1.0 / rate if rate > 0 else MAX_WAIT

    def _steal_rate(self, obs: Observation) -> float:
        """How fast one opposing pair steals a signalled four: faster once they have seen our signal called."""
        return self.steal_known if signal_seen(obs, self.belief.reader) else self.steal_unknown


def signal_seen(obs: Observation, reader: TableReader) -> bool:
    """Whether the pair's current signal was the cue of a call about the pair in an earlier round (public: 004,
    "once the other pair has seen a signal called, they know it")."""
    players = obs.rules.players
    for heard in reader.calls:
        call = heard.call
        if heard.round < obs.round_index and call.cue == obs.signal:
            about = call.seat if call.accused == NOBODY else call.accused
            if pair_of(players, about) == obs.pair:
                return True
    return False
