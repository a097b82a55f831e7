"""Agents contained on every executor: a decide() that loops, sleeps, calls sys.exit or raises KeyboardInterrupt is
recorded as that agent's error (naming agent, seat and seed) in the match and in serial, process and Dask sweeps,
which finish; a real Ctrl-C still stops; a killed worker process is replaced and its chunk run again.

The misbehaving agents are a plugin (``tests/plugin_fixture/kemps_hostile_plugin``) installed for the test the way
pip leaves one, on ``PYTHONPATH``, so that worker processes and Dask workers find them by name.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from kemps_sim import EngineConfig, registry, simulate_match, simulate_round
from kemps_sim.agent import BaseAgent
from kemps_sim.engine.guard import GRACE_SECONDS
from kemps_sim.errors import AgentError
from kemps_sim.intents import Gesture, Wait
from kemps_sim.sweep import load_results, plan_tasks, run_sweep, spec_from_mapping
from tests.sweeps import SHORT_RULES, all_tables
from tests.test_registry import install_fake_distribution

FIXTURE = Path(__file__).parent / "plugin_fixture"
HOSTILE = {"looper": "Looper", "sleeper": "Sleeper", "exiter": "Exiter", "interrupter": "Interrupter",
           "killer": "Killer"}
#: Wall-clock limit for the tests' agents: short, so the hung ones cost little time.
LIMIT = 0.5


class Idle(BaseAgent):
    name = "idle"

    def decide(self, obs):
        return Wait()


def _agent(name: str, body) -> BaseAgent:
    return type(name.capitalize(), (Idle,), {"name": name, "decide": body})()


def _loops(self, obs):
    while True:
        pass


def _swallows(self, obs):
    """Catches every exception, the interrupt too, and loops on: its thread must be abandoned. It gives up after
    a few seconds, so that the thread does not burn a core for the rest of the test session."""
    until = time.monotonic() + 3 * LIMIT + 2 * GRACE_SECONDS
    while time.monotonic() < until:
        try:
            while time.monotonic() < until:
                pass
        except BaseException:
            pass


def _sleeps(self, obs):
    time.sleep(3600)


def _exits(self, obs):
    sys.exit(3)


def _interrupts(self, obs):
    raise KeyboardInterrupt


class _Custom(BaseException):
    pass


def _raises_base(self, obs):
    raise _Custom("not an Exception")


QUIET = EngineConfig(fidgets=False, max_round_seconds=3.0, decide_timeout=LIMIT)
FAULTS = {"loops": (_loops, "did not return within 0.5 s"), "swallows": (_swallows, "did not return within 0.5 s"),
          "sleeps": (_sleeps, "did not return within 0.5 s"), "exits": (_exits, "decide() raised SystemExit: 3"),
          "interrupts": (_interrupts, "decide() raised KeyboardInterrupt"),
          "base": (_raises_base, "decide() raised _Custom: not an Exception")}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_misbehaving_decide_is_recorded_as_that_agents_error(fault):
    body, expected = FAULTS[fault]
    result = simulate_match("standard", [Idle(), _agent(fault, body), Idle(), Idle()], seed=2, errors="record",
                            config=QUIET)
    assert result.end_reason == "agent_error" and result.winners == ()
    assert f"agent {fault}() at seat 1, round 1" in result.error and "seed 2" in result.error
    assert expected in result.error


@pytest.mark.parametrize("fault", ["loops", "exits", "interrupts"])
def test_the_same_faults_raise_an_agent_error_when_asked_to(fault):
    body, expected = FAULTS[fault]
    with pytest.raises(AgentError, match=f"agent {fault}\\(\\) at seat 1.*seed 4.*{re.escape(expected)}"):
        simulate_round("standard", [Idle(), _agent(fault, body), Idle(), Idle()], seed=4, config=QUIET)


def test_a_hung_start_or_signal_choice_is_caught_too():
    class HangsAtStart(Idle):
        name = "hangs"

        def start_match(self, seat, players, rng):
            time.sleep(3600)

    class ExitsChoosing(Idle):
        name = "chooser"

        def choose_signal(self, obs):
            sys.exit(1)

    started = simulate_match("standard", [HangsAtStart(), Idle()], seed=1, errors="record", config=QUIET)
    assert "agent hangs() at seat 0, before the first deal, seed 1: start_match() did not return" in started.error
    chose = simulate_match("standard", [ExitsChoosing(), Idle()], seed=1, errors="record", config=QUIET)
    assert "agent chooser() at seat 0, before round 1, seed 1: choose_signal() raised SystemExit" in chose.error


def test_a_seat_that_decides_without_end_is_stopped_by_the_decision_budget():
    class Restless(Idle):
        name = "restless"

        def decide(self, obs):
            return Wait(timeout=0.01)

    config = EngineConfig(fidgets=False, max_decisions_per_round=300)
    result = simulate_match("standard", [Idle(), Restless(), Idle(), Idle()], seed=3, errors="record", config=config)
    assert result.end_reason == "agent_error"
    assert "agent restless() at seat 1, round 1" in result.error
    assert "more than 300 decisions in one round (engine.max_decisions_per_round)" in result.error
    again = simulate_match("standard", [Idle(), Restless(), Idle(), Idle()], seed=3, errors="record", config=config)
    assert again.error == result.error  # a budget, not a clock: the same seed ends at the same decision


def test_the_budget_default_leaves_the_busiest_built_in_agent_room():
    # The random agent decides most; its rounds at human timings stay well inside the default budget.
    result = simulate_match("standard", "random", seed=0, errors="record")
    assert result.end_reason == "match_over" and EngineConfig().max_decisions_per_round >= 4 * 1100


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs POSIX signals")
def test_a_real_ctrl_c_stops_a_match_whose_agent_never_returns():
    config = EngineConfig(fidgets=False, decide_timeout=None)
    # Python's own Ctrl-C handler, as in a terminal: a process started in the background by a non-interactive
    # shell inherits SIGINT ignored, and this test must not wait for the agent's hour there.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            simulate_match("standard", [Idle(), _agent("sleeps", _sleeps), Idle(), Idle()], seed=2, config=config)
    finally:
        signal.signal(signal.SIGINT, before)
    assert time.monotonic() - started < 30  # not the agent's hour: the match stopped at the Ctrl-C


def test_no_limit_and_a_well_behaved_agent_change_nothing():
    limited = simulate_match("standard", "collector", seed=9)
    unlimited = simulate_match("standard", "collector", seed=9, config=EngineConfig(decide_timeout=None))
    assert limited.rounds == unlimited.rounds and limited.winners == unlimited.winners


# Sweeps -----------------------------------------------------------------------------------------------------------
@pytest.fixture
def hostile_plugin(tmp_path, monkeypatch):
    """The hostile agents installed as a plugin here and in every process a sweep starts."""
    dist = tmp_path / "site"
    dist.mkdir()
    install_fake_distribution(dist, "kemps_hostile_plugin", "0.1",
                              {name: f"kemps_hostile_plugin:{cls}" for name, cls in HOSTILE.items()})
    paths = [str(FIXTURE), str(dist)]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("KEMPS_HOSTILE_PARENT", str(os.getpid()))
    for path in paths:
        monkeypatch.syspath_prepend(path)
    registry.clear_cache()
    yield tmp_path
    registry.clear_cache()
    sys.modules.pop("kemps_hostile_plugin", None)


def _spec(output: Path, lineups: list[str], matches: int = 2, **sweep):
    return spec_from_mapping({
        "sweep": {"name": "hostile", "seed": 11, "matches": matches, "output": str(output), "chunk": 2, **sweep},
        "base": {"rules": "standard", "set": dict(SHORT_RULES), "lineup": "collector",
                 "engine": {"decide_timeout": LIMIT}},
        "axes": {"lineup": lineups}})


EXECUTORS = {"serial": {"workers": 1}, "workers": {"workers": 2}, "dask": {"scheduler": "local", "workers": 2}}


@pytest.mark.parametrize("executor", sorted(EXECUTORS))
def test_misbehaving_agents_are_recorded_and_the_sweep_finishes_on_every_executor(hostile_plugin, executor):
    lineups = ["collector,looper", "collector,sleeper", "collector,exiter", "collector,interrupter",
               "collector,collector"]
    spec = _spec(hostile_plugin / "out", lineups)
    run = run_sweep(spec, progress=False, **EXECUTORS[executor])
    assert run.complete and not run.interrupted and run.failures == 8
    matches = load_results(hostile_plugin / "out").matches
    for lineup, expected in zip(lineups, ["did not return within 0.5 s", "did not return within 0.5 s",
                                          "decide() raised SystemExit: 3", "decide() raised KeyboardInterrupt",
                                          None], strict=True):
        rows = matches[matches["lineup"] == lineup]
        assert len(rows) == 2
        if expected is None:
            assert set(rows["end_reason"]) == {"match_over"}
            continue
        name = lineup.split(",")[1]
        assert set(rows["end_reason"]) == {"agent_error"}
        for seed, error in zip(rows["seed"], rows["error"], strict=True):
            assert f"agent {name} at seat " in error and f"seed {seed}:" in error
            assert expected in error


def test_misbehaving_agents_give_the_same_tables_on_every_executor(hostile_plugin):
    lineups = ["collector,looper", "collector,exiter", "collector,interrupter"]
    tables = {}
    for name, how in EXECUTORS.items():
        run_sweep(_spec(hostile_plugin / name, lineups), progress=False, **how)
        tables[name] = all_tables(hostile_plugin / name)
    for name in ("workers", "dask"):
        for table in tables["serial"]:
            pd.testing.assert_frame_equal(tables[name][table], tables["serial"][table])


@pytest.mark.parametrize("executor", ["workers", "dask"])
def test_a_worker_killed_mid_sweep_is_replaced_and_the_tables_are_complete(hostile_plugin, monkeypatch, executor):
    lineups = ["collector,killer(p=0.5)", "collector,collector"]
    reference = _spec(hostile_plugin / "reference", lineups, matches=6)
    run_sweep(reference, progress=False, workers=1)  # the test's own process: the killer never kills here
    monkeypatch.setenv("KEMPS_HOSTILE_KILL_MARKER", str(hostile_plugin / "killed-once"))
    run = run_sweep(_spec(hostile_plugin / "killed", lineups, matches=6), progress=False, **EXECUTORS[executor])
    assert (hostile_plugin / "killed-once").exists(), "no worker was killed: the test tested nothing"
    assert run.complete and run.failures == 0
    killed, whole = all_tables(hostile_plugin / "killed"), all_tables(hostile_plugin / "reference")
    for table in whole:
        pd.testing.assert_frame_equal(killed[table], whole[table])


def test_a_match_that_kills_every_worker_is_recorded_as_crashed(hostile_plugin):
    lineups = ["collector,killer(p=0.3, always=True)", "collector,collector"]
    spec = _spec(hostile_plugin / "out", lineups, matches=4)
    reference = all_tables_of(_spec(hostile_plugin / "reference", lineups, matches=4), workers=1)
    run = run_sweep(spec, progress=False, workers=2)
    assert run.complete
    tables = all_tables(hostile_plugin / "out")
    crashed = tables["matches"][tables["matches"]["end_reason"] == "crashed"]
    assert len(crashed) >= 1, "no match killed its worker: the test tested nothing"
    assert crashed["error"].str.contains("worker process died").all()
    assert set(crashed["lineup"]) == {lineups[0]}
    # Every other match is stored exactly as an undisturbed run stores it.
    keys = set(zip(crashed["cell"], crashed["replicate"], strict=True))
    for name, table in tables.items():
        kept = [key not in keys for key in zip(reference[name]["cell"], reference[name]["replicate"], strict=True)]
        expected = reference[name][kept].reset_index(drop=True)
        mine = table[[key not in keys for key in zip(table["cell"], table["replicate"], strict=True)]]
        pd.testing.assert_frame_equal(mine.reset_index(drop=True), expected, check_dtype=False)
    assert len(plan_tasks(spec)[0]) == len(tables["matches"])


def all_tables_of(spec, **how) -> dict[str, pd.DataFrame]:
    run_sweep(spec, progress=False, **how)
    return all_tables(spec.output)


def test_gesturing_agents_are_unaffected_by_the_stopwatch():
    class Waver(Idle):
        name = "waver"

        def decide(self, obs):
            return Gesture(obs.signal) if obs.now < 1.0 else Wait()

    result = simulate_match("standard", [Waver(), Idle()], seed=5, config=QUIET, errors="record")
    assert result.end_reason != "agent_error"
