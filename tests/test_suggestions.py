"""Every name a user can mistype is answered with the closest allowed one, in the one-line error that names the field,
the value and what is allowed; and a lineup value written without quotes gets the hint to quote it."""

from __future__ import annotations

import pytest

from kemps_sim.cli import main
from kemps_sim.errors import ConfigError
from kemps_sim.krepet.presets import load_krepet_rules
from kemps_sim.lineup import resolve_lineup
from kemps_sim.presets import load_rules
from kemps_sim.stats import compare
from kemps_sim.suggest import closest, did_you_mean
from kemps_sim.sweep import SpecError, load_results, run_sweep, spec_from_mapping
from kemps_sim.sweep.sensitivity import cell_metric
from tests.sweeps import quick_data, quick_spec


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A finished two-cell sweep of two matches each."""
    out = tmp_path_factory.mktemp("suggest") / "out"
    run_sweep(quick_spec(out, matches=2, axes={"rules.double_kemps": [False, True]}), workers=1, progress=False)
    return out


def one_line(exc: pytest.ExceptionInfo) -> str:
    text = str(exc.value)
    assert "\n" not in text
    return text


def test_the_helper_suggests_the_closest_name_whatever_its_case_and_nothing_far_off():
    assert did_you_mean("standrd", ["standard", "german"]) == " (did you mean standard?)"
    assert did_you_mean("Collector", ["random", "collector"]) == " (did you mean collector?)"
    assert did_you_mean("zzz", ["standard", "german"]) == ""
    assert did_you_mean("german", ["standard", "german"]) == ""  # an allowed name needs no suggestion
    assert closest("treshold", {"threshold": 0.9, "caution": 2.0}) == "threshold"


def test_a_misspelled_preset(capsys):
    with pytest.raises(ConfigError) as caught:
        load_rules("standrd")
    assert "rules.preset = 'standrd': unknown preset (did you mean standard?); allowed presets are" in one_line(caught)
    assert main(["play", "--rules", "standrd"]) == 2
    assert "(did you mean standard?)" in capsys.readouterr().err


def test_a_misspelled_krepet_preset():
    with pytest.raises(ConfigError) as caught:
        load_krepet_rules("wikibook")
    assert "unknown Krepet preset (did you mean wikibooks?); allowed presets are wikibooks" in one_line(caught)


def test_a_misspelled_rule_knob_goes_through_the_same_helper():
    with pytest.raises(ConfigError) as caught:
        load_rules("standard", dubble_kemps=True)
    assert "unknown rule knob (did you mean double_kemps?)" in one_line(caught)


def test_a_misspelled_agent(capsys):
    with pytest.raises(ConfigError) as caught:
        resolve_lineup("collecter", 4)
    assert "lineup agent 'collecter': unknown agent (did you mean collector?); allowed agents are" in one_line(caught)
    assert main(["play", "--lineup", "collecter"]) == 2
    err = capsys.readouterr().err
    assert "(did you mean collector?)" in err and "Traceback" not in err


def test_a_misspelled_agent_parameter():
    with pytest.raises(ConfigError) as caught:
        resolve_lineup("watcher(treshold=0.9)", 4)
    assert ("lineup agent 'watcher': unknown parameter 'treshold' (did you mean threshold?); parameters: "
            in one_line(caught))


@pytest.mark.parametrize(("axes", "expected"), [
    ({"agent.treshold": [0.5, 0.9]}, "axes.agent.treshold: no agent in lineup 'collector,watcher' has this "
                                     "parameter (did you mean threshold?)"),
    ({"pair1.agent.treshold": [0.5]}, "axes.pair1.agent.treshold: agent 'watcher' has no such parameter (did you "
                                      "mean threshold?)"),
    ({"profle.observer.d_fixated": [1.0]}, "axes.profle.observer.d_fixated: not a place a value can go (did you "
                                           "mean profile.observer.d_fixated?)"),
    ({"pair0.agnet.threshold": [0.5]}, "(did you mean pair0.agent.threshold?)"),
    ({"lineups": ["collector"]}, "axes.lineups: not a place a value can go (did you mean lineup?)"),
    ({"engine.max_round": [60.0]}, "engine.max_round: unknown engine setting (did you mean max_rounds?)"),
])
def test_a_sweep_axis_that_points_nowhere(tmp_path, axes, expected):
    with pytest.raises(SpecError, match="did you mean") as caught:
        spec_from_mapping(quick_data(tmp_path / "out", axes=axes))
    assert expected in str(caught.value)


def test_misspelled_spec_keys(tmp_path):
    data = quick_data(tmp_path / "out")
    data["sweep"]["desing"] = "grid"
    data["base"]["linup"] = "collector"
    data["axes"] = {"profile.observer.d_fixated": {"low": 1.0, "hihg": 2.0, "steps": 2}}
    data["axis"] = {}
    with pytest.raises(SpecError) as caught:
        spec_from_mapping(data)
    lines = [line.strip() for line in str(caught.value).splitlines()]
    assert any(line.startswith("sweep.desing: unknown key (did you mean design?); allowed: ") for line in lines)
    assert any(line.startswith("base.linup: unknown key (did you mean lineup?); allowed: ") for line in lines)
    assert any("axes.profile.observer.d_fixated.hihg: unknown key (did you mean high?)" in line for line in lines)
    assert any(line.startswith("axis: unknown table (did you mean axes?)") for line in lines)


def test_a_misspelled_until_metric(tmp_path):
    with pytest.raises(SpecError) as caught:
        spec_from_mapping(quick_data(tmp_path / "out", until_ci=0.2, until_metric="win_rat"))
    assert "sweep.until_metric = 'win_rat': not a target metric (did you mean win_rate?); must be one of" in str(
        caught.value)
    with pytest.raises(SpecError) as caught:
        spec_from_mapping(quick_data(tmp_path / "out", until_ci=0.2, until_metric="pair1.winrate"))
    assert "(did you mean pair1.win_rate?)" in str(caught.value)


def test_a_misspelled_table(folder):
    with pytest.raises(ConfigError) as caught:
        load_results(folder, tables=["pair"])
    assert "table 'pair': unknown (did you mean pairs?); tables are " in one_line(caught)


def test_a_misspelled_metric(folder, capsys):
    assert main(["report", str(folder), "--by", "rules.double_kemps", "--compare", "True", "False",
                 "--metric", "winrate"]) == 2
    err = capsys.readouterr().err
    assert "--metric winrate: unknown metric (did you mean win_rate?); allowed: win_rate" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    tables = dict(load_results(folder).tables)
    with pytest.raises(ConfigError) as caught:
        compare(tables, "kemps_precison", True, False, by="rules.double_kemps")
    assert "metric: 'kemps_precison' is not known (did you mean kemps_precision?); allowed: " in one_line(caught)


def test_a_misspelled_sensitivity_metric(folder):
    results = load_results(folder)
    with pytest.raises(ConfigError) as caught:
        cell_metric(results, "pair0_wn")
    assert "metric 'pair0_wn': not in the pairs, matches tables (did you mean pair0_won?)" in one_line(caught)
    with pytest.raises(ConfigError) as caught:
        cell_metric(results, "durtion")
    assert "(did you mean duration?)" in one_line(caught)


@pytest.mark.parametrize(("entry", "expected"), [
    ("collector(signal=cough)", "signal = ...: the value must be a literal; quote text: signal='cough' "
                                "(at character 11)"),
    ("collector(signal=cough drop)", "quote text: signal='cough drop'"),
    ("collector(stop=true)", "stop = ...: the value must be a literal; write stop=True"),
])
def test_an_unquoted_string_in_a_lineup_gets_the_quoting_hint(entry, expected, capsys):
    with pytest.raises(ConfigError) as caught:
        resolve_lineup(entry, 4)
    assert expected in one_line(caught)
    assert main(["play", "--lineup", entry]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err
