"""The Kemps learning environments: PettingZoo's and Gymnasium's conformance tests, the action mask against the
engine's own check, episodes that are the matches they describe, and a learner held to the human model's times."""

from __future__ import annotations

import functools
import math

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from scipy import stats

import kemps_sim.rl  # noqa: F401  (registers the Gymnasium environments)
from kemps_sim import simulate_match
from kemps_sim.agent import BaseAgent
from kemps_sim.cards import RANK
from kemps_sim.engine import players as engine_players
from kemps_sim.errors import ConfigError
from kemps_sim.intents import WAIT, CallKemps, Swap, Wait
from kemps_sim.profiles import PlayerProfile
from kemps_sim.retrace import check_match
from kemps_sim.rl import kemps_v0
from kemps_sim.rl.core import KempsSession
from kemps_sim.rl.encoding import OBSERVATION_VERSION
from kemps_sim.rl.seat import KempsSeatEnv
from kemps_sim.trace import CallHeard, PlayStarted, RaceLost, Swapped

TABLES = [pytest.param({"rules": "standard", "learners": (0, 1, 2, 3)}, id="standard-4"),
          pytest.param({"rules": "standard", "players": 8, "learners": (0, 3, 5)}, id="standard-8"),
          pytest.param({"rules": "kems", "learners": (0, 1)}, id="kems-double-kemps")]


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("kwargs", TABLES)
def test_pettingzoo_api_and_seed_tests_pass(kwargs):
    api_test(kemps_v0.env(**kwargs), num_cycles=200)
    seed_test(functools.partial(kemps_v0.env, **kwargs), num_cycles=100)


@pytest.mark.parametrize("kwargs", TABLES)
def test_pettingzoo_parallel_api_and_seed_tests_pass(kwargs):
    parallel_api_test(kemps_v0.parallel_env(**kwargs), num_cycles=200)
    parallel_seed_test(functools.partial(kemps_v0.parallel_env, **kwargs), num_cycles=100)


def test_the_kems_table_offers_double_kemps_and_the_standard_one_does_not():
    for rules, allowed in (("kems", 1), ("standard", 0)):
        session = KempsSession(rules)
        _seat, view = session.reset(3)
        assert session.actions.describe(session.actions.layout.calls + 1) == "CallDoubleKemps()"
        assert session.actions.mask(view)[session.actions.layout.calls + 1] == allowed


def test_gymnasium_checks_the_seat_environment_and_makes_it_by_name():
    check_env(KempsSeatEnv(), skip_render_check=True)
    env = gymnasium.make("kemps_sim/KempsSeat-v0", lineup="collector,watcher", seat=1)
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    assert info["match_seed"] == 5 and info["observation_version"] == OBSERVATION_VERSION
    env.close()


def test_a_vector_of_seat_environments_plays_several_matches_at_once():
    envs = gymnasium.make_vec("kemps_sim/KempsSeat-v0", num_envs=3, vectorization_mode="sync")
    obs, infos = envs.reset(seed=11)
    assert list(infos["match_seed"]) == [11, 12, 13]
    rng = np.random.default_rng(0)
    for _ in range(50):
        actions = [_random_legal(mask, rng) for mask in obs["action_mask"]]
        obs, _rewards, _terminated, _truncated, infos = envs.step(actions)
        assert obs["observation"].shape == (3, envs.single_observation_space["observation"].shape[0])
    envs.close()


def test_bad_arguments_are_refused_in_one_line():
    with pytest.raises(ConfigError, match=r"learners = \(4,\): give one or more different seats from 0 to 3"):
        KempsSession(learners=(4,))
    with pytest.raises(ConfigError, match="reward = 'cash': must be one of round, match"):
        KempsSeatEnv(reward="cash")
    with pytest.raises(ConfigError, match="illegal = 'skip': must be one of wait, raise"):
        KempsSeatEnv(illegal="skip")
    env = KempsSeatEnv(illegal="raise")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ConfigError, match=f"action {illegal} .*not allowed for seat 0 now"):
        env.step(illegal)


def test_an_action_the_mask_forbids_is_played_as_the_fallback_and_reported():
    env = KempsSeatEnv()
    obs, info = env.reset(seed=0)
    assert info["illegal_action"] is False
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, _reward, _terminated, _truncated, info = env.step(illegal)
    assert info["illegal_action"] is True
    acted = [e for e in env.session.events if type(e) in (Swapped, RaceLost, CallHeard) and e.seat == 0]
    assert not acted  # it waited: no swap and no call of its own


