"""``feeder`` partnered with ``collector`` against two collectors: the collector's time to four of a kind.

The collector sits at seat 0; its partner (seat 2) is a feeder or another collector; seats 1 and 3 are
collectors. One round per seed, the same deal in both arms, the dealer seat rotated with the seed (seed % 4: the
dealer's hands are busy sweeping and dealing, so who deals matters); time to four censored at the round's end
(log-rank test, Kaplan-Meier medians). The feeder here does only what 000 says, throwing its partner's rank into the
middle: its ``hurry`` (saying "stalled" sooner when the middle holds nothing for the partner) is off, as by default.

Feeding can only help when the feeder holds a card of its partner's rank, about one round in two; over all rounds
the gain is a few seconds, so the test plays 3,000 rounds per arm, and also looks at the rounds in which the feeder
was dealt a card of the rank its partner was dealt most of (known at the deal, the same rounds in both arms).
"""

from __future__ import annotations

from collections import Counter

from scipy.stats import logrank

from kemps_sim import simulate_round
from kemps_sim.cards import RANK
from kemps_sim.trace import Dealt
from tests.test_agents_collecting import km_median, time_to_four

ROUNDS = 3000


def collector_rounds(partner: str):
    return [simulate_round("standard", ["collector", "collector", partner, "collector"], seed=s, dealer=s % 4)
            for s in range(ROUNDS)]


def feedable(rnd) -> bool:
    """Whether seat 2 was dealt a card of a rank seat 0 was dealt most of."""
    hands = next(e for e in rnd.trace if type(e) is Dealt).hands
    counts = Counter(RANK[c] for c in hands[0])
    most = max(counts.values())
    return any(counts.get(RANK[c], 0) == most for c in hands[2])


def test_feeding_alone_shortens_the_partners_time_to_four_of_a_kind():
    fed_rounds, unfed_rounds = collector_rounds("feeder"), collector_rounds("collector")
    fed, unfed = time_to_four(fed_rounds, (0,)), time_to_four(unfed_rounds, (0,))
    # 'greater': the first sample (fed) reaches four at a higher rate than the second
    assert logrank(fed, unfed, alternative="greater").pvalue < 0.01
    assert km_median(fed) < km_median(unfed)
    chosen = [i for i, rnd in enumerate(unfed_rounds) if feedable(rnd)]
    assert chosen == [i for i, rnd in enumerate(fed_rounds) if feedable(rnd)]  # the same deals
    fed, unfed = (time_to_four([rounds[i] for i in chosen], (0,)) for rounds in (fed_rounds, unfed_rounds))
    assert logrank(fed, unfed, alternative="greater").pvalue < 1e-3
    assert km_median(fed) < km_median(unfed)
