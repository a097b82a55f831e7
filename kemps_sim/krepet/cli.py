"""Krepet on the command line: ``kemps-sim play --game krepet`` (one game on the clock, as a play-by-play, as JSON,
or as its result) and ``kemps-sim rules --game krepet`` (the knobs of a preset with where each value comes from);
the :class:`~kemps_sim.games.Game` record points here."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from kemps_sim.cards import card_name
from kemps_sim.errors import ConfigError
from kemps_sim.games.commands import match_seed, parse_overrides, say_seed, value_text

DEFAULT_LINEUP = "greedy"


def run_play(args: argparse.Namespace) -> int:
    """Play the game and print it; options that only mean something in Kemps are refused in one line."""
    from kemps_sim.krepet.narrate import narrate, summary_lines
    from kemps_sim.krepet.presets import load_krepet_rules, rules_source
    from kemps_sim.krepet.realtime import play_krepet
    from kemps_sim.replay.target import html_target

    for flag, value in (("--players", args.players), ("--timeline", args.timeline), ("--round", args.round_number),
                        ("--max-round-seconds", args.max_round_seconds)):
        if value is not None:
            raise ConfigError(f"{flag} {value}: not used with --game krepet (two players, one game, no rounds)")
    if args.seat is not None:
        raise ConfigError(f"--seat {args.seat}: a Krepet game is played open, so a page has no one player's view")
    if args.fidgets:
        raise ConfigError("--fidgets: not used with --game krepet (its watcher looks at moves, not gestures)")
    rules = load_krepet_rules(rules_source(args.rules), **parse_overrides(args.overrides))
    page = None if args.html is None else html_target(args.html)
    profile = None
    if getattr(args, "profile", None) is not None:
        from kemps_sim.profile_file import load_profile_file

        profile = load_profile_file(args.profile, f"--profile {args.profile}")
    result = play_krepet(rules, args.lineup or DEFAULT_LINEUP, profile, seed=match_seed(args))
    say_seed(args)
    if args.json:
        print(json.dumps(as_json(result), ensure_ascii=False))
    elif args.quiet:
        for line in summary_lines(result):
            print(line)
        print("winner: " + ("none (a draw)" if result.winner is None else f"player {result.winner}")
              + f" ({result.reason})")
    else:
        for line in narrate(result):
            print(line)
    if page is not None:
        from kemps_sim.replay import write_html

        write_html(result, page)
        print(f"replay page written to {page}", file=sys.stderr if args.json else sys.stdout)
    return 0


def as_json(result: Any) -> dict[str, Any]:
    """The game as JSON-ready data: rules, agents, how it ended, and every event (``card_name`` beside cards)."""
    events = []
    for event in result.trace:
        data = {"event": type(event).__name__, **dataclasses.asdict(event)}
        if data.get("card", -1) >= 0:
            data["card_name"] = card_name(data["card"])
        events.append(data)
    return {"game": "krepet", "seed": result.seed, "rules": result.rules.as_dict(), "agents": list(result.names),
            "reason": result.reason, "winner": result.winner, "cards_left": list(result.cards_left),
            "moves": result.moves, "turns": result.turns, "duration": result.duration, "error": result.error,
            "summary": result.summary(), "events": events}


def run_rules(args: argparse.Namespace) -> int:
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
        print(f"  {knob:<{width}}  {value_text(value):<14} {origins[knob]}")
    return 0
