"""A Snap match as tidy rows: the match, each player as a side of its own, each call heard.

The rows feed a sweep's tables through the record's :class:`~kemps_sim.games.GameTables`: ``matches`` (one row
per match, with the columns every sweep's matches table has), ``pairs`` (one row per player, ``pair`` being the
player, so that the library's win rates, ratings and tournaments read it as they read Kemps pairs) and ``calls``.
"""

from __future__ import annotations

from kemps_sim.games import GameTables
from kemps_snap.result import SnapResult
from kemps_snap.trace import VERDICTS

CALLS_COLUMNS = ["seed", "caller", "started", "time", "verdict", "right", "took", "paid", "latency"]


def match_row(result: SnapResult) -> dict:
    """The match's row of the ``matches`` table (``rounds`` is 1, ``winners`` the winner as text or empty)."""
    winner = -1 if result.winner is None else result.winner
    return {"seed": result.seed, "end_reason": result.reason, "error": result.error, "rounds": 1,
            "events": len(result.trace), "duration": result.duration, "winners": "" if winner < 0 else str(winner),
            "winner": winner, "players": len(result.names), "turned": result.turned, "calls": len(result.calls)}


def player_rows(result: SnapResult) -> list[dict]:
    """One row per player: its agent, the cards it held at the end, its rank, whether it won (a draw among the
    leaders splits the win: ``win_share``) and its calls by verdict."""
    top = max(result.held) if result.held else 0
    leaders = [p for p, n in enumerate(result.held) if n == top] if result.reason != "agent_error" else []
    rows = []
    for p, name in enumerate(result.names):
        won = result.winner == p
        share = 1.0 if won else 1.0 / len(leaders) if result.winner is None and p in leaders else 0.0
        rank = 1 + sum(n > result.held[p] for n in result.held) if result.reason != "agent_error" else 0
        rows.append({"seed": result.seed, "pair": p, "seats": str(p), "agents": name, "held": result.held[p],
                     "rank": rank, "won": won, "win_share": share, "rounds": 1, "end_reason": result.reason,
                     **{f"calls_{v}": sum(c.caller == p and c.verdict == v for c in result.calls)
                        for v in VERDICTS}})
    return rows


def calls_rows(result: SnapResult) -> list[dict]:
    """One row per call heard: the caller, when it started and was heard, the verdict, the cards it took or paid,
    and its latency from the match it caught (NaN unless right)."""
    return [{"seed": result.seed, "caller": c.caller, "started": c.started, "time": c.time, "verdict": c.verdict,
             "right": c.verdict == "right", "took": c.took, "paid": c.paid, "latency": c.latency}
            for c in result.calls]


#: The tables a Snap match writes (the record's ``tables`` hook).
TABLES = GameTables(match_row, {"pairs": (player_rows, None), "calls": (calls_rows, CALLS_COLUMNS)})
