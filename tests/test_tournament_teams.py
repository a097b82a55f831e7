"""Team strategies declared in a tournament spec file: the file parses into the sweep of an ordinary round robin,
every bad field is one line naming the field, the value and what is allowed, a real team tournament reads by the
teams' names, and the command-line tournament of agent specs is as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import kemps_sim.cli.tournament as tournament_cli
from kemps_sim.cli import main
from kemps_sim.errors import ConfigError
from kemps_sim.ratings import bradley_terry, head_to_head
from kemps_sim.sweep import load_results, run_sweep
from kemps_sim.sweep.teams import TEAMS_FILE, read_teams, team_label, team_pairings, write_teams
from kemps_sim.sweep.tournament import (
    TeamTournament,
    label_pairs,
    strategy_labels,
    team_tournament_spec,
    tournament_data,
    tournament_spec,
)

ROOT = Path(__file__).resolve().parent.parent
METAGAME = ROOT / "experiments" / "metagame.toml"
#: One-round matches: a team tournament of 3 strategies x 2 matches a seating takes well under a second.
SHORT = 'set = { scoring = "rounds_won", rounds_to_play = 1 }'
TINY = f"""
[tournament]
matches = 2
seed = 3
{SHORT}

[strategies.honest]
agent = "collector"

[strategies.watchful]
agent = "watcher"
params = {{ threshold = 0.9 }}

[strategies.feed_and_collect]
partners = ["collector(signal_policy='fixed')", "feeder"]
"""


def spec_file(tmp_path: Path, text: str, name: str = "teams.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def data(**strategies: object) -> dict:
    """A tournament spec's plain data: ``honest`` (a collector) and the strategies given."""
    return {"tournament": {"matches": 2}, "strategies": {"honest": {"agent": "collector"}, **strategies}}


# --- the file parses --------------------------------------------------------------------------------------------


def test_the_example_spec_parses_into_a_round_robin_of_named_teams():
    tournament = team_tournament_spec(METAGAME)
    spec = tournament.spec
    assert isinstance(tournament, TeamTournament)
    assert list(tournament.teams) == ["honest", "watchful", "bluff_rarely", "feed_and_collect", "naive"]
    # partner_knows = true is the bluffer's default, so it is left out of the normal form
    assert tournament.teams["bluff_rarely"] == ("bluffer(fake_prob=0.1)",)
    assert tournament.teams["feed_and_collect"] == ("collector(signal_policy='fixed')", "feeder")
    assert (spec.name, spec.matches, spec.seed, spec.output) == ("metagame", 100, 20261214, "results/metagame")
    assert spec.base["rules"] == "standard" and spec.base["players"] == 4
    lineups = spec.axes[0].levels
    assert spec.axes[0].name == "lineup" and len(lineups) == 5 * 4  # every two of 5 strategies, in both seatings
    assert lineups[:2] == ("collector,watcher(threshold=0.9)", "watcher(threshold=0.9),collector")
    # a team with two different partners sits one spec per seat: its side at seats 0 and 2, or 1 and 3
    assert "collector,collector(signal_policy='fixed'),collector,feeder" in lineups
    assert "collector(signal_policy='fixed'),collector,feeder,collector" in lineups
    assert tournament.labels["collector(signal_policy='fixed') + feeder"] == "feed_and_collect"
    assert sorted(tournament.labels.values()) == sorted(tournament.teams)


def test_pairings_of_teams_seat_partners_at_opposite_seats():
    teams = {"a": ("x",), "b": ("p", "q"), "c": ("y",)}
    assert team_pairings(teams) == ["x,p,x,q", "p,x,q,x", "x,y", "y,x", "p,y,q,y", "y,p,y,q"]
    assert team_label(("p", "q")) == "p + q" and team_label(("x",)) == "x"


def test_alike_partners_are_the_plain_strategy_and_the_sweep_is_the_command_lines(tmp_path):
    plain = team_tournament_spec({"tournament": {"matches": 3, "output": "out"},
                                  "strategies": {"w": {"agent": "watcher", "params": {"threshold": 0.9}},
                                                 "c": {"agent": "collector"}}})
    paired = team_tournament_spec({"tournament": {"matches": 3, "output": "out"},
                                   "strategies": {"w": {"partners": ["watcher(threshold=0.9)",
                                                                     "watcher(threshold = 0.9, stop=True)"]},
                                                  "c": {"partners": ["collector", "collector()"]}}})
    assert paired.teams == plain.teams == {"w": ("watcher(threshold=0.9)",), "c": ("collector",)}
    assert paired.labels == plain.labels == {"watcher(threshold=0.9)": "w", "collector": "c"}
    typed = tournament_spec(["watcher(threshold=0.9)", "collector"], matches=3, output="out")
    assert paired.spec.identity_text() == plain.spec.identity_text() == typed.identity_text()


