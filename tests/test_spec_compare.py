"""The [compare] table of a sweep spec: the question a sweep asks, parsed into a CompareSpec, checked whole with the
rest of the spec, kept in the results folder and left out of what decides the rows."""

from __future__ import annotations

import pytest

from kemps_sim.results import COMPARE_METRICS
from kemps_sim.sweep import CompareSpec, SpecError, load_results, run_sweep, spec_from_mapping
from tests.sweeps import quick_data

QUESTION = {"question": "Does Double Kemps change who wins?", "by": "rules.double_kemps", "a": True, "b": False}


def with_compare(tmp_path, compare, axes=None, **sweep):
    data = quick_data(tmp_path / "out", axes=axes, **sweep)
    if compare is not None:
        data["compare"] = compare
    return data


def problems(data) -> list[str]:
    with pytest.raises(SpecError) as caught:
        spec_from_mapping(data)
    lines = str(caught.value).splitlines()
    start = lines.index("  [compare]")
    return [line.strip() for line in lines[start + 1:] if line.startswith("    ")]


def test_a_compare_table_is_parsed_with_the_levels_typed_as_the_axis_holds_them(tmp_path):
    spec = spec_from_mapping(with_compare(tmp_path, QUESTION))
    assert spec.compare == CompareSpec("rules.double_kemps", True, False, "win_rate", 0,
                                       "Does Double Kemps change who wins?")
    assert spec.compare.as_dict() == {**QUESTION, "metric": "win_rate", "pair": 0}
    assert spec_from_mapping(with_compare(tmp_path, None)).compare is None
    # 2 names the level 2.0 of a float axis, and comes back as the axis holds it; true is never the number 1.
    numbers = spec_from_mapping(with_compare(tmp_path, {"by": "profile.observer.d_fixated", "a": 2, "b": 1.0,
                                                        "metric": "rounds_won", "pair": 1}))
    assert numbers.compare.a == 2.0 and isinstance(numbers.compare.a, float) and numbers.compare.pair == 1
    assert problems(with_compare(tmp_path, {"by": "profile.observer.d_fixated", "a": True, "b": 1.0})) == [
        "compare.a = true: not a level of profile.observer.d_fixated; its levels are 1.0, 2.0"]


def test_compare_decides_no_row(tmp_path):
    plain = spec_from_mapping(with_compare(tmp_path, None))
    asked = spec_from_mapping(with_compare(tmp_path, {**QUESTION, "metric": "kemps_precision", "pair": 1}))
    assert plain.identity_text() == asked.identity_text() and "compare" not in asked.identity()


def test_every_problem_of_a_compare_table_is_reported_in_the_same_run(tmp_path):
    data = with_compare(tmp_path, {"by": "rules.double_kemp", "metric": "winrate", "pair": -1, "questoin": "?",
                                   "seed": 3})
    data["sweep"]["matches"] = 0
    with pytest.raises(SpecError) as caught:
        spec_from_mapping(data)
    text = str(caught.value)
    assert "sweep.matches = 0" in text  # the rest of the spec is checked in the same run
    assert problems(data) == [
        "compare.questoin: unknown key (did you mean question?); allowed: question, by, a, b, metric, pair",
        "compare.seed = 3: belongs in [sweep], not [compare] (seed: the master seed, a whole number >= 0)",
        f"compare.metric = 'winrate': unknown metric (did you mean win_rate?); allowed: {', '.join(COMPARE_METRICS)}",
        "compare.pair = -1: must be a whole number >= 0, the pair the metric is about (numbered from 0)",
        "compare.by = 'rules.double_kemp': not an axis of this spec (did you mean rules.double_kemps?); axes with "
        "listed levels: rules.double_kemps, profile.observer.d_fixated"]
    assert problems(with_compare(tmp_path, {"by": "rules.double_kemps", "a": True, "b": True})) == [
        "compare.b = true: the same level as compare.a; give two different levels of rules.double_kemps: false, true"]
    assert problems(with_compare(tmp_path, {"by": "rules.double_kemps", "a": "true"})) == [
        "compare.a = \"true\": not a level of rules.double_kemps; its levels are false, true",
        "compare.b: missing; must be a level of rules.double_kemps: false, true"]
    ranged = {"profile.reaction.tau": {"low": 0.1, "high": 0.3, "steps": 3}}
    assert problems(with_compare(tmp_path, {"by": "profile.reaction.tau", "a": 0.1, "b": 0.2}, axes=ranged)) == [
        "compare.by = 'profile.reaction.tau': a range axis; compare needs an axis with listed levels, such as "
        "\"profile.reaction.tau\" = [0.1, 0.3] (this spec has no axis with listed levels)"]
    assert problems(with_compare(tmp_path, {})) == [
        "compare.by: missing; must be the swept axis the question is about (axes with listed levels: "
        "rules.double_kemps, profile.observer.d_fixated)"]


