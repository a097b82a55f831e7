"""Adaptive round robins and rule variants in a tournament: the spec file's ``adaptive``, ``max_matches`` and
``[tournament.vary]`` (and ``--adaptive``, ``--max-matches``, ``--vary``) parse into the sweep spec they stand for,
every bad value is one line naming its field, the default cap is the closed form's, each (variant, pairing) of an
adaptive run settles on its own, and real tournaments print the savings and the ratings per variant."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd
import pytest

import kemps_sim.cli.tournament as tournament_cli
from kemps_sim.cli import main
from kemps_sim.errors import ConfigError
from kemps_sim.sweep import load_results
from kemps_sim.sweep.adaptive import pairings, recorded_savings, settle_pairings
from kemps_sim.sweep.cells import plan_cells
from kemps_sim.sweep.store import ResultStore
from kemps_sim.sweep.targets import DEFAULT_MAX_MATCHES, MIN_GROWTH
from kemps_sim.sweep.tournament import team_tournament_spec, tournament_data, tournament_spec
from kemps_sim.sweep.tournament_options import default_cap, parse_vary
from tests.test_tournament_teams import refused_in_one_line

ROOT = Path(__file__).resolve().parent.parent
METAGAME = ROOT / "experiments" / "metagame.toml"
#: One-round matches, so that a real tournament of a few strategies takes seconds.
SHORT = {"scoring": "rounds_won", "rounds_to_play": 1}
SHORT_SET = ["--set", "scoring=rounds_won", "--set", "rounds_to_play=1"]


def data(**tournament: object) -> dict:
    """A tournament spec's plain data: honest (a collector) against naive, 4 matches a seating."""
    return {"tournament": {"matches": 4, **tournament},
            "strategies": {"honest": {"agent": "collector"}, "naive": {"agent": "naive"}}}


def looks_by_hand(start: int, cap: int) -> int:
    """The rounds a pairing can play from ``start`` to ``cap``, counted as the adaptive module's text says."""
    n, count = start, 1
    while n < cap:
        n, count = min(cap, max(math.ceil(n * MIN_GROWTH), n + 1)), count + 1
    return count


# --- the spec parses into the sweep it stands for -----------------------------------------------------------------


def test_the_example_file_varies_double_kemps_and_its_commented_adaptive_lines_parse(tmp_path):
    spec = team_tournament_spec(METAGAME).spec
    assert [(axis.name, axis.levels) for axis in spec.axes][1:] == [("rules.double_kemps", (False, True))]
    assert spec.common_random_numbers and spec.until_ci is None and spec.base["rules"] == "standard"
    text = METAGAME.read_text()
    assert "# adaptive = 0.05 " in text and "# max_matches = 400 " in text
    path = tmp_path / "metagame.toml"
    path.write_text(text.replace("# adaptive = 0.05 ", "adaptive = 0.05 ").replace("# max_matches = 400 ",
                                                                                   "max_matches = 400 "))
    adaptive = team_tournament_spec(path).spec
    assert (adaptive.until_metric, adaptive.until_ci, adaptive.max_matches, adaptive.matches) == ("sign", 0.05, 400,
                                                                                                  100)


def test_adaptive_and_variants_in_a_file_become_the_sweeps_axes_and_target():
    tournament = team_tournament_spec(data(adaptive=0.05, max_matches=400,
                                           vary={"rules": ["standard", "german"], "double_kemps": [False, True]}))
    spec = tournament.spec
    assert [(axis.name, axis.levels) for axis in spec.axes] == [
        ("lineup", ("collector,naive", "naive,collector")), ("rules", ("standard", "german")),
        ("rules.double_kemps", (False, True))]
    assert (spec.until_metric, spec.until_ci, spec.max_matches, spec.matches) == ("sign", 0.05, 400, 4)
    assert spec.design == "grid" and spec.common_random_numbers
    assert len(plan_cells(spec)) == 2 * 2 * 2  # every seating under every variant
    # TOML's unquoted dotted key (a nested rules table) and the quoted "rules.KNOB" are the same axis
    nested = team_tournament_spec(data(vary={"rules": {"double_kemps": [False, True]}})).spec
    quoted = team_tournament_spec(data(vary={"rules.double_kemps": [False, True]})).spec
    assert nested.identity_text() == quoted.identity_text()
    assert [axis.name for axis in nested.axes] == ["lineup", "rules.double_kemps"] and nested.until_ci is None


