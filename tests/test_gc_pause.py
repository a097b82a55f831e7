"""Matches collect garbage less often while they play and leave the interpreter's thresholds as they found them."""

from __future__ import annotations

import gc

import pytest

from kemps_sim import simulate_match
from kemps_sim.engine.gc_pause import MATCH_GC_THRESHOLD, fewer_collections


def test_the_thresholds_are_raised_inside_and_restored_after_even_on_error():
    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold()[0] == max(MATCH_GC_THRESHOLD, before[0])
        with fewer_collections():  # nested: still raised
            assert gc.get_threshold()[0] >= MATCH_GC_THRESHOLD
        assert gc.get_threshold()[0] >= MATCH_GC_THRESHOLD
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError("boom")
    assert gc.get_threshold() == before
    simulate_match("standard", "collector", seed=1)
    assert gc.get_threshold() == before
