"""How the replay page draws its table, checked in a real browser: a moving card is drawn once, marks never cover
a seat's label, and a second deck's cards are explained wherever they are shown."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from kemps_sim import load_rules, simulate_match
from kemps_sim.cards import card_name
from kemps_sim.replay import write_html
from kemps_sim.trace import Swapped
from tests import test_replay

browser = test_replay.browser  # headless Chromium: skips where there is none, fails under CI=true

CARD_TITLES = ("return [...document.querySelectorAll('#table g > title')]"  # a card's name, without its deck's note
               ".map((t) => t.textContent.split(' (')[0]);")


@pytest.fixture(scope="module")
def reproduction():
    return simulate_match(load_rules("standard"), "collector", seed=1)


def test_a_swapped_card_is_drawn_once_while_it_moves_and_once_where_it_lands(reproduction, browser, tmp_path):
    path = write_html(reproduction, tmp_path / "match.html")
    browser.get(path.as_uri())
    swaps = [(rnd.index, e) for rnd in reproduction.rounds[:2] for e in rnd.trace if type(e) is Swapped]
    assert len(swaps) > 10
    for view in (-1, 1):  # every hand, and one seat's view (where other hands are face down)
        browser.execute_script(f"window.kempsReplay.setView({view})")
        for index, swap in swaps:
            browser.execute_script(f"window.kempsReplay.setRound({index})")
            for age in (0.0, 0.25, 0.49, 0.6):  # leaving, on its way, about to land, landed
                titles = browser.execute_script(f"window.kempsReplay.seek({swap.time + age});" + CARD_TITLES)
                twice = [name for name, n in Counter(titles).items() if n > 1]
                assert twice == [], f"round {index + 1}, t = {swap.time + age:.2f} s: {twice} drawn twice"
                for name in map(card_name, (*swap.gave, *swap.took)):  # the swapped cards are all there
                    assert titles.count(name) == 1 or (age > 0.5 and titles.count(name) == 0), (name, age)
    assert browser.execute_script("return window.kempsReplay.errors()") == []


def test_a_krepet_move_draws_its_card_once(browser, tmp_path):
    from kemps_sim.krepet import play_krepet
    from kemps_sim.krepet.trace import Moved

    game = play_krepet(None, "greedy", seed=1)
    browser.get(write_html(game, tmp_path / "k.html").as_uri())
    moves = [e for e in game.trace if type(e) is Moved and e.card >= 0][:40]
    for move in moves:
        titles = browser.execute_script(f"window.kempsReplay.seek({move.time + 0.25});" + CARD_TITLES)
        assert [n for n, k in Counter(titles).items() if k > 1] == [], f"t = {move.time + 0.25:.2f} s"


BOXES = """
const box = (el) => { const b = el.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
const seat = arguments[0];
return {lost: box(document.querySelector(`.lost[data-seat="${seat}"]`)),
        words: box(document.querySelector(`.lost-text[data-seat="${seat}"]`)),
        labels: [...document.querySelectorAll('.seat-label, .seat-agent')].map(box),
        hand: [...document.querySelectorAll(`g[aria-label="seat ${seat}"] rect.cardbox`)].map((r) => {
          const b = r.getBBox(), m = r.parentNode.transform.baseVal.consolidate().matrix;
          return [b.x + m.e, b.y + m.f, b.x + m.e + b.width, b.y + m.f + b.height]; })};
"""


def overlap(a, b, margin: float = 1.5) -> bool:
    """Whether two boxes (x0, y0, x1, y1) overlap, the first widened by ``margin`` (half its stroke)."""
    return a[0] - margin < b[2] and b[0] < a[2] + margin and a[1] - margin < b[3] and b[1] < a[3] + margin


@pytest.mark.parametrize("preset, players, seed", [("party", 4, 0), ("party", 6, 0), ("kems", 8, 1)])
def test_a_lost_race_is_marked_round_the_hand_and_never_over_a_seats_label(preset, players, seed, browser, tmp_path):
    from kemps_sim.trace import RaceLost

    match = simulate_match(load_rules(preset, players=players), "collector", seed=seed)
    browser.get(write_html(match, tmp_path / "match.html").as_uri())
    first = {}
    for rnd in match.rounds:
        for e in rnd.trace:
            if type(e) is RaceLost:
                first.setdefault(e.seat, (rnd.index, e))
    assert len(first) >= players // 2, "lost races at enough seats to try the mark all round the table"
    for seat, (index, lost) in sorted(first.items()):
        browser.execute_script(f"window.kempsReplay.setRound({index}); window.kempsReplay.seek({lost.time + 0.1})")
        boxes = browser.execute_script(BOXES, seat)
        covered = [label for label in boxes["labels"] if overlap(boxes["lost"], label)]
        assert covered == [], f"seat {seat}: the mark covers a label"
        assert [label for label in boxes["labels"] if overlap(boxes["words"], label, 0)] == [], f"seat {seat}"
        x0, y0, x1, y1 = boxes["lost"]
        assert boxes["hand"] and all(x0 < a and b < x1 and y0 < c and d < y1 for a, c, b, d in boxes["hand"])


LEGEND_AND_TITLES = ("return [document.querySelector('.legend').innerText,"
                     "        [...document.querySelectorAll('#table g > title')].map((t) => t.textContent),"
                     "        document.getElementById('events').innerText];")


def test_a_second_decks_mark_is_explained_where_the_page_shows_it(browser, tmp_path):
    one = simulate_match(load_rules("standard"), "collector", seed=1)
    browser.get(write_html(one, tmp_path / "one.html").as_uri())
    legend, _, _ = browser.execute_script(LEGEND_AND_TITLES)
    assert "second deck" not in legend  # one deck: nothing to explain
    two = simulate_match(load_rules("standard", players=10), "collector", seed=0)
    assert two.rules.decks == 2
    browser.get(write_html(two, tmp_path / "two.html").as_uri())
    for index in range(len(two.rounds[0].trace)):
        legend, titles, events = browser.execute_script(f"window.kempsReplay.goTo(0, {index});" + LEGEND_AND_TITLES)
        primed = [t for t in titles if "'" in t]
        if primed:
            break
    assert primed and all(t.endswith("' (the second deck's)") for t in primed)
    assert "' after a card marks the second deck's copy (5♠' is the second five of spades)" in legend
    assert re.search(r"\d[♠♥♦♣]'|[AKQJ][♠♥♦♣]'", events), "the list names second-deck cards as the legend says"


def test_krepets_deck_mark_is_the_one_its_cards_carry(browser, tmp_path):
    from kemps_sim.krepet import play_krepet

    game = play_krepet(None, "greedy", seed=1)
    browser.get(write_html(game, tmp_path / "k.html").as_uri())
    browser.execute_script("window.kempsReplay.goTo(0, 20)")
    legend, titles, _ = browser.execute_script(LEGEND_AND_TITLES)
    assert "each player has a deck: ' after a card marks player 1's (5♠')" in legend and "′" not in legend
    primed = [t for t in titles if "'" in t]
    assert primed and all(t.endswith("' (player 1's deck)") for t in primed)


# Krepet's piles: one name for each, the one its label shows, and labels evenly spaced ------------------------------
RAW_PILE = re.compile(r"\b(hand|discard|side|talon)\d\b")


def test_krepet_lines_name_piles_as_the_table_labels_them():
    from kemps_sim.krepet import play_krepet
    from kemps_sim.krepet.replay import pile_words
    from kemps_sim.krepet.trace import Moved
    from kemps_sim.replay import krepet_replay_data

    assert pile_words("3♠' hand1 -> discard0", 1) == "3♠' from its hand to player 0's Ablage"
    assert pile_words("7♠' (+1 on it) T6 -> T0", 0) == "7♠' (+1 on it) from T6 to T0"
    assert pile_words("A♦ side0 -> F3", 0) == "A♦ from its side stack to ace pile F3"
    assert pile_words("5♣' talon1 -> side0", 1) == "5♣' from its talon to player 0's side stack"
    assert pile_words("take back 2 from side", 0) == "take back 2 from its side stack"
    assert pile_words("draw", 0) == "draw" and pile_words("end turn", 1) == "end turn"
    game = play_krepet(None, "greedy", seed=1)
    events = krepet_replay_data(game)["rounds"][0]["events"]
    assert [e["text"] for e in events if RAW_PILE.search(e["text"])] == []
    to_ablage = [e for e in events if e["kind"] == "Moved" and e["dst"].startswith("discard")]
    assert to_ablage and all("Ablage" in e["text"] for e in to_ablage)
    assert len(events) == len(game.trace) and sum(type(e) is Moved for e in game.trace) > 100


LABELS = """
const box = (el) => { const b = el.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height, el.textContent]; };
const frame = document.querySelector('.to-move');
return {labels: [...document.querySelectorAll('.pile-label')].map(box), frame: frame && box(frame),
        list: document.getElementById('events').innerText};
