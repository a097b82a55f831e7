"""The engine asks agents only what can change their decisions (a "stalled" a seat has nothing to object to, a
patience the engine keeps: ``EngineConfig.all_looks`` off), and the game stays the same in distribution.

Measured: every preset at 4 players with the default lineup and the quickstart's (a collecting pair against a
watching one), and the standard rules at 6 and 8 players, each played twice on the same seeds (common random
numbers), once with every look (``all_looks = true``, the engine as it was, whose traces the golden fingerprints
keep) and once without; then every statistic of play of :func:`kemps_sim.calibration.equivalence.same_game` (how
rounds end, round length, swaps, stalls, races lost, percepts per gesture, Kemps and Stop precision, the fates of
fours, win rates) compared match by match, each difference with its Bonferroni interval at a family level of 95 %.
The same comparison, on as many matches, finds a patience a quarter shorter, so it can fail.
"""

from __future__ import annotations

import pytest

from kemps_sim import load_rules, simulate_match
from kemps_sim.calibration.equivalence import same_game
from kemps_sim.engine.checks import IntentChecker
from kemps_sim.engine.config import EngineConfig
from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.intents import WAIT_STALE, Wait
from kemps_sim.observation import Observation
from kemps_sim.state import FixedClock, RoundState
from kemps_sim.sweep import load_results, run_sweep, spec_from_mapping
from kemps_sim.table import TableState

#: A cell: about 900 rounds and 120 wins to compare, per version. At 60 a change of the callers' thresholds drew a
#: family-level false alarm (one of 170 differences: the kems collectors' win rates 0.3 against 0.6 on the first 60
#: seeds, 0.533 against 0.529 on 240, p = 0.91); the smallest p-value at 120 was 0.005, the Bonferroni bar 0.0003.
MATCHES = 120


def _looks_sweep(folder, base: dict, axes: dict, seed: int = 20261202):
    spec = spec_from_mapping({"sweep": {"name": "looks", "seed": seed, "matches": MATCHES, "output": str(folder)},
                              "base": base, "axes": {**axes, "engine.all_looks": [True, False]}})
    run_sweep(spec, workers=2, progress=False)
    return load_results(folder)


def test_fewer_looks_play_the_same_game(tmp_path):
    four = _looks_sweep(tmp_path / "four", {"players": 4},
                        {"rules": ["standard", "german", "party", "kems", "peanut_butter"],
                         "lineup": ["collector", "collector,watcher"]})
    found = same_game(four, "engine.all_looks", True, False, within=("rules", "lineup"))
    larger = _looks_sweep(tmp_path / "larger", {"rules": "standard"}, {"players": [6, 8]})
    found_larger = same_game(larger, "engine.all_looks", True, False, within=("players",))
    for table in (found, found_larger):
        assert len(table) >= 10 * 15 if table is found else len(table) >= 2 * 15
        differing = table[~table["same"]]
        assert differing.empty, differing.to_string()
    # The standard rules (stall_call) are where the looks differ: their matches are not simply the same ones.
    standard = found[(found["rules"] == "standard") & (found["statistic"] == "swaps_per_round")]
    assert (standard["difference"] != 0).all()


def test_the_comparison_finds_a_changed_model(tmp_path):
    """Everyone's patience with a middle a quarter shorter (a median of 4.5 s instead of 6): the same comparison,
    on as many matches, finds the rounds shorter, and nothing else."""
    spec = spec_from_mapping({"sweep": {"name": "patience", "seed": 5, "matches": MATCHES, "output": str(tmp_path)},
                              "base": {"rules": "standard"},
                              "axes": {"profile.patience.median": [4.5, 6.0]}})
    run_sweep(spec, workers=2, progress=False)
    found = same_game(load_results(tmp_path), "profile.patience.median", 4.5, 6.0).set_index("statistic")
    assert not found.loc["round_seconds", "same"]
    assert found.loc["round_seconds", "difference"] < 0


def test_every_look_is_the_engine_as_it_was():
    """With ``all_looks`` the engine keeps no patience and agents keep their own: no stale wait is ever chosen."""
    for config, kept in ((EngineConfig(all_looks=True), False), (EngineConfig(), True)):
        result = simulate_match("standard", seed=2, config=config)
        assert result.end_reason == "match_over"
        rules = load_rules("standard")
        table = TableState.unchecked(rules, [[0, 1, 2, 3], [4, 5, 6, 7], [], []], [8, 9, 10, 11])
        state = RoundState.start(rules, table, dealer=0, round_index=0, signals=("nose", "ear"),
                                 signals_allowed=("nose", "ear"), standings=result.standings, clock=FixedClock(3.0))
        if kept:
            state.patience[0][:] = [5.0]
        view, other = Observation(0, state), Observation(1, state)
        assert view.patience_left == (2.0 if kept else None)
        assert other.patience_left is None  # a view holds its own seat's patience only


@pytest.mark.parametrize("intent", [Wait(timeout=1.0, stale=True), Wait(stale="yes")])
def test_a_stale_wait_is_a_plain_flag_without_a_timeout(intent):
    rules = load_rules("standard")
    table = TableState.unchecked(rules, [[0, 1, 2, 3], [], [], []], [8, 9, 10, 11])
    state = RoundState.start(rules, table, dealer=0, round_index=0, signals=("nose", "ear"),
                             signals_allowed=("nose", "ear"), standings=simulate_match("standard", seed=1).standings,
                             clock=FixedClock())
    checker = IntentChecker(state, DEFAULT_REPERTOIRE)
    assert checker.problem(0, WAIT_STALE) is None
    problem = checker.problem(0, intent)
    assert problem is not None and "stale" in problem


def test_all_looks_is_a_validated_engine_setting():
    with pytest.raises(ConfigError, match=r"engine.all_looks = 'no': must be true or false"):
        EngineConfig(all_looks="no")  # type: ignore[arg-type]
