"""`EngineConfig.all_fidgets` (what `kemps-sim play --fidgets` turns on) adds the fidgets of gesture types nobody
watches to the trace and changes nothing else: the same match, event for event."""

from __future__ import annotations

import pytest

from kemps_sim import EngineConfig, load_rules, simulate_match
from kemps_sim.cli import main
from kemps_sim.trace import Gestured


@pytest.mark.parametrize(("preset", "lineup"), [("standard", "collector"), ("german", "collector,watcher"),
                                                ("kems", "collector,bluffer")])
def test_every_fidget_is_told_and_the_match_is_the_same(preset, lineup):
    rules = load_rules(preset)
    for seed in range(3):
        plain = simulate_match(rules, lineup, seed=seed)
        told = simulate_match(rules, lineup, seed=seed, config=EngineConfig(all_fidgets=True))
        assert told.standings == plain.standings and len(told.rounds) == len(plain.rounds)
        for a, b in zip(plain.rounds, told.rounds, strict=True):
            fidgets = {e.gesture for e in a.trace if type(e) is Gestured}
            extra = [e for e in b.trace if type(e) is Gestured and e not in a.trace]
            assert extra and all(not e.deliberate for e in extra)
            assert [e for e in b.trace if e not in extra] == list(a.trace)
            assert {e.gesture for e in extra} - fidgets  # types the plain match left out


def test_play_fidgets_prints_fidgets(capsys):
    assert main(["play", "--seed", "1"]) == 0
    assert "(fidget); nobody noticed" not in capsys.readouterr().out
    assert main(["play", "--seed", "1", "--fidgets"]) == 0
    assert "(fidget); nobody noticed" in capsys.readouterr().out
