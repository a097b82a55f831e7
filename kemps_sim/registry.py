"""Agents found by name: the built-ins of the ``agents`` package (third-party plugins join them later)."""

from __future__ import annotations

from kemps_sim.agent import BaseAgent
from kemps_sim.errors import ConfigError


def builtin_agents() -> dict[str, type[BaseAgent]]:
    """The built-in policies by name, in a stable order."""
    from agents.collector import Collector
    from agents.random_agent import RandomAgent

    return {cls.name: cls for cls in (RandomAgent, Collector)}


def agent_class(name: str) -> type[BaseAgent]:
    """The agent class registered under ``name``, or a one-line error listing the agents that exist."""
    known = builtin_agents()
    if name not in known:
        raise ConfigError(f"lineup agent {name!r}: unknown agent; allowed agents are {', '.join(known)}")
    return known[name]
