"""Krepet as a PettingZoo environment: ``env()`` (AEC) and ``parallel_env()`` (Parallel), version 0.

The learning players (``learners``, agents ``player_<n>``) play one game on the clock per episode; a player that
does not learn is played inside the engine by the agent the ``lineup`` names. A learner decides each move of its
turn when the engine asks for it (after its reaction time, and a look over the ace piles if its habits check
first), and, with ``calls="learn"``, whether to call "Krepet!" whenever it takes the opponent's last move in as a
miss (a percept, drawn from its attention and criterion as for any player). The AEC view's ``agent_selection`` is
the learner whose decision is due next in simulated time; its move then lands after its reach (a call is heard
after its speech), while the game runs on to the next learner decision. ``info["since_decision"]`` gives the
simulated seconds since the player's previous decision, for semi-Markov discounting.

The Parallel view is stepped at the instants a learner's decision falls due, one learner at a time (decisions due
at the same simulated instant are taken in the engine's own order). The due learner's ``action_mask`` is its open
actions; the other learner's mask holds only the no-op (action 0) and its action is ignored. No delay is added to
anyone.

Both views work as the Kemps ones do (:mod:`kemps_sim.rl.kemps_v0`), over a
:class:`~kemps_sim.rl.krepet_core.KrepetSession`. Arguments: ``rules`` (a Krepet preset name, a mapping of knobs
or KrepetRules), ``lineup`` (the agents of both chairs; learners' entries are replaced), ``learners`` (0, 1 or
both), ``profiles`` (human profiles, as for ``play_krepet``), ``reward`` (``"game"`` or ``"cards"``), ``illegal``
(``"fallback"`` or ``"raise"``), ``calls`` (``"learn"`` or ``"always"``), ``habits`` (the learners'
:class:`~kemps_sim.krepet.agent.Habits`), ``config`` (a :class:`~kemps_sim.krepet.realtime.KrepetConfig`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from kemps_sim.rl.krepet_core import KrepetSession
from kemps_sim.rl.krepet_encoding import OBSERVATION_VERSION
from kemps_sim.rl.views import SeatsAEC, SeatsParallel

NAME = "krepet_v0"


class KrepetAEC(SeatsAEC):
    """The AEC view: the learner whose decision is due next acts (``agent_selection``)."""

    metadata: ClassVar[dict[str, Any]] = {"name": NAME, "render_modes": [], "is_parallelizable": True}
    session_class = KrepetSession
    agent_prefix = "player"
    observation_version = OBSERVATION_VERSION


class KrepetParallel(SeatsParallel):
    """The Parallel view: every learner is given an observation each step; the one whose decision is due acts."""

    metadata: ClassVar[dict[str, Any]] = {"name": NAME, "render_modes": []}
    session_class = KrepetSession
    agent_prefix = "player"
    observation_version = OBSERVATION_VERSION


def raw_env(**kwargs: Any) -> KrepetAEC:
    """The AEC environment without PettingZoo's order-enforcing wrapper."""
    return KrepetAEC(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment, wrapped as PettingZoo's own environments are (actions checked, order enforced)."""
    return wrappers.OrderEnforcingWrapper(KrepetAEC(**kwargs))


def parallel_env(**kwargs: Any) -> KrepetParallel:
    """The Parallel environment."""
    return KrepetParallel(**kwargs)
