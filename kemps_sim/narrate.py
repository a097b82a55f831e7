"""A match told as a readable play-by-play: swaps, lost races, gestures and who noticed them, calls, letters."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from kemps_sim.cards import RANKS, hand_text
from kemps_sim.scoring import letters_text
from kemps_sim.trace import (
    CallCutOff,
    CallHeard,
    Dealt,
    Gestured,
    HandFour,
    Objected,
    Perceived,
    PlayStarted,
    RaceLost,
    Redealt,
    Refilled,
    Revealed,
    RoundEnded,
    StallSaid,
    Swapped,
    Swept,
)

if TYPE_CHECKING:
    from kemps_sim.engine.match import MatchResult
    from kemps_sim.rules import Rules
    from kemps_sim.scoring import Standings

_CALLS = {"kemps": 0, "stop_kemps": 1}


def standings_text(rules: Rules, standings: Standings, agents: tuple[str, ...] = ()) -> list[str]:
    """One line per pair: seats, agents, and letters, points or rounds won."""
    lines = []
    for pair in range(rules.pairs):
        seats = (pair, pair + rules.pairs)
        who = f"pair {pair} (seats {seats[0]} and {seats[1]}"
        if agents:
            who += ": " + " + ".join(dict.fromkeys(agents[s] for s in seats))
        who += ")"
        if rules.scoring == "letters":
            count = standings.letters[pair]
            score = f"{count} letter{'s' if count != 1 else ''}" + (f" {letters_text(count)}" if count else "")
        elif rules.scoring == "points":
            score = f"{standings.points[pair]} point(s) of {rules.target_points}"
        else:
            score = f"{standings.rounds_won[pair]} round(s) won of {rules.rounds_to_play}"
        lines.append(f"{who}: {score}")
    return lines


def narrate(result: MatchResult, fidgets: bool = False) -> Iterator[str]:
    """Lines of a play-by-play; fidgets appear only when somebody noticed them, unless ``fidgets``."""
    rules = result.rules
    words = rules.call_words
    for rnd in result.rounds:
        yield (f"Round {rnd.index + 1}: dealer seat {rnd.dealer}; signals "
               + ", ".join(f"pair {p} {s}" for p, s in enumerate(rnd.signals)))
        noticed: dict[tuple[int, float], list[str]] = {}
        for event in rnd.trace:
            if type(event) is Perceived:
                noticed.setdefault((event.gesturer, event.made_at), []).append(f"seat {event.seat} ({event.gaze})")
        for event in rnd.trace:
            line = _line(event, words, noticed, fidgets)
            if line:
                yield f"  {event.time:7.2f} s  {line}"
        yield "  standings: " + "; ".join(standings_text(rules, rnd.standings))
    yield ""
    yield f"Match over after {len(result.rounds)} round(s) ({result.end_reason}):"
    for line in standings_text(rules, result.standings, result.agents):
        yield "  " + line
    yield "Winner: " + " and ".join(f"pair {p}" for p in result.winners)


def _line(event: object, words: tuple[str, str], noticed: dict, fidgets: bool) -> str | None:
    kind = type(event)
    if kind is Dealt:
        hands = "; ".join(f"seat {s}: {hand_text(h)}" for s, h in enumerate(event.hands))
        return f"deal: {hands}; middle {hand_text(event.middle)}"
    if kind is Redealt:
        return f"seat {event.seat} shows {hand_text(event.shown)} and draws {len(event.drawn)} again"
    if kind is PlayStarted:
        return "play starts"
    if kind is Swapped:
        if event.gave and event.took:
            return f"seat {event.seat} swaps {hand_text(event.gave)} for {hand_text(event.took)}"
        if event.gave:
            return f"seat {event.seat} puts down {hand_text(event.gave)}"
        return f"seat {event.seat} picks up {hand_text(event.took)}"
    if kind is RaceLost:
        return f"seat {event.seat} reaches for {hand_text(event.wanted)} too late"
    if kind is HandFour:
        if event.rank < 0:
            return f"seat {event.seat} no longer holds four of a kind"
        return f"seat {event.seat} holds four {RANKS[event.rank]}s"
    if kind is Gestured:
        seen = noticed.get((event.seat, event.time), [])
        if not event.deliberate and not seen and not fidgets:
            return None
        what = ("signal" if event.holds_four else "fake or decoy") if event.deliberate else "fidget"
        by = f"; noticed by {', '.join(seen)}" if seen else "; nobody noticed"
        return f"seat {event.seat}: {event.gesture} ({what}){by}"
    if kind is StallSaid:
        return f"seat {event.seat}: \"stalled\""
    if kind is Objected:
        return f"seat {event.seat} objects"
    if kind is Swept:
        return f"dealer sweeps {hand_text(event.cards)} ({event.reason.replace('_', ' ')})"
    if kind is Refilled:
        return f"dealer deals {hand_text(event.cards)}" + (" from the reshuffled discards" if event.reshuffled else "")
    if kind is CallHeard:
        word = f"Double {words[0]}" if event.call == "double_kemps" else words[_CALLS[event.call]]
        target = f" on seat {event.accused}" if event.accused >= 0 else ""
        verdict = "right" if event.right else "wrong"
        if event.outcome == "stop_ineffective":
            verdict = "ineffective against a double"
        cue = f", answering a {event.cue}" if event.cue else ""
        return f"seat {event.seat}: \"{word}!\"{target} ({verdict}; started {event.started:.2f} s{cue})"
    if kind is CallCutOff:
        return f"seat {event.seat} was still saying {event.call.replace('_', ' ')}: too late"
    if kind is Revealed:
        shown = "; ".join(f"seat {s}: {hand_text(h)}" for s, h in zip(event.seats, event.hands, strict=True))
        return f"shown to seat {event.to}: {shown}" if event.to >= 0 else f"shown: {shown}"
    if kind is RoundEnded:
        return f"round ends: {event.outcome.replace('_', ' ')}"
    return None
