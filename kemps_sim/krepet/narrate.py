"""A Krepet game on the clock told as a play-by-play: turns, moves, misses, what the watcher noticed, calls, the end."""

from __future__ import annotations

from collections.abc import Iterator

from kemps_sim.krepet.result import KrepetResult
from kemps_sim.krepet.trace import CallHeard, GameEnded, KrepetEvent, MoveCut, Moved, Noticed, TurnStarted

VERDICT_TEXT = {"right": "right", "too_late": "too late: the miss was no longer callable",
                "false_alarm": "wrong: nothing was missed"}


def narrate(result: KrepetResult, moves: bool = True) -> Iterator[str]:
    """One line per event (``moves`` off: only turns, misses, percepts, calls and the end), then a summary."""
    names = result.names
    yield f"Krepet, seed {result.seed}: player 0 {names[0]} against player 1 {names[1]}"
    for e in result.trace:
        if isinstance(e, Moved) and not (moves or e.missed):
            continue
        indent = "  " if isinstance(e, TurnStarted | GameEnded) else "    "
        yield f"{e.time:8.2f} s{indent}{describe(e, names)}"
    if result.error:
        yield f"error: {result.error}"
    yield from summary_lines(result)


def describe(e: KrepetEvent, names: tuple[str, str]) -> str:
    """One event in words (``names``: the players' agents)."""
    if isinstance(e, TurnStarted):
        return f"turn {e.turn + 1}: player {e.player} ({names[e.player]})"
    if isinstance(e, Moved):
        line = f"player {e.player}: {e.move}"
        if e.missed:
            line += (f"  << MISS: {e.missed} ace-pile move(s) left open"
                     + (" (overlooked the ace piles)" if e.overlooked else "")
                     + ("" if e.callable else ", not callable"))
        return line
    if isinstance(e, MoveCut):
        return f"player {e.player}: {e.move} cut off by the call, never lands"
    if isinstance(e, Noticed):
        truth = "a real miss" if e.real else "no miss"
        act = "calls" if e.calls else "keeps quiet"
        return (f"player {e.watcher} takes the last move in as a miss ({e.gaze}, evidence {e.evidence:.2f}; in "
                f"truth {truth}) and {act}")
    if isinstance(e, CallHeard):
        line = f"player {e.caller}: \"Krepet!\" ({VERDICT_TEXT[e.verdict]}"
        if e.right:
            line += f"; catches {e.caught} miss(es), {e.time - e.miss_at:.2f} s after the first"
        return line + ")"
    who = "a draw" if e.winner < 0 else f"player {e.winner} ({names[e.winner]}) wins"
    return (f"game over ({e.reason}): {who}; cards left {e.cards_left[0]} and {e.cards_left[1]}, {e.moves} moves in "
            f"{e.turns + 1} turns")


def summary_lines(result: KrepetResult) -> Iterator[str]:
    """Per player: callable misses made and caught, calls by verdict, cards left."""
    s = result.summary()
    for p in (0, 1):
        yield (f"player {p} {result.names[p]}: misses {s[f'misses_{p}']} (caught {s[f'caught_{p}']}), calls right "
               f"{s[f'calls_right_{p}']}, too late {s[f'calls_too_late_{p}']}, wrong {s[f'calls_false_alarm_{p}']}, "
               f"cards left {s[f'cards_left_{p}']}")
