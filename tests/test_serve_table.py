"""People at the table, without a browser: a scripted person plays a seat of a live match through its inbox; what
the seat is shown is exactly what the engine's visibility rules let a person there know; what they did is recorded
as the study's tables; a person who leaves pauses the table or is stood in for; a flood of inputs is limited."""

from __future__ import annotations

import math
import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

from kemps_sim.engine.seat import SeatKit
from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.intents import Swap, Wait
from kemps_sim.profiles import PlayerProfile
from kemps_sim.records import event_row
from kemps_sim.seating import partner
from kemps_sim.serve import LiveTable, RemoteSeat
from kemps_sim.serve.limits import RateLimit
from kemps_sim.serve.messages import event_message
from kemps_sim.serve.remote import Sent
from kemps_sim.serve.screen import SCREEN_D, emphasis_of, hold_of
from kemps_sim.study import load_sessions
from kemps_sim.trace import Dealt, Gestured, RaceLost, Swapped
from kemps_sim.visibility import HIDDEN_CARD, on_screen


def play_scripted(seed: int, data=None, factor: float | None = 0.01) -> tuple[LiveTable, list[dict]]:
    """Seat 0 is a person who, the first three times their view changes in a round while play is on, swaps the
    first card of their hand for the first middle card; they acknowledge every message drawn. The others are
    collectors."""
    table = LiveTable("standard", ["collector"] * 4, remote=[0], seed=seed, factor=factor, data=data,
                      rate=1000).start()
    shown, clock, tries = [], time.monotonic, {}
    while (message := table.outboxes[0].get(timeout=120)) is not None:
        shown.append(message)
        table.receive(0, {"kind": "drawn", "id": message["id"], "t": clock()})
        if sends(message, tries):
            first = clock()
            table.receive(0, {"kind": "swap", "give": [message["hand"][0]], "take": [message["middle"][0]],
                              "t_first": first, "t": clock()})
    table.join(timeout=120)
    return table, shown


def sends(message: dict, tries: dict[int, int]) -> bool:
    """Whether the scripted person swaps on ``message`` (counting their swaps of the round in ``tries``)."""
    if message["type"] != "view" or not message["playing"] or not message["middle"]:
        return False
    tries[message["round"]] = tries.get(message["round"], 0) + 1
    return tries[message["round"]] <= 3


def screen_messages(result, seat: int) -> list[tuple]:
    """What the rules let a person at ``seat`` see, as (type, round, payload) in order."""
    out = []
    for index, played in enumerate(result.rounds):
        for event in played.trace:
            seen = on_screen(event, seat)
            if seen is None:
                continue
            if isinstance(event, Gestured) and event.seat != seat:
                out.append(("gesture", index, (event.time, event.seat, event.gesture)))
            else:
                out.append(("event", index, event_message(index, seen)))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_a_scripted_person_plays_a_seat_and_sees_only_what_it_may(seed):
    table, shown = play_scripted(seed)
    result = table.result
    assert result is not None and result.end_reason == "match_over" and result.agents[0] == "remote0"
    # Every round, the person swapped (it landed, or lost the race for the card to a faster hand) or, when the card
    # had gone by the time the click arrived, was told so in words, and the match went on.
    refused = [m for m in shown if m["type"] == "refused"]
    played_swaps = sum(any(isinstance(e, Swapped | RaceLost) and e.seat == 0 for e in played.trace)
                       for played in result.rounds)
    assert played_swaps >= len(result.rounds) - len(refused) and played_swaps >= 1
    assert all("not in the middle" in m["message"] or "not in seat 0's hand" in m["message"] for m in refused)
    # What the seat was shown is, message for message, what a person at seat 0 may see: the events it may know
    # (no other hand, no percept of the model's), and the other players' gestures by their form alone.
    got = [(m["type"], m["round"], m if m["type"] == "event" else (m["time"], m["seat"], m["gesture"]))
           for m in shown if m["type"] in ("event", "gesture")]
    want = screen_messages(result, 0)
    assert [(kind, index, payload if kind == "gesture" else {**payload}) for kind, index, payload in want] == [
        (kind, index, payload if kind == "gesture" else {k: v for k, v in payload.items() if k != "id"})
        for kind, index, payload in got]
    assert sum(kind == "gesture" for kind, *_ in got) > 0
    # The numbers run 0, 1, 2, ... and nothing in any message says whether a gesture was meant.
    assert [m["id"] for m in shown] == list(range(len(shown)))
    for message in shown:
        if message["type"] == "gesture":
            assert set(message) == {"type", "id", "round", "time", "seat", "gesture", "relation", "hold"}
        if message["type"] == "event":
            assert message["event"] != "Perceived"
            assert message.get("deliberate") in (None, True) and message.get("holds_four") in (None, True, False)
            if message["event"] == "Gestured":
                assert message["seat"] == 0  # its own, the only gesture whose meaning it knows
            if message["event"] == "Dealt":
                assert all(card == HIDDEN_CARD for s, hand in enumerate(message["hands"]) if s for card in hand)
    views = [m for m in shown if m["type"] == "view"]
    assert views and all(v["seat"] == 0 and len(v["hand"]) == 4 and HIDDEN_CARD not in v["hand"] for v in views)


