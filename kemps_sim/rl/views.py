"""The PettingZoo views every game's learning environment shares: AEC (the learner due next acts) and Parallel.

A game supplies a session (its match stepped from outside: ``reset(seed)``, ``act(action)``, ``pending``,
``observe``, ``mask``, ``state``, ``reward_for``, ``since_decision``, ``over``, ``truncated``, ``seed``,
``learners``, ``encoder.size``, ``actions.size``, ``state_size``, ``illegal_played``, ``close``), the prefix of its
agents' names and its observation's version; :mod:`kemps_sim.rl.kemps_v0` and :mod:`kemps_sim.rl.krepet_v0` are
these views with their game's.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from kemps_sim.errors import ConfigError
from kemps_sim.rl.spaces import MatchSeeds, observation_space, state_space


class _Seats:
    """What both views share: the session, the agents' names and spaces, and their infos. A game's views name
    its session class, the prefix of its agents' names and its observation's version."""

    session_class: ClassVar[type] = object
    agent_prefix: ClassVar[str] = "seat"
    observation_version: ClassVar[str] = ""

    #: No rendering: a match is watched with ``kemps_sim.replay.write_html(env.unwrapped.session.result, ...)``.
    render_mode: str | None = None

    def _setup(self, kwargs: dict[str, Any]) -> None:
        self.session = session = self.session_class(**kwargs)
        self.possible_agents = [f"{self.agent_prefix}_{s}" for s in session.learners]
        self.seat_of = {agent: seat for agent, seat in zip(self.possible_agents, session.learners, strict=True)}
        self.agent_of = {seat: agent for agent, seat in self.seat_of.items()}
        size, actions = session.encoder.size, session.actions.size
        self.observation_spaces = {a: observation_space(size, actions) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.state_space = state_space(session.state_size)
        self.seeds = MatchSeeds()

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The agent's action space (the same object every time)."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": the observation vector, "action_mask": legal actions}`` of the agent now."""
        seat = self.seat_of[agent]
        return {"observation": self.session.observe(seat), "action_mask": self.session.mask(seat)}

    def state(self) -> np.ndarray:
        """The global state, for a centralised critic (the session's ``state()``)."""
        return self.session.state()

    def _info(self, agent: str) -> dict[str, Any]:
        session = self.session
        seat = self.seat_of[agent]
        return {"seat": seat, "match_seed": session.seed, "since_decision": session.since_decision(seat),
                "illegal_action": session.illegal_played, "observation_version": self.observation_version}

    def close(self) -> None:
        """Stop the match being played, if any."""
        self.session.close()


class SeatsAEC(_Seats, AECEnv):
    """The AEC view: the learning seat whose decision is due next acts (``agent_selection``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        self._setup(kwargs)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start the next match (the match of ``seed`` if given)."""
        session = self.session
        pending = session.reset(self.seeds.take(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: self._info(a) for a in self.agents}
        if pending is None:
            self._finish()
        else:
            self.agent_selection = self.agent_of[pending[0]]

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (None once it is done); run on to the next learner decision."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ConfigError(f"step(None): {agent} is still playing; give one of its actions whose mask is 1")
        session = self.session
        self._cumulative_rewards[agent] = 0.0
        pending = session.act(int(action))
        for a in self.agents:
            self.rewards[a] = session.reward_for(self.seat_of[a])
        if pending is None:
            self._finish()
        else:
            self.agent_selection = self.agent_of[pending[0]]
            for a in self.agents:
                self.infos[a] = self._info(a)
        self._accumulate_rewards()

    def _finish(self) -> None:
        """The match is over: every agent is done (truncated at the round cap, else terminated)."""
        truncated = self.session.truncated
        for a in self.agents:
            self.terminations[a] = not truncated
            self.truncations[a] = truncated
            self.infos[a] = self._info(a)
        self.agent_selection = self.agents[0]


class SeatsParallel(_Seats, ParallelEnv):
    """The Parallel view: every learner is given an observation each step; the one whose decision is due acts."""

    def __init__(self, **kwargs: Any) -> None:
        self._setup(kwargs)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Start the next match; every learner's observation and info."""
        pending = self.session.reset(self.seeds.take(seed))
        self.agents = list(self.possible_agents)
        if pending is None:
            self.agents = []
        return {a: self.observe(a) for a in self.possible_agents}, {a: self._info(a) for a in self.possible_agents}

    def step(self, actions: dict[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        """Play the due seat's action (the others' are ignored); observations, rewards, ends and infos of all."""
        session = self.session
        pending = session.pending
        if pending is None:
            raise ConfigError("step: the match is over; call reset() first")
        due = self.agent_of[pending[0]]
        if due not in actions:
            raise ConfigError(f"step: no action for {due}, whose decision is due; give one for every agent")
        pending = session.act(int(actions[due]))
        agents = self.agents
        observations = {a: self.observe(a) for a in agents}
        rewards = {a: session.reward_for(self.seat_of[a]) for a in agents}
        infos = {a: self._info(a) for a in agents}
        over = pending is None
        truncated = over and session.truncated
        terminations = dict.fromkeys(agents, over and not truncated)
        truncations = dict.fromkeys(agents, truncated)
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos
