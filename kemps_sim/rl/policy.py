"""A trained MaskablePPO model answering for one Kemps seat: the seat's view in, an intent out.

The view is encoded by the environment's own :class:`~kemps_sim.rl.encoding.ObservationEncoder` and masked by its
own :class:`~kemps_sim.rl.actions.KempsActions`, so the model is asked exactly what ``kemps_sim/KempsSeat-v0``
asked it in training, and it reasons only from what the seat may see. A model is loaded once per file and process
(a sweep's worker loads each file once, whatever the number of matches) and runs on the CPU with one thread.

A model file is an sb3 zip, which holds pickled objects: load only models you trust, as you would a plugin.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO

from kemps_sim.errors import ConfigError
from kemps_sim.gestures import Repertoire
from kemps_sim.intents import Intent
from kemps_sim.observation import Observation
from kemps_sim.rl.actions import KempsActions
from kemps_sim.rl.encoding import OBSERVATION_VERSION, ObservationEncoder
from kemps_sim.rules import Rules

#: What a model file is, for error messages.
MODEL_FILE = "a MaskablePPO .zip written by scripts/train_ppo.py"


@dataclass(frozen=True)
class LoadedModel:
    """A model as loaded from its file: the path given, the model, and the sizes of its spaces."""

    path: str
    model: Any  # sb3_contrib.MaskablePPO
    observations: int
    actions: int


_MODELS: dict[tuple[str, int, int], LoadedModel] = {}
_POLICIES: dict[tuple, SeatPolicy] = {}


def load_model(path: str | os.PathLike[str], field: str = "path") -> LoadedModel:
    """The model in ``path``, loaded once per process (again only if the file changed); ``field`` names the
    setting in the one-line :class:`ConfigError` of a missing or unreadable file."""
    shown = os.fspath(path) if isinstance(path, str | os.PathLike) else path
    if not isinstance(shown, str) or not shown:
        raise ConfigError(f"{field} = {path!r}: must be the path of {MODEL_FILE}")
    file = Path(shown)
    if not file.is_file():
        raise ConfigError(f"{field} = {shown!r}: no such file; give the path of {MODEL_FILE}")
    stat = file.stat()
    key = (str(file.resolve()), stat.st_mtime_ns, stat.st_size)
    loaded = _MODELS.get(key)
    if loaded is None:
        torch.set_num_threads(1)  # one small network per decision: more threads only add overhead
        try:
            model = MaskablePPO.load(file, device="cpu")
        except Exception as exc:
            problem = " ".join(str(exc).split())[:200] or type(exc).__name__
            raise ConfigError(f"{field} = {shown!r}: not {MODEL_FILE} ({type(exc).__name__}: {problem})") from None
        observation, action = model.observation_space, model.action_space
        if not (isinstance(observation, spaces.Box) and len(observation.shape) == 1
                and isinstance(action, spaces.Discrete)):
            raise ConfigError(f"{field} = {shown!r}: a model of {observation} and {action}; allowed: a vector "
                              f"observation (Box) and discrete actions, as {MODEL_FILE}")
        _check_version(file, field, shown)
        model.policy.set_training_mode(False)
        loaded = _MODELS[key] = LoadedModel(shown, model, int(observation.shape[0]), int(action.n))
    return loaded


def _check_version(file: Path, field: str, shown: str) -> None:
    """A ``meta.json`` beside the model (the training script writes one) must name this observation version."""
    meta = file.with_name("meta.json")
    if not meta.is_file():
        return
    try:
        version = json.loads(meta.read_text()).get("observation_version", OBSERVATION_VERSION)
    except (OSError, ValueError, AttributeError):
        return
    if version != OBSERVATION_VERSION:
        raise ConfigError(f"{field} = {shown!r}: trained on observations {version!r} (its meta.json); this version "
                          f"encodes {OBSERVATION_VERSION!r}: train the model again")


class SeatPolicy:
    """A loaded model for one table (rules and repertoire): the environment's encoder and action table, and the
    model's choice among the allowed actions."""

    def __init__(self, loaded: LoadedModel, rules: Rules, repertoire: Repertoire, field: str = "path") -> None:
        self.loaded = loaded
        self.encoder = ObservationEncoder(rules, repertoire.names)
        self.actions = KempsActions(rules, repertoire)
        need = (self.encoder.size, self.actions.size)
        if (loaded.observations, loaded.actions) != need:
            raise ConfigError(
                f"{field} = {loaded.path!r}: a model of {loaded.observations} observations and {loaded.actions} "
                f"actions; allowed: a model of {need[0]} and {need[1]}, as these rules ({rules.swap} swaps, "
                f"{rules.players} players) need: train one for them (scripts/train_ppo.py --rules)")
        self.policy = loaded.model.policy

    def action(self, vector: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None = None) -> int:
        """The action for an observation vector and its mask: the most probable allowed one (what
        ``model.predict(vector, action_masks=mask, deterministic=True)`` answers), or, given ``rng``, one drawn
        from the model's distribution over the allowed actions."""
        policy = self.policy
        with torch.no_grad():
            tensor, _ = policy.obs_to_tensor(vector)
            distribution = policy.get_distribution(tensor, action_masks=np.asarray(mask, dtype=bool))
            if rng is None:
                return int(distribution.get_actions(deterministic=True)[0])
            probs = distribution.distribution.probs[0].double().numpy()
        return int(rng.choice(probs.size, p=probs / probs.sum()))

    def decide(self, view: Observation, since_decision: float, rng: np.random.Generator | None = None
               ) -> tuple[int, Intent]:
        """The action and intent for the seat of ``view`` now; ``since_decision`` is the simulated time since its
        previous decision (the observation's last entry, as the environment computes it)."""
        actions = self.actions
        chosen = self.action(self.encoder.encode(view, since_decision), actions.mask(view), rng)
        return chosen, actions.intent(chosen, view)


def seat_policy(path: str | os.PathLike[str], rules: Rules, repertoire: Repertoire, field: str = "path"
                ) -> SeatPolicy:
    """The model in ``path`` for a table of ``rules`` and ``repertoire``, built once per process and table."""
    loaded = load_model(path, field)
    key = (id(loaded), rules, repertoire)
    policy = _POLICIES.get(key)
    if policy is None or policy.loaded is not loaded:
        policy = _POLICIES[key] = SeatPolicy(loaded, rules, repertoire, field)
    return policy