def test_command_line_values_replace_the_files_and_vary_is_laid_over_its_table():
    given = team_tournament_spec(data(adaptive=0.1, max_matches=50, vary={"rules.double_kemps": [False, True],
                                                                         "rules": ["standard", "german"]}),
                                 adaptive=0.05, max_matches=80, vary={"double_kemps": [True, False]}).spec
    assert (given.until_ci, given.max_matches) == (0.05, 80)
    assert [(axis.name, axis.levels) for axis in given.axes][1:] == [("rules", ("standard", "german")),
                                                                     ("rules.double_kemps", (True, False))]


def test_tournament_data_of_agent_specs_with_variants_and_an_adaptive_schedule():
    assert tournament_data(["collector", "naive"], matches=4, adaptive=0.1, max_matches=20,
                           vary={"double_kemps": [False, True]}) == {
        "sweep": {"name": "tournament", "seed": 0, "matches": 4, "output": "results/tournament",
                  "until_metric": "sign", "until_ci": 0.1, "max_matches": 20},
        "base": {"rules": "standard", "players": 4, "set": {}, "lineup": "collector,naive"},
        "axes": {"lineup": ["collector,naive", "naive,collector"], "rules.double_kemps": [False, True]}}
    spec = tournament_spec(["collector", "naive", "random"], matches=4, adaptive=0.2,
                           vary={"rules": ["standard", "german"]})
    # the default cap counts every (variant, pairing): 3 pairings x 2 variants
    assert spec.max_matches == default_cap(0.2, 4, 6)


def test_the_default_cap_is_where_the_hoeffding_interval_reaches_the_resolution():
    # One pairing at resolution 0.05, the looks counted from one match: 30 up to 1419 (1, 2, 3, 4, 5, 7, 9, ...),
    # delta = 0.05 / 30, and sqrt(log(2 / delta) / (2 n)) <= 0.05 from n = log(1200) / 0.005 = 1418.02 on.
    assert looks_by_hand(1, 1419) == 30
    assert default_cap(0.05, 50, 1) == math.ceil(math.log(1200) / 0.005) == 1419
    for resolution, count in ((0.2, 3), (0.1, 10), (0.05, 10)):
        cap = default_cap(resolution, 4, count)
        needed = [math.log(2 * count * looks_by_hand(1, n) / 0.05) / (2 * resolution ** 2) for n in (cap - 1, cap)]
        assert cap - 1 < needed[0] and needed[1] <= cap  # the fewest matches that reach it
        # at least as many looks as a run from 4 takes: the run's own interval at the cap is narrower still
        assert looks_by_hand(4, cap) <= looks_by_hand(1, cap)
    assert default_cap(0.01, 50, 10) == DEFAULT_MAX_MATCHES  # too fine to reach: the sweep's cap
    assert default_cap(0.5, 100, 1) == 100  # reached before the start: the start
    # it never shrinks when the resolution tightens or the pairings or starting matches grow (each extends a folder)
    for start in (1, 20, 50, 200):
        for pairs_now, pairs_more in ((1, 3), (3, 10)):
            for wide, fine in ((0.3, 0.2), (0.2, 0.1), (0.1, 0.05)):
                assert default_cap(wide, start, pairs_now) <= default_cap(fine, start, pairs_now)
                assert default_cap(wide, start, pairs_now) <= default_cap(wide, start, pairs_more)
                assert default_cap(wide, start, pairs_now) <= default_cap(wide, start * 2, pairs_now)


