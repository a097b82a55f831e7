"""``kemps-sim play`` as a user runs it: a play-by-play a player would accept, JSON, quiet standings, bad input.

Each narration test looks for a match that shows its case: first the seed found by exploring (the comment says
what it showed), then, should the engine play that seed differently now, the next seeds (a match takes some tens
of milliseconds). It then asserts on the narrated line of that very event, built from the event's own fields.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from kemps_sim import simulate_match
from kemps_sim.cards import RANKS, card_name, hand_text
from kemps_sim.cli import main
from kemps_sim.narrate import narrate
from kemps_sim.trace import (
    NOBODY,
    CallCutOff,
    CallHeard,
    Dealt,
    HandFour,
    RaceLost,
    Redealt,
    Refilled,
    Scored,
    Swapped,
    Swept,
)

SEARCH = 40  # seeds tried after the hinted one
#: Every pair keeps an ear touch all match, as before signal conventions: where a test's hinted seed was found so,
#: or it reads the cue of a call as an ear touch.
EAR = "collector(signal='ear', signal_policy='fixed')"


@cache
def play(preset: str, seed: int, lineup: str = "collector"):
    result = simulate_match(preset, lineup, seed=seed)
    return result, tuple(narrate(result))


def find(preset: str, hint: int, case_of: Callable[[Any], Any], lineup: str = "collector"):
    """The first match (the hinted seed first) whose ``case_of(result)`` is truthy: result, lines and the case."""
    for seed in dict.fromkeys((hint, *range(SEARCH))):
        result, lines = play(preset, seed, lineup)
        case = case_of(result)
        if case:
            return result, lines, case
    pytest.fail(f"no {preset} match of seeds {hint} and 0-{SEARCH - 1} shows the case any more")


def round_lines(lines: tuple[str, ...], number: int) -> list[str]:
    """The narrated lines of round ``number`` (from 1): its header up to the next round or the match's end."""
    start = lines.index(next(line for line in lines if line.startswith(f"Round {number}:")))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("Round ") or not lines[i]),
               len(lines))
    return list(lines[start:end])


def at(lines: list[str], time: float) -> list[str]:
    """The text of the lines narrated at simulated ``time``."""
    prefix = f"  {time:7.2f} s  "
    return [line[len(prefix):] for line in lines if line.startswith(prefix)]


def events(result) -> list[tuple[int, Any]]:
    """Every event of the match with its round number (from 1)."""
    return [(rnd.index + 1, e) for rnd in result.rounds for e in rnd.trace]


