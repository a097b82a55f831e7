"""A Krepet game's result as tidy rows: the game, each player as a side, each callable miss, each call, each move.

The rows feed a sweep's tables (:mod:`kemps_sim.sweep.chunks`): ``matches`` (one row per game), ``pairs`` (one row
per player: in Krepet each player is a side of its own, so the win rates, ratings and tournament tables of Kemps
work unchanged), ``misses``, ``calls`` and ``moves``. Times are simulated seconds from the deal; players are 0 and 1.
"""

from __future__ import annotations

import math

from kemps_sim.games import GameTables
from kemps_sim.krepet import events
from kemps_sim.krepet.result import VERDICTS, KrepetResult
from kemps_sim.krepet.trace import Moved

MISSES_COLUMNS = ["seed", "player", "time", "move", "open_moves", "overlooked", "caught", "caught_after"]
CALLS_COLUMNS = ["seed", "caller", "started", "time", "verdict", "right", "caught", "latency"]
MOVES_COLUMNS = ["seed", "player", "time", "decided_at", "kind", "card", "src", "dst", "count", "missed",
                 "callable", "overlooked"]


def game_row(result: KrepetResult) -> dict:
    """The game's row of the ``matches`` table (with the columns a Kemps match row has, for the tools that read
    any sweep: ``rounds`` is 1, ``winners`` the winner as text or empty)."""
    winner = -1 if result.winner is None else result.winner
    return {"seed": result.seed, "end_reason": result.reason, "error": result.error, "rounds": 1,
            "events": len(result.trace), "duration": result.duration, "winners": "" if winner < 0 else str(winner),
            "winner": winner, "moves": result.moves, "turns": result.turns}


def sides_rows(result: KrepetResult) -> list[dict]:
    """One row per player, in the columns of the Kemps pairs table (``pair`` is the player) plus what Krepet
    counts: callable misses made and caught, calls by verdict. A draw gives each half a win (``win_share``)."""
    summary = result.summary()
    draw = result.reason == "both_stuck" and result.winner is None
    rows = []
    for p in (0, 1):
        won = result.winner == p
        rank = 1 if won or draw else 2 if result.winner is not None else 0
        rows.append({"seed": result.seed, "pair": p, "seats": str(p), "agents": result.names[p],
                     "cards_left": result.cards_left[p], "rank": rank, "won": won,
                     "win_share": 1.0 if won else 0.5 if draw else 0.0, "rounds": 1, "end_reason": result.reason,
                     "misses": summary[f"misses_{p}"], "overlooked": summary[f"overlooked_{p}"],
                     "caught": summary[f"caught_{p}"],
                     **{f"calls_{v}": summary[f"calls_{v}_{p}"] for v in VERDICTS}})
    return rows


def misses_rows(result: KrepetResult) -> list[dict]:
    """One row per callable miss: who, when, the move, how many ace-pile moves it left open, whether the mover had
    overlooked the ace piles, and whether (and how long after) a right call caught it."""
    caught_by = {t: call.time for call in result.calls for t in call.caught_times}
    return [{"seed": result.seed, "player": e.player, "time": e.time, "move": e.move, "open_moves": e.missed,
             "overlooked": e.overlooked, "caught": e.time in caught_by,
             "caught_after": caught_by[e.time] - e.time if e.time in caught_by else math.nan}
            for e in result.callable_misses]


def calls_rows(result: KrepetResult) -> list[dict]:
    """One row per call heard: the caller, when it started and was heard, the verdict, the misses it caught and
    its latency (from the first miss it caught to the call heard; NaN unless right)."""
    return [{"seed": result.seed, "caller": c.caller, "started": c.started, "time": c.time, "verdict": c.verdict,
             "right": c.right, "caught": c.caught, "latency": c.time - c.miss_at if c.right else math.nan}
            for c in result.calls]


def moves_rows(result: KrepetResult) -> list[dict]:
    """One row per move that landed."""
    return [{"seed": result.seed, "player": e.player, "time": e.time, "decided_at": e.decided_at, "kind": e.kind,
             "card": e.card, "src": e.src, "dst": e.dst, "count": e.count, "missed": e.missed,
             "callable": e.callable, "overlooked": e.overlooked} for e in result.trace if isinstance(e, Moved)]


#: The rows a Krepet game writes: its ``matches`` row, one row per player, callable miss, call and move (small: a
#: few hundred moves a game, so every move is kept without asking), and with ``events = true`` the whole trace.
TABLES = GameTables(game_row,
                    {"pairs": (sides_rows, None), "misses": (misses_rows, MISSES_COLUMNS),
                     "calls": (calls_rows, CALLS_COLUMNS),
                     "moves": (moves_rows, MOVES_COLUMNS)},
                    ("events", events.events_rows, events.EVENT_COLUMNS))
