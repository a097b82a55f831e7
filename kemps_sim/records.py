"""Match results reduced to tidy pandas tables: one row per pair, round, call and four of a kind (and event).

Every row carries the match ``seed`` so that it can be replayed alone. The trace stays plain tuples during play;
this module is the one place it becomes DataFrames.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import pandas as pd

from kemps_sim import trace
from kemps_sim.games import GameTables
from kemps_sim.results import MATCH_TABLES, Fate, MatchResult
from kemps_sim.seating import NOBODY, pair_of, pair_seats, partner
from kemps_sim.trace import CallHeard, Gestured, HandFour, Perceived, RaceLost, Refilled, StallSaid, Swapped, Swept

NAN = math.nan
#: The columns of the events table: the row's place, then every field of every event type, in the trace's order.
EVENT_COLUMNS = ["seed", "round", "event", *dict.fromkeys(
    name for kind in trace.EVENT_TYPES for name in kind._fields)]
#: The columns of the calls and fours tables, in order.
CALLS_COLUMNS = ["seed", "round", "time", "started", "caller", "caller_pair", "call", "accused", "accused_pair",
                 "outcome", "right", "ends_round", "cue", "holder", "four_at", "signal_at", "four_to_signal",
                 "signal_to_call", "four_to_call"]
FOURS_COLUMNS = ["seed", "round", "seat", "pair", "rank", "four_at", "signal_at", "fate", "settled_at"]
#: Trace events counted one for one in the rounds table, by column.
_COUNTED = {Swapped: "swaps", RaceLost: "races_lost", Swept: "sweeps", Perceived: "percepts", StallSaid: "stalls",
            CallHeard: "calls"}


def match_row(result: MatchResult) -> dict:
    """A played match's row of the ``matches`` table of a sweep."""
    return {"seed": result.seed, "end_reason": result.end_reason, "error": result.error or "",
            "rounds": len(result.rounds), "events": result.events,
            "duration": sum(r.end_time for r in result.rounds), "winners": ",".join(map(str, result.winners))}


def pairs_table(result: MatchResult) -> pd.DataFrame:
    """One row per pair: its seats and agents, final letters, points and rounds won, rank and whether it won."""
    return pd.DataFrame(pairs_rows(result))


def pairs_rows(result: MatchResult) -> list[dict]:
    """The rows of :func:`pairs_table` as plain dicts (a sweep's chunk stacks many matches' rows into one table)."""
    rules, standings = result.rules, result.standings
    rows = []
    for pair in range(rules.pairs):
        seats = pair_seats(rules.players, pair)
        rows.append({
            "seed": result.seed, "pair": pair, "seats": f"{seats[0]},{seats[1]}",
            "agents": " + ".join(dict.fromkeys(result.agents[s] for s in seats)),
            "letters": standings.letters[pair], "points": standings.points[pair],
            "rounds_won": standings.rounds_won[pair], "rank": result.ranking[pair],
            "won": pair in result.winners, "win_share": 1.0 / len(result.winners) if pair in result.winners else 0.0,
            "rounds": len(result.rounds), "end_reason": result.end_reason,
        })
    return rows


def rounds_table(result: MatchResult) -> pd.DataFrame:
    """One row per round: how it ended, how long it took, and counts of what happened in it."""
    return pd.DataFrame(rounds_rows(result))


def rounds_rows(result: MatchResult) -> list[dict]:
    """The rows of :func:`rounds_table` as plain dicts."""
    rows = []
    for rnd in result.rounds:
        counts = {name: 0 for name in ("swaps", "races_lost", "sweeps", "reshuffles", "signals", "fidgets",
                                       "percepts", "stalls", "calls")}
        deciding: CallHeard | None = None
        for event in rnd.trace:
            kind = type(event)
            if kind in _COUNTED:
                counts[_COUNTED[kind]] += 1
            elif kind is Refilled:
                counts["reshuffles"] += event.reshuffled
            elif kind is Gestured:
                counts["signals" if event.deliberate else "fidgets"] += 1
            if kind is CallHeard and event.ends_round:
                deciding = event
        n = result.rules.players
        rows.append({
            "seed": result.seed, "round": rnd.index, "dealer": rnd.dealer, "outcome": rnd.outcome.value,
            "duration": rnd.end_time, **counts,
            "caller": deciding.seat if deciding else NOBODY,
            "caller_pair": pair_of(n, deciding.seat) if deciding else -1,
            "signals_used": ",".join(rnd.signals),
        })
    return rows


