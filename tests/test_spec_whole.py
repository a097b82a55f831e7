"""A sweep spec is checked whole: every problem in one run, each under the section of the spec it is in."""

from __future__ import annotations

import pytest

from kemps_sim.cli import main
from kemps_sim.sweep import SpecError, spec_from_mapping
from tests.sweeps import quick_data, toml_text


def sections(text: str) -> dict[str, list[str]]:
    """The problem lines of a spec error by section head (the head line itself left out)."""
    found: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines()[1:]:
        if line.startswith("    "):
            assert current is not None, f"a problem outside any section: {line!r}"
            found[current].append(line.strip())
        elif line.startswith("  "):
            current = line.strip()
            found[current] = []
    return found


def spec_error(data: dict) -> str:
    with pytest.raises(SpecError) as caught:
        spec_from_mapping(data)
    return str(caught.value)


def test_four_typos_are_listed_in_one_run_each_under_its_own_section(tmp_path, capsys):
    data = quick_data(tmp_path / "out", axes={"rules.double_kemp": [False, True],
                                               "profile.observer.d_fixate": [1.0, 2.0]})
    data["base"]["rules"] = "standrd"
    data["base"]["lineup"] = "collecter,watcher"
    path = tmp_path / "typos.toml"
    path.write_text(toml_text(data))
    assert main(["sweep", str(path), "--check"]) == 2
    err = capsys.readouterr().err
    head = err.splitlines()[0]
    assert head.endswith("typos.toml: 4 problems (nothing was run or written)")
    found = sections(err)
    assert list(found) == ["[base]", '[axes] "rules.double_kemp"', '[axes] "profile.observer.d_fixate"']
    base = found["[base]"]
    assert len(base) == 2
    assert base[0].startswith("base.rules = 'standrd': unknown preset (did you mean standard?); allowed presets are")
    assert base[1].startswith("base.lineup = 'collecter,watcher': agent 'collecter': unknown agent (did you mean "
                              "collector?); allowed agents are")
    assert found['[axes] "rules.double_kemp"'] == [
        found['[axes] "rules.double_kemp"'][0]]  # one line for the axis, not one per level
    assert found['[axes] "rules.double_kemp"'][0].startswith(
        "axes.rules.double_kemp = false: unknown rule knob (did you mean double_kemps?)")
    assert found['[axes] "profile.observer.d_fixate"'][0].startswith(
        "axes.profile.observer.d_fixate = 1.0: not an observer parameter (did you mean d_fixated?)")
    # A broken base is not blamed on the axes: no axis line speaks of the preset or the lineup.
    for section, lines in found.items():
        if section.startswith("[axes]"):
            assert not any("preset" in line or "collecter" in line for line in lines)
    assert not (tmp_path / "out").exists()


def test_every_bad_base_field_gets_its_own_line(tmp_path):
    data = quick_data(tmp_path / "out", axes={"pair1.profile.reaction.tau": [0.1]})
    data["base"].update(players=5, set={"double_kemp": True, "scoring": "pints", "rounds_to_play": 1},
                        lineup="collector,watchr", profile={"fidget_scal": 1.0, "reaction": {"tau": -1.0}},
                        engine={"max_round": 5, "max_rounds": 0})
    found = sections(spec_error(data))
    assert list(found) == ["[base]"]
    starts = ["base.set.double_kemp = true: unknown rule knob (did you mean double_kemps?)",
              "base.players = 5: must be an even whole number from 4 to 12",
              "base.set.scoring = 'pints': must be one of letters, points, rounds_won",
              "base.lineup = 'collector,watchr': agent 'watchr': unknown agent (did you mean watcher?)",
              "base.profile.fidget_scal = 1.0: not a profile field (did you mean fidget_scale?)",
              "base.profile.reaction.tau = -1.0: must be a number > 0",
              "base.engine.max_round: unknown engine setting (did you mean max_rounds?)",
              "base.engine.max_rounds = 0: must be a whole number >= 1"]
    assert len(found["[base]"]) == len(starts)  # rounds_to_play, which needs the misspelt scoring, is not blamed
    for line, start in zip(found["[base]"], starts, strict=True):
        assert line.startswith(start)


def test_the_axes_are_judged_on_the_sound_part_of_a_broken_base(tmp_path):
    data = quick_data(tmp_path / "out", axes={"profile.reaction.tau": [0.1, -1.0], "agent.treshold": [0.5],
                                               "engine.max_rounds": [0]})
    data["base"]["lineup"] = "collector,watchr"
    found = sections(spec_error(data))
    assert found['[axes] "profile.reaction.tau"'] == ["axes.profile.reaction.tau = -1.0: must be a number > 0"]
    assert found['[axes] "engine.max_rounds"'][0].startswith("axes.engine.max_rounds = 0: must be a whole number")
    # An agent axis cannot be judged without a lineup: it waits until the lineup is fixed, rather than being
    # judged against a lineup the spec does not have.
    assert '[axes] "agent.treshold"' not in found
    data["base"]["lineup"] = "collector,watcher"
    found = sections(spec_error(data))
    assert found['[axes] "agent.treshold"'][0].startswith(
        "axes.agent.treshold: no agent in lineup 'collector,watcher' has this parameter (did you mean threshold?)")


