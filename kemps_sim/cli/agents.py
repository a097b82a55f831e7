"""``kemps-sim agents``: list every agent a lineup can name (built-ins and plugins), how each reasons and which rule
sources it draws on, and every broken plugin; ``kemps-sim agents NAME`` tells one agent's reasoning in full."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME, game, game_names
from kemps_sim.registry import GROUP, AgentInfo, agent_info, list_agents, plugin_errors

WIDTH = 116


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``agents`` sub-command."""
    p = sub.add_parser("agents", help="list the agents a lineup can name: how each reasons, its sources, parameters",
                       description="List every agent a lineup can name: the built-ins and the plugins installed "
                                   f"through the entry-point group {GROUP!r}, with a description, how it reasons, "
                                   "the rule sources it draws on, the hyperparameters and their defaults, and where "
                                   "each comes from. Plugins that could not be used are listed last with the reason. "
                                   "With a NAME, tell that agent's reasoning in full.")
    p.add_argument("name", nargs="?", help="one agent: its reasoning in full")
    p.add_argument("--json", action="store_true", help="print the agents and the broken plugins as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the agents and the plugin problems. Broken plugins are reported, not fatal: the status is 0."""
    if args.name:
        return _one(args.name, args.json)
    agents, errors = list_agents(), plugin_errors()
    if args.json:
        data = {"agents": [_as_json(info) for info in agents],
                "plugin_errors": [{"name": e.name, "distribution": e.distribution, "target": e.target,
                                   "problem": e.problem} for e in errors]}
        print(json.dumps(data, indent=2, ensure_ascii=False, default=repr))
        return 0
    for info in agents:
        print(f"{info.name}  [{info.origin}]")
        if info.game != DEFAULT_GAME:
            print(f"    plays {info.game} (kemps-sim play --game {info.game})")
        if info.description:
            print(f"    {info.description}")
        if info.reasoning and info.reasoning.splitlines()[0] != info.description:
            print(_wrapped("how it reasons: " + " ".join(info.reasoning.split())))
        if info.sources:
            print(f"    sources: {sources_text(info.sources)}")
        print(f"    parameters: {_params_text(info)}")
    if errors:
        print(f"\n{len(errors)} plugin entry point(s) not used:")
        for error in errors:
            print(error.line())
    else:
        print("\n`kemps-sim agents NAME` tells one agent's reasoning in full.")
    return 0


def _one(name: str, as_json: bool) -> int:
    try:
        info = agent_info(name)
    except ConfigError as exc:
        raise ConfigError(str(exc).replace("lineup agent", "agent", 1)) from None
    if as_json:
        print(json.dumps(_as_json(info, full=True), indent=2, ensure_ascii=False, default=repr))
        return 0
    print(f"{info.name}  [{info.origin}]  {info.target}")
    if info.game != DEFAULT_GAME:
        print(f"    plays {info.game} (kemps-sim play --game {info.game})")
    if info.description:
        print(f"    {info.description}")
    for title, text in (("How it reasons", info.reasoning), ("In detail", info.details)):
        if text:
            print(f"\n{title}:")
            print("\n\n".join(_wrapped(" ".join(paragraph.split())) if not paragraph.startswith(" ") else
                              textwrap.indent(paragraph, "    ") for paragraph in text.split("\n\n")))
    if info.sources:
        print(f"\nSources: {sources_text(info.sources)}")
    print(f"\nParameters: {_params_text(info)}")
    return 0


def sources_text(sources: tuple[str, ...]) -> str:
    """Source ids with what they are: ``004 (English rules with the worked game; the default)``."""
    titles = {}
    for preset in (preset for name in game_names() for preset in game(name).hook("presets").values()):
        titles.setdefault(preset.source, f"{preset.title}: preset {preset.name}")
    return "; ".join(f"{s} ({titles[s]})" if s in titles else s for s in sources)


def _wrapped(text: str) -> str:
    return textwrap.fill(text, width=WIDTH, initial_indent="    ", subsequent_indent="    ")


def _params_text(info: AgentInfo) -> str:
    """``p_swap=0.5, max_cards=1``, written as a lineup entry would take them, or ``none``."""
    return ", ".join(f"{name}={value!r}" for name, value in info.parameters.items()) or "none"


def _as_json(info: AgentInfo, full: bool = False) -> dict[str, Any]:
    data = {"name": info.name, "description": info.description, "parameters": info.parameters,
            "origin": info.origin, "target": info.target, "reasoning": info.reasoning,
            "sources": list(info.sources), "game": info.game}
    if full:
        data["details"] = info.details
    return data
