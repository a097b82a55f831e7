"""One seat's view on the replay page holds only what that seat knows: its own hand, its own percepts and signals,
and what the whole table sees. What is private to the other seats is worked out here from the trace itself (not
from the filter under test), and must appear nowhere: not in the data of a page written for the seat, not in the
seat's view of the full page, and not in the document a browser shows of either."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import pytest

from kemps_sim import load_rules, simulate_match
from kemps_sim.cards import RANKS, card_name
from kemps_sim.errors import ConfigError
from kemps_sim.narrate import call_word, gesture_act
from kemps_sim.replay import replay_data, write_html
from kemps_sim.replay.data import tables_in_full
from kemps_sim.replay.target import html_seat
from kemps_sim.seating import NOBODY, pair_of
from kemps_sim.trace import (
    CallCutOff,
    CallHeard,
    Dealt,
    Gestured,
    HandFour,
    Perceived,
    PlayStarted,
    RaceLost,
    Redealt,
    Refilled,
    Revealed,
    Swapped,
    Swept,
)
from kemps_sim.visibility import EVERYONE, TRACE_ONLY, audience, public_form, seen_by
from tests import test_replay

MATCHES = {  # the reproduction; and kems, whose rounds hold redeals, a hand shown to one seat and Double calls
    "standard-4 seed 1": (load_rules("standard"), "collector", 1),
    "kems-4 seed 0": (load_rules("kems"), "collector", 0),
    "kems-8 seed 5": (load_rules("kems", players=8), "collector,watcher,collector,watcher", 5),
}


@pytest.fixture(scope="module", params=sorted(MATCHES))
def match(request):
    rules, lineup, seed = MATCHES[request.param]
    return simulate_match(rules, lineup, seed=seed)


@dataclass
class Secrets:
    """What one round leaves private to the seats other than ``viewer``, and what the viewer must see."""

    cards: set[int] = field(default_factory=set)  # cards in other hands the viewer never sees
    phrases: set[str] = field(default_factory=set)  # facts about other seats' hands, eyes and signals
    own: set[int] = field(default_factory=set)  # the viewer's hand as dealt
    calls: set[str] = field(default_factory=set)  # the words of every call heard


def secrets(rules, rnd, viewer: int) -> Secrets:
    """Worked out from the trace and the rules of the game: the middle, swaps, sweeps and refills are face up, a
    redeal shows the returned cards, a hand shown to the table or to the viewer is seen; all else in other hands,
    every other seat's four, percept, signal or lost race is theirs."""
    s = Secrets()
    held: set[int] = set()  # every card any other seat held this round
    seen: set[int] = set()  # every card the viewer saw or held
    for e in rnd.trace:
        kind = type(e)
        if kind is Dealt:
            for seat, hand in enumerate(e.hands):
                (seen if seat == viewer else held).update(hand)
            s.own.update(e.hands[viewer])
            seen.update(e.middle)
        elif kind is Redealt:
            seen.update(e.shown)
            (seen if e.seat == viewer else held).update(e.drawn)
            if e.seat == viewer:
                s.own.update(e.shown)
                s.own.difference_update(e.drawn)
        elif kind is PlayStarted:
            seen.update(e.middle)
        elif kind is Swapped:
            seen.update(e.gave, e.took)
        elif kind in (Swept, Refilled):
            seen.update(e.cards)
        elif kind is Revealed and e.to in (NOBODY, viewer):
            for hand in e.hands:
                seen.update(hand)
        elif kind is Revealed:
            s.phrases.add(f"shown to seat {e.to} alone")
            s.phrases.add(f"shows seat {e.to} alone")
        elif kind is CallHeard:
            s.calls.add(call_word(rules, e.call))
        elif kind is CallCutOff:
            s.phrases.add("was still saying")
        if getattr(e, "seat", viewer) == viewer or kind in (Swapped, Swept, Refilled, CallHeard, Redealt):
            continue
        if kind is HandFour:
            s.phrases.add(f"seat {e.seat} holds four {RANKS[e.rank]}s" if e.rank >= 0
                          else f"seat {e.seat} no longer holds four")
        elif kind is Gestured:
            s.phrases.add(f"seat {e.seat} {gesture_act(e.gesture)}")
        elif kind is Perceived:
            s.phrases.update({f"seat {e.seat} notices", f"seat {e.seat} sees {e.gesture}", "noticed by"})
        elif kind is RaceLost:
            s.phrases.update({f"seat {e.seat} reaches for", f"seat {e.seat} is too late"})
    s.cards = held - seen
    s.phrases.update({"(fidget)", "nobody noticed"})  # whether others noticed a gesture, a seat cannot know
    return s


