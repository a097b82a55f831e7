"""``kemps-sim agents``: list every agent a lineup can name (built-ins and plugins) and every broken plugin."""

from __future__ import annotations

import argparse
import json
from typing import Any

from kemps_sim.registry import GROUP, AgentInfo, list_agents, plugin_errors


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``agents`` sub-command."""
    p = sub.add_parser("agents", help="list the agents a lineup can name, with their parameters",
                       description="List every agent a lineup can name: the built-ins and the plugins installed "
                                   f"through the entry-point group {GROUP!r}, with a description, the "
                                   "hyperparameters and their defaults, and where each comes from. Plugins that "
                                   "could not be used are listed last with the reason.")
    p.add_argument("--json", action="store_true", help="print the agents and the broken plugins as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the agents and the plugin problems. Broken plugins are reported, not fatal: the status is 0."""
    agents, errors = list_agents(), plugin_errors()
    if args.json:
        data = {"agents": [_as_json(info) for info in agents],
                "plugin_errors": [{"name": e.name, "distribution": e.distribution, "target": e.target,
                                   "problem": e.problem} for e in errors]}
        print(json.dumps(data, indent=2, ensure_ascii=False, default=repr))
        return 0
    for info in agents:
        print(f"{info.name}  [{info.origin}]")
        if info.description:
            print(f"    {info.description}")
        print(f"    parameters: {_params_text(info)}")
    if errors:
        print(f"\n{len(errors)} plugin entry point(s) not used:")
        for error in errors:
            print(error.line())
    return 0


def _params_text(info: AgentInfo) -> str:
    """``p_swap=0.5, max_cards=1``, written as a lineup entry would take them, or ``none``."""
    return ", ".join(f"{name}={value!r}" for name, value in info.parameters.items()) or "none"


def _as_json(info: AgentInfo) -> dict[str, Any]:
    return {"name": info.name, "description": info.description, "parameters": info.parameters,
            "origin": info.origin, "target": info.target}
