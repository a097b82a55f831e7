"""The conformance check: every built-in passes it, and each kind of broken agent fails it with a message that
names the problem (an illegal swap, an exception, nondeterminism, a livelock, a factory that is not one).

Every built-in runs the documented default check: every preset, 4, 6 and 8 players, two seeds, three rounds (120
short matches, one to three seconds per agent). The broken agents below use ``SMALL`` (3 presets that differ in swap
rule and fresh-middle rule, 4 and 6 players, one seed, two rounds), which finds their faults just as well.
"""

from __future__ import annotations

import random
import re
import time

import kemps_sim_agents
import pytest

from kemps_sim import preset_names, registry
from kemps_sim.agent import BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.intents import Intent, Object, Swap, Wait
from kemps_sim.observation import Observation
from kemps_sim.testing import ConformanceError, ConformanceReport, _livelocked, check_agent
from tests.plugin_fixture.kemps_test_plugin import TesterAgent as PluginAgent  # not Test*: pytest would collect it

SMALL = dict(presets=("standard", "kems", "german"), players=(4, 6), seeds=range(1), max_rounds=2)
#: The built-in Kemps agents that play any table by name; the learned ones (``kemps_sim_agents.LEARNED``: ``ppo``) play
#: only the table their model was trained for, and tests/test_rl_train.py checks them there.
BUILTINS = [info.name for info in registry.list_agents() if info.origin == "built-in" and info.game == "kemps"
            and info.factory not in kemps_sim_agents.LEARNED]


@pytest.mark.parametrize("name", BUILTINS)
def test_every_builtin_passes_the_full_default_check(name):
    """Every preset, 4/6/8 players, two seeds, three rounds: 120 matches per agent."""
    report = check_agent(name)
    assert isinstance(report, ConformanceReport) and report.agent == name
    assert report.matches == 5 * 3 * 2 * 4 and report.rounds >= report.matches
    assert set(report.livelock) == set(preset_names())
    if name == "collector":  # the agent in one pair against itself is the baseline match: same timeouts
        assert report.timeouts == report.baseline_timeouts
    assert name in str(report)


def test_a_plugin_class_and_a_lineup_entry_string_pass():
    check_agent(PluginAgent, **SMALL)
    info = registry.list_agents()[0]
    entry = info.name + "".join(f"({k}={v!r})" for k, v in list(info.parameters.items())[:1])
    # the opponents keep an ear touch all match, as every pair did before signal conventions: on this one seed the
    # random pair's rounds then end as often as the baseline's allow (with the convention, one more hits the cap)
    assert check_agent(entry, **SMALL, opponents="collector(signal='ear', signal_policy='fixed')").agent == entry


class IllegalSwap(PluginAgent):
    """Gives away a middle card it does not hold once it has swapped a few times."""

    name = "illegal_swap"

    def decide(self, obs: Observation) -> Intent:
        if obs.playing and obs.middle and not obs.owed and obs.now > 1.0:
            return Swap((obs.middle[0],), (obs.middle[-1],))
        return super().decide(obs)


class Raises(PluginAgent):
    name = "raises"

    def decide(self, obs: Observation) -> Intent:
        if obs.now > 1.0:
            raise RuntimeError("boom in decide")
        return super().decide(obs)


class GlobalRandom(PluginAgent):
    """Hesitates at random, drawing from Python's global generator instead of the one the match gives it."""

    name = "global_random"

    def decide(self, obs: Observation) -> Intent:
        if not obs.owed and random.random() < 0.3:
            return Wait(timeout=0.05 + random.random())
        return super().decide(obs)


class Clock(PluginAgent):
    """Hesitates when the wall clock's nanoseconds say so."""

    name = "clock"

    def decide(self, obs: Observation) -> Intent:
        if not obs.owed and time.perf_counter_ns() % 3 == 0:
            return Wait(timeout=0.2)
        return super().decide(obs)


