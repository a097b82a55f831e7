"""The learning baseline: a CI-sized MaskablePPO run that clearly beats its untrained network and random play under
paired seeds, the ``ppo`` agent that plays in a lineup exactly as the learner played in the environment, training
that is a function of its seed, the scripts, and the one-line errors of a model that cannot play.

The comparisons put two policies in the same role: each pair is one of them beside a collector, and every match
seed is played with the seating swapped, on the same deals. A seed counts for a policy when its pair won more of
the two matches; the one-sided sign test over the seeds that were not even must reject "neither is better" at 1%.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from scipy import stats

import kemps_sim.rl  # noqa: F401  (registers the Gymnasium environments)
from kemps_sim import load_rules, simulate_match
from kemps_sim.cli import main as cli
from kemps_sim.conformance import LIVELOCK, ConformanceError
from kemps_sim.errors import AgentError, ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.rl.policy import load_model, seat_policy
from kemps_sim.rl.seat import KempsSeatEnv
from kemps_sim.rl.training import TrainSettings, make_vec_env, train
from kemps_sim.rl.wrappers import first_match
from kemps_sim.testing import check_agent

ROOT = Path(__file__).resolve().parent.parent
#: The CI-sized run: a learner beside a collector against a collector pair, 160k environment steps (about a
#: minute and a half on one core).
CI_RUN = TrainSettings(lineups=("collector,collector",), steps=160_000)
#: A run of two rollouts: a network barely moved from its initial weights, for the tests that need any model.
TINY_RUN = TrainSettings(lineups=("collector,random",), steps=1024, envs=2, n_steps=512, batch_size=256, epochs=2)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("tiny")
    train(TINY_RUN, seed=3, out=folder)
    return folder / "model.zip"


def entry(path: Path, **params: object) -> str:
    extra = "".join(f", {k}={v!r}" for k, v in params.items())
    return f"ppo(path={str(path)!r}{extra})"


def beside_collectors(ours: str, theirs: str, place: int) -> list[str]:
    """``ours`` and ``theirs`` each beside a collector, ``ours`` at pair ``place``."""
    lineup = [theirs, theirs, "collector", "collector"]
    lineup[place] = ours
    return lineup


def sign_test(ours: str, theirs: str, seeds: range) -> tuple[int, int, float]:
    """Seeds on which ``ours``'s pair won more of the two seatings than ``theirs``'s, seeds on which it won fewer,
    and the one-sided sign test's p-value."""
    better = worse = 0
    for seed in seeds:
        score = 0.0
        for place in (0, 1):
            result = simulate_match("standard", beside_collectors(ours, theirs, place), seed=seed)
            score += 1.0 / len(result.winners) if place in result.winners else 0.0
        better += score > 1.0
        worse += score < 1.0
    return better, worse, stats.binomtest(better, better + worse, 0.5, alternative="greater").pvalue


def test_a_ci_sized_run_beats_its_untrained_network_and_random_play(tmp_path):
    result = train(CI_RUN, seed=0, out=tmp_path)
    assert result.steps >= CI_RUN.steps
    curve = list(csv.DictReader((tmp_path / "curve.csv").open()))
    assert len(curve) == len(result.curve) and int(curve[-1]["steps"]) == result.steps
    assert {row["seed"] for row in curve} == {"0"}
    rewards = [float(row["mean_reward"]) for row in curve]
    assert np.nanmean(rewards[-5:]) > np.nanmean(rewards[:5])
    trained, untrained = entry(tmp_path / "model.zip"), entry(tmp_path / "initial.zip")
    better, worse, p = sign_test(trained, untrained, range(20))
    assert p < 0.01, (better, worse, p)
    better, worse, p = sign_test(trained, "random", range(30))
    assert p < 0.01, (better, worse, p)


