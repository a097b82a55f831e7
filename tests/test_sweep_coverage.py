"""The win-rate intervals of a real sweep cover the true value at their nominal rate.

Mirrored lineups (the same strategy in both pairs, the first dealer drawn at random) make the truth known: each
pair wins half the matches. Every cell varies the reaction time of all seats alike, so the cells are different
games with the same truth.
"""

from __future__ import annotations

import numpy as np
from scipy import stats as sps

from kemps_sim.stats import win_rates
from kemps_sim.sweep import load_results, run_sweep, spec_from_mapping
from tests.sweeps import SHORT_RULES

CELLS, MATCHES = 100, 16


def _exact_wilson_coverage(n: int, p: float, confidence: float = 0.95) -> float:
    """P(the Wilson interval of Binomial(n, p) covers p), summed exactly over the outcomes."""
    covered = 0.0
    for k in range(n + 1):
        low, high = sps.binomtest(k, n).proportion_ci(confidence, method="wilson")
        if low <= p <= high:
            covered += sps.binom.pmf(k, n, p)
    return covered


def test_win_rate_intervals_cover_one_half_on_mirrored_lineups(tmp_path):
    spec = spec_from_mapping({
        "sweep": {"name": "mirror", "seed": 11, "matches": MATCHES, "design": "random", "samples": CELLS,
                  "output": str(tmp_path / "mirror")},
        "base": {"rules": "standard", "set": dict(SHORT_RULES), "lineup": "collector"},
        "axes": {"profile.reaction.tau": {"low": 0.05, "high": 0.3}}})
    run_sweep(spec, workers=2, progress=False)
    results = load_results(tmp_path / "mirror")
    assert (results.matches["winners"] != "").all(), "a mirrored match ended without a winner"
    rates = win_rates(results.pairs, by=["cell"])
    pair0 = rates[rates["pair"] == 0]
    assert len(pair0) == CELLS and (pair0["n"] == MATCHES).all()
    covered = ((pair0["ci_low"] <= 0.5) & (pair0["ci_high"] >= 0.5)).mean()
    # The cells are independent, so the count covered is Binomial(CELLS, c) with c the exact coverage at n and
    # p = 0.5; 4 standard deviations of that share is the tolerance (a false alarm about once in 16,000 runs).
    c = _exact_wilson_coverage(MATCHES, 0.5)
    assert abs(covered - c) <= 4 * np.sqrt(c * (1 - c) / CELLS), (covered, c)
    # Pooled over every match, pair 0's share is 1/2 within 4 binomial standard deviations.
    total = CELLS * MATCHES
    assert abs(pair0["wins"].sum() / total - 0.5) <= 4 * np.sqrt(0.25 / total)