class PingPongObjector(BaseAgent):
    """Swaps its first card with the first middle card forever and objects to every stall: legal, deterministic,
    and the middle it keeps churning is never swept, so the rest of the table starves."""

    name = "ping_pong"

    def decide(self, obs: Observation) -> Intent:
        if obs.owed:
            return Swap((), obs.middle[:obs.owed])
        if obs.rules.fresh_middle == "stall_call" and obs.stall_pending_until is not None:
            return Object()
        if not obs.middle or obs.sweep_due:
            return Wait(timeout=0.3)
        return Swap((obs.hand[0],), (obs.middle[0],))


def failed_checks(error: ConformanceError) -> set[str]:
    return {f.check for f in error.failures}


def test_an_illegal_swap_is_caught_with_the_engine_refusal():
    with pytest.raises(ConformanceError) as caught:
        check_agent(IllegalSwap, **SMALL)
    message = str(caught.value)
    assert failed_checks(caught.value) == {"legal intents, no crash"}
    assert "agent illegal_swap failed" in message and "not in seat 0's hand" in message
    assert "[legal intents, no crash] standard, 4 players, seed 0, agent in every seat: agent illegal_swap at seat" \
        in message
    assert "agent in pair 0 against collector" in message


def test_an_exception_is_caught_and_named():
    with pytest.raises(ConformanceError, match=r"decide\(\) raised RuntimeError: boom in decide") as caught:
        check_agent(Raises, **SMALL)
    assert failed_checks(caught.value) == {"legal intents, no crash"}
    assert len(caught.value.failures) == 2 * 6  # every seat and one pair, in each of the 6 settings
    assert isinstance(caught.value, AssertionError)


@pytest.mark.parametrize("agent", [GlobalRandom, Clock])
def test_nondeterminism_is_caught(agent):
    with pytest.raises(ConformanceError, match=r"\[determinism\] standard, 4 players, seed 0") as caught:
        check_agent(agent, **SMALL)
    assert failed_checks(caught.value) == {"determinism"}
    assert "the same match played twice differed" in str(caught.value)


def test_a_livelock_is_caught_against_the_baseline():
    with pytest.raises(ConformanceError) as caught:
        check_agent(PingPongObjector, presets=("standard", "german"), players=(4, 6), seeds=range(1), max_rounds=2)
    assert failed_checks(caught.value) == {"livelock"}
    message = str(caught.value)
    assert re.search(r"\[livelock\] standard, agent in pair 0 against collector: [34] of 4 rounds hit the round cap "
                     r"\(max_round_seconds=60.0\) against [01] of 4 with collector in every seat", message)
    assert "[livelock] german, agent in pair 0 against collector" in message


def test_the_livelock_tolerance():
    assert _livelocked(4, 4, 0, 4) and _livelocked(3, 4, 0, 4)
    assert not _livelocked(2, 4, 0, 4)  # half the baseline's finished share: still live
    assert not _livelocked(1, 1, 0, 1)  # one round is not evidence
    assert _livelocked(9, 12, 3, 12) and not _livelocked(7, 12, 3, 12)
    assert not _livelocked(6, 6, 6, 6)  # a baseline that never finishes judges nothing


def test_a_factory_that_is_not_one_is_refused_before_any_match():
    with pytest.raises(ConformanceError, match=r"\[construction\].*has no decide\(\)"):
        check_agent(object)
    shared = PluginAgent()
    with pytest.raises(ConformanceError, match="returned the same object twice"):
        check_agent(lambda: shared)
    with pytest.raises(ConformanceError, match="the factory raised ZeroDivisionError"):
        check_agent(lambda: 1 / 0)


def test_bad_arguments_are_configuration_errors():
    with pytest.raises(ConfigError, match="unknown agent"):
        check_agent("nobody")
    with pytest.raises(ConfigError, match="at least one value"):
        check_agent(PluginAgent, seeds=())
