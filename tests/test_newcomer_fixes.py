"""Small things a newcomer met: a match replayed without --seed, a card id that is no card, a Krepet lineup spoken
of in pairs, and a cheating agent blamed on whoever decided after it."""

from __future__ import annotations

import re

import pytest

from kemps_sim import EngineConfig, load_rules, simulate_match
from kemps_sim.agent import BaseAgent
from kemps_sim.cards import card_name
from kemps_sim.cli import main
from kemps_sim.errors import ConfigError
from kemps_sim.intents import Swap, Wait
from kemps_sim.krepet.realtime import play_krepet
from kemps_sim.lineup import resolve_lineup

# --- kemps-sim play without --seed --------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["kemps", "krepet"])
def test_play_without_a_seed_plays_a_new_match_and_says_how_to_play_it_again(capsys, game):
    drawn = []
    for _ in range(2):
        assert main(["play", "--game", game, "--quiet"]) == 0
        out = capsys.readouterr().out
        found = re.match(r"seed (\d+) \(drawn at random; --seed \1 plays this match again\)\n", out)
        assert found, out
        drawn.append((int(found.group(1)), out[found.end():]))
    assert drawn[0][0] != drawn[1][0]  # two draws of 32 bits agree once in four billion runs
    seed, standings = drawn[0]
    assert main(["play", "--game", game, "--quiet", "--seed", str(seed)]) == 0
    assert capsys.readouterr().out == standings  # the printed seed plays the same match, and prints no seed line


