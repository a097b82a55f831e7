"""The Krepet learning environments: PettingZoo's and Gymnasium's conformance tests, the action mask against the
moves a player is shown, and episodes that are the games they describe."""

from __future__ import annotations

import dataclasses
import functools
import gc

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from kemps_sim_agents.krepet import Greedy
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import kemps_sim.rl  # noqa: F401  (registers the Gymnasium environments)
from kemps_sim.errors import ConfigError
from kemps_sim.krepet.legal import legal_moves
from kemps_sim.krepet.moves import Lay
from kemps_sim.krepet.realtime import KrepetConfig, play_krepet
from kemps_sim.krepet.retrace import positions
from kemps_sim.krepet.trace import CallHeard, Moved
from kemps_sim.rl import krepet_v0
from kemps_sim.rl.krepet_actions import CALL, HAND_PLACES, PASS, CallChance
from kemps_sim.rl.krepet_core import KrepetSession
from kemps_sim.rl.krepet_encoding import OBSERVATION_VERSION
from kemps_sim.rl.krepet_seat import KrepetSeatEnv

TABLES = [pytest.param({"learners": (0,)}, id="one-learner"), pytest.param({"learners": (0, 1)}, id="two-learners")]
#: Rules whose knobs reach every block of the action table between them.
RULES = [pytest.param(None, id="wikibooks"),
         pytest.param({"stack_moves": "any_run", "hand_access": "any", "talon_target": "talon_too",
                       "discard_top_to": "anywhere", "load_from": "anywhere", "take_back": "any_run",
                       "go_again_counts": "own_cards", "tableau_per_player": 3}, id="open"),
         pytest.param({"stack_moves": "top_only", "take_back": "none", "load_from": "hand_and_side",
                       "interrupted_move": "undone", "wrong_call": "skip_turn", "miss_callable": "next_move",
                       "draw_counts": [1]}, id="strict")]
SHORT = KrepetConfig(max_moves=1500)


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def _mostly_greedy(session: KrepetSession, seat: int, decision, rng: np.random.Generator) -> int:
    """Greedy's move (or a call) three times in four, else a random open action: games that end, and vary."""
    mask = session.actions.mask(decision)
    if rng.random() < 0.25:
        return _random_legal(mask, rng)
    if isinstance(decision, CallChance):
        return CALL
    return session.actions.action_of(Greedy().decide(decision), decision)


@pytest.mark.parametrize("kwargs", TABLES)
def test_pettingzoo_api_and_seed_tests_pass(kwargs):
    api_test(krepet_v0.env(**kwargs), num_cycles=200)
    seed_test(functools.partial(krepet_v0.env, **kwargs), num_cycles=100)
    parallel_api_test(krepet_v0.parallel_env(**kwargs), num_cycles=200)
    parallel_seed_test(functools.partial(krepet_v0.parallel_env, **kwargs), num_cycles=100)


def test_gymnasium_checks_the_seat_environment_and_makes_it_by_name():
    check_env(KrepetSeatEnv(), skip_render_check=True)
    env = gymnasium.make("kemps_sim/KrepetSeat-v0", lineup="careful", seat=1)
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    assert info["match_seed"] == 5 and info["observation_version"] == OBSERVATION_VERSION
    assert env.unwrapped.action_masks().dtype == bool
    env.close()


def test_the_parallel_view_lets_only_the_due_player_act():
    env = krepet_v0.parallel_env(learners=(0, 1))
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(60):
        due = env.agent_of[env.session.pending[0]]
        other = next(a for a in env.agents if a != due)
        assert obs[other]["action_mask"].sum() == 1 and obs[other]["action_mask"][PASS] == 1
        obs, *_ = env.step({a: _random_legal(obs[a]["action_mask"], rng) for a in env.agents})
        if not env.agents:
            break


