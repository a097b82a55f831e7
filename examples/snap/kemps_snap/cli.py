"""Snap on the command line: the bodies of ``kemps-sim play --game snap`` (a play-by-play, ``--json`` or
``--quiet``) and ``kemps-sim rules --game snap`` (the knobs of a preset and why each has its value), which the
record's ``play_cli`` and ``rules_cli`` point at. Built on :mod:`kemps_sim.games.commands`, as a game's package
must not import :mod:`kemps_sim.cli`."""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Iterator
from typing import Any

from kemps_sim.cards import card_name
from kemps_sim.errors import ConfigError
from kemps_sim.games.commands import match_seed, parse_overrides, say_seed, value_text
from kemps_snap.result import SnapResult
from kemps_snap.trace import CallHeard, MatchEnded, Noticed, Out, SnapEvent, Turned, TurnedOver

DEFAULT_LINEUP = "snapper"
VERDICT_TEXT = {"right": "right", "late": "too late: the match was gone", "false": "false: no match showed"}


def run_play(args: argparse.Namespace) -> int:
    """Play one match and print it; options that mean something only in Kemps are refused in one line."""
    from kemps_snap.presets import load_snap_rules
    from kemps_snap.realtime import play_snap

    for flag, value in (("--timeline", args.timeline), ("--round", args.round_number), ("--html", args.html),
                        ("--max-round-seconds", args.max_round_seconds), ("--seat", args.seat)):
        if value is not None:
            raise ConfigError(f"{flag} {value}: not used with --game snap (one match, no rounds, no replay page)")
    if args.fidgets:
        raise ConfigError("--fidgets: not used with --game snap (its players look at cards, not gestures)")
    overrides = parse_overrides(args.overrides)
    if args.players is not None:
        overrides["players"] = args.players
    rules = load_snap_rules(args.rules, **overrides)
    result = play_snap(rules, args.lineup or DEFAULT_LINEUP, seed=match_seed(args))
    say_seed(args)
    if args.json:
        print(json.dumps(as_json(result), ensure_ascii=False))
    else:
        for line in (summary_lines(result) if args.quiet else narrate(result)):
            print(line)
    return 0


def as_json(result: SnapResult) -> dict[str, Any]:
    """The match as JSON-ready data: rules, agents, how it ended, and every event (``card_name`` beside cards)."""
    events = []
    for event in result.trace:
        data = {"event": type(event).__name__, **dataclasses.asdict(event)}
        if isinstance(event, Turned):
            data["card_name"] = card_name(event.card)
        events.append(data)
    return {"game": "snap", "seed": result.seed, "rules": result.rules.as_dict(), "agents": list(result.names),
            "reason": result.reason, "winner": result.winner, "held": list(result.held),
            "duration": result.duration, "error": result.error, "summary": result.summary(), "events": events}


def narrate(result: SnapResult) -> Iterator[str]:
    """One line per event, then the summary lines."""
    yield f"Snap, seed {result.seed}: " + ", ".join(f"player {p} {name}" for p, name in enumerate(result.names))
    for event in result.trace:
        yield f"{event.time:8.2f} s  {describe(event)}"
    if result.error:
        yield f"error: {result.error}"
    yield from summary_lines(result)


def describe(e: SnapEvent) -> str:
    """One event in words."""
    if isinstance(e, Turned):
        return f"player {e.player} turns {card_name(e.card)}" + ("  << a match shows" if e.match else "")
    if isinstance(e, TurnedOver):
        return f"player {e.player} turns its face-up pile over ({e.cards} cards)"
    if isinstance(e, Noticed):
        truth = "a match showed" if e.real else "no match showed"
        return (f"player {e.player} takes the piles in as a match ({e.gaze}, evidence {e.evidence:.2f}; in truth "
                f"{truth}) and {'calls' if e.calls else 'keeps quiet'}")
    if isinstance(e, CallHeard):
        what = f"takes {e.took} cards, {e.latency:.2f} s after the match showed" if e.verdict == "right" else (
            f"pays {e.paid} card(s)" if e.paid else "pays nothing")
        return f"player {e.caller}: \"Snap!\" ({VERDICT_TEXT[e.verdict]}; {what})"
    if isinstance(e, Out):
        return f"player {e.player} has no card left and is out"
    assert isinstance(e, MatchEnded)
    who = "a draw" if e.winner < 0 else f"player {e.winner} wins"
    return f"match over ({e.reason}): {who}; cards held " + ", ".join(map(str, e.held))


def summary_lines(result: SnapResult) -> Iterator[str]:
    """Per player: calls by verdict and cards held; then the winner."""
    s = result.summary()
    for p, name in enumerate(result.names):
        yield (f"player {p} {name}: calls right {s[f'calls_right_{p}']}, late {s[f'calls_late_{p}']}, false "
               f"{s[f'calls_false_{p}']}; holds {s[f'held_{p}']} cards")
    yield "winner: " + ("none (a draw)" if result.winner is None else f"player {result.winner}") + f" ({result.reason})"


def run_rules(args: argparse.Namespace) -> int:
    """The Snap knobs of a preset (or a TOML file of knobs naming a ``preset``), with why each has its value."""
    from kemps_snap.presets import PRESETS, get_preset, load_snap_rules, rules_source

    if args.list:
        for preset in PRESETS.values():
            print(f"{preset.name:<14} {preset.source}  {preset.title}")
        return 0
    spec = rules_source(args.spec)
    overrides = parse_overrides(args.overrides)
    if args.players is not None:
        overrides["players"] = args.players
    rules = load_snap_rules(spec, **overrides)
    given = {**(spec if isinstance(spec, dict) else {}), **overrides}
    preset = get_preset(spec.get("preset", "classic") if isinstance(spec, dict) else spec or "classic")
    origins = {k: "set here" if k in given else preset.origin(k) if k in preset.knobs else "default"
               for k in rules.as_dict()}
    if args.json:
        print(json.dumps({"preset": preset.name, "rules": rules.as_dict(), "origins": origins}, indent=2))
        return 0
    print(f"Snap rules from preset {preset.name}: {preset.title}\n")
    width = max(map(len, rules.as_dict()))
    for knob, value in rules.as_dict().items():
        print(f"  {knob:<{width}}  {value_text(value):<8} {origins[knob]}")
    return 0
