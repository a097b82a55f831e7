"""The web server of live tables (Starlette): one page per person's seat, reached by an unguessable link, and a
WebSocket over which the seat is shown what it may know as it happens and sends what it does.

``GET /seat/{token}`` is the page; ``/ws/{token}`` its WebSocket, and ``/ws/{token}/practice`` a practice round's
before the person joins the match. An unknown token gets 404 (the page) or a refused handshake (the socket), and so
does a second connection to a seat already connected. A table starts when every person's seat at it is connected. A
person whose page closes has left (:meth:`~kemps_sim.serve.table_base.LiveTableBase.leave`: the table pauses, or an
agent plays on); opening the link again takes the seat back. A message the page sends that is not an intent, or
comes faster than the rate limit, is answered with a one-line error and the seat plays on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import secrets
from collections.abc import AsyncIterator, Mapping, Sequence
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from kemps_sim.errors import ConfigError
from kemps_sim.serve.table_base import LiveTableBase

#: Close code of a refused socket (unknown token, or a seat already connected): 4403, "forbidden", private range.
REFUSED = 4403
#: Wall seconds between two looks at a seat's outbox while nothing comes (the page stamps its own draws, so this
#: delay is not in a person's measured times).
_WAIT = 0.01


class Room:
    """Live tables served together (one, or several at once: a lab's groups), each person's seat behind a token
    (``tokens``: token -> (table number, seat); by default a new unguessable one per remote seat), and who is
    connected now. ``intro`` (HTML: a study's consent and instructions) is shown before a person joins, with a
    button to start; ``practice`` offers each person a practice round first (the table's ``practice(seat)``)."""

    def __init__(self, tables: LiveTableBase | Sequence[LiveTableBase],
                 tokens: Mapping[str, int | tuple[int, int]] | None = None, intro: str = "",
                 practice: bool = False) -> None:
        self.tables = [tables] if isinstance(tables, LiveTableBase) else list(tables)
        if not self.tables:
            raise ConfigError("tables: give at least one live table")
        seats = [(number, seat) for number, table in enumerate(self.tables) for seat in table.seats]
        if tokens is None:
            self.tokens = {secrets.token_urlsafe(16): place for place in seats}
        else:
            self.tokens = {token: place if isinstance(place, tuple) else (0, place) for token, place in tokens.items()}
        if sorted(self.tokens.values()) != sorted(seats):
            raise ConfigError(f"tokens: give one per remote seat ({sorted(seats)}), not for "
                              f"{sorted(self.tokens.values())}")
        self.intro, self.practice = intro, practice
        self.connected: set[tuple[int, int]] = set()
        self.joined: set[tuple[int, int]] = set()

    @property
    def table(self) -> LiveTableBase:
        """The first (or only) table."""
        return self.tables[0]

    def links(self, host: str, port: int) -> dict[tuple[int, int], str]:
        """The join link of each person's seat, by (table number, seat)."""
        return {place: f"http://{host}:{port}/seat/{token}"
                for token, place in sorted(self.tokens.items(), key=lambda item: item[1])}


def make_app(room: Room) -> Starlette:
    """The application serving ``room``."""
    assets = resources.files("kemps_sim.serve").joinpath("assets")
    pages = {name: assets.joinpath(name).read_text(encoding="utf-8") for name in sorted({t.page for t in room.tables})}

    async def seat_page(request: Request) -> Response:
        token = request.path_params["token"]
        if token not in room.tokens:
            return PlainTextResponse("unknown seat link", status_code=404)
        number, seat = room.tokens[token]
        table = room.tables[number]
        fields = {"TOKEN": token, "SEAT": str(seat), "PLAYERS": str(table.players), "INTRO": room.intro,
                  "START": "Practise first" if room.practice else "Start",
                  "PRACTICE": "true" if room.practice else "false"}
        text = pages[table.page]
        for name, value in fields.items():
            text = text.replace("{{" + name + "}}", value)
        return HTMLResponse(text)

    async def seat_socket(websocket: WebSocket) -> None:
        place = room.tokens.get(websocket.path_params["token"])
        if place is None or place in room.connected:
            await websocket.close(code=REFUSED)
            return
        number, seat = place
        table = room.tables[number]
        room.connected.add(place)
        returning = place in room.joined
        room.joined.add(place)
        await websocket.accept()
        table.joined(seat)
        if returning:
            table.back(seat)
        elif all((number, s) in room.joined for s in table.seats) and not table.started:
            table.start()
        try:
            await _play(websocket, table, seat)
        finally:
            room.connected.discard(place)
            if table.result is None and table.error is None and table.started:
                table.leave(seat)

    async def practice_socket(websocket: WebSocket) -> None:
        place = room.tokens.get(websocket.path_params["token"])
        if place is None or not room.practice or place in room.connected or place in room.joined:
            await websocket.close(code=REFUSED)
            return
        number, seat = place
        await websocket.accept()
        table = room.tables[number].practice(seat).start()
        try:
            await _play(websocket, table, seat)
        finally:
            table.stop(timeout=0)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        yield
        # the server is stopping (Ctrl-C, or a TERM signal): each session is saved as it stands
        await asyncio.gather(*(asyncio.to_thread(table.stop) for table in room.tables))

    return Starlette(routes=[Route("/seat/{token}", seat_page), WebSocketRoute("/ws/{token}", seat_socket),
                             WebSocketRoute("/ws/{token}/practice", practice_socket)], lifespan=lifespan)


async def _play(websocket: WebSocket, table: LiveTableBase, seat: int) -> None:
    """Carry a seat's messages both ways until its page closes (the page's to the table, the table's to the page)."""
    pump = asyncio.create_task(_pump(websocket, table.outboxes[seat]))
    try:
        while True:
            table.receive(seat, _parsed(await websocket.receive_text()))
    except WebSocketDisconnect:
        pass
    finally:
        pump.cancel()


def _parsed(text: str) -> Any:
    """A page's message as JSON data (text that is not JSON is passed on as it is, to be refused in one line)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


async def _pump(websocket: WebSocket, box: queue.SimpleQueue) -> None:
    """Send the page what its seat's outbox receives, until the match is over. The outbox is read without blocking
    a thread, so that a page that leaves takes no message with it (the next connection of the seat gets the rest)."""
    while True:
        try:
            message = box.get_nowait()
        except queue.Empty:
            await asyncio.sleep(_WAIT)
            continue
        if message is None:
            break
        await websocket.send_json(message)
