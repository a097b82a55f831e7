"""The agent registry: built-ins by name, plugins through the ``kemps_sim.agents`` entry points, and broken
plugins reported without breaking the others, through the Python API and ``kemps-sim agents``.

A plugin is "installed" at test time the way pip leaves one: a ``*.dist-info`` folder with ``METADATA`` and
``entry_points.txt`` on ``sys.path`` (in a tmp dir), next to the package it points at (``tests/plugin_fixture``).
"""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path

import kemps_sim_agents
import pytest

from kemps_sim import registry, simulate_match
from kemps_sim.cli import main
from kemps_sim.errors import ConfigError

FIXTURE = Path(__file__).parent / "plugin_fixture"


def install_fake_distribution(where: Path, name: str, version: str, entry_points: dict[str, str]) -> None:
    """Write the metadata pip would leave for a distribution declaring ``entry_points`` in our group."""
    info = where / f"{name}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    lines = "".join(f"{key} = {value}\n" for key, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\n{lines}")


@pytest.fixture
def clean_registry():
    """Discovery is cached per process: start and finish every test with an empty cache."""
    registry.clear_cache()
    yield
    registry.clear_cache()


@pytest.fixture
def plugin_env(tmp_path, monkeypatch, clean_registry):
    """kemps_test_plugin 0.1 installed with a class, a factory, a missing module, a non-agent and a clash."""
    install_fake_distribution(tmp_path, "kemps_test_plugin", "0.1", {
        "tester": "kemps_test_plugin:TesterAgent",
        "tester-factory": "kemps_test_plugin:make_tester",
        "broken": "kemps_test_plugin_missing:Nope",
        "not-an-agent": "kemps_test_plugin:NOT_AN_AGENT",
        "bad.name": "kemps_test_plugin:TesterAgent",
        first_builtin(): "kemps_test_plugin:TesterAgent",
    })
    monkeypatch.syspath_prepend(str(FIXTURE))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "kemps_test_plugin", raising=False)
    registry.clear_cache()
    yield tmp_path
    registry.clear_cache()
    sys.modules.pop("kemps_test_plugin", None)


def first_builtin() -> str:
    return registry.builtin_classes()[0].name


def by_name() -> dict[str, registry.AgentInfo]:
    return {info.name: info for info in registry.list_agents()}


def test_builtins_are_listed_in_their_order_with_descriptions_and_defaults(clean_registry):
    classes = registry.builtin_classes()
    infos = registry.list_agents()[:len(classes)]  # the built-ins come first; installed plugins follow them
    assert [i.name for i in infos] == [cls.name for cls in classes]
    for info, cls in zip(infos, classes, strict=True):
        assert info.origin == "built-in" and info.factory is cls
        assert info.description and "\n" not in info.description
        assert list(info.parameters) == list(cls.param_names())
        assert info.parameters == cls().get_params()  # the defaults __init__ stores
        assert registry.agent_class(info.name) is cls
    assert registry.plugin_errors() == []


def test_builtins_come_from_agents_builtins_when_the_package_exports_it(monkeypatch, clean_registry):

    fallback = registry.builtin_classes()
    monkeypatch.setattr(kemps_sim_agents, "KEMPS_BUILTINS", tuple(reversed(fallback)), raising=False)
    registry.clear_cache()
    listed = [i.name for i in registry.list_agents() if i.origin == registry.BUILT_IN]
    assert listed == [cls.name for cls in reversed(fallback)]


def test_unknown_agent_is_one_line_listing_the_known_names(clean_registry):
    with pytest.raises(ConfigError, match="unknown agent") as caught:
        registry.agent_class("nobody")
    message = str(caught.value)
    assert "\n" not in message and "'nobody'" in message
    for info in registry.list_agents():
        assert info.name in message


def test_discovery_is_cached_until_cleared(tmp_path, monkeypatch, clean_registry):
    before = registry.list_agents()
    install_fake_distribution(tmp_path, "kemps_test_plugin", "0.1", {"tester": "kemps_test_plugin:TesterAgent"})
    monkeypatch.syspath_prepend(str(FIXTURE))
    monkeypatch.syspath_prepend(str(tmp_path))
    assert registry.list_agents() == before  # the cache still holds the first look
    registry.clear_cache()
    assert [i.name for i in registry.list_agents()] == [i.name for i in before] + ["tester"]
    sys.modules.pop("kemps_test_plugin", None)


