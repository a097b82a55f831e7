"""A simulated person: a seat of a live table played, through the table's own messages and recorder, by a script
with known human parameters, so that a study's analysis can be checked against the truth (parameter recovery) or
piloted before anyone is invited.

It reads only what a person's page is shown and answers as a person would, on the table's simulated clock (the
table runs with ``factor=None, lockstep=True``: it waits at each of its people's looks until every page has drawn
what it was sent, so that the script acts at the simulated times it chose). Its page clock is the simulated clock.

* **Swaps**: when a card arrives in the middle whose rank it holds most of (or, with none, at random with
  ``take_share``), it clicks a hand card of another rank after a reaction time (``reaction``, ex-Gaussian) and the
  new card after a reach (``reach``, log-normal).
* **Calls**: when its partner's avatar makes the gesture of their pair's signal, it judges how emphatic it was from how
  long it was held (:func:`kemps_sim.serve.screen.hold_of` inverted), adds its own noise (normal, sd ``noise``) and
  calls "Kemps!" after a ``speech`` latency when that is above ``threshold``. With the screen's d' ``D`` its hit and
  false-alarm rates are ``Φ((D − k)/s)`` and ``Φ(−k/s)``, ``s = √(1 + noise²)``: a d' of ``D/s`` and a criterion of ``(k
  − D/2)/s`` (:attr:`SimulatedPerson.d_prime`, :attr:`SimulatedPerson.criterion`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kemps_sim.cards import deck, rank_of
from kemps_sim.engine.match import first_dealer
from kemps_sim.errors import ConfigError
from kemps_sim.intents import CallKemps, Swap
from kemps_sim.seating import partner
from kemps_sim.serve.remote import Sent
from kemps_sim.serve.screen import HOLD, HOLD_PER_EMPHASIS, SCREEN_D
from kemps_sim.table import stack_pack
from kemps_sim.timing import ExGaussian, LogNormal

#: The child of the match seed's SeedSequence that shuffles a stacked session's other cards (apart from the
#: engine's streams and the screen's).
STACK_STREAM = 2**31 - 11
#: A simulated person's times by default: a choice reaction, a mouse's reach, and a call's latency from the
#: gesture on screen (perceiving it included).
REACTION = ExGaussian(mu=0.45, sigma=0.06, tau=0.15)
REACH = LogNormal(median=0.35, sigma=0.25)
SPEECH = ExGaussian(mu=0.6, sigma=0.08, tau=0.2)


@dataclass(frozen=True)
class SimulatedPerson:
    """The known parameters of a simulated person (times in simulated seconds)."""

    reaction: ExGaussian = REACTION
    reach: LogNormal = REACH
    speech: ExGaussian = SPEECH
    noise: float = 0.75
    threshold: float = 1.4
    take_share: float = 0.3
    rng_seed: int = 0
    _rng: np.random.Generator = field(init=False, repr=False, compare=False)
    #: (session, message, whether it called) for each partner's gesture of the pair's signal it judged: the truth
    #: an analysis of the recorded data is checked against
    judged: list = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("noise", "threshold", "take_share"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ConfigError(f"SimulatedPerson.{name} = {value!r}: must be a number")
        if self.noise < 0 or not 0 <= self.take_share <= 1:
            raise ConfigError(f"SimulatedPerson: noise = {self.noise!r} must be >= 0 and take_share = "
                              f"{self.take_share!r} from 0 to 1")
        object.__setattr__(self, "_rng", np.random.default_rng(self.rng_seed))

    @property
    def d_prime(self) -> float:
        """Its d' for the partner's gestures on screen."""
        return SCREEN_D / math.sqrt(1 + self.noise ** 2)

    @property
    def criterion(self) -> float:
        """Its criterion c (hit rate Φ(d'/2 − c))."""
        return (self.threshold - SCREEN_D / 2) / math.sqrt(1 + self.noise ** 2)

    def play(self, table: Any, seat: int, timeout: float = 300.0) -> None:
        """Play ``seat`` of ``table`` (started, or started here) until the match is over, acknowledging each
        message drawn at the moment it was shown. Its page clock runs on across rounds (the simulated clock starts
        again at 0 each round): a round's time plus the page time the round began at, a second after the last."""
        if not table.started:
            table.start()
        box, rng, shown_middle, signal = table.outboxes[seat], self._rng, {}, None
        index, now, began = 0, 0.0, 0.0  # the round, its simulated time, and the page time it began at
        while (message := box.get(timeout=timeout)) is not None:
            if message.get("round", index) > index:
                index, began, now = message["round"], began + now + 1.0, 0.0
            now = max(now, float(message.get("time") or 0.0))
            if message["type"] == "view":
                signal = message["signal"]
            if message["type"] == "view" and message["playing"]:
                self._maybe_swap(table, seat, message, shown_middle, now, began, rng)
            elif message["type"] == "gesture" and message["relation"] == "partner" and message["gesture"] == signal:
                emphasis = (message["hold"] / table.screens[seat].factor - HOLD) / HOLD_PER_EMPHASIS
                calls = emphasis + rng.normal(0.0, self.noise) > self.threshold
                self.judged.append((table.writer.session if table.writer else "", message["id"], calls))
                if calls:
                    said = now + float(self.speech.sample(rng, 1)[0])
                    table.send(seat, Sent(CallKemps(), table.next_input(seat), client_time=began + said,
                                          not_before=said, round=index))
            table.receive(seat, {"kind": "drawn", "id": message["id"], "t": began + now})

    def _maybe_swap(self, table: Any, seat: int, view: dict, shown: dict, now: float, began: float,
                    rng: np.random.Generator) -> None:
        before = shown.get(view["round"], [])
        shown[view["round"]] = view["middle"]
        arrived = [card for card in view["middle"] if card not in before]
        if not arrived or not view["hand"]:
            return
        counts = Counter(rank_of(card) for card in view["hand"])
        wanted = [card for card in arrived if counts.get(rank_of(card), 0) == max(counts.values())]
        if not wanted and rng.random() >= self.take_share:
            return
        take = (wanted or arrived)[0]
        keep = rank_of(take)
        give = next((card for card in view["hand"] if rank_of(card) != keep), view["hand"][0])
        first = now + float(self.reaction.sample(rng, 1)[0])
        last = first + float(self.reach.sample(rng, 1)[0])
        table.send(seat, Sent(Swap((give,), (take,)), table.next_input(seat), client_time=began + last,
                              first_client_time=began + first, not_before=last, round=view["round"]))


def partner_fours(rules: Any, seed: int, seat: int, rounds: int, every: int = 1) -> list[list[int]]:
    """Packs for the first ``rounds`` rounds of the match of ``seed`` under ``rules`` (whose dealer must stay:
    ``dealer_rotation = "same"``) in which the partner of ``seat`` is dealt four of a kind (of a new rank) every
    ``every``-th round, from the first, and every other card falls as a shuffle of the seed gives it: a session
    where the partner's meant gestures come often (and, in the rounds between, its idle ones have time to)."""
    if rules.dealer_rotation != "same":
        raise ConfigError(f"rules.dealer_rotation = {rules.dealer_rotation!r}: partner_fours needs 'same' (the deal "
                          "is stacked for a known dealer)")
    dealer, players = first_dealer(rules, seed), rules.players
    mate = partner(players, seat)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(STACK_STREAM,)))
    ranks = len(deck(rules.decks)) // (4 * rules.decks)
    packs = []
    for index in range(rounds):
        rank = index % ranks
        four = [card for card in deck(rules.decks) if rank_of(card) == rank][:4] if index % every == 0 else []
        rest = [int(card) for card in rng.permutation([c for c in deck(rules.decks) if c not in four])]
        hands = [four if s == mate and four else [rest.pop() for _ in range(4)] for s in range(players)]
        packs.append(stack_pack(rules, hands, dealer=dealer))
    return packs