def test_command_line_values_replace_the_files_and_knobs_are_laid_over_its_set(tmp_path):
    path = spec_file(tmp_path, TINY)
    kept = team_tournament_spec(path)
    assert (kept.spec.matches, kept.spec.seed, kept.spec.output, kept.spec.name) == (2, 3, "results/teams", "teams")
    changed = team_tournament_spec(path, matches=4, seed=9, output=str(tmp_path / "o"),
                                   overrides={"double_kemps": True, "rounds_to_play": 3})
    assert (changed.spec.matches, changed.spec.seed, changed.spec.output) == (4, 9, str(tmp_path / "o"))
    assert changed.spec.base["set"] == {"scoring": "rounds_won", "rounds_to_play": 3, "double_kemps": True}
    assert changed.teams == kept.teams


def test_a_profile_file_is_read_from_the_spec_files_folder(tmp_path):
    (tmp_path / "people").mkdir()
    (tmp_path / "people" / "p.toml").write_text("[profile]\nfidget_scale = 1.5\n")
    path = spec_file(tmp_path, TINY.replace("seed = 3", 'seed = 3\nprofile = "people/p.toml"'))
    assert team_tournament_spec(path).spec.base["profile"]["fidget_scale"] == 1.5


def test_a_krepet_tournament_of_named_players():
    tournament = team_tournament_spec({"tournament": {"game": "krepet", "matches": 2},
                                       "strategies": {"steady": {"agent": "greedy", "params": {"lapse": 0.2}},
                                                      "eyes": {"agent": "lookout"}}})
    assert tournament.spec.game == "krepet"
    assert tournament.spec.axes[0].levels == ("greedy(lapse=0.2),lookout", "lookout,greedy(lapse=0.2)")
    assert tournament.labels == {"greedy(lapse=0.2)": "steady", "lookout": "eyes"}


# --- every bad field: one line naming the field, the value and what is allowed ------------------------------------