def test_parse_vary_reads_levels_as_toml_else_as_text():
    assert parse_vary(["rules=standard,german", "double_kemps=false,true", "draw_counts=[3, 2, 1],[2, 2, 2]",
                       "rules.target_points=5, 10"]) == {
        "rules": ["standard", "german"], "double_kemps": [False, True], "draw_counts": [[3, 2, 1], [2, 2, 2]],
        "rules.target_points": [5, 10]}
    assert parse_vary(["rules=my rules.toml,'b,c.toml',german"]) == {"rules": ["my rules.toml", "b,c.toml",
                                                                               "german"]}


# --- every bad value: one line naming its field ----------------------------------------------------------------

BAD = [
    ("resolution above 0.5", data(adaptive=0.6),
     "tournament.adaptive = 0.6: must be the tie resolution of an adaptive round robin, a number above 0 and at "
     "most 0.5"),
    ("resolution 0", data(adaptive=0), "tournament.adaptive = 0: must be the tie resolution"),
    ("resolution true", data(adaptive=True), "tournament.adaptive = True: must be the tie resolution"),
    ("cap without resolution", data(max_matches=40),
     "tournament.max_matches = 40: only an adaptive round robin has a cap; add tournament.adaptive"),
    ("cap below the start", data(adaptive=0.1, max_matches=3),
     "tournament.max_matches = 3: must be >= tournament.matches (4), the matches per seating every pairing starts"),
    ("cap not whole", data(adaptive=0.1, max_matches=40.5),
     "tournament.max_matches = 40.5: must be the most matches per seating of an adaptive round robin"),
    ("vary not a table", data(vary=["standard"]),
     "tournament.vary = ['standard']: must be a table of rule variants: rules = [presets or rules files] and KNOB"),
    ("one level", data(vary={"double_kemps": True}),
     "tournament.vary.double_kemps = True: must be a list of at least 2 levels, such as [false, true] (one value"),
    ("players", data(vary={"players": [4, 6]}), "tournament.vary.players: a tournament fixes its table size"),
    ("lineup", data(vary={"lineup": ["a,b", "b,a"]}), "tournament.vary.lineup: a tournament fixes its lineups"),
    ("not a rule", data(vary={"profile.observer.acuity": [1.0, 2.0]}),
     "tournament.vary.profile.observer.acuity: not a rule variant; a tournament varies rules = [presets"),
    ("twice", data(vary={"double_kemps": [False, True], "rules.double_kemps": [True, False]}),
     "tournament.vary.rules.double_kemps: the same rule as tournament.vary.double_kemps; give its levels once"),
    ("set and varied", data(set={"double_kemps": True}, vary={"double_kemps": [False, True]}),
     "tournament.vary.double_kemps: also set for every match in tournament.set (double_kemps = True); a knob is "
     "either set or varied"),
    ("rules and varied presets", data(rules="german", vary={"rules": ["standard", "party"]}),
     "tournament.vary.rules: the presets vary, so tournament.rules = 'german' would have no say"),
    ("unknown knob", data(vary={"doble_kemps": [False, True]}),
     "tournament.vary.doble_kemps = false: unknown rule knob (did you mean double_kemps?)"),
    ("unknown preset", data(vary={"rules": ["standard", "standrd"]}),
     "tournament.vary.rules = 'standrd': unknown preset (did you mean standard?); allowed presets are standard"),
    ("mixed levels", data(vary={"double_kemps": [False, "yes"]}),
     "tournament.vary.double_kemps = [False, 'yes']: levels must all be numbers, all true/false or all strings"),
    ("a preset at odds with the knobs", data(set=SHORT, vary={"rules": ["standard", "kems"]}),
     "tournament.vary.rules = ['standard', 'kems']: one of them sets wrong_call_ends_round = false: not allowed "
     "with scoring = rounds_won"),
]