def leaks(text: str, found: Secrets) -> list[str]:
    """The secrets ``text`` gives away: card names (a first deck's 5♠ is not a second deck's 5♠') and phrases."""
    names = [card_name(c) for c in sorted(found.cards)]
    shown = [n for n in names if re.search(rf"(?<![0-9A-Z]){re.escape(n)}(?!')", text)]
    return shown + sorted(p for p in found.phrases if p in text)


def all_text(rnd_data) -> str:
    return json.dumps(rnd_data, ensure_ascii=False)


CARD_FIELDS = ("hands", "middle", "shown", "drawn", "gave", "took", "wanted", "cards")


def flat(value) -> list[int]:
    """Every card id in nested lists."""
    return [c for v in value for c in flat(v)] if isinstance(value, list) else [value]


# The filter: the engine's visibility rules ---------------------------------------------------------------------
def test_a_seat_sees_what_the_engine_shows_it_and_of_itself_only_its_own(match):
    players = match.rules.players
    kinds_seen = set()
    for rnd in match.rounds:
        for event in rnd.trace:
            who = audience(event)
            for seat in range(players):
                seen = seen_by(event, seat)
                kind = type(event)
                if kind is Redealt and event.seat == seat:
                    assert seen == event  # its own drawn cards too
                elif who == EVERYONE:
                    assert seen == public_form(event)
                elif who == seat:
                    assert seen == event
                elif kind is Dealt:
                    assert seen.hands[seat] == event.hands[seat] and seen.middle == event.middle
                    assert all(set(h) == {-1} and len(h) == len(event.hands[s])
                               for s, h in enumerate(seen.hands) if s != seat)
                elif kind is Perceived and event.seat == seat:
                    assert seen == event._replace(deliberate=None)
                elif kind is Gestured and event.seat == seat and event.deliberate:
                    assert seen == event
                else:
                    assert seen is None and (who == TRACE_ONLY or who not in (EVERYONE, seat))
                kinds_seen.add(kind.__name__ if seen is None else f"{kind.__name__} seen")
    assert {"HandFour", "HandFour seen", "Perceived", "Perceived seen", "Gestured", "Dealt seen"} <= kinds_seen


