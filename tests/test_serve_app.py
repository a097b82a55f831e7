"""The live table's web server, driven by Starlette's test client: a scripted person joins by their link, plays a
match through the WebSocket, and is shown exactly what the visibility rules let their seat know; wrong links, a
seat taken twice and bad messages are refused in one line."""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from kemps_sim.cli import main
from kemps_sim.serve import LiveTable
from kemps_sim.serve.app import REFUSED, Room, make_app
from kemps_sim.visibility import HIDDEN_CARD
from tests.test_serve_table import screen_messages


def room(seed: int = 4) -> Room:
    return Room(LiveTable("standard", ["collector"] * 4, remote=[0], seed=seed, factor=0.01), tokens={"tok": 0})


def test_a_person_plays_a_match_through_the_socket_and_sees_only_what_their_seat_may():
    served = room()
    client = TestClient(make_app(served))
    assert "you are seat 0" in client.get("/seat/tok").text
    received, swapped_in, errors = [], set(), []
    with client.websocket_connect("/ws/tok") as socket:
        socket.send_json({"kind": "dance"})  # not an intent: answered, and the seat plays on
        socket.send_text("not json")
        while (message := socket.receive_json())["type"] != "over":
            received.append(message)
            socket.send_json({"kind": "drawn", "id": message["id"], "t": 1.0})
            if message["type"] == "error":
                errors.append(message["message"])
            if message["type"] == "view" and message["playing"] and message["round"] not in swapped_in:
                swapped_in.add(message["round"])
                socket.send_json({"kind": "swap", "give": [message["hand"][0]], "take": [message["middle"][0]]})
    result = served.table.join(timeout=60)
    assert message["end_reason"] == "match_over" == result.end_reason
    assert errors == ["message.kind = 'dance': allowed: swap, call, stalled, object, gesture",
                      "message 'not json': must be an object with a 'kind' (swap, call, stalled, object, gesture)"]
    assert swapped_in == set(range(len(result.rounds)))
    # what came over the wire is, message for message, what a person at seat 0 may see
    got = [(m["type"], m["round"], (m["time"], m["seat"], m["gesture"]) if m["type"] == "gesture"
            else {k: v for k, v in m.items() if k != "id"}) for m in received if m["type"] in ("event", "gesture")]
    assert got == screen_messages(result, 0)
    views = [m for m in received if m["type"] == "view"]
    assert views and all(HIDDEN_CARD not in v["hand"] and len(v["hand_names"]) == 4 for v in views)
    for message in received:  # no other hand, no percept, nothing of whether another's gesture was meant
        assert message.get("event") != "Perceived"
        assert "deliberate" not in message or message.get("seat") == 0
        if message.get("event") == "Dealt":
            assert all(card == HIDDEN_CARD for seat, hand in enumerate(message["hands"]) if seat for card in hand)


def test_a_wrong_link_and_a_seat_taken_twice_are_refused():
    served = room()
    client = TestClient(make_app(served))
    assert client.get("/seat/guess").status_code == 404
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect("/ws/guess"):
        pass
    assert refused.value.code == REFUSED
    with client.websocket_connect("/ws/tok"):
        with pytest.raises(WebSocketDisconnect) as again, client.websocket_connect("/ws/tok"):
            pass
        assert again.value.code == REFUSED
    served.table.stop()  # its person left: it waits for them; the test ends it


def test_the_links_are_unguessable_and_one_per_person():
    served = Room(LiveTable("standard", ["collector"] * 4, remote=[0, 2], seed=1))
    links = served.links("127.0.0.1", 8765)
    assert sorted(links) == [(0, 0), (0, 2)] and len(set(links.values())) == 2
    assert all(len(link.rsplit("/", 1)[1]) >= 20 for link in links.values())  # 16 random bytes, base64


@pytest.mark.parametrize(("args", "fragment"), [
    (["--humans", "7"], "--humans 7: '7' is not a seat; give seats from 0 to 3"),
    (["--humans", "1,1"], "--humans 1,1: a seat is named twice"),
    (["--port", "70000"], "--port 70000: must be from 1 to 65535"),
    (["--lineup", "collector,watcher,random"], "--lineup has 3 entries for 4 players"),
    (["--rate", "0"], "rate = 0.0: must be a number of inputs a second > 0"),
    (["--tables", "0"], "--tables 0: must be from 1 to 64"),
    (["--factor", "0"], "--factor 0.0: must be a number > 0"),
    (["--on-leave", "nobody"], "nobody"),
    (["--intro", "no/such/intro.html"], "--intro no/such/intro.html: no such file"),
])
def test_bad_serve_options_are_one_line_and_exit_2(args, fragment, capsys):
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_page_that_closes_pauses_the_table_and_the_same_link_takes_the_seat_back():
    served = Room(LiveTable("standard", ["collector"] * 4, remote=[0], seed=2, factor=0.05), tokens={"tok": 0})
    client = TestClient(make_app(served))
    with client.websocket_connect("/ws/tok") as socket:
        while socket.receive_json()["type"] != "view":
            pass
    table = served.table
    deadline = time.monotonic() + 10
    while not table.paused and time.monotonic() < deadline:
        time.sleep(0.01)
    assert table.paused and table.departures[0]["seat"] == 0 and table.departures[0]["became"] == "pause"
    with client.websocket_connect("/ws/tok") as socket:  # back: the table goes on, and says so
        kinds = []
        while "resumed" not in kinds:
            kinds.append(socket.receive_json()["type"])
        assert not table.paused
    table.stop()


def test_a_bad_intro_file_leaves_no_session_folder(tmp_path, capsys):
    assert main(["serve", "--data", str(tmp_path / "study"), "--intro", str(tmp_path / "missing.html")]) == 2
    assert not (tmp_path / "study").exists() and "Traceback" not in capsys.readouterr().err
