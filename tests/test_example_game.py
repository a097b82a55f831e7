"""The example game, Snap (``examples/snap``), installed beside the library as a third-party game would be: every
command a user would run on it, its conformance check, and two figures of the game that have a closed form.

It needs the example installed (``pip install -e ./examples/snap``): without it these tests fail, not skip, since
they are what shows that a game outside the library works through the library's entry points alone.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from kemps_sim.cards import RANK
from kemps_sim.cli import main
from kemps_sim.games import game_names
from kemps_sim.profiles import PlayerProfile
from kemps_sim.sweep import load_results
from kemps_sim.testing import check_agent

if "snap" not in game_names():
    pytest.fail("the example game Snap is not installed: run pip install -e ./examples/snap", pytrace=False)

from kemps_snap import records, trace
from kemps_snap.realtime import play_snap

SPEC = Path(__file__).resolve().parents[1] / "examples" / "snap" / "snap.toml"


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def within(share: float, expected: float, n: int, sds: float = 4.0) -> bool:
    """Whether a share seen on ``n`` independent trials is within ``sds`` binomial standard deviations of
    ``expected`` (a false failure about once in 16,000 runs at four)."""
    return abs(share - expected) <= sds * math.sqrt(expected * (1.0 - expected) / n)


# Play and rules ----------------------------------------------------------------------------------------------------
def test_play_narrates_the_match_and_its_calls(capsys):
    assert main(["play", "--game", "snap", "--seed", "2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Snap, seed 2: player 0 snapper, player 1 snapper")
    assert "turns" in text and '"Snap!" (right' in text and "match over (" in text
    assert text.rstrip().splitlines()[-1].startswith("winner: ")


def test_play_json_is_a_function_of_the_seed(capsys):
    args = ["play", "--game", "snap", "--seed", "7", "--players", "3", "--lineup", "snapper,hasty,snapper", "--json"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    data = json.loads(first)
    assert data["game"] == "snap" and data["agents"] == ["snapper", "hasty", "snapper"]
    assert data["rules"]["players"] == 3 and sum(data["held"]) == 52
    assert data["reason"] in trace.END_REASONS and data["events"][-1]["event"] == "MatchEnded"
    assert main([*args[:4], "8", *args[5:]]) == 0
    assert capsys.readouterr().out != first


def test_rules_shows_each_knob_with_why_and_lists_the_presets(capsys):
    assert main(["rules", "--game", "snap"]) == 0
    text = capsys.readouterr().out
    assert "preset classic" in text and "false_call_penalty" in text and "max_seconds" in text
    assert main(["rules", "--game", "snap", "--list"]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == ["classic", "penalty_free"]
    assert main(["rules", "--game", "snap", "penalty_free", "--players", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"]["false_call_penalty"] == 0 and data["rules"]["players"] == 4
    assert data["origins"]["players"] == "set here"


def test_agents_lists_the_snap_agents(capsys):
    assert main(["agents"]) == 0
    text = capsys.readouterr().out
    for name in ("snapper", "hasty"):
        assert f"{name}  [kemps-snap]" in text
    assert "plays snap (kemps-sim play --game snap)" in text


@pytest.mark.parametrize(("args", "fragment"), [
    (["play", "--set", "false_call_penalty=9"], "rules.false_call_penalty = 9: must be a whole number from 0 to 5"),
    (["play", "--players", "5"], "rules.players = 5: must be a whole number from 2 to 4"),
    (["play", "--set", "max_second=60"], "unknown Snap rule knob (did you mean max_seconds?)"),
    (["play", "--lineup", "collector"], "plays kemps, not snap; snap has no built-in agents; plugins:"),
    (["play", "--lineup", "snapper(threshold='x')"], "snapper.threshold = 'x': must be a finite number"),
    (["play", "--html", "x.html"], "--html x.html: not used with --game snap"),
    (["rules", "nope"], "unknown Snap preset; allowed presets are classic, penalty_free"),
])
def test_bad_input_is_one_line_and_exit_2(args, fragment, capsys):
    assert main([args[0], "--game", "snap", *args[1:]]) == 2
    assert fragment in one_line_error(capsys)


# Sweep, report, tournament, conformance ----------------------------------------------------------------------------
def test_a_small_sweep_then_its_report(tmp_path, capsys):
    folder = tmp_path / "snap"
    spec = tmp_path / "snap.toml"
    spec.write_text(SPEC.read_text(encoding="utf-8").replace("matches = 40", "matches = 4"), encoding="utf-8")
    assert main(["sweep", str(spec), "--output", str(folder), "--serial", "--no-progress"]) == 0
    capsys.readouterr()
    results = load_results(folder)
    assert set(results.tables) == {"matches", "pairs", "calls"}
    assert len(results["matches"]) == 24 and len(results["pairs"]) == 48
    assert main(["report", str(folder), "--plots"]) == 0
    text = capsys.readouterr().out
    assert "player0_win_rate" in text and "right_share" in text and "24 matches" in text
    assert (folder / "summary.csv").is_file() and (folder / "win_rate.png").is_file()
    # Every column is a metric the game's record gave the registry, in the registry's order, in its words.
    from kemps_snap import metrics as snap_metrics
    from kemps_snap.stats import LEGEND

    from kemps_sim.metrics import every, legend_text

    mine = every("snap", "summary")
    assert [m.name for m in mine] == [m.name for m in snap_metrics.METRICS]
    expected = [c for m in mine for column in m.columns_for((0, 1), unit="player")
                for c in ([column, f"{column}_ci_low", f"{column}_ci_high"] if m.summary_ci else [column])]
    columns = pd.read_csv(folder / "summary.csv").columns
    assert [c for c in columns if c not in ("cell", *results.params, "ci_level")] == expected
    assert all(legend_text(m, "player") in LEGEND for m in mine)
    assert main(["report", str(folder), "--by", "agents"]) == 0
    assert "snapper" in capsys.readouterr().out


def test_a_sweep_over_the_number_of_players(tmp_path, capsys):
    spec = tmp_path / "players.toml"
    spec.write_text('[sweep]\nname = "players"\ngame = "snap"\nseed = 3\nmatches = 3\n'
                    '[base]\nlineup = "hasty"\nset = { max_seconds = 30 }\n[axes]\nplayers = [2, 4]\n')
    assert main(["sweep", str(spec), "--output", str(tmp_path / "out"), "--serial", "--no-progress"]) == 0
    pairs = load_results(tmp_path / "out")["pairs"]
    assert pairs.groupby("players")["pair"].max().to_dict() == {2: 1, 4: 3}


def test_a_game_table_of_its_own_is_stored_and_loaded(tmp_path, monkeypatch, capsys):
    # A game's tables come from its record, whatever they are called: here one no built-in game writes.
    tables = records.TABLES
    makers = {**tables.makers, "seats": (lambda result: [{"seed": result.seed, "players": len(result.names)}],
                                         ["seed", "players"])}
    monkeypatch.setattr(records, "TABLES", type(tables)(tables.row, makers))
    spec = tmp_path / "own.toml"
    spec.write_text('[sweep]\nname = "own"\ngame = "snap"\nseed = 1\nmatches = 2\n[base]\nset = { max_seconds = 20 }\n')
    assert main(["sweep", str(spec), "--output", str(tmp_path / "out"), "--serial", "--no-progress"]) == 0
    assert load_results(tmp_path / "out", tables=["seats"])["seats"]["players"].tolist() == [2, 2]


def test_a_tournament_of_snap_agents(tmp_path, capsys):
    assert main(["tournament", "snapper", "hasty", "snapper(threshold=2.0)", "--game", "snap", "--matches", "2",
                 "--set", "max_seconds=60", "--serial", "--no-progress", "--output", str(tmp_path / "t")]) == 0
    text = capsys.readouterr().out
    assert "Bradley-Terry ratings" in text and "hasty" in text and "snapper(threshold=2.0)" in text
    assert (tmp_path / "t" / "ratings.csv").is_file()


@pytest.mark.parametrize("agent", ["snapper", "hasty"])
def test_the_agents_pass_their_conformance_check(agent):
    report = check_agent(agent, seeds=range(1))
    assert report.matches == 16


def test_the_conformance_check_names_an_agent_that_raises():
    from kemps_snap.agents import Snapper

    class Broken(Snapper):
        name = "broken"

        def calls(self, view, percept):
            raise ValueError("no voice")

    with pytest.raises(AssertionError, match=r"calls\(\) raised ValueError: no voice"):
        check_agent(Broken, seeds=range(1))


# The game against its closed forms ---------------------------------------------------------------------------------
def test_the_first_two_cards_turned_share_a_rank_three_times_in_51():
    # Any two cards of one shuffled pack share a rank with probability 3/51, whoever turns them and when.
    n, same = 1500, 0
    for seed in range(n):
        turned = [e.card for e in play_snap({"max_seconds": 3}, "snapper", seed=seed).trace
                  if isinstance(e, trace.Turned)]
        same += RANK[turned[0]] == RANK[turned[1]]
    assert within(same / n, 3 / 51, n), same


def test_the_faster_voice_wins_its_share_of_the_races():
    # Two players who see every match at once (fixated, d' far above the criterion) and take it in after the same
    # fixed latency, with exponential speech of means m0 and m1: the first call heard is player 0's with
    # probability (1/m0) / (1/m0 + 1/m1) = m1 / (m0 + m1), also among those heard while the match still shows
    # (for exponentials, which call comes first does not depend on when).
    m0, m1 = 0.1, 0.3
    sharp = {"perception_latency": {"family": "fixed", "value": 0.25},
             "observer": {"d_fixated": 10.0, "criterion": 0.0}}
    profiles = [PlayerProfile.from_mapping({**sharp, "speech": {"family": "exponential", "mean": m}})
                for m in (m0, m1)]
    first_right = []
    for seed in range(1200):
        result = play_snap({"max_seconds": 40}, "snapper(attention=1.0)", profiles, seed=seed)
        heard = result.calls
        if heard and heard[0].verdict == "right":
            first_right.append(heard[0].caller == 0)
    n = len(first_right)
    assert n > 300
    assert within(sum(first_right) / n, m1 / (m0 + m1), n), (sum(first_right), n)


def test_every_match_ends_and_says_how():
    for seed in range(20):
        result = play_snap({"max_seconds": 30, "players": 2 + seed % 3}, "hasty", seed=seed)
        assert result.reason in ("all_cards", "timeout") and result.duration <= 30
        assert sum(result.held) == 52 and isinstance(result.trace[-1], trace.MatchEnded)
        if result.reason == "all_cards":
            assert sorted(result.held)[-1] == 52 and result.winner == result.held.index(52)
