"""``kemps-sim serve``: a live Kemps table on the wall's clock, with people at some seats (each reaching it by a
link printed here) and agents at the others."""

from __future__ import annotations

import argparse

from kemps_sim.errors import ConfigError
from kemps_sim.games.commands import match_seed, parse_overrides
from kemps_sim.lineup import split_lineup


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``serve`` sub-command."""
    p = sub.add_parser("serve", help="serve a live table in the browser, people with agents",
                       description="Play one Kemps match on the wall's clock with people at some seats: it prints "
                                   "one join link per person's seat, and starts when every person has joined.")
    p.add_argument("--rules", default="standard", metavar="PRESET|FILE.toml", help="the rules (default standard)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the rules')")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KNOB=VALUE",
                   help="override one rule knob (repeatable)")
    p.add_argument("--lineup", default="collector",
                   help="the agents of the other seats: one for all, or one per seat (default collector)")
    p.add_argument("--humans", default="0", metavar="SEAT[,SEAT]", help="the people's seats (default 0)")
    p.add_argument("--seed", type=int, default=None, help="the match seed (default: drawn at random and printed)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine)")
    p.add_argument("--port", type=int, default=8765, help="the port (default 8765)")
    p.add_argument("--factor", type=float, default=1.0,
                   help="wall seconds per simulated second (default 1: real speed; 2 plays at half speed)")
    p.set_defaults(run=run)


def humans_of(text: str, players: int) -> list[int]:
    """The seats of ``--humans``, each checked."""
    seats = []
    for part in text.split(","):
        try:
            seat = int(part)
        except ValueError:
            seat = -1
        if not 0 <= seat < players:
            raise ConfigError(f"--humans {text}: {part.strip()!r} is not a seat; give seats from 0 to {players - 1}, "
                              "comma-separated, such as 0,2")
        seats.append(seat)
    if len(set(seats)) != len(seats):
        raise ConfigError(f"--humans {text}: a seat is named twice")
    return seats


def run(args: argparse.Namespace) -> int:
    """Check every option, build the table, print the links and serve until the match is over (or Ctrl-C)."""
    from kemps_sim.presets import load_rules

    if not 0 < args.port < 65536:
        raise ConfigError(f"--port {args.port}: must be from 1 to 65535")
    if args.seed is not None and args.seed < 0:
        raise ConfigError(f"--seed {args.seed}: must be a whole number >= 0")
    overrides = parse_overrides(args.overrides)
    if args.players is not None:
        overrides["players"] = args.players
    rules = load_rules(args.rules, **overrides)
    humans = humans_of(args.humans, rules.players)
    entries = split_lineup(args.lineup)
    if len(entries) not in (1, rules.players):
        raise ConfigError(f"--lineup has {len(entries)} entries for {rules.players} players: give 1 (for every "
                          "agent's seat) or one per seat (a person's seat's entry is ignored)")
    lineup = entries * rules.players if len(entries) == 1 else entries
    try:
        import uvicorn

        from kemps_sim.serve.app import Room, make_app
    except ImportError as exc:
        raise ConfigError(f"kemps-sim serve needs the serve extra ({exc.name} is missing): "
                          "pip install -e '.[serve]'") from None
    from kemps_sim.serve import LiveTable

    table = LiveTable(rules, lineup, humans, seed=match_seed(args), factor=args.factor)
    room = Room(table)
    print(f"seed {args.seed}; the match starts when every person has joined:")
    for seat, link in room.links(args.host, args.port).items():
        print(f"  seat {seat}: {link}")
    uvicorn.run(make_app(room), host=args.host, port=args.port, log_level="warning")
    return 0