"""


def test_krepet_labels_are_evenly_spaced_apart_and_inside_the_movers_frame(browser, tmp_path):
    from kemps_sim.krepet import play_krepet

    game = play_krepet(None, "greedy", seed=1)
    browser.get(write_html(game, tmp_path / "k.html").as_uri())
    events = browser.execute_script("return window.kempsReplay.state().events")
    for index in (5, events // 2, events - 1):
        seen = browser.execute_script(f"window.kempsReplay.goTo(0, {index});" + LABELS)
        labels = seen["labels"]
        rows: dict[float, list[float]] = {}
        for x0, y0, x1, _, _ in labels:
            rows.setdefault(round(y0), []).append((x0 + x1) / 2)
        assert sorted(len(r) for r in rows.values()) == [4, 4, 8, 8]  # two players' piles, tableau, ace piles
        for centres in rows.values():
            gaps = {round(b - a, 1) for a, b in zip(sorted(centres), sorted(centres)[1:], strict=False)}
            assert len(gaps) == 1, f"uneven gaps {gaps}"
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a[4], b[4])
        fx0, fy0, fx1, fy1, _ = seen["frame"]
        crossing = [t for x0, y0, x1, y1, t in labels if x0 < fx1 and fx0 < x1 and y0 < fy1 + 1 and fy0 - 1 < y1
                    and not (fx0 < x0 and x1 < fx1 and fy0 + 1 < y0 and y1 < fy1 - 1)]
        assert crossing == [], "a label crosses the frame of the player to move"
        assert not RAW_PILE.search(seen["list"]), "the event list names piles as the labels do"
    assert browser.execute_script("return window.kempsReplay.errors()") == []
