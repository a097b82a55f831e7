"""The person's page of a live table in a real browser (headless Chromium): a scripted person joins by the link
``kemps-sim serve`` prints, plays a short match against agents with the keys and clicks a person uses, and the
session's recorded data say exactly what they did, when their page drew what it was shown, and how the engine
judged it; and no message the page ever receives tells it more than its seat may know.

The match is short and happens on cue: points to 2, a wrong Stop Kemps scored while play goes on, and stacked first
deals in which the person's partner (an agent) holds four of a kind and signals it at once, and nobody else holds or
can make one (the opponents hold four low ranks each and the middle only ranks they do not hold). The agents never
call on their own (a fixed threshold no belief reaches), so every call is the person's.

Also here, without a browser: the "run a study" page's data dictionary lists every column of every table of
:mod:`kemps_sim.study.schema`, so that the page cannot drift from the data.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
from pathlib import Path

import pytest

from kemps_sim.engine import EngineConfig, simulate_match
from kemps_sim.presets import load_rules
from kemps_sim.serve import LiveTable
from kemps_sim.serve.app import Room, make_app
from kemps_sim.serve.messages import event_message
from kemps_sim.study import TABLES, load_sessions
from kemps_sim.table import stack_pack
from kemps_sim.trace import Gestured, Swapped
from kemps_sim.visibility import HIDDEN_CARD, on_screen
from tests.browser import headless_chromium
from tests.scripted import Idle

ROOT = Path(__file__).resolve().parent.parent
#: Points to 2; a wrong call is scored while play goes on (the accused shows the caller two cards, 003's penalty).
RULES = {"preset": "standard", "scoring": "points", "target_points": 2, "wrong_call_ends_round": False}
#: Agents that collect but never call: no belief reaches the threshold, and they never defend.
SILENT = "collector(stop=False, threshold=0.999999)"
#: Wall seconds per simulated second: fast, yet every draw and input keeps its own page-clock time.
FACTOR = 0.3
SEED = 5
PERSON, PARTNER, ACCUSED = 0, 2, 1

#: Run in the page before its own script: every message received and sent is kept on window.__kemps, every time an
#: avatar lights up with a gesture (the seat and the gesture's name it shows, on the page's clock), and every error
#: the page's script raised.
HOOK = """
window.__kemps = {received: [], sent: [], shown: [], errors: []};
window.addEventListener("error", (e) => window.__kemps.errors.push(String(e.message)));
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => window.__kemps.received.push(JSON.parse(e.data)));
  }
  send(data) { window.__kemps.sent.push(JSON.parse(data)); super.send(data); }
};
document.addEventListener("DOMContentLoaded", () => new MutationObserver((records) => {
  for (const r of records) {
    const box = r.target;
    if (box.classList.contains("avatar") && box.classList.contains("gesturing")
        && !(r.oldValue || "").includes("gesturing")) {
      window.__kemps.shown.push({seat: Number(box.id.split("-")[1]), gesture: box.querySelector(".doing").textContent,
                                 t: performance.now() / 1000});
    }
  }
}).observe(document.body, {subtree: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true}));
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    pytest.importorskip("uvicorn", reason="the serve extra is not installed (pip install -e '.[serve]')")
    driver = headless_chromium(tmp_path_factory.mktemp("chromium"), "--disable-dev-shm-usage",
                               "--autoplay-policy=no-user-gesture-required", "--window-size=1100,900")
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
    yield driver
    driver.quit()


