"""``bluffer``: a fake signal with three of a kind draws wrong Stop Kemps from a ``watcher``; when the partner is not
told (``partner_knows=False``) it answers the fakes with wrong Kemps and costs its own pair letters, and a told partner
never does.

Counts are per round; two counts over different numbers of rounds are compared by the conditional binomial test
for Poisson rates (given k₁ + k₂ events, k₁ is binomial with p = n₁ / (n₁ + n₂) under equal rates). A wrong Kemps
*answered a fake* when the caller's last percept of its partner before it began to speak was of a deliberate gesture
made without four of a kind.
"""

from __future__ import annotations

from scipy.stats import binomtest

from kemps_sim import simulate_match
from kemps_sim.trace import CallHeard, Gestured, Perceived, Scored

MATCHES = 60
#: Every pair keeps an ear touch all match (the table before signal conventions): the fakes need a signal the
#: watchers know to look for from the first round.
EAR = "signal='ear', signal_policy='fixed'"


def tally(opponent: str) -> dict[str, int]:
    """Over the matches, watcher pair (seats 0, 2) against ``opponent`` (seats 1, 3): rounds, wrong Stop Kemps by
    the watchers, wrong Kemps by pair 1, those that answered a fake, and the letters pair 1's wrong Kemps cost it."""
    counts = {"rounds": 0, "wrong_stops": 0, "wrong_kemps": 0, "on_fakes": 0, "letters_for_wrong_kemps": 0}
    for seed in range(MATCHES):
        result = simulate_match("standard", [f"watcher({EAR})", opponent], seed=seed)
        for rnd in result.rounds:
            counts["rounds"] += 1
            fake_at: set[float] = set()  # when a deliberate gesture without four of a kind was made
            last_seen: dict[int, Perceived] = {}  # per seat, its last percept of its partner
            last = None
            for event in rnd.trace:
                kind = type(event)
                if kind is Gestured and event.deliberate and not event.holds_four:
                    fake_at.add(event.time)
                elif kind is Perceived and event.gesturer == (event.seat + 2) % 4:
                    last_seen[event.seat] = event
                elif kind is CallHeard:
                    last = event
                    counts["wrong_stops"] += event.call == "stop_kemps" and not event.right and event.seat % 2 == 0
                    if event.call == "kemps" and not event.right and event.seat % 2 == 1:
                        counts["wrong_kemps"] += 1
                        cue = last_seen.get(event.seat)
                        counts["on_fakes"] += cue is not None and cue.time <= event.started and cue.made_at in fake_at
                elif kind is Scored and last is not None and last.call == "kemps" and not last.right \
                        and last.seat % 2 == 1:
                    counts["letters_for_wrong_kemps"] += event.letters[1]
    return counts


def more_often(a: dict[str, int], b: dict[str, int], key: str) -> float:
    """p-value of 'the rate of ``key`` per round is higher in a than in b'."""
    k = a[key] + b[key]
    return binomtest(a[key], k, a["rounds"] / (a["rounds"] + b["rounds"]), alternative="greater").pvalue if k else 1.0


def test_fakes_draw_wrong_stop_kemps_and_an_untold_partner_answers_them_with_wrong_kemps():
    honest, told = tally(f"collector({EAR})"), tally(f"bluffer({EAR})")
    untold = tally(f"bluffer(partner_knows=False, {EAR})")
    # a pair that fakes draws wrong Stop Kemps from the watcher; an honest pair few
    assert told["wrong_stops"] > 3 * max(honest["wrong_stops"], 1)
    assert more_often(told, honest, "wrong_stops") < 1e-3
    # told partners set the fakes aside; untold ones answer them with wrong Kemps and the pair takes the letters
    assert told["on_fakes"] == 0
    assert untold["on_fakes"] >= 10
    assert more_often(untold, told, "wrong_kemps") < 1e-3
    assert untold["letters_for_wrong_kemps"] == untold["wrong_kemps"] > 0
