"""Training the learning baseline: sb3-contrib's MaskablePPO on the seat environment, one run per seed.

A run trains an ``MlpPolicy`` on the ``kemps-obs-v0`` vector (:class:`~kemps_sim.rl.wrappers.VectorObservation`)
with the environment's action masks, over a vector of seat environments in one process (sb3's ``DummyVecEnv``:
an environment step costs a fraction of a millisecond, less than handing it to another process, so on a few cores
it is faster to train one seed per core than to spread one seed's environments over cores; ``vec="subproc"``
spreads them all the same). Environment ``i`` plays the ``i``-th lineup of the list (cycling), each the learner's
partner and opponents, on a stream of match seeds of its own (:func:`~kemps_sim.rl.wrappers.first_match`).

What is reproducible: the same seed, settings and library versions on the same machine train the same model (the
matches are functions of their seeds; PyTorch runs on the CPU with one thread, its generator, NumPy's global one,
which sb3 shuffles minibatches with, and Python's are seeded by sb3's ``set_random_seed``). Not reproducible: the
wall-clock columns, and a model trained on another CPU or PyTorch build, whose floating-point sums may differ.
"""

from __future__ import annotations

import csv
import functools
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

from kemps_sim.errors import ConfigError
from kemps_sim.rl.wrappers import first_match, training_env

#: The learner's partner is a collector; its opponents a mix of the evaluation's pairs, one per environment in turn.
DEFAULT_LINEUPS = ("collector,random", "collector,naive", "collector,collector", "collector,watcher")
#: The columns of a run's learning curve, one row per rollout.
CURVE_COLUMNS = ("seed", "steps", "episodes", "mean_reward", "mean_length", "wall_seconds")
VEC_KINDS = ("dummy", "subproc")


@dataclass(frozen=True)
class TrainSettings:
    """Everything a run depends on but its seed: the table, the lineups, the vector of environments, PPO's
    hyperparameters and the budget of environment steps."""

    rules: str | Mapping[str, Any] = "standard"
    players: int | None = None
    lineups: tuple[str, ...] = DEFAULT_LINEUPS
    seat: int = 0
    reward: str = "round"
    steps: int = 200_000
    envs: int = 8
    vec: str = "dummy"
    n_steps: int = 256  # per environment and rollout
    batch_size: int = 256
    epochs: int = 10
    learning_rate: float = 3e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    net: tuple[int, ...] = (128, 128)
    env_kwargs: dict[str, Any] = field(default_factory=dict)  # more arguments of KempsSeatEnv (profiles, config)

    def __post_init__(self) -> None:
        if self.vec not in VEC_KINDS:
            raise ConfigError(f"vec = {self.vec!r}: must be one of {', '.join(VEC_KINDS)}")
        for name in ("steps", "envs", "n_steps", "batch_size", "epochs"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{name} = {value!r}: must be a whole number >= 1")
        if not self.lineups:
            raise ConfigError("lineups = (): give at least one lineup")

    def env_arguments(self, index: int) -> dict[str, Any]:
        """The arguments of environment ``index``'s :class:`~kemps_sim.rl.seat.KempsSeatEnv`."""
        extra = {} if self.players is None else {"players": self.players}
        return {"rules": self.rules, "seat": self.seat, "reward": self.reward,
                "lineup": self.lineups[index % len(self.lineups)], **extra, **self.env_kwargs}


def _one_env(first: int, arguments: dict[str, Any]) -> Monitor:
    return Monitor(training_env(first, **arguments))


def make_vec_env(settings: TrainSettings, seed: int) -> VecEnv:
    """The run's vector of monitored seat environments, each on its own stream of matches."""
    factories = [functools.partial(_one_env, first_match(seed, i), settings.env_arguments(i))
                 for i in range(settings.envs)]
    return SubprocVecEnv(factories) if settings.vec == "subproc" else DummyVecEnv(factories)


def build_model(settings: TrainSettings, seed: int, env: VecEnv) -> MaskablePPO:
    """An untrained model: its initial weights are a function of ``seed`` (every global generator seeded)."""
    torch.set_num_threads(1)
    set_random_seed(seed)
    return MaskablePPO("MlpPolicy", env, n_steps=settings.n_steps, batch_size=settings.batch_size,
                       n_epochs=settings.epochs, learning_rate=settings.learning_rate, gamma=settings.gamma,
                       gae_lambda=settings.gae_lambda, ent_coef=settings.ent_coef,
                       policy_kwargs={"net_arch": list(settings.net)}, device="cpu", verbose=0)


class CurveCallback(BaseCallback):
    """One learning-curve row per rollout: steps so far, the episodes that ended in it with their mean reward and
    length (NaN when none did), and the wall seconds since training began; each row also appended to ``path`` (a
    CSV of :data:`CURVE_COLUMNS`) as it comes, if given, so that a run can be watched."""

    def __init__(self, seed: int, path: Path | None = None) -> None:
        super().__init__()
        self.seed = seed
        self.path = path
        if path is not None:
            write_curve(path, [])
        self.rows: list[dict[str, Any]] = []
        self.started = time.perf_counter()
        self._returns: list[float] = []
        self._lengths: list[int] = []

    def _on_training_start(self) -> None:
        self.started = time.perf_counter()

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", ()):
            episode = info.get("episode")
            if episode is not None:
                self._returns.append(float(episode["r"]))
                self._lengths.append(int(episode["l"]))
        return True

    def _on_rollout_end(self) -> None:
        done = len(self._returns)
        self.rows.append({"seed": self.seed, "steps": self.num_timesteps, "episodes": done,
                          "mean_reward": sum(self._returns) / done if done else math.nan,
                          "mean_length": sum(self._lengths) / done if done else math.nan,
                          "wall_seconds": round(time.perf_counter() - self.started, 3)})
        self._returns, self._lengths = [], []
        if self.path is not None:
            with self.path.open("a", newline="") as handle:
                csv.DictWriter(handle, fieldnames=CURVE_COLUMNS).writerow(self.rows[-1])


@dataclass
class TrainResult:
    """A finished run: its model, learning curve, and how long it took."""

    seed: int
    model: MaskablePPO
    curve: list[dict[str, Any]]
    steps: int
    wall_seconds: float

    @property
    def steps_per_second(self) -> float:
        """Environment steps per wall second, PPO's updates included."""
        return self.steps / self.wall_seconds if self.wall_seconds > 0 else math.nan


def train(settings: TrainSettings, seed: int, out: Path | None = None) -> TrainResult:
    """Train one run; with ``out``, write its untrained ``initial.zip``, its ``curve.csv`` as it goes and the trained
    ``model.zip``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"seed = {seed!r}: must be a whole number >= 0")
    env = make_vec_env(settings, seed)
    try:
        model = build_model(settings, seed, env)
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            model.save(out / "initial.zip")
        curve = CurveCallback(seed, None if out is None else out / "curve.csv")
        started = time.perf_counter()
        model.learn(total_timesteps=settings.steps, callback=curve)
        wall = time.perf_counter() - started
    finally:
        env.close()
    result = TrainResult(seed, model, curve.rows, int(model.num_timesteps), wall)
    if out is not None:
        model.save(out / "model.zip")
    return result


def write_curve(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """The learning curve as CSV (:data:`CURVE_COLUMNS`)."""
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CURVE_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


def settings_record(settings: TrainSettings) -> dict[str, Any]:
    """The settings as plain JSON values."""
    record = asdict(settings)
    record["lineups"] = list(settings.lineups)
    record["net"] = list(settings.net)
    return record
