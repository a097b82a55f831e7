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