def calls_table(result: MatchResult) -> pd.DataFrame:
    """One row per call heard, with the time from four of a kind to the signal to the call.

    ``holder`` is the seat whose hand and signal the call was about: the partner for Kemps and Double Kemps; the
    accused for Stop Kemps, or under ``accused_pair`` the accused's partner if only the partner held it.
    ``four_at`` is when the holder's current four of a kind began and ``signal_at`` when the holder first made its
    pair's signal after that (a gesture is stamped when it is complete); both are NaN when there was none.
    ``cue`` is the gesture the caller last noticed from the holder, which the table sees the call answer.
    """
    return pd.DataFrame(calls_rows(result), columns=CALLS_COLUMNS)


def calls_rows(result: MatchResult) -> list[dict]:
    """The rows of :func:`calls_table` as plain dicts (keys: :data:`CALLS_COLUMNS`)."""
    rules = result.rules
    n = rules.players
    rows = []
    for rnd in result.rounds:
        four_at = [NAN] * n
        signal_at = [NAN] * n
        for event in rnd.trace:
            kind = type(event)
            if kind is HandFour:
                four_at[event.seat] = event.time if event.rank >= 0 else NAN
                signal_at[event.seat] = NAN
            elif (kind is Gestured and event.deliberate and event.holds_four
                  and event.gesture == rnd.signals[pair_of(n, event.seat)] and math.isnan(signal_at[event.seat])):
                signal_at[event.seat] = event.time
            elif kind is CallHeard:
                holder = _holder(event, n, rules.stop_kemps_reveals, four_at)
                rows.append({
                    "seed": result.seed, "round": rnd.index, "time": event.time, "started": event.started,
                    "caller": event.seat, "caller_pair": pair_of(n, event.seat), "call": event.call,
                    "accused": event.accused,
                    "accused_pair": pair_of(n, event.accused) if event.accused != NOBODY else -1,
                    "outcome": event.outcome, "right": event.right, "ends_round": event.ends_round,
                    "cue": event.cue, "holder": holder, "four_at": four_at[holder], "signal_at": signal_at[holder],
                    "four_to_signal": signal_at[holder] - four_at[holder],
                    "signal_to_call": event.time - signal_at[holder],
                    "four_to_call": event.time - four_at[holder],
                })
    return rows


def fours_table(result: MatchResult) -> pd.DataFrame:
    """One row per four of a kind a seat came to hold, and its fate: how call accuracy is converted into rounds.

    ``fate`` is ``kemps`` (a right Kemps or Double Kemps by its pair), ``stolen`` (a right Stop Kemps against it),
    ``broken`` (the hand stopped being four of a kind before any call) or ``uncalled`` (the round ended otherwise).
    ``settled_at`` is when that happened (the round's end for ``uncalled``).
    """
    return pd.DataFrame(fours_rows(result), columns=FOURS_COLUMNS)


