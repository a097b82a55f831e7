"""Krepet sweeps and tournaments run exactly as Kemps' do: a spec names the game, the tables are tidy and the same
on every executor, the report summarises what the tables hold, and bad specs are refused with every problem named."""

from __future__ import annotations

import re

import numpy as np
import pytest

from kemps_sim.cli import main
from kemps_sim.krepet.stats import krepet_summary
from kemps_sim.sweep import SpecError, load_results, run_sweep, spec_from_mapping, tournament_spec
from tests.sweeps import assert_same_tables


def krepet_data(output, matches: int = 4, axes=None, **sweep) -> dict:
    return {"sweep": {"name": "krepet", "game": "krepet", "seed": 11, "matches": matches, "output": str(output),
                      **sweep},
            "base": {"lineup": "greedy(lapse=0.2),lookout", "engine": {"max_moves": 1500}},
            "axes": {"player1.agent.attention": [0.1, 0.9]} if axes is None else axes}


def test_a_krepet_sweep_writes_tidy_tables_that_are_the_same_on_every_executor(tmp_path):
    spec = spec_from_mapping(krepet_data(tmp_path / "a"))
    run_sweep(spec, workers=1, progress=False)
    run_sweep(spec_from_mapping(krepet_data(tmp_path / "b", chunk=3)), workers=2, progress=False)
    a, b = load_results(tmp_path / "a"), load_results(tmp_path / "b")
    assert_same_tables(dict(a.tables), dict(b.tables))
    assert set(a.tables) == {"matches", "pairs", "misses", "calls", "moves"}
    matches, pairs, misses, moves = a["matches"], a["pairs"], a["misses"], a["moves"]
    assert len(matches) == 8 and len(pairs) == 16 and set(pairs["pair"]) == {0, 1}
    assert set(pairs["agents"]) == {"greedy(lapse=0.2)", "lookout(attention=0.1)", "lookout(attention=0.9)"}
    assert (matches.set_index(["cell", "seed"])["moves"] == moves.groupby(["cell", "seed"]).size()).all()
    assert misses["caught"].sum() == a["calls"].loc[a["calls"]["right"], "caught"].sum()
    assert {"cell", "player1.agent.attention", "replicate", "seed"} <= set(misses.columns)


