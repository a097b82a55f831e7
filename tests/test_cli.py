"""The command line as a user runs it: output, exit status 2 and one-line errors, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kemps_sim.cli import main
from kemps_sim.presets import PRESETS


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m kemps_sim`` in a fresh process, as a user would run ``kemps-sim``."""
    return subprocess.run([sys.executable, "-m", "kemps_sim", *args], capture_output=True, text=True,
                          check=False, timeout=120)


def test_rules_kems_shows_points_to_10_and_double_kems_on():
    done = run_cli("rules", "kems")
    assert done.returncode == 0, done.stderr
    lines = {line.split()[0]: line for line in done.stdout.splitlines() if line.startswith("  ")}
    assert lines["scoring"].split()[1] == "points"
    assert lines["target_points"].split()[1] == "10"
    assert lines["double_kemps"].split()[1] == "on"
    assert "003" in lines["double_kemps"]


def knob_lines(out: str) -> dict[str, str]:
    """The knob lines of ``kemps-sim rules`` output, by knob."""
    return {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_prints_the_source_words_of_every_preset_knob(name, capsys):
    assert main(["rules", name]) == 0
    out = capsys.readouterr().out
    assert '"reading:" marks a value read where the source is silent or ambiguous' in out
    lines = knob_lines(out)
    for knob, entry in PRESETS[name].knobs.items():
        line = lines[knob]
        assert f"preset {name}: " in line
        if entry.quote:
            assert f'{PRESETS[name].source}: "{entry.quote}"' in line
        if entry.gloss:
            assert f"({entry.gloss})" in line
        assert (f"preset {name}: reading: " in line) == entry.reading, line


def test_rules_kems_shows_the_new_knobs_with_their_french_words(capsys):
    assert main(["rules", "kems"]) == 0
    lines = knob_lines(capsys.readouterr().out)
    assert lines["sweeper"].split()[1] == "any_player"
    assert '003: "Un joueur les « balaye » alors du jeu' in lines["sweeper"]
    assert lines["redeal_until_clean"].split()[1] == "off"
    assert '"puis en piocher respectivement 3 ou 4 autres" (then draw 3 or 4 others respectively)' in lines[
        "redeal_until_clean"]
    assert lines["stop_against_double"].split()[1] == "play_on"
    assert "preset kems: reading: 003's case 5" in lines["stop_against_double"]
    assert "preset kems: reading: 003 says \"a player\" sweeps" in lines["sweeper"]
    assert "inefficient face à un Double Kem’s" in lines["stop_against_double"]
    assert lines["refill_opens"].split()[1:4] == ["each_card", "preset", "kems:"]
    assert "reading: 003 does not say when a fresh card may be taken" in lines["refill_opens"]


@pytest.mark.parametrize("name", ["german", "peanut_butter", "party"])
def test_rules_refills_open_when_complete_in_000_and_001(name, capsys):
    assert main(["rules", name]) == 0
    line = knob_lines(capsys.readouterr().out)["refill_opens"]
    assert line.split()[1] == "when_complete"
    expected = "Dann wird wieder getauscht" if name != "party" else "Deal 4 more cards and repeat steps 3-4"
    assert expected in line and ("reading:" in line) == (name == "party")  # 001 by analogy with its start


def test_rules_nonsense_exits_2_with_one_line_listing_presets():
    done = run_cli("rules", "nonsense")
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "standard, german, party, kems, peanut_butter" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("args", "fragment"), [
    (["rules", "--players", "5"], "rules.players = 5"),
    (["rules", "--players", "2"], "rules.players = 2"),
    (["rules", "--set", "doble_kemps=true"], "unknown rule knob"),
    (["rules", "--set", "double_kemps=1"], "rules.double_kemps = 1"),
    (["rules", "--set", "swap=sideways"], "rules.swap = 'sideways'"),
    (["rules", "--set", "target_points=12"], "rules.target_points = 12"),
    (["rules", "--set", "nonsense"], "KNOB=VALUE"),
    (["rules", "missing.toml"], "no such file"),
])
def test_bad_input_exits_2_with_one_line(args, fragment, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert len(err.strip().splitlines()) == 1


def test_argparse_usage_error_exits_2_without_traceback():
    done = run_cli("rules", "--players", "four")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "--players" in done.stderr


def test_rules_json_and_overrides(capsys):
    assert main(["rules", "german", "--players", "10", "--set", "double_kemps=true", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["preset"] == "german"
    assert data["rules"]["players"] == 10 and data["rules"]["double_kemps"] is True
    assert data["origins"]["players"] == "override"


def test_rules_file(tmp_path, capsys):
    path = tmp_path / "table.toml"
    path.write_text('preset = "party"\nplayers = 8\n')
    assert main(["rules", str(path)]) == 0
    out = capsys.readouterr().out
    assert "2 deck(s)" in out and f"file {path}" in out


def test_rules_list(capsys):
    assert main(["rules", "--list"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()] == [
        "standard", "german", "party", "kems", "peanut_butter"]
