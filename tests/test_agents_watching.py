"""``watcher`` learns the other pair's signal from the calls it hears.

Against a pair that keeps its signal, the watcher calls right Stop Kemps more often in later rounds than in the
first (where it knows nothing); against a pair that changes its signal once it has been seen called, that
advantage shrinks (the watcher keeps expecting the old gesture).

The watcher here reads gestures only (``take_weight=0, stillness=0``), so that what changes between rounds is what
it knows about signals; its other evidence is the same in every round. Matches are capped at three rounds: the
first round is the scarce sample. The first rounds of both arms are the very same rounds (same seeds, and a pair
changes its signal only after a round), so comparing the later rounds compares the advantages.
"""

from __future__ import annotations

from scipy.stats import fisher_exact

from kemps_sim import EngineConfig, simulate_match
from kemps_sim.trace import CallHeard

WATCHER = "watcher(take_weight=0.0, stillness=0.0)"
MATCHES = 300
CAP = EngineConfig(max_rounds=3)


def right_stops(opponent: str) -> tuple[list[int], list[int]]:
    """[rounds with a right Stop Kemps by the watcher pair, rounds] for first rounds and for later rounds."""
    first, later = [0, 0], [0, 0]
    for seed in range(MATCHES):
        result = simulate_match("standard", [WATCHER, opponent], seed=seed, config=CAP)
        for rnd in result.rounds:
            bucket = first if rnd.index == 0 else later
            bucket[0] += any(type(e) is CallHeard and e.call == "stop_kemps" and e.right and e.seat % 2 == 0
                             for e in rnd.trace)
            bucket[1] += 1
    return first, later


def table(a: list[int], b: list[int]) -> list[list[int]]:
    return [[a[0], a[1] - a[0]], [b[0], b[1] - b[0]]]


def test_watcher_learns_a_kept_signal_and_loses_the_advantage_against_a_pair_that_changes_it():
    keep_first, keep_later = right_stops("collector")
    change_first, change_later = right_stops("collector(signal_policy='change_when_seen')")
    assert keep_first == change_first  # the same first rounds: the design holds
    # against a pair that keeps its signal: later rounds beat the first
    assert keep_later[0] / keep_later[1] > keep_first[0] / keep_first[1]
    assert fisher_exact(table(keep_later, keep_first), alternative="greater").pvalue < 1e-3
    # against a pair that changes it: the later rounds fall back below the kept-signal ones
    assert fisher_exact(table(keep_later, change_later), alternative="greater").pvalue < 1e-3
    assert change_later[0] / change_later[1] - change_first[0] / change_first[1] < (
        keep_later[0] / keep_later[1] - keep_first[0] / keep_first[1])