def test_a_session_records_what_the_person_did_and_saw(tmp_path):
    table, shown = play_scripted(5, data=tmp_path)
    data = load_sessions(tmp_path)
    meta = data["sessions"].iloc[0]
    assert meta["status"] == "finished" and meta["seed"] == 5 and meta["participant"].startswith("p-")
    # the trace in the events table is the match's own, event for event
    events = data["events"]
    assert len(events) == sum(len(r.trace) for r in table.result.rounds)
    assert list(events["event"]) == [type(e).__name__ for r in table.result.rounds for e in r.trace]
    # every swap sent is one input row, numbered in order, with its fate
    inputs = data["inputs"]
    tries: dict[int, int] = {}
    sent = [m for m in shown if sends(m, tries)]
    assert list(inputs.sort_values("input")["input"]) == list(range(len(sent)))
    assert set(inputs["status"]) <= {"played", "refused", "unplayed"} and (inputs["status"] == "played").any()
    swaps_played = sum(isinstance(e, Swapped | RaceLost) and e.seat == 0 for r in table.result.rounds
                       for e in r.trace)
    assert swaps_played == (inputs["status"] == "played").sum()
    assert (inputs["first_client_time"] <= inputs["client_time"]).all()
    assert inputs.loc[inputs.status != "unplayed", "sim_time"].notna().all()
    # every message drawn is one draws row; the gestures shown carry their truth, which no message did
    assert sorted(data["draws"]["message"]) == [m["id"] for m in shown if m is not None]
    gestures = data["gestures_shown"]
    assert len(gestures) == sum(m["type"] == "gesture" for m in shown)
    truth = [e for r in table.result.rounds for e in r.trace if isinstance(e, Gestured) and e.seat != 0]
    assert list(gestures["deliberate"]) == [e.deliberate for e in truth]
    assert list(gestures["relation"]) == ["partner" if e.seat == partner(4, 0) else "opponent" for e in truth]
    assert {"pairs", "rounds", "calls", "fours"} <= set(data) and len(data["rounds"]) == len(table.result.rounds)
    folder = next(tmp_path.iterdir())
    assert {p.name for p in folder.iterdir()} >= {"inputs.parquet", "inputs.csv", "draws.csv", "events.parquet",
                                                 "session.json"}


def test_what_was_written_before_a_crash_loads(tmp_path):
    """A server that dies mid-match leaves its rows as JSON lines; they load (a torn last line left out)."""
    table = LiveTable("standard", ["collector"] * 4, remote=[0], seed=2, factor=None, data=tmp_path)
    for index in range(3):
        table.writer.event(event_row(2, 0, Dealt(float(index), 0, ((1, 2, 3, 4),) * 4, (5, 6, 7, 8))))
    (table.writer.path / "events.jsonl").open("a").write('{"session": "torn')
    data = load_sessions(tmp_path)
    assert len(data["events"]) == 3 and data["sessions"]["status"][0] == "playing"


