"""One seat's belief that each other player holds four of a kind now: the prior from play, the likelihood of what
the seat perceived, and the honesty of the player's pair, combined by Bayes' rule.

For a player j of pair q, three states are possible: j holds four of a kind (H), j does not but its pair fakes
(F: deliberate-looking gestures without a four), or neither (N). The prior gives P(H) = π from play
(:mod:`kemps_sim.belief.prior`); the honesty belief gives the odds r_q that a deliberate-looking gesture of q is a
fake, so P(F) = min(π·r_q, 1 − π) (fakes come when a player is close, as a real signal would). Gestures are
equally likely under H and F, so what the seat perceived of j since j last touched the middle, Λ
(:mod:`kemps_sim.belief.percepts`), multiplies both:

    P(H | seen) = π·Λ / (π·Λ + P(F)·Λ + P(N)).

A single unmistakable signal therefore lifts the belief to at most 1/(1 + r_q): a pair caught faking four times
is believed less (004: fakes work "once, perhaps twice"). What tells a fake from a four is the prior (a faker is
still swapping, and the public log may show it cannot hold four) and, with ``reads_tells`` (the default), the
timing of the gesture: for another pair, r_q is its fake odds for gestures made after as long a stillness as the
one the seat would take for the signal (:mod:`kemps_sim.belief.tells`), so a pair burnt for gestures right after
its own swaps has those discounted and its later ones believed.

Everything here is read from the seat's observation and the public log, as far as the seat could take it in: a
swap by another player is noticed, with its cards, only with the probability that the seat's eyes were on the
middle or on that player (its attention: a card's rank needs a look, and nobody follows every hand), and a missed
swap leaves the player's hand unknown again. The belief carries across rounds what a player would remember (each
pair's signal, each pair's honesty) and starts every round's evidence afresh.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from kemps_sim.belief import fitted
from kemps_sim.belief.honesty import Honesty, truths
from kemps_sim.belief.percepts import GestureOdds, likelihood_ratio
from kemps_sim.belief.prior import CERTAIN, IMPOSSIBLE, HoldPrior
from kemps_sim.belief.signals import SignalKnowledge
from kemps_sim.belief.tells import NO_TELLS, TimingTells
from kemps_sim.belief.tracking import TableReader
from kemps_sim.cards import HAND_SIZE
from kemps_sim.observation import Observation
from kemps_sim.perception import OPPONENT, PARTNER, Attention, Percept
from kemps_sim.seating import NOBODY, pair_of, partner
from kemps_sim.trace import Swapped

#: Λ is capped here (a hundred orders of magnitude is certainty) so that sums of products stay finite.
MAX_RATIO = 1e100


class Belief:
    """P(player holds four of a kind now) for every other player, as one seat sees the table.

    ``rng`` draws which swaps the seat noticed (give the belief its own stream); ``ignore`` sets percepts aside (a
    pair's fake protocol); ``trust_partner`` says the partner's fakes are known, so its signals are all real;
    ``reads_tells`` keeps each pair's honesty per timing bin (:mod:`kemps_sim.belief.tells`; default on, since
    people learn when a pair's fakes come; off: every gesture of a pair weighed alike, as before tells were read);
    ``partner_weight`` is what the cue of the partner's call counts for in the honesty belief
    (:class:`~kemps_sim.belief.honesty.Honesty`: 1, as if seen; 0.5, the weight of a stranger's call, switches the
    partner's part off).
    """

    def __init__(self, seat: int, players: int, rng: np.random.Generator, *,
                 ignore: Callable[[Percept], bool] | None = None, trust_partner: bool = False,
                 prior_fakes: float = 0.1, prior_real: float = 0.9, learn: float = 20.0,
                 forget: float = 0.25, reads_tells: bool = True, partner_weight: float = 1.0) -> None:
        self.seat, self.players, self.pairs = seat, players, players // 2
        self.pair = pair_of(players, seat)
        self.partner = partner(players, seat)
        # every seat's pair and partner (:mod:`kemps_sim.seating`), looked up rather than computed: asked per percept
        self.pair_by_seat = tuple(pair_of(players, s) for s in range(players))
        self.partner_by_seat = tuple(partner(players, s) for s in range(players))
        self.rng = rng
        self.ignore = ignore
        self.trust_partner = trust_partner
        self.honesty_params = (prior_fakes, prior_real, partner_weight)
        self.tells: TimingTells = TimingTells() if reads_tells else NO_TELLS
        self.reader = TableReader(players, seat, notice=self._noticed)
        self.knowledge = SignalKnowledge(self.pairs, self.pair, learn, forget)
        self.honesty: Honesty | None = None
        self.prior: HoldPrior | None = None
        self.odds: GestureOdds | None = None
        self.signal_rate = fitted.RATES["signal"]
        self.lag = fitted.RATES["signal_lag"]
        self.watched: frozenset[str] | None = None
        self._obs: Observation | None = None
        self._attention: Attention | None = None
        self._heard = -1  # how many calls the signal knowledge, the honesty and the floors have read
        self._calls_seen = 0  # how many calls the floors have read (set at each round's start)
        self._read = 0  # how many of the round's percepts the belief has read
        self._looks_for: Attention | None = None  # the attention _looks was worked out for
        self._looks: dict[str, float] = {}  # P(a swap is noticed) by the swapper's relation (partner, opponent)
        self._signals: dict[int, str] = {}  # the seat's own pair's signal, by round
        self._shares: dict[int, tuple[int, dict[str, float]]] = {}

    # Keeping up with the table ------------------------------------------------------------------------------
    def refresh(self, obs: Observation) -> None:
        """Bring the belief up to date with ``obs``: the public log, the seat's percepts, the calls heard."""
        if self.prior is None:
            self._start(obs)
        self._attention = obs.attention
        reader = self.reader
        reader.refresh(obs)
        if obs is not self._obs:
            self._new_round(obs)
        heard = len(reader.calls)
        if heard != self._heard:  # what the calls teach, read once per new call (and once at the start)
            self._heard = heard
            self.knowledge.update(reader, obs.signals_allowed, obs.repertoire)
            assert self.honesty is not None
            if heard != self.honesty.read:
                self.honesty.update(reader, self.seat, self._deliberate)
            if heard != self._calls_seen:
                self._floors_after_calls(reader)
        percepts = self._percepts
        if len(percepts) != self._read:
            ignore, seen, pending, pair_by_seat = self.ignore, self.seen, self.pending, self.pair_by_seat
            tells, round_index = self.tells, reader.round
            for p in percepts[self._read:]:
                if p.gesturer in seen and (ignore is None or not ignore(p)):
                    bin_ = tells.gesture_bin(reader, p.gesturer, p.time, round_index)
                    seen[p.gesturer].append((p.time, p.gesture, p.llr, bin_))
                    if pair_by_seat[p.gesturer] != self.pair and p.time >= reader.still_since(p.gesturer):
                        weight = self._deliberate(p)
                        if weight > pending.get(p.gesturer, (0.0, 0.0, None))[1]:
                            pending[p.gesturer] = (p.time, weight, bin_)
            self._read = len(percepts)
        if self.pending:
            self._swapped_after_signal(reader)

    def _swapped_after_signal(self, reader: TableReader) -> None:
        """A deliberate-looking gesture followed by a swap of the same player, with no call between: a player who
        has made four of a kind stops swapping (004), so it was more likely a fake."""
        assert self.honesty is not None
        for seat, (made_at, weight, bin_) in list(self.pending.items()):
            if reader.still_since(seat) > made_at:
                self.honesty.swapped_after(self.pair_by_seat[seat], weight, bin_)
                del self.pending[seat]

    def _noticed(self, event: Swapped) -> bool:
        """Whether the seat took in another player's swap: its eyes were on the middle or on that player."""
        attention = self._attention
        if attention is None:
            return True
        if attention is not self._looks_for:  # the chances of a look, worked out once per spread of the eyes
            self._looks_for = attention
            opponents = max(self.players - 2, 1)
            self._looks = {relation: attention.middle + attention.fixation_probability(relation, opponents)
                           for relation in (PARTNER, OPPONENT)}
        looked = self._looks[PARTNER if event.seat == self.partner else OPPONENT]
        return looked >= 1.0 or self.rng.random() < looked  # Generator.random() gives a Python float

    def _start(self, obs: Observation) -> None:
        rules = obs.rules
        self.prior = HoldPrior(rules)
        self.odds = GestureOdds(obs.repertoire, obs.profile.observer.self_image(), self.players - 2, self.signal_rate,
                                obs.profile.fidget_scale)
        fakes, real, partner_weight = self.honesty_params
        self.by_pair = rules.stop_kemps_reveals == "accused_pair"
        self.honesty = Honesty(self.pairs, self.pair, self.by_pair, fakes, real, tells=self.tells,
                               partner_weight=partner_weight)

    def _new_round(self, obs: Observation) -> None:
        self._obs, self._percepts, self._read = obs, obs.percepts, 0
        self._signals = {r: g for r, g in self._signals.items() if r >= obs.round_index - 1}
        self._signals[obs.round_index] = obs.signal
        # what the seat perceived of each player this round: (made at, gesture, llr, timing bin or None)
        self.seen: dict[int, list[tuple[float, str, float, int | None]]] = {
            s: [] for s in range(self.players) if s != self.seat}
        self.floor = dict.fromkeys(self.seen, float("-inf"))  # evidence before this is settled (a wrong call)
        self.pending: dict[int, tuple[float, float, int | None]] = {}  # the most deliberate-looking gesture of a
        # player since its last swap: (made at, probability it was deliberate, timing bin), other pairs only
        self._calls_seen = len(self.reader.calls)
        assert self.honesty is not None
        self.honesty.remember(obs.round_index, obs.percepts)

    def _floors_after_calls(self, reader: TableReader) -> None:
        """A wrong call while play goes on settles that a player did not hold four of a kind (which one, the call
        says: :func:`~kemps_sim.belief.honesty.truths`): evidence older than the call is spent, and until that
        player touches the middle again it cannot hold four. A Stop Kemps against the seat's own pair that reads
        as wrong under Double Kemps may have been an ineffective one against a Double: the seat learns nothing."""
        for heard in reader.calls[self._calls_seen:]:
            call = heard.call
            about = self.partner_by_seat[call.seat] if call.accused == NOBODY else call.accused
            for seat in (about, self.partner_by_seat[about]):
                self.pending.pop(seat, None)  # the call settles it (Honesty reads what the call showed)
            if heard.round != reader.round or call.right:
                continue
            if call.accused != NOBODY and self.pair_by_seat[call.accused] == self.pair and self._obs is not None \
                    and self._obs.rules.double_kemps:
                continue
            for seat, held in truths(heard, self.players, self.by_pair).items():
                if not held and seat in self.floor:
                    self.floor[seat] = max(self.floor[seat], call.time)
        self._calls_seen = len(reader.calls)

    def _deliberate(self, percept: Percept, round_index: int | None = None) -> float:
        """Probability that a percept was a deliberate gesture of its gesturer's pair's signal (for a percept of an
        earlier round, with the seat's own pair's signal of that round)."""
        assert self.odds is not None
        pair = self.pair_by_seat[percept.gesturer]
        if pair == self.pair and round_index is not None and round_index in self._signals:
            shares = {self._signals[round_index]: 1.0}
        else:
            shares = self.shares(percept.gesturer)
        return self.odds.deliberate(percept.gesture, percept.llr, shares.get(percept.gesture, 0.0))

    # Questions ------------------------------------------------------------------------------------------------
    def shares(self, seat: int) -> dict[str, float]:
        """The believed probability of each gesture being the signal of ``seat``'s pair."""
        pair = self.pair_by_seat[seat]
        if pair == self.pair:
            assert self._obs is not None
            return {self._obs.signal: 1.0}
        version = self.knowledge.version
        cached = self._shares.get(pair)
        if cached is None or cached[0] != version:
            cached = self._shares[pair] = (version, self.knowledge.shares(pair))
        return cached[1]

    def log_prior(self, obs: Observation, seat: int) -> float:
        """The prior's log-odds for ``seat`` (percepts aside)."""
        assert self.prior is not None
        reader = self.reader
        if self.floor[seat] >= reader.still_since(seat):
            return IMPOSSIBLE  # shown not to hold four of a kind, and it has not touched the middle since
        return self.prior.log_odds(reader, seat, obs.now, obs.hand, obs.middle)

    def probability(self, obs: Observation, seat: int) -> float:
        """P(``seat`` holds four of a kind now | everything this seat has seen)."""
        lp = self.log_prior(obs, seat)
        if lp <= IMPOSSIBLE:
            return 0.0
        if lp >= CERTAIN:
            return 1.0
        ratio = self.ratio(obs, seat)
        prior, fake = self._prior_and_fake(lp, seat)
        held = prior * ratio
        return held / (held + fake * ratio + (1.0 - prior - fake))

    def limit(self, obs: Observation, seat: int) -> float:
        """The most that any number of further sightings could make :meth:`probability`: P(H) / (P(H) + P(F)) as
        Λ grows without bound, since a signal and a fake look alike (the prior and the honesty as they stand now)."""
        lp = self.log_prior(obs, seat)
        if lp <= IMPOSSIBLE:
            return 0.0
        if lp >= CERTAIN:
            return 1.0
        prior, fake = self._prior_and_fake(lp, seat)
        return prior / (prior + fake)

    def _prior_and_fake(self, lp: float, seat: int) -> tuple[float, float]:
        """P(H) from the prior's log-odds, and P(F) (a deliberate-looking gesture without a four; none from a
        trusted partner)."""
        prior = 1.0 / (1.0 + math.exp(-lp))
        assert self.honesty is not None
        pair = self.pair_by_seat[seat]
        trusted = pair == self.pair and self.trust_partner
        fake = 0.0 if trusted else min(prior * self.honesty.fake_odds(pair, self.tell(seat)), 1.0 - prior)
        return prior, fake

    def ratio(self, obs: Observation, seat: int) -> float:
        """Λ: the likelihood ratio of what this seat perceived of ``seat`` since it last touched the middle."""
        assert self.odds is not None
        since = max(self.reader.still_since(seat), self.floor[seat])
        percepts = [(g, llr) for t, g, llr, _ in self.seen[seat] if t >= since]
        hits = self.hits(obs, seat)
        return min(likelihood_ratio(self.odds, self.shares(seat), hits, percepts, obs.now - since - self.lag),
                   MAX_RATIO)

    def tell(self, seat: int) -> int | None:
        """The timing bin whose fake odds apply to ``seat``'s gestures now: that of the gesture the seat would take
        for the signal, the latest percept of ``seat`` since it last touched the middle that was more likely
        deliberate than not (else the most deliberate-looking one); None (every bin together) with nothing seen.
        With one bin (``reads_tells`` off), always that bin.

        The seat's own partner gets None too: tells are read in players suspected of deceiving the seat. A partner
        is trusted, and one who was not told of a fake protocol has no reason to think its partner fakes on purpose:
        its own wrong Kemps reads as its partner's accident (004: the partner "who coughs by accident"), which says
        nothing about when its gestures come, and its trust falls for all of them alike."""
        if self.tells.bins == 1:
            return 0
        if self.pair_by_seat[seat] == self.pair:
            return None
        since = max(self.reader.still_since(seat), self.floor[seat])
        chosen, best = None, 0.0
        for t, gesture, llr, bin_ in reversed(self.seen[seat]):
            if t < since:
                continue
            weight = self._weight(seat, gesture, llr)
            if weight > 0.5:
                return bin_
            if weight > best:
                chosen, best = bin_, weight
        return chosen

    def _weight(self, seat: int, gesture: str, llr: float) -> float:
        """Probability that a percept of ``gesture`` by ``seat`` this round was a deliberate signal."""
        assert self.odds is not None
        return self.odds.deliberate(gesture, llr, self.shares(seat).get(gesture, 0.0))

    def hits(self, obs: Observation, seat: int) -> dict[str, float]:
        """The seat's chance of noticing each gesture of ``seat`` if made on purpose: where its eyes are now, and
        nothing for gestures it does not watch."""
        assert self.odds is not None
        hits = self.odds.hits(obs.attention, PARTNER if seat == self.partner else OPPONENT)
        watched = self.watched
        return hits if watched is None else {g: h for g, h in hits.items() if g in watched}

    def certain(self, seat: int) -> bool:
        """Whether the public log, as this seat noticed it, proves that ``seat`` holds four of a kind: it took four
        cards of one rank and kept them (the prior's ``CERTAIN``, without computing the rest)."""
        reader = self.reader
        rank, known = reader.known_held(seat)
        return (rank >= 0 and known >= HAND_SIZE and reader.owed[seat] <= 0
                and self.floor[seat] < reader.still_since(seat))

    def version(self) -> tuple[int, ...]:
        """What the belief has read so far (round, log events, percepts, calls): equal versions, equal evidence, so
        every answer that depends on the evidence alone (:meth:`has_news`, :meth:`certain`) is the same."""
        reader = self.reader
        return reader.round, reader.read, self._read, len(reader.calls)

    def has_news(self, seat: int) -> bool:
        """Whether anything was perceived of ``seat`` since it last touched the middle (else Λ <= 1)."""
        seen = self.seen[seat]
        return bool(seen) and seen[-1][0] >= max(self.reader.still_since(seat), self.floor[seat])

    def any_open(self, seats: tuple[int, ...]) -> bool:
        """Whether :meth:`has_news` or :meth:`certain` holds for any of ``seats``: whether a call about one of them
        could rest on something. Asked at every decision, so the common answer (nothing seen of any of them, fewer
        than four of each one's cards known) is given without the rest."""
        seen, held = self.seen, self.reader.held
        for seat in seats:
            if (seen[seat] or len(held[seat]) >= HAND_SIZE) and (self.has_news(seat) or self.certain(seat)):
                return True
        return False

    def stop_right(self, obs: Observation, accused: int) -> float:
        """P(a Stop Kemps naming ``accused`` is right now), per ``stop_kemps_reveals`` (the accused alone or either
        of its pair) and, with Double Kemps, not against a pair that holds a Double (ineffective)."""
        mate = self.partner_by_seat[accused]
        a = self.probability(obs, accused)
        by_pair = obs.rules.stop_kemps_reveals == "accused_pair"
        if not by_pair and not obs.rules.double_kemps:
            return a
        b = self.probability(obs, mate)
        if by_pair:
            return a + b - 2.0 * a * b if obs.rules.double_kemps else a + b - a * b
        return a * (1.0 - b)

