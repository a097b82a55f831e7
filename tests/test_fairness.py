"""Fairness: with the same agent and profile in every seat, no pair and no seat is favoured."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import chisquare

from kemps_sim import load_rules, simulate_match

MATCHES = 150


@pytest.mark.parametrize("players", [4, 6, 8])
def test_mirrored_lineups_give_every_pair_and_seat_a_fair_share(players):
    rules = load_rules("standard", players=players)
    pairs = rules.pairs
    wins = np.zeros(pairs)
    seat_calls = np.zeros(players)
    for seed in range(MATCHES):
        result = simulate_match(rules, "collector", seed=seed)
        for pair in result.winners:
            wins[pair] += 1 / len(result.winners)
        for rnd in result.rounds:
            for event in rnd.trace:
                if type(event).__name__ == "CallHeard" and event.right:
                    seat_calls[event.seat] += 1
    fair = 1 / pairs
    tolerance = 4 * math.sqrt(fair * (1 - fair) / MATCHES)
    assert np.all(np.abs(wins / MATCHES - fair) < tolerance), wins
    # Every seat makes right calls equally often: a chi-square test at a strict level (seeds are fixed).
    assert chisquare(seat_calls).pvalue > 0.001, seat_calls
