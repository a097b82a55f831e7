"""What a seat's percepts of a player's gestures say about whether that player holds four of a kind.

A player who holds four of a kind makes its pair's signal g deliberately, at about ``signal_rate`` a second from
``signal_lag`` seconds after the swap that made it (measured, :mod:`kemps_sim.belief.fitted`); every player also
makes g by accident at g's natural rate f_g (the table's repertoire, literature rates). A percept carries the
evidence x of signal detection and its log-likelihood ratio ℓ = d'·x (deliberate against fidget, with the seat's own
d' for where it was looking). So, given that g is the signal, a percept of g has likelihood ratio (holds four
against not)

    1 + (signal_rate / f_g) · e^ℓ,   (f_g scaled by the seat's own ``fidget_scale``: others fidget as it does)

(f_g counts the look-alikes the seat misreads as g only as far as it does not neglect them: :func:`fidget_rate`)

large for a rare gesture (a cough: a few an hour) and near 1 for a blink (twenty a minute), whatever its evidence.
Not seeing the signal is evidence too: a holder signalling all along would have been noticed with the seat's own
hit probability H_g (its d', criterion and gaze; :func:`kemps_sim.perception.hit_probability`), so T seconds
without a percept of g multiply the odds by exp(−signal_rate · H_g · T). Which gesture is the signal is itself a
belief (σ_g: certain for the seat's own pair, learned for the others, :mod:`kemps_sim.belief.signals`), so the
likelihood ratio of everything seen of a player since it last touched the middle is the mixture

    Λ = Σ_g σ_g · Π_{percepts i of g} (1 + (signal_rate / f_g) · e^ℓᵢ) · exp(−signal_rate · H_g · T).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from kemps_sim.gestures import Repertoire
from kemps_sim.perception import OPPONENT, PARTNER, Attention, Observer, hit_probability

#: A natural rate never taken below this (per second: 0.1 an hour), so that a gesture nobody makes by accident
#: is very strong evidence rather than infinite evidence.
RATE_FLOOR = 0.1 / 3600.0
#: The largest log-likelihood ratio of one percept taken at face value (e^30 is already certainty).
LLR_CAP = 30.0


class GestureOdds:
    """For one seat at one table: each gesture's signal-to-fidget rate ratio and the seat's hit probabilities."""

    def __init__(self, repertoire: Repertoire, observer: Observer, n_opponents: int, signal_rate: float,
                 fidget_scale: float = 1.0) -> None:
        self.repertoire = repertoire
        self.observer = observer
        self.n_opponents = n_opponents
        self.signal_rate = signal_rate
        #: signal_rate / f_g for every gesture of the repertoire, the others assumed to fidget as the seat does
        self.ratio: dict[str, float] = {g.name: signal_rate / max(fidget_rate(repertoire, g.name, observer,
                                                                              fidget_scale), RATE_FLOOR)
                                        for g in repertoire}
        self._hits: dict[tuple[Attention, str], dict[str, float]] = {}

    def hits(self, attention: Attention, relation: str) -> dict[str, float]:
        """The seat's probability of noticing a deliberate gesture of each type by a ``relation`` (partner or
        opponent), with its eyes spread as ``attention``."""
        key = (attention, relation)  # Attention is a frozen dataclass: equal attention, same entry
        found = self._hits.get(key)
        if found is None:
            rel = PARTNER if relation == PARTNER else OPPONENT
            found = {g.name: hit_probability(self.observer, attention, g, rel, self.n_opponents)
                     for g in self.repertoire}
            if len(self._hits) > 64:  # a policy that makes a new spread of the eyes every time
                self._hits.clear()
            self._hits[key] = found
        return found

    def percept_ratio(self, gesture: str, llr: float) -> float:
        """Likelihood ratio of one percept of ``gesture`` given that it is the signal (see the module doc)."""
        return 1.0 + self.ratio.get(gesture, 0.0) * math.exp(min(llr, LLR_CAP))

    def deliberate(self, gesture: str, llr: float, share: float) -> float:
        """Probability that a percept was a deliberate gesture rather than a fidget, for a player who is
        signalling with ``gesture`` with probability ``share``."""
        odds = share * self.ratio.get(gesture, 0.0) * math.exp(min(llr, LLR_CAP))
        return odds / (1.0 + odds)


def fidget_rate(repertoire: Repertoire, name: str, observer: Observer, fidget_scale: float = 1.0) -> float:
    """The rate (per second, for players of ``fidget_scale``) at which the observer believes idle gestures it reads
    as ``name`` come:
    the gesture's own natural rate, plus the share of its look-alikes' rate it misreads as it (its misread chance in
    the periphery, where look-alikes are mostly seen: :meth:`~kemps_sim.perception.Observer.misread_chance`) that it
    does not neglect (``1 − neglect``). People neglect it (the default); an ideal observer counts it all. The engine
    primes a seat for its partner's gestures only; the belief keeps one rate per gesture, so an observer that
    neglects nothing counts the misreads for every player's gestures (cautious about opponents)."""
    rate = repertoire[name].rate_for(fidget_scale)
    counted = observer.misread_chance(observer.peripheral_d) * (1.0 - observer.neglect)
    if counted > 0.0:
        rate += counted * sum(repertoire[alike].rate_for(fidget_scale) for alike in repertoire.look_alikes(name))
    return rate


def likelihood_ratio(odds: GestureOdds, shares: Mapping[str, float], hits: Mapping[str, float],
                     percepts: Iterable[tuple[str, float]], silent_for: float) -> float:
    """Λ of the module doc: ``percepts`` are (gesture, ℓ) of one player since it last touched the middle and
    ``silent_for`` the seconds in which a holder would have been signalling."""
    products: dict[str, float] = {}
    for gesture, llr in percepts:
        if shares.get(gesture, 0.0) > 0.0:
            products[gesture] = products.get(gesture, 1.0) * odds.percept_ratio(gesture, llr)
    rate, total = odds.signal_rate, 0.0
    silent_for = max(silent_for, 0.0)
    for gesture, share in shares.items():
        if share > 0.0:
            total += share * products.get(gesture, 1.0) * math.exp(-rate * hits.get(gesture, 0.0) * silent_for)
    return total
