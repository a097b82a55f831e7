"""``kemps-sim rules``: print the resolved rule knobs of a preset or TOML file and where each value comes from."""

from __future__ import annotations

import argparse
import json

from kemps_sim.games import DEFAULT_GAME, game, game_names
from kemps_sim.games.commands import parse_overrides, value_text
from kemps_sim.presets import PRESETS, preset_names, resolve_any
from kemps_sim.rules import knob_specs


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``rules`` sub-command."""
    p = sub.add_parser("rules", help="show the resolved rule knobs of a preset or rules file",
                       description="Show every rule knob of a preset or a TOML rules file, with overrides, "
                                   "and where each value comes from. Presets: " + ", ".join(preset_names()))
    p.add_argument("spec", nargs="?", default=None, metavar="PRESET|FILE.toml",
                   help="a preset name or a TOML rules file (default: standard; for krepet: wikibooks)")
    p.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                   help=f"whose rules: {', '.join(game_names())} (default {DEFAULT_GAME}); krepet is the "
                        "two-player racing patience")
    p.add_argument("--players", type=int, default=None, help="override the number of players")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KNOB=VALUE",
                   help="override one knob, VALUE written as in TOML (repeatable)")
    p.add_argument("--json", action="store_true", help="print the resolved knobs as JSON")
    p.add_argument("--list", action="store_true", help="list the presets and their sources")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the knobs, their values and origins (or the preset list)."""
    return game(args.game).hook("rules_cli")(args)


def run_kemps(args: argparse.Namespace) -> int:
    """The Kemps knobs, their values and origins, or the preset list (the Kemps record's ``rules_cli``)."""
    if args.list:
        for preset in PRESETS.values():
            print(f"{preset.name:<14} {preset.source}  {preset.title}")
        return 0
    overrides = parse_overrides(args.overrides)
    if args.players is not None:
        overrides["players"] = args.players
    resolved = resolve_any(args.spec, overrides)
    rules = resolved.rules
    if args.json:
        print(json.dumps({"preset": resolved.preset, "rules": rules.as_dict(), "origins": resolved.origins},
                         indent=2, ensure_ascii=False))
        return 0
    preset = PRESETS[resolved.preset]
    source = args.spec if args.spec and args.spec not in PRESETS else f"preset {preset.name}"
    print(f"Rules from {source} (base preset {preset.name}, source {preset.source}: {preset.title})")
    print(f"{rules.players} players in {rules.pairs} pairs, {rules.decks} deck(s)")
    print("Quoted words are the source's own, with an English gloss in parentheses when it is not in English; "
          "\"reading:\" marks a value read where the source is silent or ambiguous.\n")
    specs = knob_specs()
    width = max(map(len, specs))
    for knob, value in rules.as_dict().items():
        print(f"  {knob:<{width}}  {value_text(value):<22} {resolved.origins[knob]}")
    return 0