def test_play_prints_a_play_by_play_and_the_final_standings(capsys):
    assert main(["play", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Round 1: dealer seat" in out and "swaps" in out and "\"Kemps!\"" in out
    assert "noticed by seat" in out
    assert "Match over after" in out and "Winner: pair" in out


# --- the narration ----------------------------------------------------------------------------------------------


def refills_with_early_takes(result) -> list[tuple[int, Refilled, dict[int, int]]]:
    """Refills during which a player took a freshly laid card: round, the event, and card -> taker."""
    found, taken = [], {}
    for number, e in events(result):
        if type(e) is Swept:
            taken = {}
        elif type(e) is Swapped:
            taken.update({card: e.seat for card in e.took})
        elif type(e) is Refilled and set(e.cards) & set(taken):
            found.append((number, e, {card: taken[card] for card in e.cards if card in taken}))
    return found


def test_a_refill_says_who_laid_the_cards_and_which_were_taken_as_they_landed():
    # standard, seed 19: in round 1 seat 1 takes a fresh card while the dealer (seat 2) is still laying the others.
    result, lines, found = find("standard", 19, refills_with_early_takes, EAR)
    for number, refill, early in found:
        text = next(t for t in at(round_lines(lines, number), refill.time) if "fresh card" in t)
        dealer = " (the dealer)" if refill.seat == result.rounds[number - 1].dealer else ""
        assert text.startswith(f"seat {refill.seat}{dealer} lays 4 fresh cards: {hand_text(refill.cards)}")
        for card, seat in early.items():
            assert f"seat {seat} took {card_name(card)}" in text
            assert card_name(card) not in text.split("middle now")[1]  # no longer in the middle
    assert not any("dealer deals" in line for line in lines)


def lost_races(result) -> tuple[list, list] | None:
    """Put-downs too late (the seat's own cards, nobody won) and lost takes, each with its round; both or None."""
    late_put, lost_take = [], []
    hands: list[list[int]] = []
    for number, e in events(result):
        if type(e) is Dealt:
            hands = [list(h) for h in e.hands]
        elif type(e) is Swapped:
            hands[e.seat] = [c for c in hands[e.seat] if c not in e.gave] + list(e.took)
        elif type(e) is RaceLost and e.winner == NOBODY and set(e.wanted) <= set(hands[e.seat]):
            late_put.append((number, e))
        elif type(e) is RaceLost and e.winner != NOBODY:
            lost_take.append((number, e))
    return (late_put, lost_take) if late_put and lost_take else None


def test_a_put_down_too_late_names_the_players_own_card_and_a_lost_take_names_the_winner():
    # kems (drop first, then pick up), seed 4: in round 1 seats 1 and 2 try to put a card down while a fresh middle
    # is being laid, and seat 1 loses a race for 3♣ to seat 2.
    _, lines, (late_put, lost_take) = find("kems", 4, lost_races)
    for number, e in late_put:
        said = at(round_lines(lines, number), e.time)
        assert any(t.startswith(f"seat {e.seat} is too late to put down {hand_text(e.wanted)} (") for t in said)
        assert not any(f"reaches for {hand_text(e.wanted)}" in t for t in said)
    for number, e in lost_take:
        assert f"seat {e.seat} reaches for {hand_text(e.wanted)} too late: seat {e.winner} got there first" \
            in at(round_lines(lines, number), e.time)


def single_redeal(result) -> tuple[int, Dealt, Redealt] | None:
    """The first round with exactly one redeal: its number, the deal and the redeal."""
    for rnd in result.rounds:
        redeals = [e for e in rnd.trace if type(e) is Redealt]
        if len(redeals) == 1:
            return rnd.index + 1, next(e for e in rnd.trace if type(e) is Dealt), redeals[0]
    return None


def test_a_redeal_is_told_in_order_from_the_hands_as_first_dealt():
    # kems (redeal_on_deal), seed 4: in round 1 the dealer, seat 0, is dealt three 2s, shows them and draws again.
    _, lines, (number, dealt, redeal) = find("kems", 4, single_redeal)
    first_hand = [c for c in dealt.hands[redeal.seat] if c not in redeal.drawn] + list(redeal.shown)
    texts = [line.split(" s  ", 1)[1] for line in round_lines(lines, number)[1:4]]
    assert texts[0].startswith("deal (hands as first dealt): ")
    shown_in_deal = texts[0].split(f"seat {redeal.seat}: ")[1].split(";")[0].split()
    assert sorted(shown_in_deal) == sorted(card_name(c) for c in first_hand)  # the shown cards were dealt
    assert texts[1] == (f"seat {redeal.seat} shows {hand_text(redeal.shown)}, shuffles them back into the pack and "
                        f"draws {hand_text(redeal.drawn)}: now holds {hand_text(dealt.hands[redeal.seat])}")
    assert texts[2] == f"middle dealt: {hand_text(dealt.middle)}"


def calls_of_every_kind(result) -> bool:
    """A Contre Kem's that was wrong while play went on, a Double Kem's and a call cut off, in one match."""
    seen = [e for _, e in events(result)]
    return (any(type(e) is CallHeard and e.outcome == "stop_wrong" and not e.ends_round for e in seen)
            and any(type(e) is CallHeard and e.call == "double_kemps" for e in seen)
            and any(type(e) is CallCutOff for e in seen))


def test_calls_use_the_rules_words_outcomes_in_words_and_the_cue_as_what_was_noticed():
    # kems, seed 9: Contre Kem's right and (round 8) wrong with play going on, a Double Kem's, a Kem's cut off.
    result, lines, _ = find("kems", 9, calls_of_every_kind, EAR)
    words = {"kemps": "Kem's", "stop_kemps": "Contre Kem's", "double_kemps": "Double Kem's"}
    for number, e in events(result):
        if type(e) is CallCutOff:
            assert f"seat {e.seat} was still saying \"{words[e.call]}!\" (begun at {e.started:.2f} s): too late, " \
                   "cut off by an earlier call" in at(round_lines(lines, number), e.time)
        if type(e) is not CallHeard:
            continue
        line = next(t for t in at(round_lines(lines, number), e.time) if t.startswith(f"seat {e.seat}: \""))
        assert line.startswith(f"seat {e.seat}: \"{words[e.call]}!\"")
        if e.cue:
            about = e.accused if e.accused != NOBODY else (e.seat + 2) % 4
            assert f"after noticing seat {about}'s ear touch" in line
        mates = sorted((e.accused, (e.accused + 2) % 4))
        if e.outcome == "stop_wrong":
            assert f"wrong: nobody accused (seats {mates[0]} and {mates[1]}) holds four of a kind" in line
            assert "may not call \"Contre Kem's!\" again this round; play goes on" in line
        elif e.outcome == "stop_right":
            assert any(f"right: seat {s} holds four " in line for s in mates)
        elif e.outcome == "double_right":
            assert f"right: seat {e.seat} holds four " in line
        elif e.outcome == "kemps_right":
            assert f"right: partner seat {(e.seat + 2) % 4} holds four " in line
    text = "\n".join(lines).lower()
    for internal in ("stop kemps", "stop_kemps", "double kemps", "kemps_right", "answering a"):
        assert internal not in text


def scored_mid_round(result) -> tuple[int, Scored, tuple[int, ...]] | None:
    """The first call scored before its round ended: round, event, and the points after it."""
    points = (0,) * result.rules.pairs
    for rnd in result.rounds:
        for e in rnd.trace:
            if type(e) is Scored:
                points = tuple(p + d for p, d in zip(points, e.points, strict=True))
                if e.time < rnd.end_time and any(e.points):
                    return rnd.index + 1, e, points
        assert points == rnd.standings.points  # Scored holds what each call added
    return None


def test_points_won_mid_round_are_told_when_they_are_scored():
    # kems (play goes on after a wrong call), seed 9: in round 8 a wrong Contre Kem's scores a point for the accused
    # pair at 9.19 s, long before the round ends.
    _, lines, (number, scored, after) = find("kems", 9, scored_mid_round)
    gainer = next(p for p, d in enumerate(scored.points) if d)
    assert (f"pair {gainer} scores {scored.points[gainer]} point{'s' if scored.points[gainer] > 1 else ''}; points: "
            f"{after[0]} for pair 0, {after[1]} for pair 1 (first to 10 wins)"
            in at(round_lines(lines, number), scored.time))


def test_rounds_won_read_as_a_score_not_a_target(capsys):
    # peanut_butter (rounds_won scoring, 5 rounds), seed 14: pair 0 wins 3-2.
    result, lines = play("peanut_butter", 14)
    won, decided = result.standings.rounds_won, result.standings.rounds_played
    assert f"rounds won: {won[0]} for pair 0, {won[1]} for pair 1 ({decided} of 5 rounds decided)" in "\n".join(lines)
    first = result.rounds[0].standings
    assert round_lines(lines, 1)[-1] == (f"  after round 1: rounds won: {first.rounds_won[0]} for pair 0, "
                                         f"{first.rounds_won[1]} for pair 1 ({first.rounds_played} of 5 rounds "
                                         "decided)")
    assert main(["play", "--rules", "peanut_butter", "--seed", "14", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"{won[0]} rounds won ({decided} of 5 rounds decided)" in out and "won of" not in out


# --- rounds numbered from 1, JSON ---------------------------------------------------------------------------------


def test_play_json_matches_the_python_api(capsys):
    assert main(["play", "--rules", "kems", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    result = simulate_match("kems", "collector", seed=4)
    assert data["seed"] == 4 and data["winners"] == list(result.winners)
    assert data["standings"]["points"] == list(result.standings.points)
    assert len(data["rounds"]) == len(result.rounds)
    assert data["rounds"][0]["events"][0]["event"] == "Dealt"


def test_play_json_numbers_rounds_like_the_narration_and_names_the_cards(capsys):
    assert main(["play", "--rules", "kems", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["round"] for r in data["rounds"]] == list(range(1, len(data["rounds"]) + 1))
    assert "index" not in data["rounds"][0]
    events = [e for r in data["rounds"] for e in r["events"]]
    swap = next(e for e in events if e["event"] == "Swapped" and e["gave"])
    assert swap["gave_names"] == [card_name(c) for c in swap["gave"]]
    assert swap["took_names"] == [card_name(c) for c in swap["took"]]
    deal = events[0]
    assert deal["hands_names"] == [[card_name(c) for c in hand] for hand in deal["hands"]]
    assert deal["middle_names"] == [card_name(c) for c in deal["middle"]]
    four = next(e for e in events if e["event"] == HandFour.__name__ and e["rank"] >= 0)
    assert four["rank_name"] == RANKS[four["rank"]]
    lost = next(e for e in events if e["event"] == "RaceLost")
    assert lost["wanted_names"] == [card_name(c) for c in lost["wanted"]] and "winner" in lost


def test_play_round_option_counts_from_one_as_the_narration_does(tmp_path, capsys, monkeypatch):
    import kemps_sim.plots.timeline as timeline

    drawn = []
    monkeypatch.setattr(timeline, "save_timeline", lambda result, path, index: drawn.append(result.rounds[index]))
    assert main(["play", "--seed", "3", "--timeline", str(tmp_path / "r.png"), "--round", "2"]) == 0
    out = capsys.readouterr().out
    assert drawn[0].index == 1 and "Round 2:" in out  # --round 2 draws the round the narration calls Round 2
    assert out.strip().splitlines()[-1] == f"timeline of round 2 written to {tmp_path / 'r.png'}"
    assert main(["play", "--seed", "3", "--timeline", str(tmp_path / "r.png"), "--round", "0"]) == 2
    assert "--round 0: rounds are numbered from 1" in capsys.readouterr().err
    rounds = len(simulate_match("standard", "collector", seed=3).rounds)
    assert main(["play", "--seed", "3", "--timeline", str(tmp_path / "r.png"), "--round", "99"]) == 2
    assert f"the match had {rounds} round(s), numbered from 1 to {rounds}" in capsys.readouterr().err


def test_play_help_says_rounds_count_from_one(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "numbered from 1 as in the play-by-play" in out and "gave_names" in out


# --- quiet and bad input --------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["standard", "german", "party", "kems", "peanut_butter"])
@pytest.mark.parametrize("players", ["4", "6", "8"])
def test_play_quiet_under_every_preset_and_table_size(preset, players, capsys):
    assert main(["play", "--rules", preset, "--players", players, "--seed", "2", "--quiet"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == int(players) // 2 + 1 and lines[-1].startswith("winner: pair")


@pytest.mark.parametrize(("args", "fragment"), [
    (["play", "--lineup", "collector,nobody"], "unknown agent"),
    (["play", "--lineup", "collector(foo=1)"], "unknown parameter 'foo'"),
    (["play", "--lineup", "collector,random,collector"], "lineup has 3 entries for 4 players"),
    (["play", "--players", "5"], "rules.players = 5"),
    (["play", "--rules", "nonsense"], "unknown preset"),
    (["play", "--seed", "-1"], "--seed -1"),
    (["play", "--max-round-seconds", "0"], "engine.max_round_seconds = 0.0"),
])
def test_play_bad_input_exits_2_with_one_line(args, fragment, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1