BAD = [
    ("unknown key", data(w={"agent": "watcher", "parms": {"threshold": 0.9}}),
     "strategies.w.parms: unknown key (did you mean params?); allowed: agent, params, partners"),
    ("agent and partners", data(w={"agent": "watcher", "partners": ["feeder", "collector"]}),
     "strategies.w: has both agent and partners; give agent (the same agent for every partner) or partners"),
    ("neither", data(w={"params": {"threshold": 0.9}}), "strategies.w: has neither agent nor partners"),
    ("three partners", data(w={"partners": ["feeder", "collector", "watcher"]}),
     "strategies.w.partners = ['feeder', 'collector', 'watcher']: must be a list of 2 agent specs, one per partner"),
    ("unknown agent", data(w={"agent": "wacher"}),
     "strategies.w.agent = 'wacher': unknown agent (did you mean watcher?); allowed agents are random, naive, "
     "collector"),
    ("unknown partner", data(w={"partners": ["feeder", "colector(caution=1)"]}),
     "strategies.w.partners[1] = 'colector(caution=1)': unknown agent (did you mean collector?)"),
    ("bad param", data(w={"agent": "watcher", "params": {"thresold": 0.9}}),
     "strategies.w.params = {'thresold': 0.9}: unknown parameter 'thresold' (did you mean threshold?); "
     "parameters: resignal=3.0"),
    ("bad param value", data(w={"agent": "bluffer", "params": {"fake_prob": 2}}),
     "strategies.w.params = {'fake_prob': 2}: bluffer.fake_prob = 2: must be a probability from 0 to 1"),
    ("bad inline param", data(w={"partners": ["feeder", "watcher(thresold=0.9)"]}),
     "strategies.w.partners[1] = 'watcher(thresold=0.9)': unknown parameter 'thresold' (did you mean threshold?)"),
    ("not a literal", data(w={"agent": "watcher", "params": {"threshold": float("nan")}}),
     "strategies.w.params.threshold = nan: must be a number, text, true/false, or a list or table of them"),
    ("param twice", data(w={"agent": "watcher(threshold=0.8)", "params": {"threshold": 0.9}}),
     "strategies.w.params.threshold = 0.9: also given in strategies.w.agent = 'watcher(threshold=0.8)'; give it once"),
    ("params with partners", data(w={"partners": ["feeder", "collector"], "params": {"caution": 1.0}}),
     "strategies.w.params = {'caution': 1.0}: only with agent; give each partner's parameters in its spec"),
    ("duplicate seating", data(w={"partners": ["collector()", "collector(caution=0.281)"]}),
     "strategies.w: seats the same agents as strategies.honest (collector); the results could not tell them apart"),
    ("names alike but for case", data(Honest={"agent": "watcher"}),
     "strategies.Honest: the same name as strategies.honest but for case; give each strategy a name of its own"),
    ("bad name", data(**{"a team": {"agent": "watcher"}}),
     "strategies.'a team': not a strategy name; names are letters, digits, _ and -, a letter first"),
    ("partners under Krepet", {"tournament": {"game": "krepet"}, "strategies": {
        "a": {"agent": "greedy"}, "b": {"partners": ["greedy", "lookout"]}}},
     "strategies.b.partners = ['greedy', 'lookout']: Krepet has one player a side, so no partners; give agent"),
    ("a Kemps agent under Krepet", {"tournament": {"game": "krepet"}, "strategies": {
        "a": {"agent": "greedy"}, "b": {"agent": "collector"}}},
     "strategies.b.agent = 'collector': plays kemps, not krepet; built-in krepet agents are greedy"),
    ("one strategy", {"strategies": {"honest": {"agent": "collector"}}},
     "strategies: 1 declared (honest); a tournament needs at least 2"),
    ("no strategies", {"tournament": {"matches": 2}}, "strategies: missing; declare at least 2 strategies"),
    ("unknown tournament key", {**data(w={"agent": "watcher"}), "tournament": {"matchs": 2}},
     "tournament.matchs: unknown key (did you mean matches?); allowed: name, game, matches, seed"),
    ("bad matches", {**data(w={"agent": "watcher"}), "tournament": {"matches": 0}},
     "tournament.matches = 0: must be matches per seating of every two strategies, a whole number >= 1"),
    ("key outside any table", {**data(w={"agent": "watcher"}), "seed": 4},
     "seed = 4: outside any table; belongs in [tournament]"),
    ("unknown game", {**data(w={"agent": "watcher"}), "tournament": {"game": "kemp"}},
     "tournament.game = 'kemp': unknown game (did you mean kemps?); allowed: kemps, krepet"),
    ("unknown knob", {**data(w={"agent": "watcher"}), "tournament": {"set": {"doble_kemps": True}}},
     "tournament.set.doble_kemps = true: unknown rule knob (did you mean double_kemps?); allowed knobs are"),
    ("unknown preset", {**data(w={"agent": "watcher"}), "tournament": {"rules": "nonsense"}},
     "tournament.rules = 'nonsense': unknown preset; allowed presets are standard"),
    ("players", {**data(w={"agent": "watcher"}), "tournament": {"set": {"players": 6}}},
     "tournament.set.players = 6: a tournament plays two pairs, so 4 players"),
]


def refused_in_one_line(spec: object, message: str) -> None:
    """``spec`` is refused by team_tournament_spec in one line that names ``message`` and says nothing ran."""
    with pytest.raises(ConfigError) as caught:
        team_tournament_spec(spec)
    text = str(caught.value)
    assert "\n" not in text
    assert text.startswith(f"tournament spec: {message}")
    assert text.endswith("(nothing was run or written)")