@pytest.mark.parametrize("rules", RULES)
def test_the_mask_is_the_moves_the_player_is_shown_action_by_action(rules):
    """At every decision of whole games, an action's mask is 1 exactly when the move it stands for is one of the
    moves the engine shows the player (every legal move, less the ace-pile moves when it overlooked them), every
    shown move has an action, and a chance to call opens the two call actions alone."""
    session = KrepetSession(rules, learners=(0, 1), config=SHORT)
    actions = session.actions
    rng = np.random.default_rng(1)
    moves = calls = 0
    for seed in range(2):
        pending = session.reset(seed)
        while pending is not None:
            seat, decision = pending
            mask = actions.mask(decision)
            if isinstance(decision, CallChance):
                assert np.flatnonzero(mask).tolist() == [PASS, CALL]
                calls += 1
            else:
                shown = decision.moves
                legal = legal_moves(decision.state)
                assert set(shown) <= set(legal) and (decision.overlooked or shown == tuple(legal))
                for action in range(actions.size):
                    move = actions.intent(action, decision)
                    assert mask[action] == (move is not None and move in shown), (seed, actions.describe(action))
                assert mask.sum() == len(shown) and actions.unencoded(decision) == ()
                moves += 1
            pending = session.act(_mostly_greedy(session, seat, decision, rng))
    assert moves > 200 and calls > 5


def test_a_hand_card_below_the_tenth_place_has_no_action_and_is_never_offered():
    """The one kind of legal move without an action: under hand_access = "any" a hand kept across draws
    (drawn_leftovers = "keep_in_hand") can hold more cards than the actions name places for."""
    session = KrepetSession({"hand_access": "any", "drawn_leftovers": "keep_in_hand"}, learners=(0, 1), config=SHORT)
    rng = np.random.default_rng(4)
    deep = 0
    for seed in range(2):
        pending = session.reset(seed)
        while pending is not None:
            seat, decision = pending
            if not isinstance(decision, CallChance):
                hand = decision.state.hand[seat]
                unencoded = session.actions.unencoded(decision)
                assert all(isinstance(m, Lay) and m.src.kind == "hand" and hand.index(m.card) < len(hand) - HAND_PLACES
                           for m in unencoded)
                assert session.actions.mask(decision).sum() == len(decision.moves) - len(unencoded)
                deep += len(unencoded)
            pending = session.act(_mostly_greedy(session, seat, decision, rng))
    assert deep > 0


@pytest.mark.parametrize("learners", [(0,), (1,), (0, 1)])
def test_a_learner_choosing_as_greedy_would_plays_greedys_game_exactly(learners):
    """The environment adds nothing to the game: learners whose every answer is greedy's (its move; a call on every
    percept, as greedy calls) play the very game ``play_krepet`` plays with greedy in their chairs."""
    session = KrepetSession(lineup="greedy", learners=learners)
    greedy = Greedy()
    for seed in (0, 1):
        expected = play_krepet(None, "greedy", seed=seed)
        pending = session.reset(seed)
        while pending is not None:
            _seat, decision = pending
            if isinstance(decision, CallChance):
                pending = session.act(CALL)
            else:
                pending = session.act(session.actions.action_of(greedy.decide(decision), decision))
        got = session.result
        assert got.names == tuple("learner" if s in learners else "greedy" for s in (0, 1))
        assert dataclasses.replace(got, names=expected.names) == expected
        assert any(isinstance(e, CallHeard) for e in got.trace)


def test_a_game_in_the_calling_thread_is_the_contained_game():
    for seed in (2, 3):
        contained = play_krepet(None, "greedy,loader", seed=seed)
        assert play_krepet(None, "greedy,loader", seed=seed, contained=False) == contained


@pytest.mark.parametrize("reward", ["game", "cards"])
def test_an_episode_is_a_game_whose_trace_replays_and_whose_rewards_add_up(reward):
    env = KrepetSeatEnv(reward=reward, lineup="loader", habits={"lapse": 0.2})
    rng = np.random.default_rng(2)
    for seed in (0, 1):
        env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            decision = env.session.pending[1]
            _obs, rew, terminated, truncated, _info = env.step(_mostly_greedy(env.session, 0, decision, rng))
            total += rew
            done = terminated or truncated
        result = env.session.result
        assert result.seed == seed and result.names == ("learner", "loader")
        for _event, state in positions(result):  # the trace checker: a move or a call that cannot be is an error
            state.check()
        assert (state.cards_of(0), state.cards_of(1)) == result.cards_left
        if reward == "game":
            assert total == {0: 1.0, 1: -1.0, None: 0.0}[result.winner]
        else:
            assert total == pytest.approx((result.cards_left[1] - result.cards_left[0]) / 52)
            assert (total > 0) == (result.winner == 0)
        assert any(isinstance(e, Moved) and e.player == 0 for e in result.trace)