def test_the_emphasis_of_a_gesture_has_the_screen_d_prime():
    """Meant gestures are drawn with emphasis N(SCREEN_D, 1), idle ones N(0, 1): the means differ by SCREEN_D
    within 4 standard errors of 4000 draws each, and a longer hold means more emphasis."""
    rng = np.random.default_rng(0)
    meant = Gestured(0.0, 1, "ear", True, True)
    idle = meant._replace(deliberate=False)
    n = 4000
    difference = np.mean([emphasis_of(meant, rng) for _ in range(n)]) - np.mean([emphasis_of(idle, rng)
                                                                                 for _ in range(n)])
    assert abs(difference - SCREEN_D) < 4 * math.sqrt(2 / n)
    assert hold_of(-1.0) < hold_of(0.0) < hold_of(1.0)


def stub_obs(now: float = 0.0):
    return SimpleNamespace(now=now, round_index=0)


def test_a_remote_seat_plays_what_it_is_sent_in_order_and_else_looks_again():
    seat = RemoteSeat(poll=0.1)
    first, second = Swap((1,), (2,)), Swap((3,), (4,))
    seat.send(first)
    seat.send(second)
    assert [seat.decide(stub_obs()), seat.decide(stub_obs()), seat.decide(stub_obs())] == [first, second, Wait(0.1)]


def test_a_scripted_person_is_played_at_the_time_it_chose():
    reports = []
    seat = RemoteSeat(poll=0.1, report=lambda sent, status, at, index, problem: reports.append((status, at)))
    seat.send(Sent(Swap((1,), (2,)), not_before=0.25))
    assert seat.decide(stub_obs(0.0)) == Wait(0.1)
    assert seat.decide(stub_obs(0.2)) == Wait(pytest.approx(0.05))
    assert seat.decide(stub_obs(0.25)) == Swap((1,), (2,))
    seat.decide(stub_obs(0.3))
    assert reports == [("played", 0.25)]


def test_a_person_who_leaves_pauses_the_table_until_they_are_back():
    table = LiveTable("standard", ["collector"] * 4, remote=[0], seed=1, factor=0.05).start()
    box = table.outboxes[0]
    while box.get(timeout=30)["type"] != "view":
        pass
    table.leave(0)
    time.sleep(0.3)  # let the match reach the gate
    drained = []
    while not box.empty():
        drained.append(box.get())
    time.sleep(1.0)
    assert table.paused and box.empty()  # nothing happens while the person is away
    assert any(m["type"] == "paused" for m in drained)
    table.back(0)
    assert box.get(timeout=10)["type"] == "resumed"
    assert box.get(timeout=10) is not None and not table.paused  # play goes on
    table.stop()
    assert not table._thread.is_alive() and table.error is not None  # stopped at the person's next look


def test_a_person_who_leaves_can_be_stood_in_for_by_an_agent():
    table = LiveTable("standard", ["collector"] * 4, remote=[0], seed=4, factor=None, on_leave="collector").start()
    table.leave(0)
    result = table.join(timeout=120)
    assert result.end_reason == "match_over"
    swaps = [e for r in result.rounds for e in r.trace if isinstance(e, Swapped) and e.seat == 0]
    assert swaps  # the stand-in played the seat
    gaps = np.diff([e.time for e in swaps])
    assert (gaps[gaps > 0] > 0.2).mean() > 0.5  # at human speed: reaction and reach come before each swap


