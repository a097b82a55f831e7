"""The replay page: its embedded data holds every trace event in order with the table the trace implies, the page is
one self-contained, well-formed HTML file under 2 MB, and a real headless Chromium plays it through and shows every
call and the final standings with no error in the console."""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from kemps_sim import load_rules, simulate_match
from kemps_sim.cli import main
from kemps_sim.errors import ConfigError
from kemps_sim.replay import page_html, replay_data, write_html
from kemps_sim.replay.data import tables_in_full
from kemps_sim.retrace import TableReplay
from kemps_sim.trace import CallHeard
from tests.browser import headless_chromium

MATCHES = {"standard-4": (load_rules("standard"), "collector,watcher", 1),  # seed 1 has a right Stop Kemps
           "kems-8": (load_rules("kems", players=8), "collector,watcher,collector,watcher", 0)}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@pytest.fixture(scope="module", params=sorted(MATCHES))
def match(request):
    rules, lineup, seed = MATCHES[request.param]
    return simulate_match(rules, lineup, seed=seed)


def test_the_data_holds_every_event_in_order_with_the_table_the_trace_implies(match):
    data = replay_data(match)
    assert len(data["rounds"]) == len(match.rounds) and data["players"] == match.rules.players
    for rnd, shown in zip(match.rounds, data["rounds"], strict=True):
        events = shown["events"]
        assert [e["kind"] for e in events] == [type(e).__name__ for e in rnd.trace]
        times = [e["time"] for e in events]
        assert times == sorted(times) and times == pytest.approx([e.time for e in rnd.trace])
        table = TableReplay(match.rules.players)
        tables = tables_in_full(shown["tables"])  # the data lists the hands that changed
        for event, row in zip(rnd.trace, events, strict=True):
            table.apply(event)
            drawn = tables[row["table"]]
            assert drawn["hands"] == table.hands and drawn["middle"] == table.middle
            assert drawn["pack"] >= 0 and drawn["discard"] >= 0
        assert shown["after"]["letters"] == list(rnd.standings.letters)
    assert data["final"] == {"letters": list(match.standings.letters), "points": list(match.standings.points),
                             "rounds_won": list(match.standings.rounds_won)}


