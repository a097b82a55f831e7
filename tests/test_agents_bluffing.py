"""``bluffer``: a fake signal with three of a kind draws wrong Stop Kemps from a ``watcher``; when the partner is not
told (``partner_knows=False``) it calls Kemps on the fake and costs its own pair letters.

Counts are per round; two counts over different numbers of rounds are compared by the conditional binomial test
for Poisson rates (given k₁ + k₂ events, k₁ is binomial with p = n₁ / (n₁ + n₂) under equal rates).
"""

from __future__ import annotations

from scipy.stats import binomtest

from kemps_sim import simulate_match
from kemps_sim.trace import CallHeard, Scored

MATCHES = 40


def tally(opponent: str) -> dict[str, int]:
    """Over the matches: rounds, wrong Stop Kemps by the watcher pair (seats 0, 2), wrong Kemps by pair 1 and the
    letters those wrong Kemps cost pair 1."""
    counts = {"rounds": 0, "wrong_stops": 0, "wrong_kemps": 0, "letters_for_wrong_kemps": 0}
    for seed in range(MATCHES):
        result = simulate_match("standard", ["watcher", opponent], seed=seed)
        for rnd in result.rounds:
            counts["rounds"] += 1
            last = None
            for event in rnd.trace:
                if type(event) is CallHeard:
                    last = event
                    counts["wrong_stops"] += event.call == "stop_kemps" and not event.right and event.seat % 2 == 0
                    counts["wrong_kemps"] += event.call == "kemps" and not event.right and event.seat % 2 == 1
                elif type(event) is Scored and last is not None and last.call == "kemps" and not last.right \
                        and last.seat % 2 == 1:
                    counts["letters_for_wrong_kemps"] += event.letters[1]
    return counts


def more_often(a: dict[str, int], b: dict[str, int], key: str) -> float:
    """p-value of 'the rate of ``key`` per round is higher in a than in b'."""
    k = a[key] + b[key]
    return binomtest(a[key], k, a["rounds"] / (a["rounds"] + b["rounds"]), alternative="greater").pvalue if k else 1.0


def test_fakes_draw_wrong_stop_kemps_and_cost_letters_when_the_partner_is_not_told():
    honest, bluffers, untold = tally("collector"), tally("bluffer"), tally("bluffer(partner_knows=False)")
    # a pair that fakes draws wrong Stop Kemps from the watcher; an honest pair hardly any
    assert bluffers["wrong_stops"] > 5 * max(honest["wrong_stops"], 1)
    assert more_often(bluffers, honest, "wrong_stops") < 1e-3
    # told partners ignore the fakes; untold ones call a wrong Kemps on them and the pair takes the letter
    assert bluffers["wrong_kemps"] == 0
    assert more_often(untold, bluffers, "wrong_kemps") < 1e-3
    assert untold["letters_for_wrong_kemps"] == untold["wrong_kemps"] > 0