def test_a_plugin_is_listed_after_the_builtins_with_its_distribution(plugin_env):
    infos = registry.list_agents()
    names = [i.name for i in infos if i.origin in (registry.BUILT_IN, "kemps_test_plugin")]  # not others installed
    builtins = [cls.name for cls in registry.builtin_classes()]
    assert names == [*builtins, "tester", "tester-factory"]  # built-ins first, then plugins sorted by name
    tester = by_name()["tester"]
    assert tester.origin == "kemps_test_plugin" and tester.target == "kemps_test_plugin:TesterAgent"
    assert tester.parameters == {"patience": 1.5, "resignal": 3.0}
    assert tester.description.startswith("test plugin:")
    factory = by_name()["tester-factory"]
    assert factory.parameters == {"patience": 1.5}
    assert factory.description.startswith("Factory entry point")  # no attribute: the docstring's first line


def test_a_plugin_plays_in_a_lineup_with_its_hyperparameters(plugin_env):
    result = simulate_match("standard", "tester,collector", seed=1)
    assert result.agents[:2] == ("tester", "collector") and result.rounds
    assert result.end_reason in ("match_over", "round_cap")
    tuned = simulate_match("german", "tester(patience=0.5),tester-factory(patience=1.0)", seed=2)
    assert tuned.rounds and tuned.end_reason in ("match_over", "round_cap")
    with pytest.raises(ConfigError, match="unknown parameter 'speed'; parameters: patience=1.5"):
        simulate_match("standard", "tester-factory(speed=2),collector", seed=1)


def test_broken_plugins_are_reported_by_name_and_do_not_stop_the_others(plugin_env):
    errors = {e.name: e for e in registry.plugin_errors()}
    assert set(errors) == {"broken", "not-an-agent", "bad.name", first_builtin()}
    assert errors["bad.name"].problem.startswith("not an agent name a lineup can write")
    assert errors["broken"].problem.startswith("failed to load: ModuleNotFoundError:")
    assert "kemps_test_plugin_missing" in errors["broken"].problem
    assert errors["broken"].distribution == "kemps_test_plugin"
    assert errors["not-an-agent"].problem.startswith("not an agent: loaded a int")
    assert "the built-in wins" in errors[first_builtin()].problem
    assert registry.agent_class(first_builtin()) is registry.builtin_classes()[0]  # the built-in wins the clash
    with pytest.raises(ConfigError, match="broken: failed to load: ModuleNotFoundError"):
        registry.agent_class("broken")


def test_a_name_two_plugins_claim_goes_to_the_first_distribution_by_name(plugin_env):
    install_fake_distribution(plugin_env, "zz_other_plugin", "2.0", {"tester": "kemps_test_plugin:make_tester"})
    registry.clear_cache()
    assert by_name()["tester"].origin == "kemps_test_plugin"
    clash = [e for e in registry.plugin_errors() if e.name == "tester"]
    assert len(clash) == 1 and clash[0].distribution == "zz_other_plugin"
    assert "clashes with the plugin 'tester' of kemps_test_plugin" in clash[0].problem


def test_agents_command_lists_every_agent_and_the_broken_plugins(plugin_env, capsys):
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    for info in registry.list_agents():
        assert f"{info.name}  [{info.origin}]" in lines
    assert "    parameters: patience=1.5, resignal=3.0" in lines
    assert any(line.startswith("broken: failed to load: ModuleNotFoundError: ") for line in lines)
    assert any(line.startswith("not-an-agent: not an agent: ") for line in lines)
    assert any(line.startswith(f"{first_builtin()}: clashes with the built-in") for line in lines)