class _Checker(HTMLParser):
    """Balanced tags, and nothing fetched from elsewhere."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value:
                self.problems.append(f"<{tag} {name}={value}>: the page must fetch nothing")
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1] if self.open else 'nothing'}")
        else:
            self.open.pop()


def test_the_page_is_one_well_formed_self_contained_file_under_2_mb(match, tmp_path):
    path = write_html(match, tmp_path / "match.html")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and len(text.encode()) < 2_000_000
    checker = _Checker()
    checker.feed(text)
    checker.close()
    assert not checker.problems and not checker.open
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), "the page must name no other site"
    embedded = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.DOTALL)
    assert json.loads(embedded.group(1)) == json.loads(json.dumps(replay_data(match)))
    with pytest.raises(ConfigError, match="does not exist"):
        write_html(match, tmp_path / "missing" / "match.html")
    with pytest.raises(ConfigError, match="is not a match result"):
        page_html("not a match")


def test_play_writes_the_page(tmp_path, capsys):
    target = tmp_path / "m.html"
    assert main(["play", "--seed", "2", "--quiet", "--html", str(target)]) == 0
    assert target.stat().st_size > 10_000 and f"replay page written to {target}" in capsys.readouterr().out
    assert main(["play", "--html", str(tmp_path / "nowhere" / "m.html")]) == 2
    assert "does not exist" in capsys.readouterr().err


# A real browser ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = headless_chromium(tmp_path_factory.mktemp("chromium"), "--disable-quic", "--window-size=1400,900",
                               logs=True)
    driver.set_script_timeout(180)
    yield driver
    driver.quit()


def test_a_browser_plays_the_page_through_and_shows_every_call(match, browser, tmp_path):
    path = write_html(match, tmp_path / "match.html")
    browser.get(path.as_uri())
    browser.execute_async_script("const done = arguments[arguments.length - 1];"
                                 "window.kempsReplay.playAll(4000).then(() => done(true));")
    state = browser.execute_script("return window.kempsReplay.state()")
    assert state["finished"] and state["round"] == len(match.rounds) - 1
    shown = browser.execute_script("return window.kempsReplay.shownCalls()")
    expected = [(i + 1, e.seat, e.call, e.right) for i, rnd in enumerate(match.rounds) for e in rnd.trace
                if type(e) is CallHeard]
    assert [(c["round"], c["seat"], c["call"], c["right"]) for c in shown] == expected
    standings = browser.execute_script("return window.kempsReplay.standings()")
    assert standings == {"letters": list(match.standings.letters), "points": list(match.standings.points),
                         "rounds_won": list(match.standings.rounds_won)}
    assert browser.execute_script("return window.kempsReplay.errors()") == []
    severe = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert severe == []
    # A right Stop Kemps, as the page shows it: a screenshot to look at (KEMPS_SCREENSHOTS keeps it).
    stop = next((i, j) for i, rnd in enumerate(match.rounds) for j, e in enumerate(rnd.trace)
                if type(e) is CallHeard and e.call == "stop_kemps" and e.right)
    browser.execute_script(f"window.kempsReplay.goTo({stop[0]}, {stop[1]})")
    folder = Path(os.environ.get("KEMPS_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    shot = folder / f"stop_kemps_{match.rules.players}p.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 20_000
    assert browser.execute_script("return window.kempsReplay.shownCalls().length") == len(expected)


# Krepet ---------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def krepet_game():
    from kemps_sim.krepet import play_krepet

    return play_krepet(None, "greedy(lapse=0.2),lookout", seed=1)


def test_a_krepet_page_draws_the_positions_its_trace_implies(krepet_game, tmp_path):
    from kemps_sim.krepet.retrace import positions
    from kemps_sim.replay import krepet_replay_data

    data = krepet_replay_data(krepet_game)
    (game,) = data["rounds"]
    assert [e["kind"] for e in game["events"]] == [type(e).__name__ for e in krepet_game.trace]
    for (_event, state), row in zip(positions(krepet_game), game["events"], strict=True):
        drawn = game["tables"][row["table"]]
        assert drawn["tableau"] == state.tableau and drawn["hand"] == state.hand
        assert drawn["talon"] == [len(t) for t in state.talon] and drawn["to_move"] == state.to_move
    assert game["scores"][-1]["cards_left"] == list(krepet_game.cards_left) == data["final"]["cards_left"]
    path = write_html(krepet_game, tmp_path / "krepet.html")
    checker = _Checker()
    checker.feed(path.read_text(encoding="utf-8"))
    assert not checker.problems and not checker.open and path.stat().st_size < 2_000_000


def test_a_browser_plays_a_krepet_page_through(krepet_game, browser, tmp_path, capsys):
    from kemps_sim.krepet.trace import CallHeard as KrepetCall

    path = write_html(krepet_game, tmp_path / "krepet.html")
    browser.get(path.as_uri())
    browser.execute_async_script("const done = arguments[arguments.length - 1];"
                                 "window.kempsReplay.playAll(4000).then(() => done(true));")
    shown = browser.execute_script("return window.kempsReplay.shownCalls()")
    expected = [(e.caller, e.right) for e in krepet_game.trace if isinstance(e, KrepetCall)]
    assert len(expected) > 3 and [(c["seat"], c["right"]) for c in shown] == expected
    assert browser.execute_script("return window.kempsReplay.standings()") == {
        "cards_left": list(krepet_game.cards_left)}
    assert browser.execute_script("return window.kempsReplay.errors()") == []
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    right = next(i for i, e in enumerate(krepet_game.trace) if isinstance(e, KrepetCall) and e.right)
    browser.execute_script(f"window.kempsReplay.goTo(0, {right})")
    folder = Path(os.environ.get("KEMPS_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(folder / "krepet_right_call.png"))
    assert main(["play", "--game", "krepet", "--seed", "1", "--quiet", "--html", str(tmp_path / "k2.html")]) == 0
    assert "replay page written to" in capsys.readouterr().out and (tmp_path / "k2.html").is_file()
