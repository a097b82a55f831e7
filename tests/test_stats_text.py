"""Estimates in words: the value, its interval, its level and n; and whether two intervals tell estimates apart."""

from __future__ import annotations

from kemps_sim import stats


def test_an_estimate_reads_with_its_interval_level_and_size():
    row = {"value": 0.4, "ci_low": 0.31, "ci_high": 0.495, "ci_level": 0.9, "n": 120}
    assert stats.estimate_text(row) == "40% [31%, 50%] (90% CI, n = 120)"
    assert stats.estimate_text({**row, "value": 2.46, "ci_low": 1.72, "ci_high": 3.3}, percent=False,
                               unit=" s") == "2.5 s [1.7 s, 3.3 s] (90% CI, n = 120)"


def test_overlapping_intervals_are_within_noise_and_separate_ones_are_not():
    a = {"value": 0.6, "ci_low": 0.5, "ci_high": 0.7}
    b = {"value": 0.45, "ci_low": 0.35, "ci_high": 0.55}
    c = {"value": 0.2, "ci_low": 0.1, "ci_high": 0.3}
    assert not stats.apart(a, b) and stats.apart(a, c) and stats.apart(c, a)
    assert "within noise" in stats.difference_text(a, b, ("x", "y"))
    assert stats.difference_text(a, c, ("x", "z")) == "the intervals of 'x' and 'z' do not overlap"
