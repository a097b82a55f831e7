"""The built-in agents as a zoo: every one registered, documented and configurable by flat hyperparameters, every one
playing full matches under every preset at 4, 6 and 8 players with strict conservation checks (any illegal intent
raises AgentError and fails the test), and deterministic."""

from __future__ import annotations

import itertools

import kemps_sim_agents
import pytest

from kemps_sim import EngineConfig, load_rules, preset_names, simulate_match
from kemps_sim.agent import BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.registry import builtin_agents

NAMES = [cls.name for cls in kemps_sim_agents.BUILTINS]
STRICT = EngineConfig(strict=True, max_round_seconds=120)


def test_builtins_are_registered_in_a_stable_order_with_name_description_and_sourced_docstring():
    assert NAMES == ["random", "naive", "collector", "feeder", "camouflage", "watcher", "bluffer", "cautious",
                     "eager"]
    assert list(builtin_agents()) == NAMES + ["ppo"] + [cls.name for cls in kemps_sim_agents.KREPET_BUILTINS]
    for cls in kemps_sim_agents.BUILTINS:
        assert issubclass(cls, BaseAgent)
        assert isinstance(cls.description, str) and cls.description and "\n" not in cls.description
        module_doc = __import__(cls.__module__, fromlist=["_"]).__doc__ or ""
        assert cls.__doc__ and (cls.name == "random" or any(s in cls.__doc__ + module_doc
                                                             for s in ("000", "001", "003", "004")))


@pytest.mark.parametrize("cls", kemps_sim_agents.BUILTINS, ids=NAMES)
def test_hyperparameters_are_stored_as_given_and_clone_round_trips(cls):
    agent = cls()
    params = agent.get_params()
    assert list(params) == list(cls.param_names())
    assert "signal" in params and "signal_policy" in params
    twin = agent.clone(signal="nose", signal_policy="random")
    assert type(twin) is cls and twin.signal == "nose" and twin.signal_policy == "random"
    assert {k: v for k, v in twin.get_params().items() if k not in ("signal", "signal_policy")} == {
        k: v for k, v in params.items() if k not in ("signal", "signal_policy")}
    assert repr(agent).startswith(f"{cls.name}(")


@pytest.mark.parametrize(("entry", "fragment"), [
    ("collector(switch_after=0)", "switch_after"),
    ("cautious(threshold=1.5)", "threshold"),
    ("eager(signal_policy='sometimes')", "signal_policy"),
    ("watcher(caution=0)", "caution"),
    ("collector(stop='yes')", "stop"),
    ("eager(threshold=1.0)", "threshold"),
    ("bluffer(fake_prob=2)", "fake_prob"),
    ("camouflage(churn=-1)", "churn"),
    ("feeder(hurry=0)", "hurry"),
    ("collector(attention='everywhere')", "attention"),
])
def test_bad_hyperparameters_are_refused_with_the_parameter_named(entry, fragment):
    with pytest.raises(ConfigError, match=fragment):
        simulate_match("standard", entry, seed=0)


def test_lineup_strings_reach_the_flat_hyperparameters():
    result = simulate_match("standard", "collector,watcher(threshold=0.9, caution=1.5)", seed=3)
    assert result.agents[1] == "watcher(threshold=0.9, caution=1.5)"
    assert result.end_reason == "match_over"


@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("players", [4, 6, 8])
def test_every_builtin_plays_full_strict_matches_under_every_preset(preset, players):
    """Each built-in takes one pair (and, at 4 players, faces the collector pair; at 6 and 8 the others are
    collectors, so that even ``random`` sits in a match that ends). Strict mode checks conservation after every
    change; a refused intent would raise AgentError."""
    rules = load_rules(preset, players=players)
    for name in NAMES:
        lineup = [name] + ["collector"] * (rules.pairs - 1)
        for seed in (players, 100 + len(name)):
            result = simulate_match(rules, lineup, seed=seed, config=STRICT)
            assert result.end_reason == "match_over", (name, preset, players, seed)
            assert result.winners


@pytest.mark.parametrize("policy", ["fixed", "change_when_seen", "random"])
def test_signal_policies(policy):
    """fixed keeps the starting signal; change_when_seen switches exactly after rounds whose calls cued the pair's
    signal, to a gesture not used before; random draws from the allowed signals."""
    result = simulate_match("standard", [f"collector(signal='ear', signal_policy={policy!r})",
                                         "collector(signal='ear', signal_policy='fixed')"], seed=5)
    used = [rnd.signals[0] for rnd in result.rounds]
    assert all(rnd.signals[1] == "ear" for rnd in result.rounds)
    if policy == "fixed":
        assert set(used) == {"ear"}
    elif policy == "change_when_seen":
        assert used[0] == "ear"
        for before, after, rnd in zip(used, used[1:], result.rounds, strict=False):
            cued = any(type(e).__name__ == "CallHeard" and e.cue == before
                       and (e.seat if e.accused < 0 else e.accused) % 2 == 0 for e in rnd.trace)
            assert (after != before) == cued
        switched = [after for before, after in itertools.pairwise(used) if after != before]
        assert len(switched) == len(set(switched)) and "ear" not in switched and "blink" not in switched
    else:
        assert len(set(used)) > 1 and set(used) <= set(DEFAULT_REPERTOIRE.names)


def test_signal_choice_respects_silent_rules():
    result = simulate_match("german", "collector(signal_policy='random')", seed=2)
    assert all("word" not in rnd.signals for rnd in result.rounds)


def test_same_seed_same_match_for_every_builtin():
    for name in NAMES:
        first = simulate_match("kems", [name, "collector"], seed=9)
        again = simulate_match("kems", [name, "collector"], seed=9)
        assert [r.trace for r in first.rounds] == [r.trace for r in again.rounds], name
