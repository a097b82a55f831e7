"""``cautious`` against ``eager``: collectors that differ only in the belief threshold for calling Kemps.

Both pairs of each match signal with a blink, a gesture everyone makes twenty times a minute, so that a partner's
percept of it is often a fidget: the cautious pair makes fewer wrong calls per round, and its right calls come later
(time from the holder's first signal to the pair's right Kemps, censored at the round's end: log-rank test).
"""

from __future__ import annotations

from scipy.stats import CensoredData, binomtest, logrank

from kemps_sim import simulate_match
from kemps_sim.trace import CallHeard, Gestured
from tests.test_agents_collecting import km_median

MATCHES = 60


def test_cautious_calls_wrongly_less_often_and_rightly_later_than_eager():
    wrong = [0, 0]
    done: list[list[float]] = [[], []]
    censored: list[list[float]] = [[], []]
    rounds = 0
    for seed in range(MATCHES):
        result = simulate_match("standard", ["cautious(signal='blink')", "eager(signal='blink')"], seed=seed)
        for rnd in result.rounds:
            rounds += 1
            signalled: dict[int, float] = {}
            for event in rnd.trace:
                if type(event) is Gestured and event.deliberate and event.holds_four:
                    signalled.setdefault(event.seat % 2, event.time)
            calls = [e for e in rnd.trace if type(e) is CallHeard and e.call == "kemps"]
            for pair in (0, 1):
                wrong[pair] += sum(1 for e in calls if e.seat % 2 == pair and not e.right)
                if pair in signalled:
                    right = [e.time for e in calls if e.seat % 2 == pair and e.right]
                    (done if right else censored)[pair].append((right[0] if right else rnd.end_time)
                                                               - signalled[pair])
    # same rounds for both pairs: under equal rates each wrong call is the cautious pair's with probability 1/2
    assert wrong[0] < wrong[1]
    assert binomtest(wrong[0], sum(wrong), 0.5, alternative="less").pvalue < 1e-3, wrong
    cautious, eager = (CensoredData(uncensored=done[p], right=censored[p]) for p in (0, 1))
    assert logrank(cautious, eager, alternative="less").pvalue < 1e-3
    assert km_median(cautious) > km_median(eager)
    assert rounds > 0