@pytest.mark.parametrize(("spec", "message"), [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_a_bad_value_in_the_file_is_one_line_naming_it(spec, message):
    refused_in_one_line(spec, message)


@pytest.mark.parametrize(("options", "message"), [
    ({"adaptive": 0.7}, "adaptive = 0.7: must be the tie resolution"),
    ({"max_matches": 40}, "max_matches = 40: only an adaptive round robin has a cap; add adaptive"),
    ({"adaptive": 0.1, "max_matches": 3}, "max_matches = 3: must be >= matches (4)"),
    ({"vary": {"double_kemps": [True]}}, "vary.double_kemps = [True]: must be a list of at least 2 levels"),
    ({"vary": {"double_kemps": [False, True]}, "overrides": {"double_kemps": True}},
     "vary.double_kemps: also set for every match in overrides (double_kemps = True)"),
])
def test_a_bad_argument_in_python_is_one_line_naming_it(options, message):
    with pytest.raises(ConfigError) as caught:
        tournament_spec(["collector", "naive"], matches=4, **options)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_a_bad_level_of_a_python_variant_is_named_as_given():
    with pytest.raises(ConfigError) as caught:
        tournament_spec(["collector", "naive"], vary={"doble_kemps": [False, True]})
    problems = [line.strip() for line in str(caught.value).splitlines() if line.startswith("    ")]
    assert len(problems) == 1 and problems[0].startswith("vary.doble_kemps = false: unknown rule knob")


def test_the_command_line_refuses_bad_values_in_one_line_before_running(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tournament_cli, "run_sweep", lambda *a, **k: pytest.fail("the sweep must not start"))
    runs = {
        "--adaptive 0.7": (["--adaptive", "0.7"], "--adaptive 0.7: must be a tie resolution above 0 and at most 0.5"),
        "--adaptive 0": (["--adaptive", "0"], "--adaptive 0.0: must be a tie resolution above 0"),
        "cap alone": (["--max-matches", "40"], "--max-matches 40: only an adaptive round robin has a cap; add "
                                               "--adaptive RESOLUTION"),
        "cap low": (["--adaptive", "0.1", "--max-matches", "20"],
                    "--max-matches 20: must be >= the 50 matches per seating every pairing starts with (--matches)"),
        "cap 0": (["--adaptive", "0.1", "--max-matches", "0"], "--max-matches 0: must be a whole number >= 1"),
        "vary form": (["--vary", "double_kemps"], "--vary 'double_kemps': must be KEY=V1,V2,..., e.g."),
        "vary twice": (["--vary", "double_kemps=false,true", "--vary", "rules.double_kemps=true,false"],
                       "--vary 'rules.double_kemps=true,false': rules.double_kemps is varied twice"),
        "vary players": (["--vary", "players=4,6"], "vary.players: a tournament fixes its table size"),
        "vary knob": (["--vary", "doble_kemps=false,true"], "vary.doble_kemps = false: unknown rule knob"),
    }
    for name, (extra, message) in runs.items():
        assert main(["tournament", "collector", "naive", *extra, "--output", str(tmp_path / "t")]) == 2, name
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert message in err, (name, err)
    assert not (tmp_path / "t").exists()


def test_the_command_lines_options_reach_the_spec(tmp_path, monkeypatch):
    seen: list = []

    def stop(spec, **options):
        seen.append(spec)
        raise KeyboardInterrupt

    monkeypatch.setattr(tournament_cli, "run_sweep", stop)
    path = tmp_path / "t.toml"
    path.write_text('[tournament]\nmatches = 4\nadaptive = 0.1\n\n[tournament.vary]\nrules = ["standard", "german"]'
                    '\n\n[strategies.a]\nagent = "collector"\n\n[strategies.b]\nagent = "naive"\n')
    assert main(["tournament", "collector", "naive", "--matches", "4", "--adaptive", "0.1", "--max-matches", "30",
                 "--vary", "double_kemps=false,true"]) == 130
    assert main(["tournament", "--spec", str(path), "--max-matches", "30", "--vary", "double_kemps=false,true"]) == 130
    typed, filed = seen
    assert typed.identity_text() == tournament_spec(["collector", "naive"], 4, adaptive=0.1, max_matches=30,
                                                    vary={"double_kemps": [False, True]}).identity_text()
    assert (filed.until_ci, filed.max_matches) == (0.1, 30)
    assert [axis.name for axis in filed.axes] == ["lineup", "rules", "rules.double_kemps"]


# --- an adaptive round robin with variants settles each (variant, pairing) on its own ------------------------------


def test_each_variant_of_a_pairing_settles_on_its_own():
    """Stored rows in which collector beats naive in every match without Double Kemps, and the first seat wins every
    match with it (a deal's payoff 0): the first variant's pairing is settled by its sign at the start, the second
    plays on, although both are the same two strategies."""
    spec = tournament_spec(["collector", "naive"], matches=20, adaptive=0.1, max_matches=40,
                           vary={"double_kemps": [False, True]})
    plans = {plan.cell.id: plan for plan in plan_cells(spec)}
    groups = pairings(plans)
    assert len(groups) == 2  # one pairing under each of 2 variants
    assert {dict(key[0])["rules.double_kemps"] for key in groups} == {False, True}
    rows = []
    for cell, plan in plans.items():
        double = plan.cell.as_dict()["rules.double_kemps"]
        first, second = plan.lineup.split(",")
        for replicate in range(20):
            first_wins = True if double else first == "collector"
            for pair, agents, won in ((0, first, first_wins), (1, second, not first_wins)):
                rows.append({"cell": cell, "replicate": replicate, "seed": 1000 + replicate, "pair": pair,
                             "agents": agents, "won": won, "win_share": float(won)})
    done = {(cell, replicate) for cell in plans for replicate in range(20)}
    standing = settle_pairings(plans, 20, 0.1, 40, done, pd.DataFrame(rows))
    by_variant = {plans[cell].cell.as_dict()["rules.double_kemps"]: target for cell, target in standing.items()}
    # 20 units at delta = 0.05 / (2 pairings x 4 looks: 20, 25, 32, 40): half-width sqrt(log(320) / 40) = 0.38
    assert by_variant[False].settled and by_variant[False].why == "sign" and by_variant[False].matches == 20
    assert by_variant[False].ci_high - by_variant[False].value == pytest.approx(math.sqrt(math.log(320) / 40))
    # the next round: n (halfwidth / resolution)^2 = 20 x 14.4 = 289, at most 4 times as many, and at most the cap
    assert not by_variant[True].settled and by_variant[True].rounds == 2 and by_variant[True].matches == 40


# --- real tournaments -------------------------------------------------------------------------------------------


def test_an_adaptive_tournament_prints_how_its_pairings_settled_and_the_matches_saved(tmp_path, capsys):
    """random, naive and collector from 6 matches a seating up to 40: the pairings against random settle by their
    sign within a round or two, so fewer matches are played than a full round robin of the same confidence."""
    folder = tmp_path / "adaptive"
    assert main(["tournament", "random", "naive", "collector", "--matches", "6", "--adaptive", "0.2",
                 "--max-matches", "40", "--serial", "--no-progress", "--output", str(folder)]) == 0
    out = capsys.readouterr().out
    settled = re.search(r"adaptive round robin: 3 pairings, at most 40 matches a seating; settled (\d+) by sign, "
                        r"(\d+) as a tie \(even to within 0\.2\), (\d+) at the cap\n(\d+) matches; a full round robin "
                        r"needs (\d+) \((\d+)% saved\)", out)
    assert settled, out
    sign, tie, cap, played, full, saved = map(int, settled.groups())
    assert sign >= 1 and sign + tie + cap == 3
    assert (played, full) == recorded_savings(ResultStore(folder).manifest())
    assert played < full and saved == round(100 * (1 - played / full))
    assert out.index("adaptive round robin") < out.index("Bradley-Terry ratings")
    assert f"{played} of {played} matches stored" in out


def test_resolution_and_cap_extend_an_adaptive_folder_only_upward(tmp_path, capsys):
    base = ["tournament", "collector", "random", "--matches", "4", *SHORT_SET, "--serial", "--no-progress",
            "--output", str(tmp_path / "t")]
    assert main([*base, "--adaptive", "0.2", "--max-matches", "8"]) == 0
    capsys.readouterr()
    assert main([*base, "--adaptive", "0.1", "--max-matches", "8"]) == 2
    assert "(until_ci: 0.2 -> 0.1); use another output folder, or --extend" in capsys.readouterr().err
    assert main([*base, "--adaptive", "0.1", "--max-matches", "12", "--extend"]) == 0
    assert "adaptive round robin: 1 pairing, at most 12 matches a seating" in capsys.readouterr().out
    assert main([*base, "--adaptive", "0.2", "--max-matches", "12", "--extend"]) == 2
    assert "until_ci went up from 0.1 to 0.2 (only a tighter target adds matches)" in capsys.readouterr().err
    assert main([*base, "--extend"]) == 2
    assert "until_ci was dropped" in capsys.readouterr().err


def test_a_variant_tournament_is_rated_per_variant_and_the_metagame_compares_the_variants(tmp_path, capsys):
    path = tmp_path / "variants.toml"
    path.write_text('[tournament]\nmatches = 2\nseed = 5\nset = { scoring = "rounds_won", rounds_to_play = 1 }\n\n'
                    '[tournament.vary]\ndouble_kemps = [true, false]\n\n'
                    '[strategies.honest]\nagent = "collector"\n\n[strategies.chaos]\nagent = "random"\n')
    folder, plots = tmp_path / "run", tmp_path / "figures"
    assert main(["tournament", "--spec", str(path), "--serial", "--no-progress", "--output", str(folder),
                 "--plots", str(plots)]) == 0
    out = capsys.readouterr().out
    assert "8 of 8 matches stored" in out  # 2 seatings x 2 variants x 2 matches
    # the variants in the order the file lists them, each rated on its own
    first, second = out.index("variant0: rules.double_kemps=True (1 of 2)"), \
        out.index("variant1: rules.double_kemps=False (2 of 2)")
    # each fit holds its own variant's 4 matches (2 seatings x 2), never the 8 of both pooled
    fits = out.count("Bradley-Terry ratings: ")
    assert first < second and fits == out.count("Bradley-Terry ratings: 4 matches\n") == 2
    assert first < out.index("Bradley-Terry ratings: ") < second < out.rindex("Bradley-Terry ratings: ")
    pairs = load_results(folder, tables=["pairs"])["pairs"]
    # common random numbers: replicate r of a seating deals the same cards under both variants
    seeds = pairs.groupby(["lineup", "replicate"])["seed"].nunique()
    assert len(seeds) == 2 * 2 and (seeds == 1).all()
    ratings = pd.read_csv(folder / "ratings.csv")
    assert list(ratings.columns[:2]) == ["variant", "strategy"]
    assert ratings.groupby("variant")["strategy"].apply(sorted).to_dict() == {
        "rules.double_kemps=True": ["chaos", "honest"], "rules.double_kemps=False": ["chaos", "honest"]}
    assert ratings.groupby("variant")["matches"].sum().to_dict() == {"rules.double_kemps=True": 8,
                                                                     "rules.double_kemps=False": 8}
    matrix = pd.read_csv(folder / "head_to_head.csv", index_col=[0, 1])
    assert sorted(matrix.index.get_level_values(0).unique()) == ["rules.double_kemps=False",
                                                                 "rules.double_kemps=True"]
    assert all((plots / f"variant{n}" / name).is_file() for n in (0, 1) for name in ("ratings.png",
                                                                                    "head_to_head.png"))

    assert main(["metagame", str(folder), "--resamples", "20"]) == 0
    report = capsys.readouterr().out
    assert "Meta-game (rules.double_kemps=True)" in report and "Meta-game (rules.double_kemps=False)" in report
    assert "Nash weight by variant" in report
    strategies = pd.read_csv(folder / "metagame_strategies.csv")
    assert sorted(strategies["variant"].unique()) == ["rules.double_kemps=False", "rules.double_kemps=True"]