def _checker_of_each_round(monkeypatch) -> list:
    """Every round's IntentChecker, as the engine builds them."""
    made: list = []
    original = engine_players.IntentChecker

    def keep(*args, **kwargs):
        made.append(original(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(engine_players, "IntentChecker", keep)
    return made


@pytest.mark.parametrize("rules", ["standard", "kems", "german", "party", "peanut_butter",
                                   {"preset": "standard", "swap": "multi_drop_first"},
                                   {"preset": "standard", "fresh_middle": "stall_call", "players": 6}])
def test_the_action_mask_is_the_engines_own_check_action_by_action(monkeypatch, rules):
    """At every decision of whole matches played by random legal actions, each action's mask says exactly what
    the engine's IntentChecker says of the intent it stands for (an action naming a place that is empty: 0)."""
    checkers = _checker_of_each_round(monkeypatch)
    session = KempsSession(rules, learners=(0, 1), lineup="collector")
    actions = session.actions
    rng = np.random.default_rng(1)
    decisions = 0
    for seed in range(3):
        pending = session.reset(seed)
        while pending is not None:
            seat, view = pending
            mask = actions.mask(view)
            for action in range(actions.size):
                try:
                    intent = actions.intent(action, view)
                except IndexError:
                    allowed = False
                else:
                    allowed = checkers[-1].problem(seat, intent) is None
                assert mask[action] == allowed, (seed, seat, actions.describe(action), view.hand, view.middle)
            pending = session.act(_random_legal(mask, rng))
            decisions += 1
        check_match(session.result)
    assert decisions > 100


@pytest.mark.parametrize("kwargs", [{"rules": "standard", "lineup": "collector,watcher"},
                                    {"rules": "german", "players": 6, "lineup": "random"},
                                    {"rules": {"preset": "kems", "swap": "multi_drop_first"}, "lineup": "naive"}])
def test_an_episode_is_a_match_whose_trace_replays(kwargs):
    env = KempsSeatEnv(**kwargs)
    rng = np.random.default_rng(2)
    for seed in (0, 1):
        obs, _ = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            obs, reward, terminated, truncated, _info = env.step(_random_legal(obs["action_mask"], rng))
            total += reward
            done = terminated or truncated
        result = env.session.result
        check_match(result)
        assert result.seed == seed and result.agents[0] == "learner"
        # the rewards add up to the pair's final relative score: its score less the others' mean, where a letter
        # counts -1, a point +1 and a round won +1
        final = result.standings
        scores = {"letters": [-x for x in final.letters], "points": list(final.points),
                  "rounds_won": list(final.rounds_won)}[result.rules.scoring]
        assert total == pytest.approx(scores[0] - np.mean(scores[1:]))
        assert total != 0 or not any(scores)


class Scripted(BaseAgent):
    """A test policy with every hook left to BaseAgent, as a learner seat's: swaps a random card now and then,
    calls Kemps after the partner's signal was noticed, else waits (sometimes with a timeout)."""

    name = "scripted"

    def decide(self, obs):
        hand, middle = obs.hand, obs.middle
        if any(p.gesturer == obs.partner and p.gesture == obs.signal for p in obs.percepts):
            return CallKemps()
        u = self.rng.random()
        if middle and u < 0.3:
            return Swap((hand[int(self.rng.integers(len(hand)))],), (middle[int(self.rng.integers(len(middle)))],))
        return Wait(0.5) if u < 0.6 else WAIT


def _agent_stream(seed: int, seat: int) -> np.random.Generator:
    """The generator the engine gives the agent at ``seat`` (kemps_sim.engine.match: key AGENT = 3)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(3, seat)))


def test_a_learner_choosing_as_an_agent_would_plays_that_agents_match_exactly():
    """The environment adds nothing to the game: a learner whose every action is what the scripted agent would
    do, from the same view and the same generator, plays the very match the engine plays with that agent."""
    lineup = [Scripted, "collector", "collector", "watcher"]
    for seed in (4, 5):
        expected = simulate_match("standard", lineup, seed=seed)
        session = KempsSession("standard", lineup=lineup, learners=(0,))
        agent = Scripted()
        agent.start_match(0, 4, _agent_stream(seed, 0))
        pending = session.reset(seed)
        while pending is not None:
            _seat, view = pending
            intent = agent.decide(view)
            matches = [a for a in np.flatnonzero(session.actions.mask(view))
                       if session.actions.intent(int(a), view) == intent]
            assert len(matches) == 1, intent
            pending = session.act(int(matches[0]))
        got = session.result
        assert len(got.rounds) == len(expected.rounds) > 1
        assert [r.trace for r in got.rounds] == [r.trace for r in expected.rounds]
        assert got.standings == expected.standings


def test_a_learners_times_are_the_human_models():
    """The learner's reach (decision to touch), speech (decision to the call heard) and first look of a round
    (play opening to its first decision: a reaction, the middle having been seen as it was dealt face up under the
    standard preset's ``start = immediate``) are drawn as any seat's: two-sample Kolmogorov-Smirnov tests against
    draws from the seat's profile, on fixed seeds, at the 0.1 % level."""
    session = KempsSession("standard", lineup="collector", learners=(0,))
    actions = session.actions
    calls, swaps_from = actions.layout.calls, actions.layout.swaps
    rng = np.random.default_rng(3)
    reach: list[float] = []
    speech: list[float] = []
    first: list[float] = []
    for seed in range(12):
        pending = session.reset(seed)
        decided: list[tuple[float, int, int]] = []  # (round time, round index, action)
        while pending is not None:
            _seat, view = pending
            swaps = np.flatnonzero(actions.mask(view)[swaps_from:]) + swaps_from
            u = rng.random()
            action = int(rng.choice(swaps)) if u < 0.5 and len(swaps) else calls if u < 0.52 else 0
            decided.append((view.now, view.round_index, action))
            pending = session.act(action)
        rounds = session.result.rounds
        firsts: dict[int, float] = {}
        for now, index, action in decided:
            firsts.setdefault(index, now)
            mine = [e for e in rounds[index].trace if e.time >= now and getattr(e, "seat", -1) == 0]
            if action == calls:
                heard = [e for e in mine if type(e) is CallHeard]
                if heard:
                    speech.append(heard[0].time - now)
            elif action >= swaps_from:
                ends = [e for e in mine if type(e) in (Swapped, RaceLost)]
                if ends and type(ends[0]) is Swapped:
                    reach.append(ends[0].time - now)
        for index, now in firsts.items():
            opened = next(e.time for e in rounds[index].trace if type(e) is PlayStarted)
            first.append(now - opened)
    profile = PlayerProfile()
    draws = np.random.default_rng(99)

    def drawn(name: str, count: int = 5000) -> np.ndarray:
        sampler = profile.sampler(name, draws)
        return np.array([sampler.next() for _ in range(count)])

    for name, got, model in (("reach", reach, drawn("reach")), ("speech", speech, drawn("speech")),
                             ("first look", first, drawn("reaction"))):
        assert len(got) >= 30, (name, len(got))
        assert min(got) > 0 and math.isfinite(max(got))
        assert stats.ks_2samp(got, model).pvalue > 0.001, (name, len(got), np.mean(got), np.mean(model))


def test_an_observation_holds_nothing_of_another_seats_hand_or_percepts(monkeypatch):
    """The encoding reads only the seat's own view: changing what other seats hold or noticed (the hidden part of
    the table) leaves the learner's observation as it was, while changing its own hand does not."""
    checkers = _checker_of_each_round(monkeypatch)
    session = KempsSession("standard", lineup="collector", learners=(0,))
    rng = np.random.default_rng(4)
    pending = session.reset(8)
    checked = 0
    while pending is not None and checked < 40:
        _, view = pending
        state = checkers[-1].state
        before = session.observe(0)
        hands, percepts = state.table.hands, state.percepts
        kept = [list(h) for h in hands], [list(p) for p in percepts]
        hands[1][0], hands[3][0] = hands[3][0], hands[1][0]
        hands[2].reverse()
        percepts[1].extend(percepts[0][-1:] or percepts[2][-1:])
        assert np.array_equal(session.observe(0), before)
        hands[0][0], hands[1][1] = hands[1][1], hands[0][0]
        changed = not np.array_equal(session.observe(0), before)
        for target, saved in zip((hands, percepts), kept, strict=True):
            for items, original in zip(target, saved, strict=True):
                items[:] = original
        assert changed or RANK[hands[0][0]] == RANK[hands[1][1]]
        checked += 1
        pending = session.act(_random_legal(session.actions.mask(view), rng))
    assert checked == 40



def test_matches_paused_side_by_side_and_closed_in_any_order_leave_the_collector_as_it_was():
    import gc

    before = gc.get_threshold()
    first, second = KempsSession(), KempsSession()
    first.reset(1)
    second.reset(2)
    first.close()
    assert gc.get_threshold() == before
    second.close()
    assert gc.get_threshold() == before


def test_profiles_are_checked_when_the_environment_is_made_and_then_used():
    with pytest.raises(ConfigError, match="profiles = 'slow': must be a PlayerProfile, a mapping of its fields"):
        KempsSeatEnv(profiles="slow")
    session = KempsSession(profiles={"reach": {"family": "fixed", "value": 0.9}})
    swaps = session.actions.layout.swaps
    _, view = session.reset(0)
    while not session.actions.mask(view)[swaps:].any():
        _, view = session.act(0)
    decided = view.now
    session.act(swaps + int(np.flatnonzero(session.actions.mask(view)[swaps:])[0]))
    touch = next(e for e in session.events if type(e) in (Swapped, RaceLost) and e.seat == 0 and e.time >= decided)
    assert touch.time - decided == pytest.approx(0.9)
