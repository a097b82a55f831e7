"""The tables a session at a live table writes, column by column: the data dictionary of a study.

Every table is tidy (one row per observation) and carries ``session``; the rows of a person's seat carry its
anonymous ``participant`` id. Times come from three clocks, never mixed in one column: ``sim_time`` is the match's
simulated seconds (the trace's ``time``), ``server_time`` the server's monotonic seconds since the session began,
and ``client_time`` the page's own clock (``performance.now()`` in seconds, its origin the page's load), which is
the clock a person's reaction times are measured on: a key press and the drawing of what it answered are stamped
by the same page. :data:`SCHEMA_VERSION` changes whenever a column is added, removed or changes meaning.
"""

from __future__ import annotations

from types import MappingProxyType

#: The version of the tables' layout, written into every session's ``session.json``.
SCHEMA_VERSION = 1

#: Missing integers (a seat, a round) are -1; missing times NaN; missing text the empty string.
MISSING_INT = -1

_COMMON = {
    "session": ("string", "the session's id (its folder's name)"),
    "participant": ("string", "the anonymous id of the person at the seat (drawn when the session began)"),
    "seat": ("int64", "the person's seat"),
}

#: Each table's columns: name -> (pandas dtype, what it holds), in the tables' column order.
TABLES: MappingProxyType[str, MappingProxyType[str, tuple[str, str]]] = MappingProxyType({
    "inputs": MappingProxyType({
        **_COMMON,
        "input": ("int64", "running number of the seat's inputs, from 0"),
        "kind": ("string", "what the page sent: swap, call, stalled, object or gesture (Kemps); move or call "
                           "(Krepet)"),
        "call": ("string", "for a call: kemps, double_kemps or stop_kemps (Kemps); krepet (Krepet)"),
        "accused": ("int64", "for a Stop Kemps: the seat accused (-1 otherwise)"),
        "gesture": ("string", "for a gesture: the gesture made"),
        "give": ("string", "for a swap: the cards given from the hand (card numbers, space-separated)"),
        "take": ("string", "for a swap: the cards taken from the middle"),
        "move": ("string", "for a Krepet move: what the page asked for (a lay from a pile to a pile, draw, take "
                           "back, end turn)"),
        "first_client_time": ("float64", "for a swap: when the first of its two clicks was made (page clock, s)"),
        "client_time": ("float64", "when the key was pressed or the last click made (page clock, s)"),
        "server_time": ("float64", "when the server received it (server clock, s)"),
        "sim_time": ("float64", "when the engine played or refused it (simulated s; NaN if it never reached it)"),
        "round": ("int64", "the round it was played or refused in (-1 if none)"),
        "status": ("string", "played, refused (the rules did not allow it then), invalid (not a well-formed "
                             "message), limited (over the rate limit) or unplayed (the match ended first)"),
        "problem": ("string", "why it was refused, invalid or limited"),
    }),
    "draws": MappingProxyType({
        **_COMMON,
        "message": ("int64", "the message's running number at the seat"),
        "what": ("string", "view (hand, middle and standings), event, gesture (an avatar's) or over"),
        "detail": ("string", "for an event its type; for a gesture the gesture"),
        "round": ("int64", "the round (-1 if none)"),
        "sim_time": ("float64", "the simulated time of what was shown (NaN if none)"),
        "hand": ("string", "for a view: the seat's cards shown (card numbers, space-separated; in Krepet its hand)"),
        "middle": ("string", "for a view: the middle shown (Kemps)"),
        "server_time": ("float64", "when the server sent it (server clock, s)"),
        "client_time": ("float64", "when the page had drawn it (page clock, s; the frame after it was received)"),
    }),
    "gestures_shown": MappingProxyType({
        **_COMMON,
        "message": ("int64", "the message that showed it (its draw is in draws)"),
        "round": ("int64", "the round"),
        "sim_time": ("float64", "when the gesture was made (simulated s)"),
        "gesturer": ("int64", "the seat whose avatar made it"),
        "relation": ("string", "partner or opponent of the person"),
        "gesture": ("string", "the gesture shown"),
        "emphasis": ("float64", "how emphatic it was drawn: normal with mean the screen's d' for a meant gesture, "
                                "0 for an idle one, sd 1"),
        "hold": ("float64", "how long the avatar held it on screen (s of the page's clock)"),
        "deliberate": ("boolean", "whether it was meant (truth from the trace; never sent to the page)"),
        "own_signal": ("boolean", "whether it has the form of the person's own pair's signal"),
        "holds_four": ("boolean", "whether the gesturer held four of a kind (truth from the trace)"),
    }),
})


def columns(table: str) -> list[str]:
    """The column names of ``table``, in order."""
    return list(TABLES[table])


def dtypes(table: str) -> dict[str, str]:
    """The pandas dtype of each column of ``table``."""
    return {name: dtype for name, (dtype, _) in TABLES[table].items()}