@pytest.mark.parametrize(("spec", "message"), [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_a_bad_field_is_one_line_naming_it(spec, message):
    refused_in_one_line(spec, message)


def test_a_strategy_declared_twice_in_the_file_is_named(tmp_path):
    path = spec_file(tmp_path, TINY + '\n[strategies.honest]\nagent = "naive"\n')
    with pytest.raises(ConfigError) as caught:
        team_tournament_spec(path)
    text = str(caught.value)
    assert "\n" not in text
    assert text.startswith(f"tournament spec {str(path)!r}: strategies.honest: declared twice (at line 17")
    assert text.endswith("each strategy needs a name of its own")


def test_a_missing_file_and_bad_toml_are_one_line(tmp_path):
    with pytest.raises(ConfigError, match=r"^tournament spec '.*nowhere\.toml': no such file$"):
        team_tournament_spec(tmp_path / "nowhere.toml")
    path = spec_file(tmp_path, '[tournament]\nmatches = \n')
    with pytest.raises(ConfigError, match=r"not valid TOML: .*\(at line 2, column 11\): line 2 reads 'matches ='$"):
        team_tournament_spec(path)


def test_every_problem_is_listed_at_once_under_its_strategy():
    spec = data(w={"agent": "wacher"}, v={"agent": "watcher", "partners": []})
    spec["tournament"]["matches"] = -1
    with pytest.raises(ConfigError) as caught:
        team_tournament_spec(spec)
    lines = str(caught.value).splitlines()
    assert lines[0] == "tournament spec: 3 problems (nothing was run or written)"
    assert lines[1:3] == ["  [tournament]", "    tournament.matches = -1: must be matches per seating of every two "
                                            "strategies, a whole number >= 1 (default 50)"]
    assert lines[3] == "  [strategies] w" and lines[4].startswith("    strategies.w.agent = 'wacher': unknown agent")
    assert lines[5:] == ["  [strategies] v", "    strategies.v: has both agent and partners; give agent (the same "
                                             "agent for every partner) or partners (one agent spec per partner), not "
                                             "both"]


# --- a real team tournament -------------------------------------------------------------------------------------


def test_a_small_team_tournament_reads_by_the_teams_names(tmp_path, capsys):
    path = spec_file(tmp_path, TINY)
    tournament = team_tournament_spec(path, output=str(tmp_path / "run"))
    done = run_sweep(tournament.spec, workers=1, progress=False)
    assert done.complete and done.planned == 3 * 2 * 2 and done.failures == 0
    pairs = load_results(done.folder, tables=["pairs"])["pairs"]
    # the agents text of every side is one the teams predict: the partners team's two specs, the others' one
    assert set(pairs["agents"]) == {"collector", "watcher(threshold=0.9)",
                                    "collector(signal_policy='fixed') + feeder"}
    named = label_pairs(pairs, tournament.labels)
    assert named["agents"].value_counts().to_dict() == {"honest": 8, "watchful": 8, "feed_and_collect": 8}
    ratings = bradley_terry(named)
    assert sorted(ratings["strategy"]) == ["feed_and_collect", "honest", "watchful"]
    assert list(head_to_head(named).index) == ["feed_and_collect", "honest", "watchful"]

    # The command line on the same folder resumes it (the same sweep), keeps the teams and reports by name.
    write = ["tournament", "--spec", str(path), "--serial", "--no-progress", "--output", str(tmp_path / "run")]
    assert main(write) == 0
    out = capsys.readouterr().out
    assert "12 of 12 matches stored (0 run now" in out
    assert "feed_and_collect  collector(signal_policy='fixed') + feeder" in out
    assert "Bradley-Terry ratings: " in out and "honest" in out and "watchful" in out
    written = pd.read_csv(tmp_path / "run" / "ratings.csv")
    assert sorted(written["strategy"]) == ["feed_and_collect", "honest", "watchful"]
    assert sorted(pd.read_csv(tmp_path / "run" / "head_to_head.csv", index_col=0).index) == sorted(written["strategy"])
    assert read_teams(tmp_path / "run") == tournament.teams
    assert strategy_labels(tmp_path / "run") == strategy_labels(tournament) == tournament.labels


def test_labels_refuse_sides_of_another_tournament_and_leave_plain_tournaments_alone(tmp_path):
    pairs = pd.DataFrame({"cell": ["c", "c"], "replicate": [0, 0], "pair": [0, 1], "agents": ["collector", "naive"],
                          "win_share": [1.0, 0.0]})
    with pytest.raises(ConfigError, match=r"^agents = 'naive': no strategy of this tournament seats that side"):
        label_pairs(pairs, {"collector": "honest"})
    assert strategy_labels(tmp_path) == {}  # no teams.json: the strategies are named by their agent specs
    assert label_pairs(pairs, {}) is pairs
    outcomes = pd.DataFrame({"first": ["collector"], "second": ["naive"], "score": [1.0]})
    renamed = label_pairs(outcomes, {"collector": "honest", "naive": "baseline"})
    assert renamed.iloc[0].to_dict() == {"first": "honest", "second": "baseline", "score": 1.0}
    write_teams(tmp_path, {"honest": ("collector",), "mixed": ("feeder", "collector")})
    assert json.loads((tmp_path / TEAMS_FILE).read_text()) == {
        "teams": {"honest": ["collector"], "mixed": ["feeder", "collector"]}}
    assert strategy_labels(tmp_path) == {"collector": "honest", "feeder + collector": "mixed"}
    (tmp_path / TEAMS_FILE).write_text("[]")
    with pytest.raises(ConfigError, match=r"not a teams file"):
        strategy_labels(tmp_path)


# --- the command line -------------------------------------------------------------------------------------------


def captured_spec(monkeypatch) -> list:
    """Make the command line's sweep record the spec it was given and stop there (as Ctrl-C would)."""
    seen: list = []

    def stop(spec, **options):
        seen.append(spec)
        raise KeyboardInterrupt

    monkeypatch.setattr(tournament_cli, "run_sweep", stop)
    return seen


def test_the_command_line_refuses_a_bad_spec_in_one_line_before_running(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tournament_cli, "run_sweep", lambda *a, **k: pytest.fail("the sweep must not start"))
    bad = spec_file(tmp_path, TINY.replace('partners = ["collector', 'partners = ["colector'), "bad.toml")
    good = spec_file(tmp_path, TINY)
    runs = {
        "bad": ["--spec", str(bad)],
        "missing": ["--spec", str(tmp_path / "none.toml")],
        "both": ["--spec", str(good), "collector", "naive"],
        "game": ["--spec", str(good), "--game", "krepet"],
        "nothing": [],
        "matches": ["--spec", str(good), "--matches", "0"],
    }
    errors = {}
    for name, extra in runs.items():
        assert main(["tournament", *extra, "--output", str(tmp_path / "t")]) == 2, name
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        errors[name] = err
    assert "strategies.feed_and_collect.partners[0] = \"colector(signal_policy='fixed')\": unknown agent" \
        in errors["bad"]
    assert "none.toml': no such file" in errors["missing"]
    assert "give --spec or STRATEGY arguments (collector naive), not both" in errors["both"]
    assert "--game krepet: the spec file names its game ([tournament] game); leave --game out" in errors["game"]
    assert "strategies: none given; name at least 2 agent specs" in errors["nothing"]
    assert "--matches 0: must be a whole number >= 1" in errors["matches"]
    assert not (tmp_path / "t").exists()


def test_command_line_options_replace_the_files_values_only_when_given(tmp_path, monkeypatch, capsys):
    path = spec_file(tmp_path, TINY)
    seen = captured_spec(monkeypatch)
    assert main(["tournament", "--spec", str(path), "--serial"]) == 130
    assert main(["tournament", "--spec", str(path), "--matches", "5", "--seed", "8", "--rules", "german",
                 "--set", "double_kemps=true", "--output", str(tmp_path / "o")]) == 130
    kept, changed = seen
    assert kept.identity_text() == team_tournament_spec(path).spec.identity_text()
    assert (kept.matches, kept.seed, kept.output, kept.base["rules"]) == (2, 3, "results/teams", "standard")
    assert (changed.matches, changed.seed, changed.output, changed.base["rules"]) == (5, 8, str(tmp_path / "o"),
                                                                                      "german")
    assert changed.base["set"] == {"scoring": "rounds_won", "rounds_to_play": 1, "double_kemps": True}
    assert changed.axes == kept.axes


def test_the_command_line_tournament_of_agent_specs_is_unchanged(monkeypatch):
    assert tournament_data(["collector", "watcher"]) == {
        "sweep": {"name": "tournament", "seed": 0, "matches": 50, "output": "results/tournament"},
        "base": {"rules": "standard", "players": 4, "set": {}, "lineup": "collector,watcher"},
        "axes": {"lineup": ["collector,watcher", "watcher,collector"]}}
    seen = captured_spec(monkeypatch)
    assert main(["tournament", "collector", "watcher(threshold=0.9)", "naive"]) == 130
    assert main(["tournament", "greedy", "lookout", "--game", "krepet", "--matches", "3", "--seed", "2",
                 "--set", "draw_counts=[3, 2, 1]", "--output", "k"]) == 130
    expected = [tournament_spec(["collector", "watcher(threshold=0.9)", "naive"]),
                tournament_spec(["greedy", "lookout"], 3, None, {"draw_counts": [3, 2, 1]}, 2, "k", "krepet")]
    for got, want in zip(seen, expected, strict=True):
        assert got.source == want.source and got.identity_text() == want.identity_text()
    assert seen[0].output == "results/tournament" and seen[0].matches == 50 and seen[0].seed == 0