def test_play_without_a_seed_keeps_json_on_stdout_pure(capsys):
    import json

    assert main(["play", "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert f"seed {data['seed']} (drawn at random" in captured.err


# --- a card id that is no card ----------------------------------------------------------------------------------


class _Palmer(BaseAgent):
    """Asks for a card id that does not exist."""

    name = "palmer"

    def decide(self, obs):
        return Swap(give=(obs.hand[0],), take=(999,)) if obs.middle else Wait()


def test_a_swap_of_a_card_id_that_is_no_card_says_so_rather_than_naming_another_card():
    result = simulate_match("standard", [_Palmer, "collector", "collector", "collector"], seed=1, errors="record")
    assert result.end_reason == "agent_error"
    assert "999 is not a card id; with 1 deck(s) card ids are 0 to 51" in result.error
    assert "4♠'" not in result.error
    assert card_name(999) == "<999>" and card_name(-1) == "<-1>" and card_name(103) == "A♠'"


# --- Krepet lineups speak of players ----------------------------------------------------------------------------


def test_a_krepet_lineup_of_the_wrong_length_speaks_of_players_not_pairs():
    with pytest.raises(ConfigError) as info:
        resolve_lineup("greedy,greedy,greedy", 2, game="krepet")
    message = str(info.value)
    assert "pair" not in message and "seat" not in message
    assert message == ("lineup has 3 entries for Krepet's 2 players; give 1 (for both players) or 2 (one per "
                       "player)")
    with pytest.raises(ConfigError, match=r"give 1, 2 \(one per pair\) or 4 \(one per seat\)"):
        resolve_lineup("collector,collector,collector", 4)


def test_a_krepet_lineup_error_names_krepet_agents_and_krepet_examples():
    with pytest.raises(ConfigError) as info:
        play_krepet("wikibooks", "grdy", seed=1)
    assert "did you mean greedy?" in str(info.value) and "collector" not in str(info.value)
    with pytest.raises(ConfigError) as info:
        play_krepet("wikibooks", "greedy,,greedy", seed=1)
    assert "such as lookout(attention=0.9)" in str(info.value) and "watcher" not in str(info.value)
    with pytest.raises(ConfigError, match=r"e\.g\. greedy\(attention=0\.9\)"):
        play_krepet("wikibooks", "greedy(0.3)", seed=1)


# --- a cheating agent is named, not whoever decided after it ----------------------------------------------------


class _Cheat(BaseAgent):
    """Swaps a hand card with a middle card by reaching into the table once, then sits still for good, so that
    every later decision is another seat's."""

    name = "cheat"

    def __init__(self) -> None:
        self.done = False

    def decide(self, obs):
        if not self.done and obs.now > 1.0:
            self.done = True
            hand, middle = obs._hand, obs._public.middle
            hand[0], middle[0] = middle[0], hand[0]  # every card still in one place: no invariant breaks
            return Wait()
        return Wait(timeout=0.5)


class _Duplicator(_Cheat):
    name = "duplicator"

    def decide(self, obs):
        if not self.done and obs.now > 1.0:
            self.done = True
            obs._hand[0] = obs._public.middle[0]  # a card in two places: conservation breaks
            return Wait()
        return Wait(timeout=0.5)


@pytest.mark.parametrize("cheat", [_Cheat, _Duplicator])
def test_a_cheating_agent_is_caught_in_the_act_and_named(cheat):
    lineup = ["collector", cheat, "collector", "collector"]
    result = simulate_match("standard", lineup, seed=3, config=EngineConfig(strict=True), errors="record")
    assert result.end_reason == "agent_error"
    assert result.error.startswith(f"agent {cheat.name} at seat 1, round 1, t=1.")
    assert "decide() changed the table" in result.error and "last decision by" not in result.error


# --- empty tables keep their key columns' types -------------------------------------------------------------------


def test_a_table_without_rows_stores_its_keys_as_a_full_one_does(tmp_path):
    import pyarrow.parquet as pq

    from kemps_sim.sweep import load_results, run_sweep, spec_from_mapping
    from tests.sweeps import quick_data

    data = quick_data(tmp_path / "out", matches=2)
    data["base"]["engine"] = {"max_round_seconds": 0.2, "max_rounds": 1}  # too short for a four or a call
    run_sweep(spec_from_mapping(data), workers=1, progress=False)
    results = load_results(tmp_path / "out")
    assert results["calls"].empty and not results["pairs"].empty
    files = {name: sorted((tmp_path / "out" / name).glob("*.parquet")) for name in ("calls", "pairs")}
    empty, full = (pq.read_schema(files[name][0]) for name in ("calls", "pairs"))
    for key in ("cell", "rules.double_kemps", "profile.observer.d_fixated", "replicate", "seed"):
        assert empty.field(key).type == full.field(key).type, key
    assert str(empty.field("cell").type) != "double" and str(empty.field("seed").type) == "int64"


# --- kemps-sim play --html --seat N -------------------------------------------------------------------------------


def test_play_writes_one_seats_page_with_seat(tmp_path, capsys):
    from kemps_sim.replay.page import page_html

    target = tmp_path / "seat1.html"
    assert main(["play", "--seed", "1", "--quiet", "--html", str(target), "--seat", "1"]) == 0
    assert f"replay page written to {target} (what seat 1 knows)" in capsys.readouterr().out
    # The page is the seat's own (what the replay tests check for leaks), not the page of every hand.
    result = simulate_match("standard", "collector", seed=1)
    assert target.read_text(encoding="utf-8") == page_html(result, 1) != page_html(result, None)
    for argv, message in ((["play", "--seat", "1"], "--seat 1: only used with --html FILE.html"),
                          (["play", "--html", str(target), "--seat", "4"], "--seat 4: not a seat of this match"),
                          (["play", "--game", "krepet", "--html", str(target), "--seat", "0"], "played open")):
        assert main(argv) == 2 and message in capsys.readouterr().err


# --- the play-by-play explains the second deck's mark ---------------------------------------------------------------


def test_a_two_deck_play_by_play_says_what_the_mark_means_and_a_one_deck_one_does_not():
    from kemps_sim.narrate import narrate

    two = list(narrate(simulate_match(load_rules("standard", players=10), "collector", seed=2)))
    assert two[0].startswith("Two decks: a card of the second deck is marked '")
    assert any("'" in line for line in two[1:4])  # the deal shows second-deck cards
    one = list(narrate(simulate_match("standard", "collector", seed=2)))
    assert not any(line.startswith("Two decks") for line in one)