def test_a_flood_of_inputs_is_limited_and_recorded(tmp_path):
    limit = RateLimit(10)
    assert [limit.refusal(0.0) is None for _ in range(21)] == [True] * 20 + [False]
    assert limit.refusal(0.1) is None  # a tenth of a second later one more is allowed
    table = LiveTable("standard", ["collector"] * 4, remote=[0], seed=1, factor=None, data=tmp_path, rate=5)
    for _ in range(30):
        table.receive(0, {"kind": "stalled", "t": 1.0})
    table.receive(0, {"kind": "dance"})
    notices = []
    while not table.outboxes[0].empty():
        notices.append(table.outboxes[0].get())
    assert sum("too many inputs" in m["message"] for m in notices) >= 30 - 10 - 1
    table.stop()
    assert load_sessions(tmp_path)["sessions"]["status"][0] == "not started"
    inputs = load_sessions(tmp_path)["inputs"]
    assert (inputs["status"] == "limited").sum() >= 19 and inputs["input"].is_unique


def test_a_measured_seat_takes_no_simulated_time_to_act():
    """A person's own times are real: the engine draws none for a remote seat, and draws as before for others."""
    profile = PlayerProfile()
    seed = np.random.SeedSequence(3)
    remote = SeatKit.build(0, RemoteSeat(), "remote", profile, 4, DEFAULT_REPERTOIRE, False, seed)
    bot = SeatKit.build(0, Wait, "bot", profile, 4, DEFAULT_REPERTOIRE, False, seed)  # any object: not measured
    assert [remote.reaction_next(), remote.reach_next(), remote.speech(), remote.gesture_time(),
            remote.card_read()] == [0.0] * 5
    assert min(bot.reaction_next(), bot.reach_next(), bot.speech()) > 0.0


def test_an_action_the_rules_refuse_is_refused_not_the_end_of_the_match():
    """A person's click can be late (the card gone before it arrives): the engine refuses the intent, says why, and
    the match goes on."""
    table = LiveTable("standard", ["collector"] * 4, remote=[0], seed=3, factor=0.01).start()
    sent, notes = False, []
    while (message := table.outboxes[0].get(timeout=120)) is not None:
        if message["type"] == "refused":
            notes.append(message["message"])
        elif message["type"] == "view" and not sent:
            own = message["hand"]
            table.send(0, Swap(give=(own[0],), take=(own[1],)))  # its own card is never in the middle
            sent = True
    result = table.join(timeout=120)
    assert result.end_reason == "match_over" and len(notes) == 1
    assert notes[0].startswith("Swap(give=") and "not in the middle" in notes[0]


@pytest.mark.parametrize(("make", "message"), [
    (lambda: RemoteSeat(poll=0), r"^RemoteSeat.poll = 0: must be a number of seconds > 0$"),
    (lambda: RemoteSeat().send("swap"), r"^RemoteSeat.send\('swap'\): not an intent; allowed: Swap, "),
    (lambda: LiveTable("standard", ["collector"] * 4, remote=[4]), r"^remote = \[4\]: give the seats played from "
                                                                    r"outside, each from 0 to 3$"),
    (lambda: LiveTable("standard", ["collector"] * 3, remote=[0]), r"^lineup has 3 entries for 4 players"),
    (lambda: LiveTable("standard", ["collector"] * 4, remote=[0]).send(1, Wait()),
     r"^seat 1: not a remote seat of this table; remote seats: \[0\]$"),
    (lambda: LiveTable("standard", ["collector"] * 4, remote=[0], on_leave="nobody"), r"nobody"),
    (lambda: RateLimit(0), r"^rate = 0: must be a number of inputs a second > 0$"),
])
def test_bad_input_is_one_line(make, message):
    with pytest.raises(ConfigError, match=message):
        make()


def test_a_table_plays_in_a_thread_of_its_own():
    table = LiveTable("standard", ["collector"] * 4, remote=[0], seed=1, factor=None, on_leave="collector")
    assert not table.started
    table.start()
    table.leave(0)
    assert table.join(timeout=120) is not None and not table._thread.is_alive()
    assert table._thread is not threading.current_thread()