@contextlib.contextmanager
def served(room: Room):
    """``room`` served on a free port of 127.0.0.1 by uvicorn in a thread; yields the port."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(make_app(room), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class Page:
    """The person's page in the browser, and the script's hands on it."""

    def __init__(self, driver) -> None:
        self.driver = driver

    def js(self, script: str):
        return self.driver.execute_script(script)

    def until(self, script: str, what: str, timeout: float = 20.0):
        """Wait until ``script`` (a JS expression) is truthy on the page; its value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.js(f"return {script};")
            if value:
                return value
            time.sleep(0.02)
        raise AssertionError(f"waited {timeout:g} s for {what}; the page received "
                             f"{json.dumps(self.js('return window.__kemps.received'))[-1500:]}")

    def view(self) -> dict:
        return self.js("return view")

    def keys(self, keys: str) -> None:
        from selenium.webdriver.common.by import By

        self.driver.find_element(By.TAG_NAME, "body").send_keys(keys)

    def click(self, row: str, card: int) -> None:
        """Click the card ``card`` of ``row`` (hand or middle), as a person does (the row may be drawn again meanwhile,
        so a button gone stale is looked up again)."""
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By

        for _ in range(50):
            try:
                self.driver.find_element(By.CSS_SELECTOR, f'#{row} button[data-card="{card}"]').click()
                return
            except StaleElementReferenceException:
                continue
        raise AssertionError(f"could not click {card} of {row}")

    def kept(self) -> dict:
        return self.js("return window.__kemps")


def card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def first_dealer(rules, seed: int) -> int:
    """The seed's first dealer, read from a one-round match of idle players (the deal never changes it)."""
    probe = simulate_match(rules, [Idle()], seed=seed,
                           config=EngineConfig(fidgets=False, max_rounds=1, max_round_seconds=1.0))
    return probe.rounds[0].dealer


def scripted_packs(rules, seed: int) -> list[list[int]]:
    """Two rounds' packs: the partner holds four of a kind (kings, then aces); the person four clubs of the ranks
    above nine the partner does not hold, the middle the same ranks in diamonds (so a swap gives the middle back the
    rank it took); the opponents clubs of 2-5 and of 6-9, ranks the middle never shows, so that they never swap."""
    first = first_dealer(rules, seed)
    packs = []
    for index, four in enumerate((11, 12)):
        mine = [rank for rank in (8, 9, 10, 11, 12) if rank != four]
        hands = [[card(r, 0) for r in mine], [card(r, 0) for r in range(4)], [card(four, s) for s in range(4)],
                 [card(r, 0) for r in range(4, 8)]]
        packs.append(stack_pack(rules, hands, [card(r, 1) for r in mine], dealer=(first + index) % 4))
    return packs


def partner_signalled(signal: str, since: int) -> str:
    """A JS test: whether the partner's avatar has shown the gesture ``signal`` since its ``since``-th gesture."""
    return (f"window.__kemps.shown.slice({since}).some((s) => s.seat === {PARTNER} "
            f"&& s.gesture === {json.dumps(signal.replace('_', ' '))})")


