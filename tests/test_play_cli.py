"""``kemps-sim play`` as a user runs it: a play-by-play, JSON, quiet standings, and bad input exiting 2."""

from __future__ import annotations

import json

import pytest

from kemps_sim import simulate_match
from kemps_sim.cli import main


def test_play_prints_a_play_by_play_and_the_final_standings(capsys):
    assert main(["play", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Round 1: dealer seat" in out and "swaps" in out and "\"Kemps!\"" in out
    assert "noticed by seat" in out
    assert "Match over after" in out and "Winner: pair" in out


def test_play_json_matches_the_python_api(capsys):
    assert main(["play", "--rules", "kems", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    result = simulate_match("kems", "collector", seed=4)
    assert data["seed"] == 4 and data["winners"] == list(result.winners)
    assert data["standings"]["points"] == list(result.standings.points)
    assert len(data["rounds"]) == len(result.rounds)
    assert data["rounds"][0]["events"][0]["event"] == "Dealt"


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
