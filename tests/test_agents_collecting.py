"""``collector`` against ``random``: collecting a rank reaches four of a kind sooner and wins matches.

Time to four of a kind is measured per round and seat from the start of play to the seat's first ``HandFour``;
a round that ends first (someone else's call) censors it, so the comparison is a log-rank test and the medians
are Kaplan-Meier medians (scipy.stats), not medians of the finished times only.
"""

from __future__ import annotations

import math

from scipy.stats import CensoredData, binomtest, ecdf, logrank

from kemps_sim import simulate_match
from kemps_sim.trace import HandFour, PlayStarted

MATCHES = 40


def time_to_four(rounds, seats) -> CensoredData:
    """Per round and seat: seconds from the start of play to the seat's first four of a kind, right-censored at the
    end of the round. Seats dealt four of a kind are left out (they did not collect it)."""
    done, censored = [], []
    for rnd in rounds:
        start = next(e.time for e in rnd.trace if type(e) is PlayStarted)
        for seat in seats:
            fours = [e.time for e in rnd.trace if type(e) is HandFour and e.seat == seat and e.rank >= 0]
            if fours and fours[0] == 0.0:
                continue
            if fours:
                done.append(fours[0] - start)
            else:
                censored.append(rnd.end_time - start)
    return CensoredData(uncensored=done, right=censored)


def km_median(data: CensoredData) -> float:
    """The Kaplan-Meier median (inf if the survival curve never reaches one half)."""
    sf = ecdf(data).sf
    below = [q for q, p in zip(sf.quantiles, sf.probabilities, strict=True) if p <= 0.5]
    return float(below[0]) if below else math.inf


def test_collector_reaches_four_of_a_kind_sooner_than_random_and_wins_most_matches():
    results = [simulate_match("standard", "collector,random", seed=s) for s in range(MATCHES)]
    rounds = [rnd for r in results for rnd in r.rounds]
    collector, rand = time_to_four(rounds, (0, 2)), time_to_four(rounds, (1, 3))
    # 'less': the second sample (random) fails, i.e. reaches four, at a lower rate than the first (collector)
    test = logrank(rand, collector, alternative="less")
    assert test.pvalue < 1e-3, test
    assert km_median(collector) < km_median(rand)
    wins = sum(0 in r.winners for r in results)
    assert binomtest(wins, MATCHES, 0.5, alternative="greater").pvalue < 1e-3, wins
