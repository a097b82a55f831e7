"""The belief's fitted constants (kemps_sim/belief/fitted.py) are what play with them measures today.

They are fitted to the play of the built-in agents (``scripts/fit_belief.py``), so any change of play can leave
them stale without a test failing elsewhere. This plays one pass of the script's own plan with the committed
constants (900 matches, about 40 s) and checks each fitted rate, and the prior's calibration per swap rule, against
what that pass measures, within five standard errors of the measurement (Poisson on the count of each rate's
events, the held share's standard error clustered by match): a refit moves a rate by well under one.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import expit

from kemps_sim.belief import fitted
from kemps_sim.calibration.belief import HAND_SIZE, SWAP_RULES, TABLE_SIZES, FitData, FitPlan, play

Z = 5.0


@pytest.fixture(scope="module")
def one_pass() -> FitData:
    return play(FitPlan())


def test_the_rates_are_what_play_with_them_measures(one_pass):
    tally, committed = one_pass.rates, fitted.RATES
    known, unknown = tally.steal[True], tally.steal[False]
    measured = {  # rate, standard error: a count's square root over the exposure
        "kemps_after_signal": (tally.kemps / tally.exposure, math.sqrt(tally.kemps) / tally.exposure),
        "steal_known": (known[0] / known[1], math.sqrt(known[0]) / known[1]),
        "steal_unknown": (unknown[0] / unknown[1], math.sqrt(max(unknown[0], 1.0)) / unknown[1]),
        "signal": (1 / float(np.mean(tally.gaps)), 1 / float(np.mean(tally.gaps)) / math.sqrt(len(tally.gaps))),
    }
    stale = {name: (committed[name], round(rate, 4), round(abs(rate - committed[name]) / se, 1))
             for name, (rate, se) in measured.items() if abs(rate - committed[name]) > Z * se}
    assert not stale, f"(committed, measured, standard errors apart): {stale}; run scripts/fit_belief.py"


def test_the_prior_is_calibrated_on_play_with_it(one_pass):
    """Mean predicted against observed share of seats holding four, per swap rule, with a standard error
    clustered by match (a seat's decisions in one match are far from independent)."""
    match = np.concatenate([np.full(len(rows), i) for i, rows in enumerate(one_pass.k)])
    k, still, elapsed = (np.concatenate(a) for a in (one_pass.k, one_pass.still, one_pass.elapsed))
    players, swap, label = (np.concatenate(a) for a in (one_pass.players, one_pass.swap, one_pass.label))
    modelled = (k >= 0) & (k < HAND_SIZE)
    for index, rule in enumerate(SWAP_RULES):
        rows = modelled & (swap == index)
        tables = np.array([fitted.PRIOR[rule][size] for size in TABLE_SIZES])
        residual = label[rows] - expit(tables[players[rows], k[rows], still[rows], elapsed[rows]])
        per_match = np.bincount(match[rows], weights=residual)
        se = math.sqrt(float(np.sum(per_match**2))) / len(residual)
        assert abs(float(residual.mean())) <= Z * se, (rule, float(residual.mean()), se)