@pytest.fixture(scope="module")
def session(browser, tmp_path_factory):
    """The scripted person's match, played once for the tests below: what the page received and sent, the person's
    actions as the script knows them, the session's data and the table."""
    data = tmp_path_factory.mktemp("study")
    rules = load_rules(RULES)
    table = LiveTable(rules, [SILENT] * 4, remote=[PERSON], seed=SEED, factor=FACTOR, data=data,
                      packs=scripted_packs(rules, SEED))
    room = Room(table)
    page = Page(browser)
    done: list[dict] = []  # what the script did, as the inputs table should have it
    with served(room) as port:
        link = room.links("127.0.0.1", port)[(0, PERSON)]
        assert re.fullmatch(rf"http://127\.0\.0\.1:{port}/seat/[\w-]{{20,}}", link)
        browser.get(link)
        try:
            view = page.until("view && view.playing && view.round === 0 && view", "play to start")
            signal = view["signal"]
            # a swap by clicks: the first card of the hand, then the middle's card of the same rank
            give, take = view["hand"][0], view["middle"][0]
            page.click("hand", give)
            page.click("middle", take)
            done.append({"kind": "swap", "give": str(give), "take": str(take)})
            view = page.until(f"view.hand.includes({take}) && view", "the clicked swap")
            # a swap by keys: 2 (the hand's second card), then the middle's letter of the card of its rank
            give = view["hand"][1]
            at = next(i for i, c in enumerate(view["middle"]) if c // 4 == give // 4)
            page.keys("2" + "abce"[at])
            take = view["middle"][at]
            done.append({"kind": "swap", "give": str(give), "take": str(take)})
            page.until(f"view.hand.includes({take})", "the keyed swap")
            # the pair's signal, made without four of a kind (a bluff), then a wrong Stop Kemps on an opponent
            page.keys("g")
            done.append({"kind": "gesture", "gesture": signal})
            page.keys("s" + str(ACCUSED))
            done.append({"kind": "call", "call": "stop_kemps", "accused": ACCUSED})
            page.until("window.__kemps.received.some((m) => m.event === 'CallHeard' && m.call === 'stop_kemps')",
                       "the Stop Kemps to be heard")
            # Kemps once the partner's avatar has shown the pair's signal
            page.until(partner_signalled(signal, 0), "the partner's signal")
            page.keys("k")
            done.append({"kind": "call", "call": "kemps"})
            # the second round: Kemps again on the partner's signal, which ends the match (2 points to 1)
            view = page.until("view && view.round === 1 && view.playing && view", "the second round")
            since = page.js("return window.__kemps.shown.length")
            page.until(partner_signalled(view["signal"], since), "the partner's signal in round 2")
            page.keys("k")
            done.append({"kind": "call", "call": "kemps"})
            page.until("window.__kemps.received.some((m) => m.type === 'over')", "the end of the match")
            result = table.join(timeout=20)
            kept = page.kept()
            banner = page.js("return document.getElementById('banner').textContent")
        finally:
            browser.get("about:blank")  # the page leaves (after the match: nothing pauses)
    assert result is not None
    return {"kept": kept, "done": done, "signal": signal, "data": load_sessions(data), "table": table,
            "result": result, "banner": banner}


def test_the_match_ends_on_the_persons_calls_and_the_page_says_so(session):
    result = session["result"]
    assert result.end_reason == "match_over" and result.winners == (0,)
    assert "your pair wins" in session["banner"]
    assert session["kept"]["errors"] == []


def test_the_inputs_recorded_are_what_the_person_did_in_order(session):
    inputs = session["data"]["inputs"]
    columns = {"swap": ("give", "take"), "gesture": ("gesture",), "call": ("call", "accused")}
    recorded = [{"kind": row["kind"], **{key: row[key] for key in columns[row["kind"]]}}
                for row in inputs.to_dict("records")]
    expected = [{**step, "accused": step.get("accused", -1)} if step["kind"] == "call" else step
                for step in session["done"]]
    assert recorded == expected
    assert list(inputs["input"]) == list(range(len(expected))) and set(inputs["status"]) == {"played"}
    assert (inputs["participant"] == session["data"]["sessions"]["participant"].iloc[0]).all()
    # stamped on the page's clock as the page sent them: increasing; a swap's first click no later than its second
    sent = [m for m in session["kept"]["sent"] if m["kind"] != "drawn"]
    assert list(inputs["client_time"]) == [m["t"] for m in sent]
    assert inputs["client_time"].is_monotonic_increasing and inputs["client_time"].diff().dropna().gt(0).all()
    swaps = inputs[inputs["kind"] == "swap"]
    assert len(swaps) == 2 and (swaps["first_client_time"] <= swaps["client_time"]).all()
    assert list(swaps["first_client_time"]) == [m["t_first"] for m in sent if m["kind"] == "swap"]
    assert inputs.loc[inputs["kind"] != "swap", "first_client_time"].isna().all()
    assert inputs["server_time"].is_monotonic_increasing and list(inputs["round"]) == [0, 0, 0, 0, 0, 1]


def test_every_message_the_page_received_was_drawn_and_recorded(session):
    received, draws = session["kept"]["received"], session["data"]["draws"]
    acknowledged = [m["id"] for m in session["kept"]["sent"] if m["kind"] == "drawn"]
    assert [m["id"] for m in received] == list(range(len(received))) == sorted(acknowledged)
    assert sorted(draws["message"]) == [m["id"] for m in received]
    by_id = {m["id"]: m for m in received}
    kinds = {"view": "view", "event": "event", "gesture": "gesture", "over": "over"}
    assert all(kinds.get(by_id[row["message"]]["type"], "notice") == row["what"] for row in draws.to_dict("records"))
    # on the page's one clock, each swap comes after the draw of a view showing its card in the hand and the card it
    # took in the middle: the last view drawn before its first click
    views = draws[draws["what"] == "view"].sort_values("client_time")
    for swap in session["data"]["inputs"].query("kind == 'swap'").to_dict("records"):
        before = views[views["client_time"] <= swap["first_client_time"]]
        assert len(before), swap
        last = before.iloc[-1]
        assert swap["give"] in last["hand"].split() and swap["take"] in last["middle"].split(), (swap, last)
    # the gestures shown are recorded with the truth the page was never sent, and their hold as the page had it
    shown = session["data"]["gestures_shown"]
    gestures = [m for m in received if m["type"] == "gesture"]
    assert list(shown["message"]) == [m["id"] for m in gestures]
    assert list(shown["hold"]) == pytest.approx([m["hold"] for m in gestures])
    partner = shown[(shown["gesturer"] == PARTNER) & shown["own_signal"]]
    assert len(partner) >= 2 and partner["holds_four"].all()


def test_the_trace_holds_the_persons_swaps_signal_and_calls_with_their_outcomes(session):
    events = session["data"]["events"]
    mine = events[events["seat"] == PERSON]
    swaps = mine[mine["event"] == "Swapped"]
    done = session["done"]
    assert [(g, t) for g, t in zip(swaps["gave"], swaps["took"], strict=True)] == [
        (f"({step['give']},)", f"({step['take']},)") for step in done if step["kind"] == "swap"]
    signals = mine[(mine["event"] == "Gestured") & (mine["deliberate"] == True)]  # noqa: E712 (object column)
    assert list(signals["gesture"]) == [session["signal"]] and not signals["holds_four"].iloc[0]
    calls = mine[mine["event"] == "CallHeard"]
    assert [(c, int(a), o, bool(r)) for c, a, o, r in zip(calls["call"], calls["accused"], calls["outcome"],
                                                         calls["right"], strict=True)] == [
        ("stop_kemps", ACCUSED, "stop_wrong", False), ("kemps", -1, "kemps_right", True),
        ("kemps", -1, "kemps_right", True)]
    # the match's own calls table agrees, and the reaction to the partner's signal is there to be measured
    assert list(session["data"]["calls"]["outcome"]) == ["stop_wrong", "kemps_right", "kemps_right"]


def told_more_than_allowed(received: list[dict], result, seat: int) -> list[str]:
    """What of ``received`` (the messages a page of ``seat`` received in the match ``result``) tells the page more
    than the seat may know, as one line each (none: nothing). Events must be, one for one, the visibility rules' view
    of the trace for the seat; other players' gestures their form, time and hold alone; no message may say whether a
    gesture was meant or whether its maker holds four (but the person's own gesture, which they know); the deal shows
    the seat its own hand only, and every view holds a hand the seat held."""
    found = []
    expected_events, expected_gestures = [], []
    held: dict[int, list[list[int]]] = {}  # every hand the seat held in each round (cards sorted)
    for index, played in enumerate(result.rounds):
        hand = set(played.trace[0].hands[seat])
        held[index] = [sorted(hand)]
        for event in played.trace:
            if type(event) is Swapped and event.seat == seat:
                hand = (hand - set(event.gave)) | set(event.took)
                held[index].append(sorted(hand))
            shown = on_screen(event, seat)
            if shown is None:
                continue
            if type(event) is Gestured and event.seat != seat:
                expected_gestures.append([index, event.seat, event.gesture, event.time])
            else:
                expected_events.append(json.loads(json.dumps(event_message(index, shown))))
    events = [{k: v for k, v in m.items() if k != "id"} for m in received if m["type"] == "event"]
    if events != expected_events:
        pairs = enumerate(zip(events, expected_events, strict=False))
        first = next((i for i, (got, wanted) in pairs if got != wanted), min(len(events), len(expected_events)))
        found.append(f"event {first} differs from the seat's view of the trace: {events[first:first + 1]} against "
                     f"{expected_events[first:first + 1]} ({len(events)} events for {len(expected_events)})")
    gestures = [m for m in received if m["type"] == "gesture"]
    if [[m["round"], m["seat"], m["gesture"], m["time"]] for m in gestures] != expected_gestures:
        found.append("the gestures shown are not the other players' gestures of the trace")
    found += [f"message {m['id']} has keys {sorted(m)}" for m in gestures
              if set(m) != {"type", "id", "round", "time", "seat", "gesture", "relation", "hold"}]
    found += [f"message {m['id']} says {key} = {m[key]!r}" for m in received for key in ("deliberate", "holds_four",
                                                                                       "slip")
              if m.get(key) is not None and not (m.get("event") == "Gestured" and m["seat"] == seat)]
    for m in received:
        if m.get("event") == "Dealt" and (HIDDEN_CARD in m["hands"][seat] or any(
                c != HIDDEN_CARD for s, hand in enumerate(m["hands"]) if s != seat for c in hand)):
            found.append(f"message {m['id']} deals {m['hands']}")
        if m["type"] == "view" and (m["seat"] != seat or sorted(m["hand"]) not in held[m["round"]]):
            found.append(f"message {m['id']} shows the hand {m['hand']}, not one seat {seat} held")
    return found


def test_no_message_tells_the_scripted_persons_page_more_than_their_seat_may_know(session):
    """In the scripted match: the accused shows the person two cards (to them alone), the partner's four is shown to
    the table after each Kemps; nothing else of another hand, and nothing of what the gestures meant."""
    received = session["kept"]["received"]
    assert {"Revealed", "CallHeard", "Gestured", "Swapped"} <= {m.get("event") for m in received}
    assert told_more_than_allowed(received, session["result"], PERSON) == []


def test_no_message_of_a_played_out_match_tells_the_page_more_than_its_seat_may_know(browser):
    """A whole match of agents who call and defend, watched by an idle person at a fast factor: swaps, races, stalls,
    sweeps and refills, right and wrong calls and shown hands, a round that ran out of time, and a thousand avatar
    gestures; none of it tells the page more than the seat may know."""
    # Seed 64: a right and a wrong Kemps, a right Stop Kemps (hands shown) and a round that ran out of time.
    table = LiveTable(load_rules({"preset": "standard", "scoring": "points", "target_points": 2}), ["collector"] * 4,
                      remote=[PERSON], seed=64, factor=0.02)
    room = Room(table)
    page = Page(browser)
    with served(room) as port:
        browser.get(room.links("127.0.0.1", port)[(0, PERSON)])
        try:
            page.until("window.__kemps.received.some((m) => m.type === 'over')", "the end of the match", timeout=50)
            # The last messages are acknowledged once drawn, a frame or two after they arrive.
            page.until("window.__kemps.sent.length >= window.__kemps.received.length", "every message drawn",
                       timeout=10)
            kept = page.kept()
            received = kept["received"]
        finally:
            browser.get("about:blank")
    result = table.join(timeout=10)
    seen = {m.get("event") for m in received}
    assert {"Swapped", "StallSaid", "Swept", "Refilled", "CallHeard", "Revealed", "Scored"} <= seen
    assert {r.outcome for r in result.rounds} >= {"kemps_right", "kemps_wrong", "stop_right", "timeout"}
    assert sum(m["type"] == "gesture" for m in received) > 500
    assert told_more_than_allowed(received, result, PERSON) == []
    assert kept["errors"] == [] and len(kept["sent"]) == len(received)  # a draw acknowledged for every message


def test_a_person_reads_the_intro_practises_a_round_and_then_joins_the_match(browser, tmp_path):
    """The study's intro comes first (nothing is connected before the person agrees), then a practice round against
    slow agents (not recorded, and the match waits), then the match itself, on the same link."""
    table = LiveTable("standard", [SILENT] * 4, remote=[PERSON], seed=SEED, factor=FACTOR, data=tmp_path)
    room = Room(table, intro="<p id='consent'>The study's own words.</p>", practice=True)
    page = Page(browser)
    with served(room) as port:
        browser.get(room.links("127.0.0.1", port)[(0, PERSON)])
        try:
            assert page.js("return document.getElementById('consent').textContent") == "The study's own words."
            assert page.js("return document.querySelector('main').hidden") is True
            time.sleep(0.3)
            assert page.kept()["received"] == [] and not table.started  # nothing connects before the person agrees
            page.js("document.getElementById('start').click()")
            page.until("view && view.playing", "the practice round's play")
            page.keys("k")  # a wrong Kemps ends the practice round
            page.until("document.getElementById('to-match')", "the end of the practice round")
            assert not table.started  # the match waited
            page.js("document.getElementById('to-match').click()")
            page.until("location.search.includes('practised') && view && view.round === 0", "the match's first view")
            assert table.started and page.js("return document.getElementById('intro').hidden") is True
        finally:
            browser.get("about:blank")
            table.stop()
    sessions = load_sessions(tmp_path)["sessions"]
    assert len(sessions) == 1  # the practice round is not recorded
    meta = json.loads(next(tmp_path.glob("*/session.json")).read_text())
    assert [join["seat"] for join in meta["joins"]] == [PERSON]


# The "run a study" page's data dictionary ---------------------------------------------------------------------
STUDY_PAGE = ROOT / "docs" / "run-a-study.md"


def dictionary(table: str) -> str:
    """The data dictionary of ``table`` as the page shows it: one row per column, in order, with its dtype and
    meaning as :data:`kemps_sim.study.schema.TABLES` has them."""
    rows = ["| column | type | what it holds |", "|---|---|---|"]
    rows += [f"| `{name}` | {dtype} | {meaning} |" for name, (dtype, meaning) in TABLES[table].items()]
    return "\n".join(rows)


@pytest.mark.parametrize("table", list(TABLES))
def test_the_study_page_lists_every_column_of_every_table(table):
    page = STUDY_PAGE.read_text(encoding="utf-8")
    heading = f"### `{table}`"
    assert heading in page, f"{STUDY_PAGE.name} has no section {heading}"
    section = page.split(heading, 1)[1].split("\n#", 1)[0]
    assert dictionary(table) in section, f"regenerate the table of {table} in {STUDY_PAGE.name}:\n{dictionary(table)}"


def test_a_person_plays_krepet_in_the_browser(browser, tmp_path):
    """The Krepet page draws the board (the tableau, the ace piles, both players' piles), a move by two clicks and
    the buttons reach the game, and what the person did is recorded."""
    from kemps_sim.krepet.realtime import KrepetConfig
    from kemps_sim.krepet.table import KrepetTable

    table = KrepetTable("wikibooks", ["greedy", "greedy"], remote=[PERSON], seed=4, factor=FACTOR, data=tmp_path,
                        config=KrepetConfig(max_moves=400))
    room = Room(table)
    page = Page(browser)
    with served(room) as port:
        browser.get(room.links("127.0.0.1", port)[(0, PERSON)])
        try:
            board = page.until("board && board.to_move === 0 && board", "the person's turn")
            assert page.js("return document.querySelectorAll('#tableau .pile').length") == len(board["tableau"])
            assert page.js("return document.querySelectorAll('#foundations .pile').length") == 8
            page.js("document.querySelector('[data-pile=\"hand0\"]').click()")  # a move by two clicks:
            page.js("document.querySelector('[data-pile=\"F0\"]').click()")  # the hand's card to an ace pile
            page.js("document.getElementById('draw').click()")
            page.until("window.__kemps.received.some((m) => m.type === 'refused' || "
                       "(m.event === 'Moved' && m.player === 0))", "the game's answer")
            kept = page.kept()
        finally:
            browser.get("about:blank")
            table.stop()
    assert kept["errors"] == []
    sent = [m for m in kept["sent"] if m["kind"] != "drawn"]
    assert [m["kind"] for m in sent[:2]] == ["move", "draw"]
    assert sent[0]["src"] == "hand0" and sent[0]["dst"] == "F0" and sent[0]["t_first"] <= sent[0]["t"]
    inputs = load_sessions(tmp_path)["inputs"]
    assert list(inputs.sort_values("input")["kind"][:2]) == ["move", "move"]  # the draw is a move of Krepet's
    assert inputs["move"].iloc[0].startswith("hand0 -> F0")
