"""Play as it was: the fingerprints of every preset's traces (Kemps at 4, 6 and 8 players, Krepet) and of every
table of the quickstart's and Krepet's sweep specs, against those stored in tests/golden.json. A change meant to
leave the model alone must leave these alone; one meant to change play stores them anew (``python -m
tests.golden --write``) and says why in its commit."""

from __future__ import annotations

import json

from tests import golden


def test_traces_and_tables_are_as_stored():
    stored = json.loads(golden.STORE.read_text())
    now = golden.fingerprints()
    assert golden.differences(stored, now) == []
    assert sum(key.startswith("kemps ") for key in now) == 13 * 2 * 2  # 13 presets and sizes, two lineups, 2 seeds
    assert any(key.startswith("table krepet moves") for key in now)


def test_a_changed_match_is_found():
    """The comparison can fail: one event's time moved in the last digit kept, and a match gone."""
    stored = json.loads(golden.STORE.read_text())
    key = next(iter(stored))
    moved = {**stored, key: golden._digest([["Swapped", {"time": 1.00000000001}]])}
    assert golden.differences(stored, moved) == [f"changed: {key}"]
    assert golden.differences(stored, {k: v for k, v in stored.items() if k != key}) == [f"lost: {key}"]
    assert golden._digest([1.0000000000001]) == golden._digest([1.0])  # beyond 12 digits: a libm's last bit
    assert golden._digest([1.00000000001]) != golden._digest([1.0])
