"""The web server of a live table (Starlette): one page per person's seat, reached by an unguessable link, and a
WebSocket over which the seat is shown what it may know as it happens and sends what it does.

``GET /seat/{token}`` is the page; ``/ws/{token}`` its WebSocket. An unknown token gets 404 (the page) or a refused
handshake (the socket), and so does a second connection to a seat already taken. The match starts when every
person's seat is connected. A message the page sends that is not an intent is answered with a one-line error and
the seat plays on.
"""

from __future__ import annotations

import asyncio
import queue
import secrets
from collections.abc import Mapping
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from kemps_sim.errors import ConfigError
from kemps_sim.serve.messages import event_message, intent_from, view_message
from kemps_sim.serve.table import LiveTable

#: Close code of a refused socket (unknown token, or a seat already taken): 4403, "forbidden", in the private range.
REFUSED = 4403
#: Wall seconds between two looks at a seat's outbox while nothing comes.
_WAIT = 0.25


class Room:
    """A live table served: each person's seat behind a token (``tokens``: token -> seat; by default a new
    unguessable one per remote seat) and who has joined."""

    def __init__(self, table: LiveTable, tokens: Mapping[str, int] | None = None) -> None:
        self.table = table
        self.tokens = dict(tokens) if tokens is not None else {secrets.token_urlsafe(16): s for s in table.seats}
        if sorted(self.tokens.values()) != sorted(table.seats):
            raise ConfigError(f"tokens: give one per remote seat ({sorted(table.seats)}), not for seats "
                              f"{sorted(self.tokens.values())}")
        self.joined: set[int] = set()

    def links(self, host: str, port: int) -> dict[int, str]:
        """The join link of each person's seat."""
        return {seat: f"http://{host}:{port}/seat/{token}" for token, seat in sorted(self.tokens.items(),
                                                                                      key=lambda item: item[1])}


def make_app(room: Room) -> Starlette:
    """The application serving ``room``."""
    page = resources.files("kemps_sim.serve").joinpath("assets/seat.html").read_text(encoding="utf-8")

    async def seat_page(request: Request) -> Response:
        token = request.path_params["token"]
        if token not in room.tokens:
            return PlainTextResponse("unknown seat link", status_code=404)
        return HTMLResponse(page.replace("{{TOKEN}}", token).replace("{{SEAT}}", str(room.tokens[token])))

    async def seat_socket(websocket: WebSocket) -> None:
        seat = room.tokens.get(websocket.path_params["token"])
        if seat is None or seat in room.joined:
            await websocket.close(code=REFUSED)
            return
        room.joined.add(seat)
        await websocket.accept()
        if room.joined == set(room.table.seats) and not room.table.started:
            room.table.start()
        pump = asyncio.create_task(_pump(websocket, room.table, seat))
        try:
            while True:
                data = await websocket.receive_json()
                try:
                    room.table.send(seat, intent_from(data, room.table.rules.players))
                except ConfigError as exc:
                    await websocket.send_json({"type": "error", "message": str(exc)})
        except WebSocketDisconnect:
            pass
        finally:
            pump.cancel()

    return Starlette(routes=[Route("/seat/{token}", seat_page), WebSocketRoute("/ws/{token}", seat_socket)])


async def _pump(websocket: WebSocket, table: LiveTable, seat: int) -> None:
    """Send the seat what its outbox receives until the match is over, then the end and the standings."""
    box = table.outboxes[seat]
    while True:
        try:
            message = await asyncio.to_thread(box.get, True, _WAIT)
        except queue.Empty:
            continue
        if message is None:
            break
        if message[0] == "view":
            await websocket.send_json(view_message(message[1]))
        elif message[0] == "refused":
            await websocket.send_json({"type": "refused", "message": message[1]})
        else:
            await websocket.send_json(event_message(message[1], message[2]))
    result = table.result
    await websocket.send_json({"type": "over", "end_reason": None if result is None else result.end_reason,
                               "winners": None if result is None else list(result.winners),
                               "error": None if table.error is None else str(table.error)})