def test_agents_command_json(plugin_env, capsys):
    assert main(["agents", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    agents = {a["name"]: a for a in data["agents"]}
    assert list(agents) == [i.name for i in registry.list_agents()]
    assert agents["tester"] == {"name": "tester", "description": by_name()["tester"].description,
                                "parameters": {"patience": 1.5, "resignal": 3.0}, "origin": "kemps_test_plugin",
                                "target": "kemps_test_plugin:TesterAgent",
                                "reasoning": by_name()["tester"].reasoning, "sources": [], "game": "kemps"}
    assert agents[first_builtin()]["origin"] == "built-in"
    assert agents["greedy"]["game"] == "krepet" and agents["greedy"]["sources"] == ["002"]
    problems = {e["name"]: e for e in data["plugin_errors"]}
    assert problems["broken"]["problem"].startswith("failed to load: ModuleNotFoundError")
    assert problems["broken"]["distribution"] == "kemps_test_plugin"


def test_agents_command_tells_every_builtins_reasoning_and_sources(clean_registry, capsys):
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    for cls in registry.builtin_classes():
        info = by_name()[cls.name]
        assert info.reasoning == inspect.cleandoc(cls.__doc__)
        assert info.details and info.details == inspect.cleandoc(sys.modules[cls.__module__].__doc__)
        if cls.name != "random" and cls not in kemps_sim_agents.LEARNED:  # the baseline and the learned follow none
            assert info.sources and all(s in ("000", "001", "002", "003", "004") for s in info.sources)
            assert f"    sources: {info.sources[0]} (" in out
    assert main(["agents", "watcher"]) == 0
    full = capsys.readouterr().out
    assert "How it reasons:" in full and "In detail:" in full and "adaptive" in full
    assert main(["agents", "nobody"]) == 2
    assert "agent 'nobody': unknown agent; allowed agents are" in capsys.readouterr().err


def test_agents_command_without_plugins(clean_registry, capsys):
    assert main(["agents", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    builtins = len(registry.builtin_classes())  # first; a game installed beside (examples/snap) may add plugins
    assert [a["origin"] for a in data["agents"][:builtins]] == ["built-in"] * builtins
    assert all(a["origin"] != "built-in" for a in data["agents"][builtins:])
    assert data["plugin_errors"] == []


def test_play_command_seats_a_plugin(plugin_env, capsys):
    assert main(["play", "--lineup", "tester,collector", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "pair 0 (seats 0 and 2: tester)" in out and out.strip().splitlines()[-1].startswith("winner: pair")
    assert main(["play", "--lineup", "broken,collector"]) == 2
    assert "broken: failed to load" in capsys.readouterr().err


@pytest.fixture
def exploding_plugin(tmp_path, monkeypatch, clean_registry):
    """A distribution whose only entry point, ``boom``, names a module that raises as soon as it is imported."""
    (tmp_path / "kemps_test_boom.py").write_text("raise RuntimeError('kemps_test_boom was imported')\n")
    install_fake_distribution(tmp_path, "kemps_test_boom", "0.1", {"boom": "kemps_test_boom:BoomAgent"})
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "kemps_test_boom", raising=False)
    registry.clear_cache()
    yield tmp_path
    registry.clear_cache()
    sys.modules.pop("kemps_test_boom", None)


def test_resolving_a_builtin_imports_no_plugin(exploding_plugin):
    assert registry.agent_class("collector") is registry.builtin_agents()["collector"]
    result = simulate_match("standard", "collector,random", seed=1)
    assert result.rounds
    assert "kemps_test_boom" not in sys.modules  # the plugin nobody named was never imported


def test_an_unknown_name_suggests_plugin_names_without_importing_them(exploding_plugin):
    with pytest.raises(ConfigError, match="unknown agent") as caught:
        registry.agent_class("nobody")
    message = str(caught.value)
    assert "\n" not in message and "boom" in message and "collector" in message
    assert "kemps_test_boom" not in sys.modules


def test_naming_a_plugin_imports_only_that_plugin(exploding_plugin, monkeypatch):
    install_fake_distribution(exploding_plugin, "kemps_test_plugin", "0.1", {"tester": "kemps_test_plugin:TesterAgent"})
    monkeypatch.syspath_prepend(str(FIXTURE))
    monkeypatch.delitem(sys.modules, "kemps_test_plugin", raising=False)
    registry.clear_cache()
    try:
        assert registry.agent_info("tester").origin == "kemps_test_plugin"
        assert "kemps_test_plugin" in sys.modules and "kemps_test_boom" not in sys.modules
        with pytest.raises(ConfigError, match="boom: failed to load: RuntimeError: kemps_test_boom was imported"):
            registry.agent_class("boom")  # naming it imports it, and the failure is one line
    finally:
        sys.modules.pop("kemps_test_plugin", None)


def test_listing_agents_imports_every_plugin_and_reports_the_broken_one(exploding_plugin, capsys):
    registry.agent_class("collector")
    assert "kemps_test_boom" not in sys.modules
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    assert any(line.startswith("boom: failed to load: RuntimeError: kemps_test_boom was imported")
               for line in out.splitlines())
    assert [e.name for e in registry.plugin_errors()] == ["boom"]
    assert "boom" not in [i.name for i in registry.list_agents()]


@pytest.fixture
def exiting_plugin(tmp_path, monkeypatch, clean_registry):
    """Entry points whose modules end the process at import (``sys.exit(3)``, ``sys.exit()``), one whose agent
    ends it when built, and one whose module is interrupted (Ctrl-C) at import."""
    (tmp_path / "kemps_test_exit.py").write_text("import sys\nsys.exit(3)\n")
    (tmp_path / "kemps_test_exit_bare.py").write_text("import sys\nsys.exit()\n")
    (tmp_path / "kemps_test_exit_build.py").write_text("import sys\n\ndef make():\n    sys.exit('no agent today')\n")
    (tmp_path / "kemps_test_ctrl_c.py").write_text("raise KeyboardInterrupt\n")
    install_fake_distribution(tmp_path, "kemps_test_exit", "0.1", {
        "exiter": "kemps_test_exit:Agent", "bare-exiter": "kemps_test_exit_bare:Agent",
        "build-exiter": "kemps_test_exit_build:make"})
    monkeypatch.syspath_prepend(str(tmp_path))
    modules = ("kemps_test_exit", "kemps_test_exit_bare", "kemps_test_exit_build", "kemps_test_ctrl_c")
    for module in modules:
        monkeypatch.delitem(sys.modules, module, raising=False)
    registry.clear_cache()
    yield tmp_path
    registry.clear_cache()
    for module in modules:
        sys.modules.pop(module, None)


def test_a_plugin_that_calls_sys_exit_is_reported_and_the_command_carries_on(exiting_plugin, capsys):
    errors = {e.name: e.problem for e in registry.plugin_errors()}
    assert errors == {"exiter": "failed to load: it called sys.exit(3) when imported",
                      "bare-exiter": "failed to load: it called sys.exit() when imported",
                      "build-exiter": "not an agent: building it without arguments, it called "
                                      "sys.exit('no agent today')"}
    assert main(["agents"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert ("exiter: failed to load: it called sys.exit(3) when imported (entry point kemps_test_exit:Agent of "
            "kemps_test_exit)") in lines
    assert main(["play", "--lineup", "exiter,collector", "--seed", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lineup agent 'exiter': a plugin that could not be used: exiter: failed to " \
                                   "load: it called sys.exit(3) when imported" in err
    spec = exiting_plugin / "spec.toml"
    spec.write_text(f'[sweep]\nseed = 1\nmatches = 1\noutput = "{exiting_plugin / "out"}"\n'
                    '[base]\nlineup = "exiter,collector"\n')
    assert main(["sweep", str(spec), "--serial", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "agent 'exiter': a plugin that could not be used: exiter: failed to load: it called sys.exit(3)" in err
    assert not (exiting_plugin / "out").exists()


def test_ctrl_c_while_a_plugin_is_imported_still_interrupts(exiting_plugin, capsys):
    install_fake_distribution(exiting_plugin, "kemps_test_ctrl_c", "0.1", {"interrupted": "kemps_test_ctrl_c:A"})
    registry.clear_cache()
    with pytest.raises(KeyboardInterrupt):
        registry.list_agents()
    assert main(["agents"]) == 130
    assert "interrupted (Ctrl-C)" in capsys.readouterr().err