def fours_rows(result: MatchResult) -> list[dict]:
    """The rows of :func:`fours_table` as plain dicts (keys: :data:`FOURS_COLUMNS`)."""
    rules = result.rules
    n = rules.players
    rows: list[dict] = []
    for rnd in result.rounds:
        open_rows: dict[int, dict] = {}
        four_at = [NAN] * n
        for event in rnd.trace:
            kind = type(event)
            if kind is HandFour:
                _settle(open_rows, event.seat, Fate.BROKEN.value, event.time)
                four_at[event.seat] = event.time if event.rank >= 0 else NAN
                if event.rank >= 0:
                    row = {"seed": result.seed, "round": rnd.index, "seat": event.seat, "pair": pair_of(n, event.seat),
                           "rank": event.rank, "four_at": event.time, "signal_at": NAN, "fate": Fate.UNCALLED.value,
                           "settled_at": rnd.end_time}
                    rows.append(row)
                    open_rows[event.seat] = row
            elif (kind is Gestured and event.deliberate and event.seat in open_rows
                  and event.gesture == rnd.signals[pair_of(n, event.seat)]
                  and math.isnan(open_rows[event.seat]["signal_at"])):
                open_rows[event.seat]["signal_at"] = event.time
            elif kind is CallHeard and event.right:
                if event.call == "stop_kemps":
                    holder = _holder(event, n, rules.stop_kemps_reveals, four_at)
                    _settle(open_rows, holder, Fate.STOLEN.value, event.time)
                else:
                    _settle(open_rows, partner(n, event.seat), Fate.KEMPS.value, event.time)
                    if event.call == "double_kemps":
                        _settle(open_rows, event.seat, Fate.KEMPS.value, event.time)
    return rows


def events_table(result: MatchResult) -> pd.DataFrame:
    """One row per trace event (long format: ``event`` names the type; fields not of that type are empty).

    The columns are always the same, in the same order (every field of every event type), whichever events
    happened, so that the events of many matches stack into one table.
    """
    return pd.DataFrame(events_rows(result), columns=EVENT_COLUMNS)


def events_rows(result: MatchResult) -> list[dict]:
    """The rows of :func:`events_table` as plain dicts (each with the keys of its event's fields only)."""
    return [event_row(result.seed, rnd.index, event) for rnd in result.rounds for event in rnd.trace]


def event_row(seed: int, index: int, event: trace.TraceEvent) -> dict:
    """One trace event as a row of :func:`events_table` (tuples as their ``repr``)."""
    row = {"seed": seed, "round": index, "event": type(event).__name__}
    row.update({k: (v if not isinstance(v, tuple) else repr(v)) for k, v in event._asdict().items()})
    return row


def tables(results: Iterable[MatchResult], events: bool = False) -> dict[str, pd.DataFrame]:
    """The tables of many matches stacked: ``pairs``, ``rounds``, ``calls``, ``fours`` (and ``events`` if asked)."""
    makers = dict(zip(MATCH_TABLES, (pairs_table, rounds_table, calls_table, fours_table), strict=True))
    if events:
        makers["events"] = events_table
    collected: dict[str, list[pd.DataFrame]] = {name: [] for name in makers}
    for result in results:
        for name, make in makers.items():
            collected[name].append(make(result))
    return {name: pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
            for name, frames in collected.items()}


def _settle(open_rows: dict[int, dict], seat: int, fate: str, time: float) -> None:
    """Close the seat's open four-of-a-kind row, if any, with its fate."""
    row = open_rows.pop(seat, None)
    if row is not None:
        row["fate"], row["settled_at"] = fate, time


def _holder(call: CallHeard, n: int, reveals: str, four_at: list[float]) -> int:
    if call.call in ("kemps", "double_kemps"):
        return partner(n, call.seat)
    accused = call.accused
    other = partner(n, accused)
    if reveals == "accused_pair" and math.isnan(four_at[accused]) and not math.isnan(four_at[other]):
        return other
    return accused


#: The rows a Kemps match writes, as the Kemps game record's ``tables`` names them: its ``matches`` row, one row per
#: pair, round, call and four of a kind, and (with ``events = true``) every event of the trace; every table but the
#: events takes the cell's scoring rule. Here, beside the rows, so that the game record imports none of them.
TABLES = GameTables(match_row,
                    {"pairs": (pairs_rows, None), "rounds": (rounds_rows, None), "calls": (calls_rows, CALLS_COLUMNS),
                     "fours": (fours_rows, FOURS_COLUMNS)},
                    ("events", events_rows, EVENT_COLUMNS),
                    scored=("matches", "pairs", "rounds", "calls", "fours"))