# The data a page embeds -----------------------------------------------------------------------------------------
def test_the_data_for_one_seat_holds_nothing_private_to_the_others(match):
    rules = match.rules
    covered = {"phrases": 0, "cards": 0, "every hand leaks": 0}  # the detector finds what every hand shows
    full = replay_data(match)
    for viewer in range(rules.players):
        data = replay_data(match, seat=viewer)
        assert data["view"] == viewer and "seat_views" not in data
        own_pair = pair_of(rules.players, viewer)
        used: set[int] = set()
        for rnd, shown in zip(match.rounds, data["rounds"], strict=True):
            found = secrets(rules, rnd, viewer)
            text = all_text(shown)
            assert leaks(text, found) == []
            ids = set(flat([[*t["hands"].values(), t["middle"]] for t in shown["tables"]]))
            ids.update(flat([e.get(name, []) for e in shown["events"] for name in CARD_FIELDS]))
            used.update(ids)
            assert not ids & found.cards, f"seat {viewer} is given another seat's cards"
            kinds = {e["kind"] for e in shown["events"]}
            assert "CallCutOff" not in kinds
            for e in shown["events"]:
                if e["kind"] in ("HandFour", "RaceLost", "Gestured", "Perceived"):
                    assert e["seat"] == viewer, e
                if e["kind"] == "Perceived":
                    assert e["deliberate"] is None
                if e["kind"] == "Gestured":
                    assert e["deliberate"]
                if e["kind"] == "Revealed":
                    assert e["to"] in (NOBODY, viewer)
            assert shown["signals"] == [sig if p == own_pair else "" for p, sig in enumerate(rnd.signals)]
            deal = next(e for e in shown["events"] if e["kind"] == "Dealt")
            assert set(deal["hands"][viewer]) == {c for c in rnd.trace[0].hands[viewer]}
            assert all(c in text for c in found.calls)  # the public calls are there
            covered["phrases"] += len(found.phrases) > 2
            covered["cards"] += len(found.cards) > 0
            covered["every hand leaks"] += bool(leaks(all_text(full["rounds"][rnd.index]), found))
        assert set(map(int, data["cards"])) == used - {-1}  # the names of the cards it shows, and no others
    assert all(covered.values()), f"the match must have secrets for the test to mean anything: {covered}"


def test_the_full_pages_seat_views_are_the_seats_own_data(match):
    full = replay_data(match)
    assert [v["view"] for v in full["seat_views"]] == list(range(match.rules.players))
    for viewer, packed in enumerate(full["seat_views"]):
        alone = replay_data(match, seat=viewer)
        for k, (rnd, one) in enumerate(zip(packed["rounds"], alone["rounds"], strict=True)):
            events = [{**full["rounds"][k]["events"][e[0]], "table": e[1], "score": e[2]} if isinstance(e, list)
                      else e for e in rnd["events"]]
            assert events == one["events"] and rnd["tables"] == one["tables"]
        assert packed["cards"] == alone["cards"]


def test_the_tables_of_a_seat_hold_its_hand_and_of_other_hands_only_the_cards_it_saw(match):
    """Hand for hand, a seat's table is the true one with the cards it has not seen face down (-1)."""
    rules = match.rules
    full = replay_data(match)
    for viewer in range(rules.players):
        data = replay_data(match, seat=viewer)
        for rnd, everything, shown in zip(match.rounds, full["rounds"], data["rounds"], strict=True):
            truth = tables_in_full(everything["tables"])
            mine = tables_in_full(shown["tables"])
            hidden = secrets(rules, rnd, viewer).cards
            at = {e["time"]: e["table"] for e in everything["events"]}  # the true table after the same moment
            for e in shown["events"]:
                true_hands, my_hands = truth[at[e["time"]]]["hands"], mine[e["table"]]["hands"]
                assert my_hands[viewer] == true_hands[viewer]
                for seat, (hand, true_hand) in enumerate(zip(my_hands, true_hands, strict=True)):
                    assert len(hand) == len(true_hand) and not set(hand) & hidden
                    assert {c for c in hand if c >= 0} <= set(true_hand), (seat, hand, true_hand)


def test_a_seat_outside_the_match_is_refused(match, tmp_path):
    players = match.rules.players
    with pytest.raises(ConfigError, match=rf"^replay: seat 99: not a seat of this match; its {players} seats are "
                                          rf"numbered 0 to {players - 1}$"):
        replay_data(match, seat=99)
    with pytest.raises(ConfigError, match="--seat 4: not a seat of this match; its 4 seats"):
        html_seat(4, 4)
    assert html_seat(None, 4) is None and html_seat(3, 4) == 3
    with pytest.raises(ConfigError, match="seat -1"):
        write_html(match, tmp_path / "m.html", seat=-1)
    assert not (tmp_path / "m.html").exists()


# What a browser shows -----------------------------------------------------------------------------------------
browser = test_replay.browser  # headless Chromium: skips where there is none, fails under CI=true