def test_the_krepet_report_summarises_what_the_tables_hold(tmp_path, capsys):
    spec = spec_from_mapping(krepet_data(tmp_path / "out", matches=6))
    run_sweep(spec, workers=1, progress=False)
    assert main(["report", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "player0_win_rate" in out and "player0_caught_share" in out
    assert "95% confidence intervals" in " ".join(out.split())  # wherever the legend's lines break
    assert max(len(line) for line in out.splitlines() if "table written to" not in line) <= 100
    assert "players:" not in out  # player 1's entry differs between cells, so no one name per player
    assert "12 games; table written to" in out
    # The legend explains every printed column (a name with its player number written N).
    legend = " ".join(out[out.index("one row per"):].split())
    printed = {name for block in out[:out.index("one row per")].split("\n\n") for name in block.split("\n")[0].split()}
    for name in printed - {"player1.attention", "[95%", "CI]"}:
        assert re.sub(r"player\d", "playerN", name) + ":" in legend or name + "," in legend, name
    results = load_results(tmp_path / "out")
    table = krepet_summary(results.tables, by=["player1.agent.attention"])
    for _, row in table.iterrows():
        level = row["player1.agent.attention"]
        games = results["matches"][results["matches"]["player1.agent.attention"] == level]
        misses = results["misses"][(results["misses"]["player1.agent.attention"] == level)
                                   & (results["misses"]["player"] == 0)]
        assert row["games"] == len(games) == 6
        assert row["player0_win_rate"] == pytest.approx((games["winner"] == 0).mean())
        assert row["player0_misses"] == pytest.approx(len(misses) / 6)
        if len(misses):
            assert row["player0_caught_share"] == pytest.approx(misses["caught"].mean())
            assert row["player0_caught_share_ci_low"] <= row["player0_caught_share"] <= \
                row["player0_caught_share_ci_high"]
        else:
            assert np.isnan(row["player0_caught_share"])


def test_a_krepet_tournament_rates_the_players(tmp_path, capsys):
    spec = tournament_spec(["greedy", "careful"], matches=3, seed=2, output=str(tmp_path / "t"), game="krepet")
    assert spec.game == "krepet" and len(spec.axes[0].levels) == 2
    assert main(["tournament", "--game", "krepet", "greedy", "careful", "--matches", "3", "--serial",
                 "--no-progress", "--output", str(tmp_path / "t")]) == 0
    out = capsys.readouterr().out
    assert "Bradley-Terry ratings: 6 matches" in out and "careful" in out


def test_bad_krepet_specs_are_refused_with_every_problem_named(tmp_path):
    data = krepet_data(tmp_path / "x", axes={"pair0.agent.attention": [0.1], "player2.agent.lapse": [0.1],
                                             "agent.threshold": [0.5], "rules.draw_counts": [[3, 2, 1]]})
    data["base"]["players"] = 4
    with pytest.raises(SpecError) as error:
        spec_from_mapping(data)
    text = str(error.value)
    assert "base.players = 4: Krepet is a game for two" in text
    with pytest.raises(SpecError) as error:
        spec_from_mapping(krepet_data(tmp_path / "x", axes={"pair0.agent.attention": [0.1]}))
    assert ("not a place a value can go in a Krepet sweep (did you mean player0.agent.attention?); axis names are "
            "rules, rules.KNOB, lineup") in str(error.value)
    with pytest.raises(SpecError, match="Krepet has players 0 and 1"):
        spec_from_mapping(krepet_data(tmp_path / "x", axes={"player2.agent.lapse": [0.1]}))
    with pytest.raises(SpecError, match="axes.agent.threshold: no agent in lineup"):
        spec_from_mapping(krepet_data(tmp_path / "x", axes={"agent.threshold": [0.5]}))
    with pytest.raises(SpecError, match="'collector': plays kemps, not krepet"):
        spec_from_mapping(krepet_data(tmp_path / "x", axes={"lineup": ["collector"]}))
    with pytest.raises(SpecError, match="sweep.game = 'chess': unknown game; allowed: kemps, krepet"):
        spec_from_mapping({**krepet_data(tmp_path / "x"), "sweep": {"game": "chess", "matches": 1}})
    with pytest.raises(SpecError, match="engine.max_rounds: unknown Krepet engine setting"):
        spec_from_mapping(krepet_data(tmp_path / "x", axes={"engine.max_rounds": [3]}))


def test_the_krepet_report_draws_its_figures_and_compares_win_rates(tmp_path, capsys):
    run_sweep(spec_from_mapping(krepet_data(tmp_path / "out")), workers=1, progress=False)
    folder = str(tmp_path / "out")
    assert main(["report", folder, "--plots"]) == 0
    assert (tmp_path / "out" / "win_rate.png").stat().st_size > 5000
    assert (tmp_path / "out" / "misses_caught.png").stat().st_size > 5000
    capsys.readouterr()
    assert main(["report", folder, "--compare", "0.1", "0.9", "--by", "player1.agent.attention"]) == 0
    assert "A (0.1): " in capsys.readouterr().out
    assert main(["report", folder, "--compare", "0.1", "0.9", "--by", "player1.agent.attention",
                 "--metric", "kemps_precision"]) == 2
    assert "a Krepet sweep's groups are compared on win_rate" in capsys.readouterr().err


def test_events_true_stores_every_event_of_every_krepet_game(tmp_path):
    from kemps_sim.krepet.events import EVENT_COLUMNS, EVENT_TYPES
    from kemps_sim.krepet.realtime import play_krepet
    from kemps_sim.sweep import plan_cell
    from kemps_sim.sweep.design import design_cells

    spec = spec_from_mapping(krepet_data(tmp_path / "a", matches=2, events=True, chunk=3))
    run_sweep(spec, workers=1, progress=False)
    results = load_results(tmp_path / "a")
    events, matches = results["events"], results["matches"]
    assert list(events.columns) == ["cell", "player1.agent.attention", "replicate", *EVENT_COLUMNS]
    # Every game's events, one row per event of its trace: the matches table's count, game by game.
    assert (matches.set_index(["cell", "seed"])["events"] == events.groupby(["cell", "seed"]).size()).all()
    assert set(events["event"]) <= {kind.__name__ for kind in EVENT_TYPES} and "GameEnded" in set(events["event"])
    # The rows are the game's trace: replaying one game gives the same events in the same order.
    first = matches.iloc[0]
    plan = plan_cell(spec, next(c for c in design_cells(spec) if c.id == first["cell"]))
    trace = play_krepet(plan.rules, plan.lineup, plan.profiles, int(first["seed"]), config=plan.config).trace
    rows = events[(events["cell"] == first["cell"]) & (events["seed"] == first["seed"])]
    assert list(rows["event"]) == [type(e).__name__ for e in trace]
    assert list(rows["time"]) == pytest.approx([e.time for e in trace])
    # Without events = true there is no events table, and the other tables are the same either way.
    run_sweep(spec_from_mapping(krepet_data(tmp_path / "b", matches=2)), workers=1, progress=False)
    plain = load_results(tmp_path / "b")
    assert "events" not in plain.tables
    assert_same_tables({k: v for k, v in results.tables.items() if k != "events"}, dict(plain.tables))
