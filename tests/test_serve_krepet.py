"""Krepet with a person at the table: a scripted person plays a player of a live Krepet game through its table,
sees the board as that player may (nothing that lies face down, never whether the opponent's move was a miss),
moves by asking for a pile-to-pile move that the seat finds among the legal ones or refuses in words, calls
"Krepet!" when they like, and is recorded as in Kemps; `kemps-sim serve --game krepet` serves it."""

from __future__ import annotations

import time

import numpy as np
import pytest
from starlette.testclient import TestClient

from kemps_sim.cli import main
from kemps_sim.krepet.deal import deal
from kemps_sim.krepet.presets import load_krepet_rules
from kemps_sim.krepet.realtime import KrepetConfig
from kemps_sim.krepet.remote import board_of
from kemps_sim.krepet.table import MISS_FIELDS, KrepetTable
from kemps_sim.krepet.trace import CallHeard, Moved
from kemps_sim.serve.app import Room, make_app
from kemps_sim.study import load_sessions

PERSON = 0
#: Every pile a player might lay from, and every pile a card might go to.
SOURCES = [f"hand{PERSON}", f"side{PERSON}", f"discard{PERSON}", *(f"T{i}" for i in range(8))]
TARGETS = [*(f"F{i}" for i in range(8)), *(f"T{i}" for i in range(8)), f"side{1 - PERSON}",
           f"discard{1 - PERSON}"]


def play_scripted(data=None, seed: int = 1) -> tuple[KrepetTable, list[dict]]:
    """The person, on each turn, asks for every lay from their piles and the tableau to every pile (the seat plays
    those the rules allow and refuses the others), then to draw, then to end the turn; during the opponent's turn
    they say "Krepet!" once. The opponent is greedy; the game is cut at 200 moves; the table waits for the
    person to have drawn each message (lockstep), so the game is the same every time."""
    table = KrepetTable("wikibooks", ["greedy", "greedy"], remote=[PERSON], seed=seed, factor=None, data=data,
                        rate=1e6, lockstep=True, config=KrepetConfig(max_moves=200))
    table.start()
    shown, asked, called = [], set(), False
    while (message := table.outboxes[PERSON].get(timeout=120)) is not None:
        shown.append(message)
        table.receive(PERSON, {"kind": "drawn", "id": message["id"], "t": time.monotonic()})
        if message["type"] != "view" or not message["playing"]:
            continue
        if message["to_move"] == PERSON and message["turn"] not in asked:
            asked.add(message["turn"])
            for src in SOURCES:
                for dst in TARGETS:
                    if src != dst:
                        table.receive(PERSON, {"kind": "move", "src": src, "dst": dst, "t": time.monotonic()})
            table.receive(PERSON, {"kind": "draw", "t": time.monotonic()})
            table.receive(PERSON, {"kind": "end_turn", "t": time.monotonic()})
        elif message["to_move"] != PERSON and not called and message["turn"] >= 3:
            called = True
            table.receive(PERSON, {"kind": "krepet", "t": time.monotonic()})
    table.join(timeout=120)
    return table, shown


@pytest.fixture(scope="module")
def scripted(tmp_path_factory):
    data = tmp_path_factory.mktemp("krepet")
    table, shown = play_scripted(data)
    return table, shown, load_sessions(data)


def test_a_scripted_person_plays_a_krepet_game_through_the_table(scripted):
    table, shown, _ = scripted
    result = table.result
    assert result is not None and result.names[PERSON] == "remote0"
    own = [e for e in result.trace if isinstance(e, Moved) and e.player == PERSON]
    assert {e.kind for e in own} >= {"lay", "draw"}  # the seat found legal lays among what was asked
    assert [e for e in result.trace if isinstance(e, CallHeard) and e.caller == PERSON]  # the person's "Krepet!"
    refused = [m for m in shown if m["type"] == "refused"]
    assert refused and all(" -> " in m["message"] or "draw" in m["message"] or "end turn" in m["message"]
                           for m in refused)


def test_the_page_is_shown_nothing_face_down_and_never_whether_a_move_was_a_miss(scripted):
    _, shown, _ = scripted
    views = [m for m in shown if m["type"] == "view"]
    assert views and all(isinstance(p["talon"], int) and isinstance(p["side_hidden"], int)
                         for v in views for p in v["piles"])
    events = [m for m in shown if m["type"] == "event"]
    assert all(m["event"] != "Noticed" for m in events)
    moved = [m for m in events if m["event"] == "Moved"]
    assert moved and all(m[key] is None for m in moved for key in MISS_FIELDS)
    assert all(m["card"] == -1 for m in moved if m["kind"] == "draw")  # a drawn card comes from face down


def test_a_board_shows_what_lies_face_up_only():
    state = deal(load_krepet_rules("wikibooks"), np.random.default_rng(3))
    for player in (0, 1):
        board = board_of(state, player)
        shown = {int(card) for card in board["names"]}
        face_down = {c for p in (0, 1) for c in state.talon[p]} | {
            c for p in (0, 1) for c in state.side[p][:state.side_hidden[p]]}
        assert face_down and not shown & face_down
        for p in (0, 1):
            assert board["piles"][p]["talon"] == len(state.talon[p])
            assert board["piles"][p]["side_hidden"] + len(board["piles"][p]["side"]) == len(state.side[p])


def test_a_krepet_session_is_recorded_with_the_games_own_tables(scripted):
    table, _, data = scripted
    assert data["sessions"]["game"].tolist() == ["krepet"]
    assert {"misses", "moves", "calls", "pairs"} <= set(data) and "move" in data["events"].columns
    assert len(data["events"]) == len(table.result.trace)
    inputs = data["inputs"]
    played = inputs[(inputs["kind"] == "move") & (inputs["status"] == "played")]
    own = [e for e in table.result.trace if isinstance(e, Moved) and e.player == PERSON]
    assert len(played) == len(own)
    assert (inputs["call"] == "krepet").sum() == 1 and set(inputs["status"]) <= {"played", "refused", "unplayed"}


def test_the_server_serves_the_krepet_page_for_a_krepet_table():
    table = KrepetTable("wikibooks", ["greedy", "greedy"], remote=[1], seed=2, factor=None)
    client = TestClient(make_app(Room(table, tokens={"k": 1})))
    page = client.get("/seat/k").text
    assert "Krepet: you are player 1" in page and "{{" not in page
    table.stop()


@pytest.mark.parametrize(("args", "fragment"), [
    (["--game", "krepet", "--players", "4"], "--players 4: Krepet is for 2 players"),
    (["--game", "krepet", "--humans", "2"], "--humans 2: '2' is not a seat; give seats from 0 to 1"),
    (["--game", "krepet", "--lineup", "collector"], "collector"),
])
def test_bad_krepet_serve_options_are_one_line_and_exit_2(args, fragment, capsys):
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_calibrate_says_in_one_line_that_it_fits_kemps_sessions_only(scripted, tmp_path, capsys):
    folder = next(p.parent for p in scripted[0].writer.path.parent.glob("*/session.json"))
    assert main(["calibrate", str(folder), "--out", str(tmp_path / "p.toml")]) == 2
    err = capsys.readouterr().err
    assert "holds krepet sessions" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
