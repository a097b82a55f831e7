"""Kemps as a PettingZoo environment: ``env()`` (AEC) and ``parallel_env()`` (Parallel), version 0.

The learning seats (``learners``, agents ``seat_<n>``) play one real-time match per episode; every other seat is
played inside the engine by the agent the ``lineup`` names. Nobody takes turns in Kemps: the engine wakes a seat
when something it can see changes (or its own timed wait runs out) and, after its reaction time, asks it what to
do. The AEC view's ``agent_selection`` is the learning seat whose decision is due next in simulated time; its
action then plays out through the same reaction, reach and speech times as any agent's, while the simulation runs
on to the next learner decision. ``info["since_decision"]`` gives the simulated seconds since the seat's previous
decision, for semi-Markov discounting.

The Parallel view needs no quantisation of time: a step is the instant at which a learning seat's decision falls
due, and since decisions fall due at continuous times (exact ties broken by the engine at random), one seat acts
per step. That seat's ``action_mask`` is its legal actions; every other learner gets a mask with only the no-op
(action 0, ``Wait()``), and its action is ignored. The view therefore keeps the engine's timing exactly, with no
delay added to any seat.

Arguments (both views): ``rules`` (a preset name, a mapping of knobs, a TOML file or a Rules), ``players`` (4, 6
or 8, overriding the rules'), ``lineup`` (the agents of all seats, as for ``kemps-sim play``; learner seats' entries
are replaced), ``learners`` (the learning seats), ``profiles`` (human profiles, as for ``simulate_match``),
``reward`` (``"round"`` or ``"match"``), ``illegal`` (``"wait"`` or ``"raise"``: what an action the mask forbids
does; both in :mod:`kemps_sim.rl.core`), ``config`` (engine settings).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from kemps_sim.rl.core import KempsSession
from kemps_sim.rl.encoding import OBSERVATION_VERSION
from kemps_sim.rl.views import SeatsAEC, SeatsParallel

NAME = "kemps_v0"


class KempsAEC(SeatsAEC):
    """The AEC view: the learning seat whose decision is due next acts (``agent_selection``)."""

    metadata: ClassVar[dict[str, Any]] = {"name": NAME, "render_modes": [], "is_parallelizable": True}
    session_class = KempsSession
    agent_prefix = "seat"
    observation_version = OBSERVATION_VERSION


class KempsParallel(SeatsParallel):
    """The Parallel view: every learner is given an observation each step; the one whose decision is due acts."""

    metadata: ClassVar[dict[str, Any]] = {"name": NAME, "render_modes": []}
    session_class = KempsSession
    agent_prefix = "seat"
    observation_version = OBSERVATION_VERSION


def raw_env(**kwargs: Any) -> KempsAEC:
    """The AEC environment without PettingZoo's order-enforcing wrapper."""
    return KempsAEC(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment, wrapped as PettingZoo's own environments are (actions checked, order enforced)."""
    return wrappers.OrderEnforcingWrapper(KempsAEC(**kwargs))


def parallel_env(**kwargs: Any) -> KempsParallel:
    """The Parallel environment."""
    return KempsParallel(**kwargs)