def test_the_same_seed_plays_the_same_episode():
    def episode(seed: int) -> tuple[list, list]:
        env = krepet_v0.env(learners=(0, 1), reward="cards")
        env.reset(seed=seed)
        rng = np.random.default_rng(7)
        seen, rewards = [], []
        for agent in env.agent_iter(max_iter=400):
            obs, rew, terminated, truncated, info = env.last()
            seen.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            rewards.append((agent, rew, info["since_decision"]))
            env.step(None if terminated or truncated else _random_legal(obs["action_mask"], rng))
        seen.append(env.unwrapped.state().tobytes())
        return seen, rewards

    assert episode(9) == episode(9)
    assert episode(9) != episode(10)


def test_a_game_left_half_played_is_closed_and_the_next_one_is_unchanged():
    thresholds = gc.get_threshold()
    env = KrepetSeatEnv(lineup="loader")
    obs, _ = env.reset(seed=3)
    for _ in range(10):
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    env.reset(seed=4)
    env.close()
    assert env.session.pending is None and gc.get_threshold() == thresholds
    again, fresh = KrepetSeatEnv(lineup="loader"), KrepetSeatEnv(lineup="loader")
    again.reset(seed=3)
    again.step(0)
    assert again.reset(seed=3)[0]["observation"].tobytes() == fresh.reset(seed=3)[0]["observation"].tobytes()


def test_the_observation_and_state_stay_in_the_unit_box():
    session = KrepetSession({"hand_access": "any", "stack_moves": "any_run"}, learners=(0, 1), config=SHORT)
    rng = np.random.default_rng(5)
    pending = session.reset(6)
    while pending is not None:
        for seat in (0, 1):
            obs = session.observe(seat)
            assert obs.shape == (session.encoder.size,) and obs.min() >= 0 and obs.max() <= 1
        state = session.state()
        assert state.min() >= 0 and state.max() <= 1
        pending = session.act(_mostly_greedy(session, pending[0], pending[1], rng))


def test_bad_arguments_are_refused_in_one_line():
    with pytest.raises(ConfigError, match=r"^learners = \(2,\): give one or both players, 0 and 1, each once$"):
        KrepetSession(learners=(2,))
    with pytest.raises(ConfigError, match="^reward = 'round': must be one of game, cards$"):
        KrepetSeatEnv(reward="round")
    with pytest.raises(ConfigError, match="^calls = 'never': must be one of learn, always$"):
        KrepetSeatEnv(calls="never")
    with pytest.raises(ConfigError, match="^habits.care = 1: not a habit; allowed: attention, criterion, lapse, "
                                          "checks_first$"):
        KrepetSeatEnv(habits={"care": 1})
    env = KrepetSeatEnv(illegal="raise")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ConfigError, match=f"^action {illegal} .*not allowed for player 0 now"):
        env.step(illegal)


def test_an_action_the_mask_forbids_is_played_as_the_fallback_and_reported():
    env = KrepetSeatEnv(calls="always")  # every decision a move
    _obs, info = env.reset(seed=0)
    first = env.session.pending[1]
    assert info["illegal_action"] is False and not first.state.drawn_this_turn
    _obs, _reward, _terminated, _truncated, info = env.step(CALL)  # a call is no move
    assert info["illegal_action"] is True
    done = False
    while not done:
        decision = env.session.pending[1]
        action = env.session.actions.action_of(Greedy().decide(decision), decision)
        _obs, _reward, terminated, truncated, info = env.step(action)
        assert info["illegal_action"] is False
        done = terminated or truncated
    played = next(e for e in env.session.result.trace if isinstance(e, Moved) and e.player == 0)
    assert played.decided_at == first.now and played.kind == "draw"  # the fallback: no end of turn before a draw
