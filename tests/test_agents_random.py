"""``random`` is legal under every swap rule, whatever it may move at once: fuzzed over seeds, presets and
``max_cards`` under strict engine checks (an illegal intent would end the match with an agent error)."""

from __future__ import annotations

import pytest

from kemps_sim import EngineConfig, load_rules, simulate_match

STRICT = EngineConfig(strict=True, max_round_seconds=90, max_rounds=4)


@pytest.mark.parametrize("preset", ["standard", "german", "kems"])  # one-for-one, multi, multi with drop first
@pytest.mark.parametrize("max_cards", [1, 2, 3, 4])
def test_random_is_legal_under_every_swap_rule(preset, max_cards):
    rules = load_rules(preset, players=6)
    for seed in range(12):
        lineup = f"random(max_cards={max_cards}, p_swap=0.9)"
        result = simulate_match(rules, [lineup, lineup, "collector"], seed=seed, config=STRICT, errors="record")
        assert result.end_reason != "agent_error", result.error


@pytest.mark.parametrize("k", [1, 2, 3])
def test_places_are_the_draws_numpy_choice_makes(k):
    """``places`` draws one place with ``Generator.integers``, more with ``choice``: the same places as
    ``sorted(choice(n, size=k, replace=False))`` and the stream left in the same state, for every size of hand
    and middle and many seeds (the random agent's matches stay as they were)."""
    import numpy as np
    from kemps_sim_agents.random_agent import places

    for seed in range(300):
        for n in range(k, 13):
            ours, numpy_s = np.random.default_rng(seed), np.random.default_rng(seed)
            assert places(ours, n, k) == sorted(int(i) for i in numpy_s.choice(n, size=k, replace=False))
            assert ours.bit_generator.state == numpy_s.bit_generator.state, (seed, n, k)