def test_the_metric_must_be_scored_under_the_compared_cells_scoring_rule(tmp_path):
    # The quick specs score rounds won: no letters and no points, but rounds won and everything else.
    for metric in ("letters", "points"):
        assert problems(with_compare(tmp_path, {**QUESTION, "metric": metric})) == [
            f"compare.metric = '{metric}': recorded only under {metric} scoring, and cells compared score "
            "rounds_won (rules.scoring); allowed there: win_rate, kemps_precision, stop_precision, conversion_kemps, "
            "conversion_stolen, conversion_uncalled, conversion_broken, four_to_call_median, rounds_won"]
    for metric in ("rounds_won", "four_to_call_median", "conversion_stolen"):
        assert spec_from_mapping(with_compare(tmp_path, {**QUESTION, "metric": metric})).compare.metric == metric
    letters = with_compare(tmp_path, {**QUESTION, "metric": "letters"})
    letters["base"]["set"] = {"scoring": "letters"}
    assert spec_from_mapping(letters).compare.metric == "letters"
    # Only the compared cells count: by rules.scoring, letters is refused because one side scores rounds won.
    data = with_compare(tmp_path, {"by": "rules.scoring", "a": "letters", "b": "rounds_won", "metric": "letters"},
                        axes={"rules.scoring": ["letters", "rounds_won"]})
    data["base"]["set"] = {}
    assert problems(data)[0].startswith("compare.metric = 'letters': recorded only under letters scoring, and cells "
                                        "compared score rounds_won")


def test_the_pair_must_sit_at_the_compared_cells_table(tmp_path):
    assert problems(with_compare(tmp_path, {**QUESTION, "pair": 2})) == [
        "compare.pair = 2: the cells compared have 2 pairs, numbered 0 to 1"]
    six = with_compare(tmp_path, {**QUESTION, "pair": 2})
    six["base"].update(players=6, lineup="collector")
    assert spec_from_mapping(six).compare.pair == 2
    by_players = with_compare(tmp_path, {"by": "players", "a": 6, "b": 8, "pair": 3}, axes={"players": [4, 6, 8]})
    by_players["base"]["lineup"] = "collector"
    assert problems(by_players) == ["compare.pair = 3: the cells compared have 3 pairs, numbered 0 to 2"]
    by_players["compare"]["pair"] = 2  # the 4-player cells are not compared
    assert spec_from_mapping(by_players).compare.pair == 2


def test_a_krepet_compare_is_about_a_player_and_its_win_rate(tmp_path):
    data = {"sweep": {"seed": 1, "matches": 2, "game": "krepet", "output": str(tmp_path / "k")},
            "base": {"lineup": "greedy,lookout"}, "axes": {"player1.agent.attention": [0.1, 0.9]},
            "compare": {"by": "player1.agent.attention", "a": 0.9, "b": 0.1, "metric": "letters", "pair": 2}}
    assert problems(data) == ["compare.metric = 'letters': a Krepet sweep compares its players' win_rate only",
                              "compare.pair = 2: Krepet has players 0 and 1"]
    data["compare"].update(metric="win_rate", pair=1)
    assert spec_from_mapping(data).compare == CompareSpec("player1.agent.attention", 0.9, 0.1, "win_rate", 1)


def test_adding_or_changing_the_question_keeps_the_stored_matches_and_reaches_the_folder(tmp_path):
    axes = {"rules.double_kemps": [False, True]}
    first = run_sweep(spec_from_mapping(with_compare(tmp_path, None, axes=axes, matches=1)), workers=1,
                      progress=False)
    assert first.ran == 2 and load_results(tmp_path / "out").spec().compare is None
    asked = run_sweep(spec_from_mapping(with_compare(tmp_path, QUESTION, axes=axes, matches=1)), workers=1,
                      progress=False)
    assert (asked.mode, asked.ran, asked.already_done) == ("resume", 0, 2)
    assert load_results(tmp_path / "out").spec().compare == CompareSpec(
        "rules.double_kemps", True, False, question="Does Double Kemps change who wins?")
    changed = {**QUESTION, "metric": "kemps_precision", "pair": 1}
    run_sweep(spec_from_mapping(with_compare(tmp_path, changed, axes=axes, matches=1)), workers=1, progress=False)
    assert load_results(tmp_path / "out").spec().compare.as_dict() == changed
    run_sweep(spec_from_mapping(with_compare(tmp_path, None, axes=axes, matches=1)), workers=1, progress=False)
    assert load_results(tmp_path / "out").spec().compare is None


def test_check_prints_the_question_and_what_answers_it(tmp_path, capsys):
    from kemps_sim.cli import main
    from tests.sweeps import toml_text

    path = tmp_path / "asked.toml"
    path.write_text(toml_text(with_compare(tmp_path, QUESTION)))
    assert main(["sweep", str(path), "--check"]) == 0
    assert ("  question: Does Double Kemps change who wins? answered by pair 0's win_rate at rules.double_kemps = "
            "True minus False") in capsys.readouterr().out.splitlines()
