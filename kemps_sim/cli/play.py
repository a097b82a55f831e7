"""``kemps-sim play``: play one match and print it as a play-by-play, as JSON, or only the standings."""

from __future__ import annotations

import argparse
import json
from typing import Any

from kemps_sim.cli.rules import parse_overrides
from kemps_sim.engine import EngineConfig, simulate_match
from kemps_sim.errors import ConfigError
from kemps_sim.narrate import narrate, standings_text
from kemps_sim.presets import preset_names, resolve_any


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``play`` sub-command."""
    p = sub.add_parser("play", help="play one match and print what happened",
                       description="Play one match in simulated real time and print a play-by-play.")
    p.add_argument("--rules", default=None, metavar="PRESET|FILE.toml",
                   help="a preset (" + ", ".join(preset_names()) + ") or a TOML rules file; default standard")
    p.add_argument("--players", type=int, default=None, help="number of players (even, 4 to 12)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KNOB=VALUE",
                   help="override one rule knob (repeatable)")
    p.add_argument("--lineup", default="collector",
                   help='agents by seat or pair, e.g. "collector,random(p_swap=0.3)" (default: collector)')
    p.add_argument("--seed", type=int, default=0, help="the match seed (default 0)")
    p.add_argument("--max-round-seconds", type=float, default=None, help="liveness cap per round (default 600)")
    p.add_argument("--fidgets", action="store_true", help="also print fidgets nobody noticed")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the match as JSON")
    output.add_argument("--quiet", action="store_true", help="print only the final standings")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the match and print it."""
    overrides = parse_overrides(args.overrides)
    if args.players is not None:
        overrides["players"] = args.players
    rules = resolve_any(args.rules, overrides).rules
    if args.seed < 0:
        raise ConfigError(f"--seed {args.seed}: must be a whole number >= 0")
    config = EngineConfig() if args.max_round_seconds is None else EngineConfig(
        max_round_seconds=args.max_round_seconds)
    result = simulate_match(rules, args.lineup, seed=args.seed, config=config)
    if args.json:
        print(json.dumps(as_json(result), ensure_ascii=False))
    elif args.quiet:
        for line in standings_text(rules, result.standings, result.agents):
            print(line)
        print("winner: " + " and ".join(f"pair {p}" for p in result.winners))
    else:
        for line in narrate(result, fidgets=args.fidgets):
            print(line)
    return 0


def as_json(result: Any) -> dict[str, Any]:
    """The match as plain JSON-ready data: rules, lineup, standings, and every round's events."""
    standings = result.standings
    return {
        "seed": result.seed, "rules": result.rules.as_dict(), "agents": list(result.agents),
        "end_reason": result.end_reason, "winners": list(result.winners), "ranking": list(result.ranking),
        "standings": {"letters": list(standings.letters), "points": list(standings.points),
                      "rounds_won": list(standings.rounds_won)},
        "rounds": [{
            "index": rnd.index, "dealer": rnd.dealer, "signals": list(rnd.signals), "outcome": rnd.outcome.value,
            "end_time": rnd.end_time,
            "events": [{"event": type(e).__name__, **e._asdict()} for e in rnd.trace],
        } for rnd in result.rounds],
    }
