"""A robot person for the live table's tests: a client that joins a seat's WebSocket over real TCP, draws (stamps)
each message on its own clock, and answers with known latencies, keeping its own record of what it did."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import uvicorn
import websocket  # websocket-client

from kemps_sim.serve.app import Room, make_app


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Served:
    """``room`` served by uvicorn on a free local port in a thread, until :meth:`close`."""

    def __init__(self, room: Room) -> None:
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(make_app(room), host="127.0.0.1", port=self.port,
                                                    log_level="warning", ws="wsproto"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.server.started, "the server did not start"

    def url(self, token: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{token}"

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@dataclass
class Robot:
    """Plays one seat: ``answer(message)`` returns (reaction, reach, the input to send) or None: the first click
    comes ``reaction`` seconds after the message was drawn, the input ``reach`` seconds after the first click. Its
    clock is ``time.perf_counter`` shifted by ``offset`` (a page's clock has its own origin). For every input it
    records the stamp of the draw it answered and the stamps it sent (``answers``), and every message
    (``received``) with the local monotonic time it arrived."""

    url: str
    answer: Callable[[dict], tuple[float, float, dict] | None]
    offset: float = 1234.5
    received: list[tuple[float, dict]] = field(default_factory=list)
    answers: list[dict] = field(default_factory=list)

    def clock(self) -> float:
        return time.perf_counter() + self.offset

    def play(self, timeout: float = 300.0) -> None:
        link = websocket.create_connection(self.url, timeout=timeout)
        try:
            while True:
                message = json.loads(link.recv())
                self.received.append((time.monotonic(), message))
                drawn = self.clock()
                link.send(json.dumps({"kind": "drawn", "id": message["id"], "t": drawn}))
                if message["type"] == "over":
                    return
                reply = self.answer(message)
                if reply is None:
                    continue
                reaction, reach, data = reply
                first = self.wait_until(drawn + reaction)
                pressed = self.wait_until(first + reach)
                link.send(json.dumps({**data, "t_first": first, "t": pressed}))
                self.answers.append({"message": message["id"], "drawn": drawn, "first": first, "pressed": pressed,
                                     "reaction": reaction, "reach": reach, **data})
        finally:
            link.close()

    def wait_until(self, moment: float) -> float:
        """Sleep until ``moment`` of the robot's clock; the moment it woke."""
        while (now := self.clock()) < moment:
            time.sleep(min(0.0005, moment - now))
        return self.clock()

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.play, daemon=True)
        thread.start()
        return thread