DOCUMENT = ("const marks = [...document.querySelectorAll('#markers .marker')].map((m) => m.className);"
            "return [document.documentElement.outerHTML, document.body.innerText, marks,"
            "        document.querySelectorAll('.percept-line').length];")


def seat_rounds(match, viewer):
    """The rounds to step through: the first three, and every round with a redeal or a hand shown to one seat."""
    return [r for r in match.rounds if r.index < 3 or any(type(e) is Redealt or (type(e) is Revealed and e.to >= 0)
                                                           for e in r.trace)]


def check_document(browser, match, viewer: int) -> int:
    """Step through the seat's view event by event; at each, the whole document gives nothing away. Returns the
    number of documents checked."""
    rules, checked = match.rules, 0
    for rnd in seat_rounds(match, viewer):
        found = secrets(rules, rnd, viewer)
        state = browser.execute_script(f"window.kempsReplay.setRound({rnd.index}); return window.kempsReplay.state()")
        assert state["view"] == viewer and state["events"] > 0
        own_marks = (sum(type(e) is HandFour and e.seat == viewer for e in rnd.trace)
                     + sum(type(e) is Gestured and e.seat == viewer and e.deliberate for e in rnd.trace)
                     + sum(type(e) is Perceived and e.seat == viewer for e in rnd.trace)
                     + sum(type(e) is CallHeard for e in rnd.trace))
        for i in range(state["events"]):
            html, text, marks, _ = browser.execute_script(f"window.kempsReplay.goTo({rnd.index}, {i});" + DOCUMENT)
            assert leaks(html, found) == [] and leaks(text, found) == [], (rnd.index, i)
            assert len(marks) == own_marks, "the scrubber marks only the seat's own fours, signals, percepts and calls"
            checked += 1
        html, text, _, _ = browser.execute_script(f"window.kempsReplay.goTo({rnd.index}, 0);" + DOCUMENT)
        first_dealt = [card_name(c) for c in sorted(found.own)]
        assert all(name in text for name in first_dealt), "the seat's own hand is on the page"
        assert all(word in text for word in found.calls), "the calls heard are on the page"
    return checked


def test_a_browser_shows_one_seat_nothing_private_to_the_others(match, browser, tmp_path):
    viewer = 1
    alone = write_html(match, tmp_path / "alone.html", seat=viewer)
    browser.get(alone.as_uri())
    assert browser.execute_script("return window.kempsReplay.views()") == [viewer]
    assert check_document(browser, match, viewer) > 20
    full = write_html(match, tmp_path / "full.html")
    browser.get(full.as_uri())
    assert browser.execute_script("return window.kempsReplay.views()") == [-1, *range(match.rules.players)]
    browser.execute_script("window.kempsReplay.goTo(0, 5)")
    html, _, _, _ = browser.execute_script(DOCUMENT)
    assert leaks(html, secrets(match.rules, match.rounds[0], viewer)), "every hand shows what seat 1 cannot see"
    browser.execute_script(f"window.kempsReplay.setView({viewer})")
    assert check_document(browser, match, viewer) > 20
    assert browser.execute_script("return window.kempsReplay.errors()") == []


def test_the_address_opens_a_seats_view_and_follows_the_view(browser, tmp_path):
    from selenium.webdriver.support.ui import Select

    match = simulate_match(*MATCHES["standard-4 seed 1"][:2], seed=1)
    path = write_html(match, tmp_path / "match.html")
    browser.get("about:blank")
    browser.get(path.as_uri() + "#seat=1")
    assert browser.execute_script("return window.kempsReplay.state().view") == 1
    assert Select(browser.find_element("id", "view")).first_selected_option.text == "as seat 1 sees it"
    assert check_document(browser, match, 1) > 20
    Select(browser.find_element("id", "view")).select_by_value("2")  # as a reader would
    assert browser.execute_script("return location.hash") == "#seat=2"
    assert browser.execute_script("return window.kempsReplay.state().view") == 2
    Select(browser.find_element("id", "view")).select_by_value("-1")
    assert browser.execute_script("return location.hash") == ""
    browser.execute_script("location.hash = '#seat=3'")  # an address typed or followed: the page follows it
    assert browser.execute_script("return window.kempsReplay.state().view") == 3
    for hash in ("#seat=9", "#seat=x"):  # no such view: every hand, and an address that says so
        browser.get("about:blank")
        browser.get(path.as_uri() + hash)
        assert browser.execute_script("return [window.kempsReplay.state().view, location.hash]") == [-1, ""]
    alone = write_html(match, tmp_path / "alone.html", seat=2)
    browser.get("about:blank")
    browser.get(alone.as_uri() + "#seat=1")  # a page of seat 2 alone shows seat 2, and says so
    assert browser.execute_script("return [window.kempsReplay.state().view, location.hash]") == [2, "#seat=2"]
    assert browser.execute_script("return window.kempsReplay.errors()") == []


