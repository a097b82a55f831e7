"""``kemps-sim play``: play one match and print it as a play-by-play, as JSON, or only the standings."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from kemps_sim.cards import RANKS, card_name
from kemps_sim.engine import EngineConfig, simulate_match
from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME, game, game_names
from kemps_sim.games.commands import match_seed, parse_overrides, say_seed
from kemps_sim.narrate import narrate, standings_text
from kemps_sim.presets import preset_names, resolve_any
from kemps_sim.profile_file import load_profile_file
from kemps_sim.profiles import PlayerProfile
from kemps_sim.replay.target import html_seat, html_target

#: The card of ``--help``'s example of a card field and its names in ``--json``.
EXAMPLE_CARD = 26
#: That example as ``--json`` prints it, the name written by :func:`~kemps_sim.cards.card_name` (26: 8♥).
JSON_EXAMPLE = f'"gave": [{EXAMPLE_CARD}], "gave_names": {json.dumps([card_name(EXAMPLE_CARD)], ensure_ascii=False)}'


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``play`` sub-command."""
    p = sub.add_parser("play", help="play one match and print what happened",
                       description="Play one match in simulated real time and print a play-by-play. Rounds "
                                   "are numbered from 1 everywhere: in the play-by-play, in --round and in --json. "
                                   "With --game krepet, one game of Krepet (two players) instead.")
    p.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                   help=f"the game: {', '.join(game_names())} (default {DEFAULT_GAME}); krepet is the two-player "
                        "racing patience with its call")
    p.add_argument("--rules", default=None, metavar="PRESET|FILE.toml",
                   help="a preset (" + ", ".join(preset_names()) + "; for krepet: wikibooks) or a TOML rules "
                        "file; default standard (krepet: wikibooks)")
    p.add_argument("--players", type=int, default=None, help="number of players (even, 4 to 12)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KNOB=VALUE",
                   help="override one rule knob (repeatable)")
    p.add_argument("--lineup", default=None,
                   help='agents by seat or pair, e.g. "collector,random(p_swap=0.3)" (default: collector; for '
                        'krepet one agent for both players or one each, e.g. "greedy,lookout(attention=0.9)", '
                        'default greedy)')
    p.add_argument("--profile", default=None, metavar="FILE.toml",
                   help="the human profile of every seat (reaction, reach and speech times, the observer, ...): a "
                        "profile file, TOML with a [profile] table, as kemps-sim calibrate writes (default: the "
                        "default profile)")
    p.add_argument("--seed", type=int, default=None,
                   help="the match seed, a whole number >= 0 (default: a new seed drawn at random and printed, so "
                        "that --seed N plays the same match again)")
    p.add_argument("--max-round-seconds", type=float, default=None, help="liveness cap per round (default 600)")
    p.add_argument("--fidgets", action="store_true",
                   help="also simulate and print every fidget, noticed or not (the engine otherwise leaves out "
                        "gestures nobody watches; the match plays exactly the same)")
    p.add_argument("--timeline", default=None, metavar="FILE.png",
                   help="also draw one round as a time line (lanes per seat) into this PNG file")
    p.add_argument("--html", default=None, metavar="FILE.html",
                   help="also write the match as a self-contained replay page to watch in a browser (offline)")
    p.add_argument("--seat", type=int, default=None, metavar="N",
                   help="with --html: a page of what seat N knows and nothing more (its own hand, the gestures it "
                        "noticed, what the whole table saw)")
    p.add_argument("--round", dest="round_number", type=int, default=None, metavar="N",
                   help="the round --timeline draws, numbered from 1 as in the play-by-play (\"Round 1\") and in "
                        "the JSON's \"round\" field (default 1)")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true",
                        help="print the match as one JSON object: rules, agents, standings and every round's "
                             "events; each round carries \"round\" numbered from 1 as in the play-by-play, and "
                             "every field of card ids (0-51, a second deck 52-103) has a *_names field beside it "
                             f"with the cards written out ({JSON_EXAMPLE}); "
                             "\"winners\" lists pairs, \"ranking\" gives each pair's rank (1 best), by pair")
    output.add_argument("--quiet", action="store_true", help="print only the final standings")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the match and print it."""
    if args.seed is not None and args.seed < 0:
        raise ConfigError(f"--seed {args.seed}: must be a whole number >= 0")
    return game(args.game).hook("play_cli")(args)


def run_kemps(args: argparse.Namespace) -> int:
    """Play a Kemps match and print it (the Kemps record's ``play_cli``)."""
    overrides = parse_overrides(args.overrides)
    if args.players is not None:
        overrides["players"] = args.players
    rules = resolve_any(args.rules, overrides).rules
    timeline = check_timeline(args.timeline, args.round_number)
    page = None if args.html is None else html_target(args.html)
    seat = html_seat(args.seat, rules.players)
    if seat is not None and page is None:
        raise ConfigError(f"--seat {seat}: only used with --html FILE.html")
    caps = {} if args.max_round_seconds is None else {"max_round_seconds": args.max_round_seconds}
    config = EngineConfig(all_fidgets=args.fidgets, **caps)
    profile = seat_profile(args.profile)
    result = simulate_match(rules, args.lineup or "collector", profile, seed=match_seed(args), config=config)
    round_number = 1 if args.round_number is None else args.round_number
    played = len(result.rounds)
    if timeline is not None and round_number > played:  # known only now, but before any output
        raise ConfigError(f"--round {round_number}: the match had {played} round(s), numbered from 1 to {played}")
    say_seed(args)
    if args.json:
        print(json.dumps(as_json(result), ensure_ascii=False))
    elif args.quiet:
        for line in standings_text(rules, result.standings, result.agents):
            print(line)
        print("winner: " + " and ".join(f"pair {p}" for p in result.winners))
    else:
        for line in narrate(result, fidgets=args.fidgets):
            print(line)
    if timeline is not None:
        write_timeline(result, timeline, round_number, to_stderr=args.json)
    if page is not None:
        from kemps_sim.replay import write_html  # deferred: only this option needs it

        write_html(result, page, seat=seat)
        whose = "" if seat is None else f" (what seat {seat} knows)"
        print(f"replay page written to {page}{whose}", file=sys.stderr if args.json else sys.stdout)
    return 0


def seat_profile(path: str | None) -> PlayerProfile | None:
    """The profile of ``--profile FILE.toml`` (every seat's), or None for the default profile."""
    return None if path is None else load_profile_file(path, f"--profile {path}")


def check_timeline(path: str | None, round_number: int | None) -> Path | None:
    """The ``--timeline`` file as a path, checked before the match is played: a PNG name in a folder that exists,
    and a round number (counted from 1) that can exist."""
    if path is None:
        if round_number is not None:
            raise ConfigError(f"--round {round_number}: only used with --timeline FILE.png")
        return None
    target = Path(path)
    if target.suffix.lower() != ".png":
        raise ConfigError(f"--timeline {path}: the file name must end in .png")
    folder = target.parent
    if not folder.is_dir():
        raise ConfigError(f"--timeline {path}: folder {str(folder)!r} does not exist")
    if target.is_dir():
        raise ConfigError(f"--timeline {path}: is a folder, not a file")
    try:  # can the file be written there? Known before the match is played; the probe leaves nothing behind
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        problem = (exc.strerror or str(exc)).lower()
        raise ConfigError(f"--timeline {path}: cannot write into folder {str(folder)!r} ({problem})") from None
    if round_number is not None and round_number < 1:
        raise ConfigError(f"--round {round_number}: rounds are numbered from 1, as in the play-by-play")
    return target


def write_timeline(result: Any, path: Path, round_number: int, to_stderr: bool = False) -> None:
    """Draw round ``round_number`` (counted from 1) into ``path`` and say where, on stderr under ``--json`` so that
    stdout stays pure JSON."""
    from kemps_sim.plots.timeline import save_timeline  # deferred: plotting is only needed here

    try:
        save_timeline(result, path, round_number - 1)  # the Python API indexes result.rounds from 0
    except OSError as exc:
        problem = (exc.strerror or str(exc)).lower()
        raise ConfigError(f"--timeline {path}: could not write the file ({problem})") from None
    print(f"timeline of round {round_number} written to {path}", file=sys.stderr if to_stderr else sys.stdout)


#: Event fields that hold card ids (a tuple of cards, or a tuple of hands): JSON writes their names beside them.
CARD_FIELDS = frozenset({"hands", "middle", "shown", "drawn", "gave", "took", "wanted", "cards"})


def as_json(result: Any) -> dict[str, Any]:
    """The match as plain JSON-ready data: rules, lineup, standings, and every round's events.

    Rounds carry ``"round"``, numbered from 1 as in the play-by-play. Cards are ids (see :mod:`kemps_sim.cards`);
    every card field ``f`` of an event has ``f_names`` beside it with the cards as people write them, and
    ``HandFour`` has ``rank_name`` beside ``rank``. Seats are numbered from 0; ``-1`` names no seat.
    """
    standings = result.standings
    return {
        "seed": result.seed, "rules": result.rules.as_dict(), "agents": list(result.agents),
        "end_reason": result.end_reason, "winners": list(result.winners), "ranking": list(result.ranking),
        "standings": _standings_json(standings),
        "rounds": [{
            "round": rnd.index + 1, "dealer": rnd.dealer, "signals": list(rnd.signals), "outcome": rnd.outcome.value,
            "end_time": rnd.end_time, "standings": _standings_json(rnd.standings),
            "events": [event_json(e) for e in rnd.trace],
        } for rnd in result.rounds],
    }


def _standings_json(standings: Any) -> dict[str, Any]:
    return {"letters": list(standings.letters), "points": list(standings.points),
            "rounds_won": list(standings.rounds_won), "rounds_decided": standings.rounds_played}


def event_json(event: Any) -> dict[str, Any]:
    """One trace event as a JSON-ready dict: ``event`` (its type), its fields, and card names beside card ids."""
    out: dict[str, Any] = {"event": type(event).__name__}
    for field, value in event._asdict().items():
        out[field] = value
        if field in CARD_FIELDS and isinstance(value, tuple):
            out[f"{field}_names"] = [_names(v) if isinstance(v, tuple) else card_name(v) for v in value]
        elif field == "rank" and isinstance(value, int):
            out["rank_name"] = RANKS[value] if 0 <= value < len(RANKS) else None
    return out


def _names(cards: tuple[int, ...]) -> list[str]:
    return [card_name(c) for c in cards]
