"""``watcher`` learns across rounds: which gesture a pair signals with (from the calls it hears) and how far to trust
that pair's deliberate-looking gestures (from reveals, wrong calls and gestures followed by swaps).

Matches are played under the standard rules scored in points to 100, so that every match lasts exactly the capped
number of rounds and late rounds are as many as early ones; the watcher sits in pair 0. Counts are
per round. A pair that changes its signal does so only after a round, so round 0 is the very same round in both arms
of a comparison (same seeds): the difference between the arms is what the watcher learned.
"""

from __future__ import annotations

from scipy.stats import binomtest, fisher_exact

from kemps_sim import EngineConfig, load_rules, simulate_match
from kemps_sim.trace import CallHeard

LONG = load_rules("standard", scoring="points", target_points=100)


def stops_by_round(opponent: str, matches: int, rounds: int, watcher: str = "watcher") -> list[dict[str, int]]:
    """Per round index: rounds played and the watcher pair's right and wrong Stop Kemps."""
    tally = [{"rounds": 0, "right": 0, "wrong": 0} for _ in range(rounds)]
    for seed in range(matches):
        result = simulate_match(LONG, [watcher, opponent], seed=seed, config=EngineConfig(max_rounds=rounds))
        for rnd in result.rounds:
            row = tally[rnd.index]
            row["rounds"] += 1
            for event in rnd.trace:
                if type(event) is CallHeard and event.call == "stop_kemps" and event.seat % 2 == 0:
                    row["right" if event.right else "wrong"] += 1
    return tally


def pooled(rows: list[dict[str, int]]) -> dict[str, int]:
    return {key: sum(row[key] for row in rows) for key in ("rounds", "right", "wrong")}


def test_against_a_bluffing_pair_wrong_stop_kemps_fall_to_at_most_half_by_round_five():
    """The bluffers fake their signal with every fresh three of a kind; a watcher that has been burnt trusts that
    pair's gestures less. Measured: 150 matches of 8 rounds, watcher against bluffer (protocol agreed), both pairs
    keeping an ear touch all match."""
    tally = stops_by_round("bluffer(signal='ear', signal_policy='fixed')", matches=150, rounds=8,
                           watcher="watcher(signal='ear', signal_policy='fixed')")
    first, late = tally[0], pooled(tally[5:])
    assert first["rounds"] == 150 and late["rounds"] == 450
    first_rate, late_rate = first["wrong"] / first["rounds"], late["wrong"] / late["rounds"]
    assert first["wrong"] >= 30, first  # the fakes do bait wrong calls at first
    assert late_rate <= 0.5 * first_rate, (first, late)
    # and not by chance: given all these wrong calls, round 0's share is far above its share of rounds (1/4)
    test = binomtest(first["wrong"], first["wrong"] + late["wrong"], 1 / 4, alternative="greater")
    assert test.pvalue < 1e-6, test


def test_a_kept_signal_is_learned_and_changing_it_once_seen_removes_the_gain():
    """Against an honest pair that keeps its signal the watcher's right Stop Kemps rise after round 0; against the
    same pair changing its signal once seen called, the later rounds lose most of that rise. Measured: 300 matches
    of 6 rounds per arm, watcher (signalling with a chin touch itself, so that its own signal does not make it
    watch the other pair's) against collector (ear) with ``signal_policy`` fixed or change_when_seen."""
    watcher = "watcher(signal='chin', signal_policy='fixed')"
    keep = stops_by_round("collector(signal='ear', signal_policy='fixed')", matches=300, rounds=6, watcher=watcher)
    change = stops_by_round("collector(signal='ear', signal_policy='change_when_seen')", matches=300, rounds=6,
                            watcher=watcher)
    assert keep[0] == change[0]  # round 0 is the same round in both arms
    first = keep[0]["right"] / keep[0]["rounds"]
    kept, changed = pooled(keep[1:]), pooled(change[1:])
    gain_kept = kept["right"] / kept["rounds"] - first
    gain_changed = changed["right"] / changed["rounds"] - first
    assert gain_kept > 0.03, (first, kept)
    later_vs_first = fisher_exact([[kept["right"], kept["rounds"] - kept["right"]],
                                   [keep[0]["right"], keep[0]["rounds"] - keep[0]["right"]]], alternative="greater")
    assert later_vs_first.pvalue < 0.01, later_vs_first
    assert gain_changed <= 0.5 * gain_kept, (gain_kept, gain_changed)
    kept_vs_changed = fisher_exact([[kept["right"], kept["rounds"] - kept["right"]],
                                    [changed["right"], changed["rounds"] - changed["right"]]], alternative="greater")
    assert kept_vs_changed.pvalue < 1e-3, kept_vs_changed