def test_sweep_and_table_problems_have_their_sections_and_a_single_problem_stays_one_line(tmp_path, capsys):
    data = quick_data(tmp_path / "out", matches=0)
    data["extra"] = {}
    found = sections(spec_error(data))
    assert found["[extra]"][0].startswith("extra: unknown table")
    assert found["[sweep]"] == ["sweep.matches = 0: must be matches per cell, a whole number >= 1"]
    path = tmp_path / "one.toml"
    path.write_text(toml_text(quick_data(tmp_path / "out", matches=0)))
    assert main(["sweep", str(path), "--check"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.strip().endswith(
        "one.toml: sweep.matches = 0: must be matches per cell, a whole number >= 1 (nothing was run or written)")


def test_a_key_put_in_another_table_says_where_it_belongs(tmp_path, capsys):
    path = tmp_path / "krepet.toml"
    path.write_text(f'[sweep]\nseed = 1\nmatches = 2\noutput = "{tmp_path / "out"}"\n'
                    '[base]\ngame = "krepet"\nlineup = "greedy,careful"\n')
    assert main(["sweep", str(path), "--check"]) == 2
    err = capsys.readouterr().err
    # One problem: the rest of the spec is checked for the game it meant (a Krepet lineup is not blamed).
    assert err.strip().endswith("krepet.toml: base.game = 'krepet': belongs in [sweep], not [base] (game: kemps "
                                "(the default), krepet (the two-player racing patience) or a game a plugin "
                                "registers) (nothing was run or written)")
    data = quick_data(tmp_path / "out")
    data["sweep"]["lineup"] = "collector"
    data["base"].update({"matches": 3, "rules.double_kemps": True, "profile.reaction.tau": 0.2})
    data["axes"] = {**data["axes"], "seed": [1, 2]}  # a copy: quick_data shares its default axes
    data["output"] = "elsewhere"
    found = sections(spec_error(data))
    assert found["(outside any table)"] == [
        "output = 'elsewhere': outside any table; belongs in [sweep], below the [sweep] line (output: the folder "
        "the results go to)"]
    assert found["[sweep]"] == ["sweep.lineup = 'collector': belongs in [base], not [sweep] (lineup: a lineup such "
                                "as \"collector,watcher(threshold=0.9)\")"]
    assert found["[base]"] == [
        "base.matches = 3: belongs in [sweep], not [base] (matches: matches per cell, a whole number >= 1)",
        "base.rules.double_kemps = True: an axis name: a swept value belongs in [axes] (\"rules.double_kemps\" = "
        "[level, ...]); a fixed one in [base] set = { double_kemps = ... }",
        "base.profile.reaction.tau = 0.2: an axis name: a swept value belongs in [axes] "
        "(\"profile.reaction.tau\" = [level, ...]); a fixed one in [base] (profile, lineup or engine)"]
    assert found['[axes] "seed"'] == ["axes.seed: a setting of the sweep, not an axis; it belongs in [sweep] "
                                      "(seed: the master seed, a whole number >= 0)"]
    data = quick_data(tmp_path / "out")
    data["base"]["desing"] = "grid"  # a typo of another table's key is pointed there
    data["sweep"]["linup"] = "collector"  # a typo of the table's own key keeps its suggestion
    found = sections(spec_error(data))
    assert found["[base]"][0].startswith("base.desing: unknown key (did you mean design, which belongs in "
                                         "[sweep]?); allowed: rules, players")
    assert found["[sweep]"][0].startswith("sweep.linup: unknown key (did you mean lineup, which belongs in [base]?)")


def test_a_problem_of_an_axis_value_names_the_axis_as_the_spec_does(tmp_path):
    found = sections(spec_error(quick_data(tmp_path / "out", axes={"players": [4, 6]})))
    assert found['[axes] "players"'] == ["axes.players = 6: lineup has 2 entries for 6 players; give 1, 3 (one per "
                                         "pair) or 6 (one per seat)"]


def test_a_nan_or_infinite_level_is_refused_with_what_the_axis_allows(tmp_path, capsys):
    path = tmp_path / "nan.toml"
    data = quick_data(tmp_path / "out", axes={"rules.double_kemps": [False, True]})
    path.write_text(toml_text(data) + '"profile.observer.d_fixated" = [nan, 1.0]\n')
    assert main(["sweep", str(path), "--check"]) == 2
    assert capsys.readouterr().err.strip().endswith(
        "nan.toml: axes.profile.observer.d_fixated = [nan, 1.0]: nan is not an allowed level (not a number); a level "
        "must be a number >= 0 (nothing was run or written)")
    found = sections(spec_error(quick_data(tmp_path / "out", axes={
        "engine.max_round_seconds": [float("-inf"), 60.0], "agent.threshold": [float("nan")],
        "profile.reaction.tau": [float("nan"), -1.0]})))
    assert found == {
        '[axes] "engine.max_round_seconds"': [
            "axes.engine.max_round_seconds = [-inf, 60.0]: -inf is not an allowed level (not finite); a level must "
            "be a finite number of seconds > 0"],
        '[axes] "agent.threshold"': [  # the agent takes any literal: the spec says what it needs
            "axes.agent.threshold = [nan]: nan is not an allowed level (not a number); a level must be a finite "
            "number"],
        '[axes] "profile.reaction.tau"': [  # the other levels are still checked
            "axes.profile.reaction.tau = -1.0: must be a number > 0",
            "axes.profile.reaction.tau = [nan, -1.0]: nan is not an allowed level (not a number); a level must be a "
            "number > 0"]}