def test_at_800_px_a_seat_view_opens_and_steps_without_scrolling_the_page(browser, tmp_path):
    """Opened at #seat=1 in a narrow window, the page stays where it is (the event list scrolls within itself),
    fits the window, and at every step shows nothing private to the other seats."""
    from selenium.webdriver.common.keys import Keys

    match = simulate_match(*MATCHES["standard-4 seed 1"][:2], seed=1)
    path = write_html(match, tmp_path / "match.html")
    found = secrets(match.rules, match.rounds[0], 1)
    where = ("const list = document.getElementById('events'), item = list.querySelector('li.current');"
             "return {y: window.scrollY, wide: document.documentElement.scrollWidth - window.innerWidth,"
             "        inside: !item || (item.offsetTop >= list.scrollTop &&"
             "                          item.offsetTop + item.offsetHeight <= list.scrollTop + list.clientHeight),"
             "        listed: list.scrollTop, width: window.innerWidth,"
             "        html: document.documentElement.outerHTML, text: document.body.innerText};")
    browser.set_window_size(800, 900)
    try:
        browser.get("about:blank")
        browser.get(path.as_uri() + "#seat=1")
        seen = browser.execute_script(where)
        assert seen["width"] == 800 and seen["y"] == 0 and seen["wide"] <= 0 and seen["inside"]
        steps = browser.execute_script("return window.kempsReplay.state().events")
        for step in range(steps + 2):  # every event of the round, by the button and by the key
            if step % 2:
                browser.find_element("id", "next").click()
            else:
                browser.find_element("tag name", "body").send_keys(Keys.ARROW_RIGHT)
            seen = browser.execute_script(where)
            assert (seen["y"], seen["wide"] <= 0, seen["inside"]) == (0, True, True), f"step {step}"
            assert leaks(seen["html"], found) == [] and leaks(seen["text"], found) == [], f"step {step}"
        assert seen["listed"] > 0, "the list scrolled within itself to keep the current event in view"
        assert all(card_name(c) in seen["text"] for c in found.own) and all(w in seen["text"] for w in found.calls)
        assert browser.execute_script("return window.kempsReplay.state().index") == steps - 1
    finally:
        browser.set_window_size(1400, 900)


def test_a_krepet_game_has_no_one_players_view(tmp_path):
    from kemps_sim.krepet import play_krepet

    with pytest.raises(ConfigError, match="a Krepet game is played open, so it has no one player's view"):
        write_html(play_krepet(None, "greedy", seed=1), tmp_path / "k.html", seat=0)
    assert not (tmp_path / "k.html").exists()


@pytest.mark.parametrize("preset, players, lineup",
                         [("standard", 4, "collector"), ("party", 6, "collector,watcher,collector")])
def test_a_page_with_every_seats_view_stays_under_a_megabyte_for_a_typical_match(preset, players, lineup):
    from kemps_sim.replay import page_html

    for seed in range(3):
        match = simulate_match(load_rules(preset, players=players), lineup, seed=seed)
        full, alone = page_html(match).encode(), page_html(match, seat=0).encode()
        assert len(alone) < len(full) < 1_000_000, (seed, len(full))
