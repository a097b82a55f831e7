"""Lineups: which agent, with which hyperparameters, sits in each seat.

A lineup is a string such as ``"collector,random(p_swap=0.3)"`` or a sequence of names, agent instances or
factories. One entry seats everyone; ``players / 2`` entries seat one per pair (entry ``i`` at seats ``i`` and
``i + players/2``, who are partners); ``players`` entries seat one per seat.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from typing import Any

from kemps_sim.agent import Agent, BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.registry import agent_class, agent_info
from kemps_sim.seating import pair_of

LineupLike = str | Sequence[str | BaseAgent | Callable[[], Agent]]
AgentFactory = Callable[[], Agent]

_ENTRY = re.compile(r"^\s*([A-Za-z_][\w\-]*)\s*(?:\((.*)\))?\s*$", re.DOTALL)


def split_lineup(text: str) -> list[str]:
    """Split ``"a,b(x=1, y=2),c"`` on the commas outside parentheses."""
    parts, depth, current = [], 0, []
    for char in text:
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        depth += (char == "(") - (char == ")")
        if depth < 0:
            raise ConfigError(f"lineup {text!r}: a ')' without its '('")
        current.append(char)
    if depth:
        raise ConfigError(f"lineup {text!r}: a '(' without its ')'")
    parts.append("".join(current))
    return [p.strip() for p in parts]


def parse_entry(text: str) -> tuple[str, dict[str, Any]]:
    """``"watcher(threshold=0.9)"`` to ``("watcher", {"threshold": 0.9})``; values are Python literals."""
    match = _ENTRY.match(text)
    if not match:
        raise ConfigError(f"lineup entry {text!r}: must be NAME or NAME(param=value, ...)")
    name, args = match.group(1), match.group(2)
    params: dict[str, Any] = {}
    if args and args.strip():
        try:
            call = ast.parse(f"f({args})", mode="eval").body
            assert isinstance(call, ast.Call)
            if call.args:
                raise ConfigError(f"lineup entry {text!r}: parameters must be named, e.g. {name}(threshold=0.9)")
            for keyword in call.keywords:
                params[keyword.arg] = ast.literal_eval(keyword.value)
        except (SyntaxError, ValueError):
            raise ConfigError(f"lineup entry {text!r}: parameters must be name=value with literal values") from None
    return name, params


def entry_text(name: str, params: dict[str, Any]) -> str:
    """A lineup entry written back as text, ``watcher(threshold=0.9)``: the inverse of :func:`parse_entry`."""
    return name if not params else f"{name}({', '.join(f'{k}={v!r}' for k, v in params.items())})"


def make_factory(name: str, params: dict[str, Any]) -> AgentFactory:
    """A factory for a registered agent with hyperparameters, checked now rather than at the first deal."""
    cls = agent_class(name)
    parameters = agent_info(name).parameters
    for key in params:
        if key not in parameters:
            listed = ", ".join(f"{p}={v!r}" for p, v in parameters.items()) or "none"
            raise ConfigError(f"lineup agent {name!r}: unknown parameter {key!r}; parameters: {listed}")
    try:
        cls(**params)
    except ConfigError:
        raise
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"lineup agent {name!r}: bad parameters {params}: {exc}") from None
    return lambda: cls(**params)


def resolve_lineup(lineup: LineupLike, players: int) -> list[tuple[str, AgentFactory]]:
    """One (display name, factory) per seat."""
    entries: list[Any] = split_lineup(lineup) if isinstance(lineup, str) else list(lineup)
    resolved: list[tuple[str, AgentFactory]] = []
    for entry in entries:
        if isinstance(entry, str):
            name, params = parse_entry(entry)
            label = entry_text(name, params)
            resolved.append((label, make_factory(name, params)))
        elif isinstance(entry, BaseAgent):
            resolved.append((repr(entry), entry.clone))
        elif callable(entry):
            resolved.append((getattr(entry, "name", getattr(entry, "__name__", "agent")), entry))
        else:
            raise ConfigError(f"lineup entry {entry!r}: must be an agent name, an agent or a factory")
    if len(resolved) == players:
        return resolved
    if len(resolved) == 1:
        return resolved * players
    if len(resolved) == players // 2:
        return [resolved[pair_of(players, s)] for s in range(players)]
    raise ConfigError(f"lineup has {len(resolved)} entries for {players} players; give 1, {players // 2} "
                      f"(one per pair) or {players} (one per seat)")
