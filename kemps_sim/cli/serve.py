"""``kemps-sim serve``: a live table on the wall's clock (Kemps, or any game whose record names a live table, such
as Krepet), with people at some seats (each reaching it by a link printed here) and agents at the others."""

from __future__ import annotations

import argparse
from pathlib import Path

from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME, game, game_names
from kemps_sim.games.commands import match_seed, parse_overrides
from kemps_sim.lineup import split_lineup

#: ``--on-leave``'s value that pauses the table until the person is back.
PAUSE = "pause"
#: The largest message a page may send, in bytes (an action is well under 200).
MAX_MESSAGE = 16_384


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``serve`` sub-command."""
    p = sub.add_parser("serve", help="serve a live table in the browser, people with agents",
                       description="Play one match (Kemps, or --game krepet) on the wall's clock with people at some "
                                   "seats: it prints one join link per person's seat, and starts when every person "
                                   "has joined.")
    p.add_argument("--game", choices=game_names(), default=DEFAULT_GAME, help=f"the game (default {DEFAULT_GAME})")
    p.add_argument("--rules", default=None, metavar="PRESET|FILE.toml", help="the rules (default: the game's)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the rules')")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KNOB=VALUE",
                   help="override one rule knob (repeatable)")
    p.add_argument("--lineup", default=None,
                   help="the agents of the other seats: one for all, or one per seat (default: the game's, "
                        "collector in Kemps, greedy in Krepet)")
    p.add_argument("--humans", default="0", metavar="SEAT[,SEAT]", help="the people's seats (default 0)")
    p.add_argument("--seed", type=int, default=None, help="the match seed (default: drawn at random and printed)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine)")
    p.add_argument("--port", type=int, default=8765, help="the port (default 8765)")
    p.add_argument("--factor", type=float, default=1.0,
                   help="wall seconds per simulated second (default 1: real speed; 2 plays at half speed)")
    p.add_argument("--data", default=None, metavar="DIR",
                   help="record each table's session into DIR (tables as Parquet and CSV; see 'run a study')")
    p.add_argument("--on-leave", default="pause", metavar="pause|AGENT",
                   help="when a person's page closes: pause the table until they are back (default), or let the "
                        "named agent play their seat")
    p.add_argument("--rate", type=float, default=10.0,
                   help="the most inputs a second a person's page may send (bursts of twice as many; default 10)")
    p.add_argument("--intro", default=None, metavar="FILE.html|none",
                   help="the consent and instructions a person reads before joining (HTML; default: the "
                        "built-in instructions; none: straight to the table)")
    p.add_argument("--practice", action="store_true",
                   help="offer each person a practice round against slow agents before the match (not recorded)")
    p.add_argument("--tables", type=int, default=1,
                   help="how many tables to serve at once, each with its own people and seed (seed, seed+1, ...)")
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


def check_on_leave(option: str, game_name: str) -> None:
    """``--on-leave``: pause, or one agent of the game, else a one-line error naming the option (the table would
    report a bad agent as a lineup's)."""
    if option == PAUSE:
        return
    from kemps_sim.lineup import entry_problem, resolve_lineup
    from kemps_sim.suggest import closest

    how = f"give {PAUSE} or one agent"
    try:
        entries = split_lineup(option)
        if len(entries) != 1:
            raise ConfigError(f"{len(entries)} agents; {how}")
        resolve_lineup(option, 1, game=game_name)
    except ConfigError as exc:
        problem = entry_problem(str(exc))
        if problem.startswith("unknown agent"):
            head, _, allowed = problem.partition("; ")
            if "(did you mean" not in head and closest(option, [PAUSE]):
                head += f" (did you mean {PAUSE}?)"
            problem = f"{head}; {how}" + (f"; {allowed}" if allowed else "")
        raise ConfigError(f"--on-leave {option}: {problem}") from None


def intro_of(option: str | None) -> str:
    """The intro's HTML: the built-in instructions, a study's own file, or none."""
    if option == "none":
        return ""
    if option is None:
        from importlib import resources

        return resources.files("kemps_sim.serve").joinpath("assets/intro.html").read_text(encoding="utf-8")
    path = Path(option)
    if not path.is_file():
        raise ConfigError(f"--intro {option}: no such file; give an HTML file of the study's consent and "
                          "instructions, or none")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"--intro {option}: not UTF-8 text; give an HTML file") from None


def run(args: argparse.Namespace) -> int:
    """Check every option, build the table, print the links and serve until the match is over (or Ctrl-C)."""
    if not 0 < args.port < 65536:
        raise ConfigError(f"--port {args.port}: must be from 1 to 65535")
    if args.seed is not None and args.seed < 0:
        raise ConfigError(f"--seed {args.seed}: must be a whole number >= 0")
    played = game(args.game)
    table_class = played.hook("live_table")
    if table_class is None:
        raise ConfigError(f"--game {args.game}: has no live table; games with one: "
                          + ", ".join(name for name in game_names() if game(name).hooks.live_table))
    overrides = parse_overrides(args.overrides)
    if args.players is not None:
        if played.players is not None:
            raise ConfigError(f"--players {args.players}: {played.title} is for {played.players} players")
        overrides["players"] = args.players
    rules = played.load_rules(args.rules, **overrides)
    players = played.seats(rules)
    humans = humans_of(args.humans, players)
    entries = split_lineup(args.lineup or played.default_lineup)
    if len(entries) not in (1, players):
        raise ConfigError(f"--lineup has {len(entries)} entries for {players} players: give 1 (for every "
                          "agent's seat) or one per seat (a person's seat's entry is ignored)")
    lineup = entries * players if len(entries) == 1 else entries
    check_on_leave(args.on_leave, args.game)
    try:
        import uvicorn

        from kemps_sim.serve.app import Room, make_app
    except ImportError as exc:
        raise ConfigError(f"kemps-sim serve needs the serve extra ({exc.name} is missing): "
                          "pip install -e '.[serve]'") from None
    if not 1 <= args.tables <= 64:
        raise ConfigError(f"--tables {args.tables}: must be from 1 to 64")
    if not args.factor > 0:
        raise ConfigError(f"--factor {args.factor}: must be a number > 0 (wall seconds per simulated second)")
    intro = intro_of(args.intro)
    seed = match_seed(args)
    tables = [table_class(rules, lineup, humans, seed=seed + number, factor=args.factor, data=args.data,
                          on_leave=args.on_leave, rate=args.rate) for number in range(args.tables)]
    room = Room(tables, intro=intro, practice=args.practice)
    print(f"seed {seed}; each table starts when every person at it has joined"
          + (f"; sessions are recorded in {args.data}" if args.data else "") + ":")
    for (number, seat), link in room.links(args.host, args.port).items():
        print(f"  table {number + 1}, seat {seat}: {link}")
    try:
        uvicorn.run(make_app(room), host=args.host, port=args.port, log_level="warning", ws_max_size=MAX_MESSAGE)
    finally:
        for table in tables:
            table.stop()
    return 0
