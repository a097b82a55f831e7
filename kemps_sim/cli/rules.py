"""``kemps-sim rules``: print the resolved rule knobs of a preset or TOML file and where each value comes from."""

from __future__ import annotations

import argparse
import json
import tomllib
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.presets import PRESETS, preset_names, resolve_any
from kemps_sim.rules import knob_specs


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``rules`` sub-command."""
    p = sub.add_parser("rules", help="show the resolved rule knobs of a preset or rules file",
                       description="Show every rule knob of a preset or a TOML rules file, with overrides, "
                                   "and where each value comes from. Presets: " + ", ".join(preset_names()))
    p.add_argument("spec", nargs="?", default=None, metavar="PRESET|FILE.toml",
                   help="a preset name or a TOML rules file (default: standard; for krepet: wikibooks)")
    p.add_argument("--game", choices=("kemps", "krepet"), default="kemps",
                   help="whose rules: kemps (default) or krepet, the two-player racing patience")
    p.add_argument("--players", type=int, default=None, help="override the number of players")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KNOB=VALUE",
                   help="override one knob, VALUE written as in TOML (repeatable)")
    p.add_argument("--json", action="store_true", help="print the resolved knobs as JSON")
    p.add_argument("--list", action="store_true", help="list the presets and their sources")
    p.set_defaults(run=run)


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """``KNOB=VALUE`` strings to a mapping; values are read as TOML, else taken as plain strings."""
    out: dict[str, Any] = {}
    for item in items:
        knob, sep, raw = item.partition("=")
        if not sep or not knob.strip():
            raise ConfigError(f"--set {item!r}: must be KNOB=VALUE, e.g. --set double_kemps=true")
        try:
            value = tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw
        out[knob.strip()] = value
    return out


def run(args: argparse.Namespace) -> int:
    """Print the knobs, their values and origins (or the preset list)."""
    if args.game == "krepet":
        return _krepet(args)
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
        print(f"  {knob:<{width}}  {_text(value):<22} {resolved.origins[knob]}")
    return 0


def _krepet(args: argparse.Namespace) -> int:
    """The Krepet knobs of a preset (or a TOML file of knobs naming a ``preset``), with where each value comes from:
    the source's words, or the reading taken where it is silent or ambiguous."""
    from kemps_sim.krepet.presets import PRESETS as KREPET_PRESETS
    from kemps_sim.krepet.presets import get_preset, load_krepet_rules, rules_source

    if args.list:
        for preset in KREPET_PRESETS.values():
            print(f"{preset.name:<14} {preset.source}  {preset.title}")
        return 0
    if args.players is not None:
        raise ConfigError(f"--players {args.players}: Krepet is a game for two")
    spec = rules_source(args.spec)
    rules = load_krepet_rules(spec, **parse_overrides(args.overrides))
    preset = get_preset(spec.get("preset", "wikibooks") if isinstance(spec, dict) else spec or "wikibooks")
    given = {**(spec if isinstance(spec, dict) else {}), **parse_overrides(args.overrides)}
    origins = {k: "set here" if k in given else preset.origin(k) if k in preset.knobs else "default"
               for k in rules.as_dict()}
    if args.json:
        print(json.dumps({"preset": preset.name, "rules": rules.as_dict(), "origins": origins}, indent=2,
                         ensure_ascii=False))
        return 0
    print(f"Krepet rules from preset {preset.name} (source {preset.source}: {preset.title})")
    print("Quoted words are the source's own, with an English gloss in parentheses; \"reading:\" marks a value read "
          "where the source is silent or ambiguous.\n")
    width = max(map(len, rules.as_dict()))
    for knob, value in rules.as_dict().items():
        shown = " / ".join(map(str, value)) if isinstance(value, tuple) else _text(value)
        print(f"  {knob:<{width}}  {shown:<14} {origins[knob]}")
    return 0


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return " / ".join(value)
    return str(value)