@pytest.mark.parametrize(("lineup", "seed"), [("collector,random", 1), ("collector,watcher", 4)])
def test_the_ppo_agent_plays_in_a_lineup_exactly_as_the_learner_played(tiny, lineup, seed):
    """An episode of the seat environment with sb3's own ``predict`` choosing, and the match with ``ppo`` at that
    seat: the same trace, event for event, over several rounds (the agent keeps the match clock as the
    environment does)."""
    model = load_model(tiny).model
    env = KempsSeatEnv("standard", lineup=lineup)
    obs, info = env.reset(seed=seed)
    assert info["match_seed"] == seed
    over = False
    while not over:
        action, _ = model.predict(obs["observation"], action_masks=obs["action_mask"].astype(bool),
                                  deterministic=True)
        obs, _, terminated, truncated, _ = env.step(int(action))
        over = terminated or truncated
    partner, opponent = lineup.split(",")
    played = simulate_match("standard", [entry(tiny), opponent, partner, opponent], seed=seed)
    assert len(played.rounds) > 1
    assert [r.trace for r in played.rounds] == [r.trace for r in env.session.result.rounds]


def test_a_drawn_policy_is_the_same_function_of_the_match_seed(tiny):
    lineup = [entry(tiny, deterministic=False), "random", "collector", "random"]
    first, again = (simulate_match("standard", lineup, seed=2) for _ in range(2))
    assert [r.trace for r in first.rounds] == [r.trace for r in again.rounds]
    chosen = [entry(tiny), "random", "collector", "random"]
    assert [r.trace for r in simulate_match("standard", chosen, seed=2).rounds] != [r.trace for r in first.rounds]


def test_training_is_a_function_of_its_seed_and_each_environment_has_its_own_matches():
    def weights(seed: int) -> torch.Tensor:
        return torch.cat([p.detach().flatten() for p in train(TINY_RUN, seed=seed).model.policy.parameters()])

    first = weights(5)
    assert torch.equal(first, weights(5)) and not torch.equal(first, weights(6))
    envs = make_vec_env(TINY_RUN, seed=5)
    envs.reset()
    assert [info["match_seed"] for info in envs.reset_infos] == [first_match(5, i) + 1 for i in range(2)]
    envs.close()


def test_a_model_that_cannot_play_is_a_one_line_error(tiny, tmp_path):
    with pytest.raises(ConfigError, match=r"^ppo.path = 'no/such.zip': no such file; give the path of a "
                                          r"MaskablePPO .zip written by scripts/train_ppo.py$"):
        simulate_match("standard", "ppo(path='no/such.zip')", seed=0)
    broken = tmp_path / "broken.zip"
    broken.write_text("not a model")
    with pytest.raises(ConfigError, match=r"^ppo.path = '.*broken.zip': not a MaskablePPO .zip"):
        simulate_match("standard", entry(broken), seed=0)
    older = tmp_path / "older"
    older.mkdir()
    (older / "model.zip").write_bytes(tiny.read_bytes())
    (older / "meta.json").write_text(json.dumps({"observation_version": "kemps-obs-v-1"}))
    with pytest.raises(ConfigError, match=r"trained on observations 'kemps-obs-v-1' \(its meta.json\); this version "
                                          r"encodes 'kemps-obs-v0': train the model again$"):
        simulate_match("standard", entry(older / "model.zip"), seed=0)
    with pytest.raises(ConfigError, match=r"ppo.deterministic = 'yes': must be True or False"):
        simulate_match("standard", entry(tiny, deterministic="yes"), seed=0)
    six = load_rules("standard", players=6)
    need = r"a model of 236 observations and 39 actions; allowed: a model of 297 and 41"
    with pytest.raises(ConfigError, match=rf"^ppo.path = '.*model.zip': {need}, as these rules") as caught:
        seat_policy(tiny, six, DEFAULT_REPERTOIRE, "ppo.path")
    assert "\n" not in str(caught.value)
    where = r"agent ppo\(path=.*\) at seat [03],.*decide\(\) raised ConfigError: ppo.path = "  # pair 0 of three
    with pytest.raises(AgentError, match=rf"{where}.*{need}"):
        simulate_match(six, [entry(tiny), "collector", "collector"], seed=0)
    with pytest.raises(AgentError, match=r"start_match\(\) raised ConfigError: ppo.path = None: give the model"):
        simulate_match("standard", "ppo", seed=0)


