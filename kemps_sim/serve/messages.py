"""What goes over the wire to and from a person's page, as JSON: an event as the seat knows it, the seat's view,
and the intents a page may send, each checked with a one-line error naming the field, the value and what is
allowed."""

from __future__ import annotations

import math
from typing import Any

from kemps_sim.cards import card_name
from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.intents import (
    CallDoubleKemps,
    CallKemps,
    CallStopKemps,
    Gesture,
    Intent,
    Object,
    SayStalled,
    Swap,
)
from kemps_sim.trace import TraceEvent

#: The calls a page may send, by name.
CALLS = {"kemps": CallKemps, "double_kemps": CallDoubleKemps, "stop_kemps": CallStopKemps}
#: The kinds of message a page may send.
KINDS = ("swap", "call", "stalled", "object", "gesture")


def plain(value: Any) -> Any:
    """A value as JSON data: tuples as lists, everything else as it is."""
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    return value


def event_message(index: int, event: TraceEvent) -> dict[str, Any]:
    """An event (already as the seat knows it) as a message: its type, its round and its fields."""
    return {"type": "event", "round": index, "event": type(event).__name__,
            **{key: plain(value) for key, value in event._asdict().items()}}


def view_message(view: dict[str, Any]) -> dict[str, Any]:
    """The seat's view as a message, its cards also by name (``7♠``)."""
    return {"type": "view", **view, "hand_names": [card_name(c) for c in view["hand"]],
            "middle_names": [card_name(c) for c in view["middle"]]}


def intent_from(data: Any, players: int) -> Intent:
    """The intent a page's message asks for: ``{"kind": "swap", "give": [cards], "take": [cards]}``,
    ``{"kind": "call", "call": "kemps" | "double_kemps" | "stop_kemps", "accused": seat}`` (the seat only for a Stop
    Kemps), ``{"kind": "stalled"}``, ``{"kind": "object"}`` or ``{"kind": "gesture", "gesture": name}`` (a gesture
    of the table's repertoire: the pair's signal, or a bluff). The engine judges whether the rules allow it."""
    if not isinstance(data, dict):
        raise ConfigError(f"message {data!r}: must be an object with a 'kind' ({', '.join(KINDS)})")
    kind = data.get("kind")
    if kind == "swap":
        give, take = (_cards(data, key) for key in ("give", "take"))
        return Swap(give, take)
    if kind == "call":
        call = data.get("call")
        if call not in CALLS:
            raise ConfigError(f"message.call = {call!r}: allowed: {', '.join(CALLS)}")
        if CALLS[call] is not CallStopKemps:
            return CALLS[call]()
        accused = data.get("accused")
        if isinstance(accused, bool) or not isinstance(accused, int) or not 0 <= accused < players:
            raise ConfigError(f"message.accused = {accused!r}: must be a seat from 0 to {players - 1}")
        return CallStopKemps(accused)
    if kind == "stalled":
        return SayStalled()
    if kind == "object":
        return Object()
    if kind == "gesture":
        gesture = data.get("gesture")
        if gesture not in DEFAULT_REPERTOIRE:
            raise ConfigError(f"message.gesture = {gesture!r}: allowed: {', '.join(DEFAULT_REPERTOIRE.names)}")
        return Gesture(gesture)
    raise ConfigError(f"message.kind = {kind!r}: allowed: {', '.join(KINDS)}")


def _cards(data: dict[str, Any], key: str) -> tuple[int, ...]:
    cards = data.get(key)
    if not isinstance(cards, list) or len(cards) > 4 or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 104 for c in cards):
        raise ConfigError(f"message.{key} = {cards!r}: must be a list of at most 4 cards (numbers from 0 to 103)")
    return tuple(cards)


def stamp(data: dict[str, Any], key: str) -> float:
    """A page's time stamp ``data[key]`` (page clock, seconds) if it is a finite number, else NaN."""
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return math.nan
    return float(value)


def intent_columns(intent: Intent | None) -> dict[str, Any]:
    """An intent as the inputs table's columns (kind, call, accused, gesture, give, take)."""
    row: dict[str, Any] = {"kind": "", "call": "", "accused": -1, "gesture": "", "give": "", "take": ""}
    if isinstance(intent, Swap):
        row.update(kind="swap", give=" ".join(map(str, intent.give)), take=" ".join(map(str, intent.take)))
    elif isinstance(intent, CallStopKemps):
        row.update(kind="call", call="stop_kemps", accused=intent.accused)
    elif isinstance(intent, CallKemps | CallDoubleKemps):
        row.update(kind="call", call="kemps" if isinstance(intent, CallKemps) else "double_kemps")
    elif isinstance(intent, Gesture):
        row.update(kind="gesture", gesture=intent.name)
    elif isinstance(intent, SayStalled | Object):
        row.update(kind="stalled" if isinstance(intent, SayStalled) else "object")
    return row
