"""``feeder`` partnered with ``collector`` against two collectors: the collector's time to four of a kind.

The collector sits at seat 0; its partner (seat 2) is a feeder or another collector; seats 1 and 3 are
collectors. One round per seed (the same deal in both arms), time to four censored at the round's end (log-rank
test, Kaplan-Meier medians). The feeder both throws the partner's rank into the middle (000) and hurries fresh
middles that hold none of it (see :mod:`agents.feeder`).
"""

from __future__ import annotations

from scipy.stats import logrank

from kemps_sim import simulate_round
from tests.test_agents_collecting import km_median, time_to_four

ROUNDS = 500


def collector_rounds(partner: str):
    return [simulate_round("standard", ["collector", "collector", partner, "collector"], seed=s)
            for s in range(ROUNDS)]


def test_feeder_shortens_the_collectors_time_to_four_of_a_kind():
    fed = time_to_four(collector_rounds("feeder"), (0,))
    unfed = time_to_four(collector_rounds("collector"), (0,))
    # 'greater': the first sample (fed) reaches four at a higher rate than the second
    test = logrank(fed, unfed, alternative="greater")
    assert test.pvalue < 1e-3, test
    assert km_median(fed) < km_median(unfed)