def test_listing_the_agents_imports_no_learning_library():
    code = ("import sys\nfrom kemps_sim.cli import main\nassert main(['agents']) == 0\n"
            "print([m for m in ('torch', 'sb3_contrib', 'stable_baselines3', 'gymnasium') if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "ppo" in done.stdout and done.stdout.strip().splitlines()[-1] == "[]"


def test_the_ppo_agent_plays_legally_and_deterministically_at_the_table_it_learnt(tiny):
    """The conformance check at the standard table of four, the one its model plays (every other preset and size
    needs a model of its own): no illegal intent, no crash, the same match for the same seed. Whether rounds stall
    is the model's play, not the agent's: this barely trained network churns the middle until the round cap, as
    the livelock check reports, and so may a trained one."""
    try:
        report = check_agent(entry(tiny), presets=("standard",), players=(4,), seeds=range(2), max_rounds=2)
    except ConformanceError as error:
        assert {failure.check for failure in error.failures} == {LIVELOCK}, str(error)
    else:
        assert report.matches == 2 * 4


def test_a_tournament_seats_a_trained_model(tiny, tmp_path, capsys):
    code = cli(["tournament", "collector", entry(tiny), "--matches", "1", "--serial", "--no-progress",
                "--output", str(tmp_path / "tournament")])
    assert code == 0
    assert "ppo(path=" in capsys.readouterr().out


def script(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / name), *args], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


def test_the_scripts_train_and_evaluate_and_refuse_bad_arguments_in_one_line(tmp_path):
    runs = tmp_path / "runs"
    done = script("train_ppo.py", "--seeds", "0", "1", "--steps", "512", "--envs", "2", "--n-steps", "256",
                  "--epochs", "1", "--lineup", "collector,random", "--workers", "1", "--out", str(runs))
    assert done.returncode == 0, done.stderr
    for seed in (0, 1):
        meta = json.loads((runs / f"seed-{seed}" / "meta.json").read_text())
        assert meta["seed"] == seed and meta["observation_version"] == "kemps-obs-v0"
        assert (meta["observations"], meta["actions"], meta["partners"]) == (236, 39, ["collector"])
        assert {"torch", "sb3-contrib", "kemps-sim", "git"} <= set(meta["versions"])
        assert meta["first_matches"] == [first_match(seed, 0), first_match(seed, 1)]
    done = script("evaluate_ppo.py", str(runs), "--matches", "1", "--opponents", "random", "naive", "--workers", "1")
    assert done.returncode == 0, done.stderr
    rates = {row["opponent"]: row for row in csv.DictReader((runs / "eval" / "win_rates.csv").open())}
    assert set(rates) == {"random", "naive", "all"} and rates["random"]["per_run"].count(" ") == 1
    matches = list(csv.DictReader((runs / "eval" / "matches.csv").open()))
    assert len(matches) == (2 + 1) * 2 * 1 * 2  # (runs + reference) x opponents x seeds x seatings
    assert {(row["run"], row["seed"], row["place"]) for row in matches if row["opponent"] == "random"} == {
        (run, "0", place) for run in ("0", "1", "-1") for place in ("0", "1")}
    for name, args, message in (
            ("train_ppo.py", ("--steps", "0", "--out", str(tmp_path)), "argument --steps: '0': must be a whole "
                                                                         "number >= 1"),
            ("train_ppo.py", ("--lineup", "nobody", "--out", str(tmp_path)), "lineup agent 'nobody': unknown agent"),
            ("evaluate_ppo.py", (str(tmp_path / "nowhere"),), "RUN_DIR"),
            ("evaluate_ppo.py", (str(runs), "--model", "other.zip"), "--model 'other.zip': no ")):
        done = script(name, *args)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, (name, done.stderr)
        assert message in done.stderr
