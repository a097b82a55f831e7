"""A comparison's test and interval agree: p < alpha exactly when the (1 - alpha) interval leaves out 0.

Checked as a property over random sweep designs (one or two axes, common random numbers or not, few or many
matches, calls and fours clustered in matches, groups pooled over another axis or not), for every metric
``compare`` knows, paired and unpaired, at random confidence levels, on the numbers and on the printed text.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kemps_sim.stats import METRICS, compare, comparison_sentence, format_comparison
from kemps_sim.stats import _difference_tests as difference_tests
from kemps_sim.stats._dual import alpha_of, bootstrap_dual, constant_dual, miettinen_nurminen, t_dual, tango

FATES = ("kemps", "stolen", "uncalled", "broken")


def _design(seed: int, replicates: int, second_levels: int, crn: bool, edge: float) -> dict[str, pd.DataFrame]:
    """The tables of a random sweep: axis ``x`` (the compared one, levels 0 and 1) and axis ``y`` (1 to 3
    levels); group x = 1 plays a little better by ``edge``; replicate r plays seed 1000 + r in every cell under
    common random numbers, otherwise a seed of its own."""
    rng = np.random.default_rng(seed)
    matches, pairs, calls, fours = [], [], [], []
    luck = rng.random(replicates)  # a replicate's deal, the same in every cell under common random numbers
    for x in (0, 1):
        for y in range(second_levels):
            cell = f"x{x}y{y}"
            for r in range(replicates):
                match_seed = 1000 + r if crn else 100_000 * (2 * y + x + 1) + r
                base = luck[r] if crn else rng.random()
                keys = {"cell": cell, "x": x, "y": y, "replicate": r, "seed": match_seed}
                matches.append(keys)
                won0 = rng.random() < np.clip(0.3 + 0.4 * base + edge * x, 0, 1)
                for pair in (0, 1):
                    pairs.append({**keys, "pair": pair, "agents": f"agent{pair}", "won": won0 == (pair == 0),
                                  "letters": float(rng.poisson(2 + 2 * base + edge * x)), "points": 0,
                                  "rounds_won": int(rng.integers(0, 4)), "rounds": 5})
                for _ in range(int(rng.integers(0, 5))):
                    call = rng.choice(["kemps", "double_kemps", "stop_kemps"])
                    calls.append({**keys, "call": call, "right": bool(rng.random() < 0.6 + 0.3 * base),
                                  "four_to_call": float(rng.exponential(1.0 + base + edge * x))})
                for _ in range(int(rng.integers(0, 4))):
                    fours.append({**keys, "fate": str(rng.choice(FATES, p=[0.5, 0.3, 0.15, 0.05]))})
    keys = list(matches[0])
    columns = {"matches": keys, "pairs": [*keys, "pair", "agents", "won", "letters", "points", "rounds_won", "rounds"],
               "calls": [*keys, "call", "right", "four_to_call"], "fours": [*keys, "fate"]}
    frames = {"matches": matches, "pairs": pairs, "calls": calls, "fours": fours}
    return {name: pd.DataFrame(rows, columns=columns[name]) for name, rows in frames.items()}


def _agrees(result, confidence: float) -> None:
    alpha = alpha_of(confidence)
    values = (result.p_value, result.ci_low, result.ci_high)
    if any(math.isnan(v) for v in values):
        assert all(math.isnan(v) for v in values), result  # no test without an interval, and the reverse
        return
    assert result.ci_low <= result.ci_high
    excludes = result.ci_low > 0 or result.ci_high < 0
    assert (result.p_value < alpha) == excludes, result


_NUMBER = r"[+-]?(?:\d+\.?\d*(?:e[+-]?\d+)?|inf)"


def _printed_agrees(text: str, confidence: float) -> None:
    """The printed interval and p-value tell the same story as the numbers."""
    alpha = alpha_of(confidence)
    interval = re.search(rf"CI\s+\[({_NUMBER}),\s+({_NUMBER})\]", text)
    p = re.search(r"p (=|<) (\S+?)\)?$", text.splitlines()[-1])
    assert max(map(len, text.splitlines())) <= 100
    if interval is None or p is None:
        assert "n/a" in text or "p not defined" in text, text
        return
    low, high = float(interval.group(1)), float(interval.group(2))
    below = p.group(1) == "<" or float(p.group(2)) < alpha
    assert below == (low > 0 or high < 0), text


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), replicates=st.integers(2, 25), second_levels=st.integers(1, 3),
       crn=st.booleans(), edge=st.sampled_from([0.0, 0.15, 0.4]),
       confidence=st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_every_comparison_rejects_exactly_when_its_interval_leaves_out_zero(seed, replicates, second_levels, crn,
                                                                               edge, confidence, monkeypatch):
    monkeypatch.setattr(difference_tests, "RESAMPLES", 999)  # the agreement does not depend on the bootstrap's size
    tables = _design(seed, replicates, second_levels, crn, edge)
    for metric in METRICS:
        if metric == "points":
            continue  # these tables score letters
        for paired in (None, False):
            for by, a, b in (("x", 1, 0), ("cell", "x1y0", "x0y0")):
                result = compare(tables, metric, a, b, by=by, confidence=confidence, paired=paired,
                                 scoring="letters")
                _agrees(result, confidence)
                _printed_agrees(format_comparison(result, by=by), confidence)
                if not math.isnan(result.p_value):
                    sentence = comparison_sentence(result, by=by)
                    told = "a difference at the" in sentence
                    assert told == (result.p_value < alpha_of(confidence))


def test_groups_pooled_over_another_axis_pair_match_by_match():
    # Two levels of y: each group pools two cells that share seeds. The twin of a match is the match of the other
    # group with its seed and its y, so there are as many pairs as matches in a group, not replicates.
    tables = _design(seed=3, replicates=30, second_levels=2, crn=True, edge=0.2)
    result = compare(tables, "win_rate", 1, 0, by="x")
    assert result.paired and result.pairing == "match" and result.matched_on == ("y",)
    assert result.n_pairs == 60 and result.test == "mcnemar"
    won = tables["pairs"][tables["pairs"]["pair"] == 0].pivot_table(index=["replicate", "y"], columns="x",
                                                                      values="won", aggfunc="first")
    favour_a = int((won[1] & ~won[0]).sum())
    favour_b = int((won[0] & ~won[1]).sum())
    assert result.statistic == pytest.approx((favour_a - favour_b) / math.sqrt(favour_a + favour_b))
    text = " ".join(format_comparison(result, by="x").split())  # the text is wrapped to 100 columns
    assert "paired: 60 pairs of matches, each pair with the same seed and y" in text
    assert "McNemar's test on 60 pairs of matches" in text
    # Told not to match on y, the same groups pair by replicate: 30 units of two matches each.
    coarse = compare(tables, "win_rate", 1, 0, by="x", within=())
    assert coarse.pairing == "replicate" and coarse.n_pairs == 30 and coarse.test == "paired_ttest"
    assert "paired by replicate: 30 replicates" in " ".join(format_comparison(coarse, by="x").split())


def test_the_dual_pairs_agree_at_their_edges():
    # No spread: the sign test inverted. Five units that all differ by 0.2 cannot reject at 0.05 (p = 0.0625):
    # the interval is everything a share difference can be; six can (p = 0.03125): the interval is the point.
    assert constant_dual(0.2, 2 * 0.5**5, (-1.0, 1.0), 0.95)[:2] == (-1.0, 1.0)
    assert constant_dual(0.2, 2 * 0.5**6, (-1.0, 1.0), 0.95)[:2] == (0.2, 0.2)
    assert constant_dual(0.0, 2 * 0.5**6, (-1.0, 1.0), 0.95).p_value == 1.0
    # Tango's and Miettinen-Nurminen's statistics at 0 without any discordance or spread: p = 1, interval round 0.
    for dual in (tango(0, 0, 12, 0.95), miettinen_nurminen(0.0, 10, 0.0, 20, 0.95),
                 miettinen_nurminen(1.0, 10, 1.0, 20, 0.95)):
        assert dual.p_value == 1.0 and dual.ci_low < 0 < dual.ci_high
    # A t pair exactly at the quantile's edge is decided the same way by both.
    t = t_dual(1.96, 1.0, 10_000, 0.95)
    assert (t.p_value < 0.05) == (t.ci_low > 0)
    # The bootstrap: 248 of 9999 draws at or below 0 give p = 2 x 249 / 10000 < 0.05, 249 give p = 0.05 exactly,
    # which does not reject at 0.05 (not at 0.050000000000000044 either), and the lower limit follows.
    for below, rejects in ((247, True), (248, True), (249, False), (250, False)):
        drawn = np.concatenate([-np.ones(below), np.ones(9999 - below)])
        dual = bootstrap_dual(drawn, 0.95)
        assert (dual.p_value < 0.05) == rejects == (dual.ci_low > 0)
