"""What a newcomer running the documented commands met: the help's example of a card field, one-line errors for a
tournament's bad strategy, a report's unknown metric in a Snap or Krepet folder, serve's ``--on-leave``, argparse's
choice errors and stray arguments, and a report line wider than 100 columns."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kemps_sim.cards import card_name
from kemps_sim.cli import main
from kemps_sim.cli.play import event_json
from kemps_sim.games import game_names
from kemps_sim.sweep import run_sweep
from kemps_sim.sweep.spec import spec_from_mapping
from kemps_sim.trace import Swapped
from tests.sweeps import quick_spec

CHOICE_ERRORS = [
    (["play", "--game", "krepit"], "kemps-sim play: error: --game krepit: not one of the choices (did you mean "
                                   "krepet?); allowed: " + ", ".join(game_names())),
    (["report", "X", "--export", "xlsx"], "kemps-sim report: error: --export xlsx: not one of the choices; "
                                          "allowed: csv"),
    (["calibrate", "--intervals", "wlad"], "kemps-sim calibrate: error: --intervals wlad: not one of the choices "
                                           "(did you mean wald?); allowed: profile, wald, bootstrap"),
    (["metagame", "--measure", "wins"], "kemps-sim metagame: error: --measure wins: not one of the choices (did "
                                        "you mean win?); allowed: win,"),
    (["plya"], "kemps-sim: error: COMMAND plya: not one of the choices (did you mean play?); allowed: rules, play,"),
]
STRAYS = [
    (["agents", "watcher", "collector"], "kemps-sim agents: error: unrecognized argument: collector"),
    (["agents", "--jsn"], "kemps-sim agents: error: unrecognized argument: --jsn (did you mean --json?)"),
    (["sweep", "spec.toml", "--matches", "2"], "kemps-sim sweep: error: unrecognized arguments: --matches 2"),
    (["--bogus", "rules"], "kemps-sim: error: unrecognized argument: --bogus"),
]


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line of stderr of a command line refused with status 2 (by argparse's exit or main's return)."""
    try:
        status = main(argv)
    except SystemExit as done:
        status = done.code
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err and "usage:" not in err
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


def test_the_play_help_shows_a_card_field_as_json_prints_it(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    found = re.search(r'"gave": \[(\d+)\], "gave_names": \["([^"]+)"\]', text)
    assert found is not None, text
    assert card_name(int(found.group(1))) == found.group(2)
    printed = json.dumps(event_json(Swapped(0.0, 0, (int(found.group(1)),), (0,))), ensure_ascii=False)
    assert found.group(0) in printed


@pytest.mark.parametrize(("strategies", "expected"), [
    (["collector", "watchr"], "kemps-sim tournament: error: strategy 'watchr': unknown agent (did you mean "
                              "watcher?); allowed agents are random,"),
    (["ppo(path='runs/ppo/seed-0/model.zip')", "collector"],
     "kemps-sim tournament: error: strategy \"ppo(path='runs/ppo/seed-0/model.zip')\": ppo.path = "
     "'runs/ppo/seed-0/model.zip': no such file"),
    (["collector", "careful"], "kemps-sim tournament: error: strategy 'careful': plays krepet, not kemps"),
    (["collector(", "watcher"], "kemps-sim tournament: error: strategy 'collector(': a '(' without its ')'"),
])
def test_a_tournaments_bad_strategy_is_one_line_naming_it(strategies, expected, tmp_path, capsys):
    err = refused(["tournament", *strategies, "--serial", "--no-progress", "--output", str(tmp_path / "t")], capsys)
    assert err.startswith(expected) and "[base]" not in err and "[axes]" not in err
    assert not (tmp_path / "t").exists()


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    """A tiny Kemps, Krepet and Snap sweep's results folders."""
    root = tmp_path_factory.mktemp("newcomer")
    run_sweep(quick_spec(root / "kemps", matches=2), workers=1, progress=False)
    run_sweep(spec_from_mapping({
        "sweep": {"name": "krepet", "game": "krepet", "seed": 1, "matches": 1, "output": str(root / "krepet")},
        "base": {"lineup": "greedy(lapse=0.2),lookout", "engine": {"max_moves": 1500}},
        "axes": {"player1.agent.attention": [0.1, 0.9]}}), workers=1, progress=False)
    if "snap" in game_names():
        run_sweep(spec_from_mapping({
            "sweep": {"name": "snap", "game": "snap", "seed": 1, "matches": 1, "output": str(root / "snap")},
            "base": {"rules": "classic", "lineup": "snapper,hasty", "set": {"max_seconds": 60}},
            "axes": {"rules.false_call_penalty": [0, 1]}}), workers=1, progress=False)
    return {name: root / name for name in ("kemps", "krepet", "snap")}


@pytest.mark.parametrize(("name", "title"), [("krepet", "Krepet"), ("snap", "Snap")])
def test_an_unknown_metric_lists_the_metrics_of_the_folders_game(folders, name, title, capsys):
    if not folders[name].exists():
        pytest.fail("the example game Snap is not installed: run pip install -e ./examples/snap", pytrace=False)
    err = refused(["report", str(folders[name]), "--metric", "winrate"], capsys)
    assert err == (f"kemps-sim report: error: --metric winrate: unknown metric (did you mean win_rate?); allowed "
                   f"in a {title} sweep: win_rate")
    assert "kemps_precision" not in refused(["report", str(folders[name]), "--metric", "nosuch"], capsys)


def test_an_unknown_metric_in_a_kemps_folder_still_lists_the_kemps_metrics(folders, capsys):
    err = refused(["report", str(folders["kemps"]), "--metric", "nosuch"], capsys)
    assert err.startswith("kemps-sim report: error: --metric nosuch: unknown metric; allowed: win_rate, "
                          "kemps_precision,")


def test_a_grouped_report_fits_100_columns(folders, capsys):
    assert main(["report", str(folders["kemps"])]) == 0  # the sweep's own summary.csv, which the line then names
    assert main(["report", str(folders["kemps"]), "--by", "rules.double_kemps"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if len(line) > 100] == []
    grouped = folders["kemps"] / "summary_by_rules.double_kemps.csv"
    assert f"table written to {grouped} (summary.csv beside it keeps the sweep's per-cell table)" in " ".join(
        out.split())


@pytest.mark.parametrize(("value", "expected"), [
    ("collectr", "kemps-sim serve: error: --on-leave collectr: unknown agent (did you mean collector?); give pause "
                 "or one agent; allowed agents are random,"),
    ("paus", "kemps-sim serve: error: --on-leave paus: unknown agent (did you mean pause?); give pause or one agent"),
    ("collector,watcher", "kemps-sim serve: error: --on-leave collector,watcher: 2 agents; give pause or one agent"),
    ("careful", "kemps-sim serve: error: --on-leave careful: plays krepet, not kemps"),
])
def test_serve_names_on_leave_for_a_bad_agent(value, expected, capsys):
    err = refused(["serve", "--humans", "0", "--on-leave", value], capsys)
    assert err.startswith(expected) and "lineup" not in err


@pytest.mark.parametrize(("argv", "expected"), CHOICE_ERRORS + STRAYS,
                         ids=[" ".join(argv) for argv, _ in CHOICE_ERRORS + STRAYS])
def test_choice_errors_and_stray_arguments_are_one_line_under_the_command(argv, expected, capsys):
    err = refused(argv, capsys)
    assert err.startswith(expected), err


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["report", "--help"]], ids=" ".join)
def test_help_still_prints_the_usage(argv, capsys):
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: kemps-sim{' ' + argv[0] if argv[0] != '--help' else ''} ")
    assert "options:" in out
