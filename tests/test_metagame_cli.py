"""The meta-game analysis of a tournament (kemps_sim.metagame.analysis, .report) and ``kemps-sim metagame``.

A hand-built rock-paper-scissors tournament (each strategy beats the next on every deal) has closed-form answers:
a payoff matrix of ±1/2, no transitive part, the uniform Nash mixture with every strategy in the support of every
resample, equal α-Rank masses, and a replicator that stays at the uniform start. A real tiny tournament runs
through the command line, with its tables, figures and one-line errors.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kemps_sim.cli import main
from kemps_sim.metagame.analysis import analyse, analyse_variants, variant_table
from kemps_sim.metagame.report import metagame_text, variants_text
from kemps_sim.sweep import run_sweep
from kemps_sim.sweep.tournament import tournament_spec

CYCLE = {("rock", "scissors"): "rock", ("scissors", "paper"): "scissors", ("paper", "rock"): "paper"}


def cyclic_pairs(deals: int = 6, transitive: bool = False) -> pd.DataFrame:
    """A Kemps-shaped pairs table of three strategies, both seatings of every deal: each pairing always won by the
    strategy that beats the other in rock-paper-scissors (or, ``transitive``, by the earlier name in the alphabet)."""
    rows = []
    names = ["paper", "rock", "scissors"]
    for a in range(3):
        for b in range(a + 1, 3):
            first, second = names[a], names[b]
            winner = first if transitive else CYCLE.get((first, second), CYCLE.get((second, first)))
            for lineup in (f"{first},{second}", f"{second},{first}"):
                sides = lineup.split(",")
                for replicate in range(deals):
                    for pair in (0, 1):
                        won = sides[pair] == winner
                        rows.append({"cell": lineup, "lineup": lineup, "replicate": replicate,
                                     "rules.scoring": "letters", "seed": 100 + replicate, "pair": pair,
                                     "seats": "0,2" if pair == 0 else "1,3", "agents": sides[pair], "letters": 0,
                                     "points": 0, "rounds_won": int(won), "rank": 1 if won else 2, "won": won,
                                     "win_share": float(won), "rounds": 1, "end_reason": "match_over"})
    return pd.DataFrame(rows)


def test_rock_paper_scissors_has_its_closed_form_answers():
    analysis = analyse(cyclic_pairs(), resamples=50, seed=3)
    assert analysis.strategies == ("paper", "rock", "scissors")
    assert np.allclose(np.abs(analysis.table.matrix[~np.eye(3, dtype=bool)]), 0.5)
    assert analysis.hodge.transitive_share == pytest.approx(0.0, abs=1e-12)
    assert np.allclose(analysis.nash.mixture, 1 / 3) and np.allclose(analysis.nash.ratings, 0.0, atol=1e-9)
    assert np.allclose(analysis.mixture.support, 1.0)  # every resample is the data: no unit varies
    assert np.allclose(analysis.alpha_rank.estimate, 1 / 3)
    assert np.allclose(analysis.alpha_masses.to_numpy(), 1 / 3)
    assert np.allclose(analysis.replicator_end.estimate, 1 / 3, atol=1e-8)  # the uniform point is at rest
    assert analysis.matches == 3 * 2 * 6
    table = analysis.strategy_table()
    assert list(table.columns[:3]) == ["variant", "strategy", "nash_weight"]
    assert table["nash_weight"].sum() == pytest.approx(1.0)
    text = metagame_text(analysis)
    assert "3 strategies, 36 matches in 18 units" in text
    assert "transitive share 0.00" in text and "antisymmetric (zero-sum)" in text
    assert "Stable mixture: paper 0.33 + rock 0.33 + scissors 0.33" in text


def test_a_transitive_tournament_puts_everything_on_its_best_strategy():
    analysis = analyse(cyclic_pairs(transitive=True), resamples=20)
    # Row means 1/3, 0, -1/3 give a gradient of 1/3, 2/3, 1/3 against the observed 1/2, 1/2, 1/2: a win-share
    # matrix saturates, so the ordered game is 8/9 transitive (|T|^2 = 2 x 6/9 against |M|^2 = 6 x 1/4).
    assert analysis.hodge.transitive_share == pytest.approx(8 / 9)
    assert analysis.nash.mixture.tolist() == [1.0, 0.0, 0.0]  # paper beats both others
    assert analysis.alpha_rank.estimate[0] == pytest.approx(1.0)
    assert analysis.replicator_end.estimate[0] > 0.99
    assert list(analysis.strategy_table()["strategy"]) == ["paper", "rock", "scissors"]


def test_variants_are_analysed_apart_and_set_side_by_side():
    pairs = pd.concat([cyclic_pairs().assign(rules="cyclic"), cyclic_pairs(transitive=True).assign(rules="ordered")],
                      ignore_index=True)
    analyses = analyse_variants(pairs, ["rules"], resamples=20)
    assert list(analyses) == ["rules=cyclic", "rules=ordered"]
    assert np.allclose(analyses["rules=cyclic"].nash.mixture, 1 / 3)
    assert analyses["rules=ordered"].nash.mixture.tolist() == [1.0, 0.0, 0.0]
    stacked = variant_table(analyses)
    assert len(stacked) == 6 and set(stacked["variant"]) == {"rules=cyclic", "rules=ordered"}
    text = variants_text(analyses)
    assert "rules=cyclic: paper 0.33 + rock 0.33 + scissors 0.33" in text and "rules=ordered: paper 1.00" in text
    listed = analyse_variants(pairs, ["rules"], {"rules": ["ordered", "cyclic"]}, resamples=20)
    assert list(listed) == ["rules=ordered", "rules=cyclic"]  # the spec's order of levels, not the table's
    with pytest.raises(Exception, match="by = \\['ruless'\\]: the pairs table has no column 'ruless'"):
        analyse_variants(pairs, ["ruless"])


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    folder = tmp_path_factory.mktemp("metagame") / "t"
    run_sweep(tournament_spec(["random", "naive", "collector"], matches=4, output=str(folder)), workers=1,
              progress=False)
    return folder


def test_the_command_reports_writes_tables_and_draws(tournament, tmp_path, capsys):
    plots = tmp_path / "plots"
    assert main(["metagame", str(tournament), "--resamples", "20", "--plots", str(plots)]) == 0
    out = capsys.readouterr().out
    assert "Meta-game: 3 strategies, 24 matches" in out and "Stable mixture:" in out
    strategies = pd.read_csv(tournament / "metagame_strategies.csv")
    assert sorted(strategies["strategy"]) == ["collector", "naive", "random"]
    assert strategies["nash_weight"].sum() == pytest.approx(1.0)
    assert len(pd.read_csv(tournament / "metagame_payoffs.csv")) == 3
    assert {p.name for p in plots.iterdir()} == {"payoffs.png", "response_graph.png", "alpha_rank.png",
                                                  "simplex.png"}


def test_two_folders_are_two_variants(tournament, tmp_path, capsys):
    out = tmp_path / "both"
    assert main(["metagame", str(tournament), str(tournament.parent / "t"), "--resamples", "20",
                 "--output", str(out)]) == 2  # the same folder twice
    assert "each folder may be given once" in capsys.readouterr().err
    copy = tmp_path / "again"
    run_sweep(tournament_spec(["random", "naive", "collector"], matches=4, seed=1, output=str(copy)), workers=1,
              progress=False)
    assert main(["metagame", str(tournament), str(copy), "--resamples", "20", "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Meta-game (folder=t)" in printed and "Meta-game (folder=again)" in printed
    assert "Nash weight by variant" in printed
    assert set(pd.read_csv(out / "metagame_strategies.csv")["variant"]) == {"folder=t", "folder=again"}


@pytest.mark.parametrize(("arguments", "message"), [
    (["--resamples", "1"], "--resamples 1: must be a whole number >= 2"),
    (["--confidence", "1.5"], "--confidence 1.5: must be between 0 and 1"),
    (["--alpha", "0"], "--alpha 0.0: must be a positive number"),
    (["--population", "1"], "--population 1: must be a whole number >= 2"),
    (["--start", "a,b"], "--start 'a,b': must be weights separated by commas"),
    (["--start", "0.5,0.5"], "start has shape (2,): must be a vector of 3 shares"),
    (["--simplex", "random,naive"], "--simplex 'random,naive': draws a figure, so it needs --plots DIR"),
    (["--by", "rules"], "by = ['rules']: the pairs table has no column 'rules'"),
])
def test_bad_arguments_are_one_line_errors(tournament, arguments, message, capsys):
    assert main(["metagame", str(tournament), "--resamples", "20", *arguments]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_folder_that_is_not_there_or_holds_no_tournament(tmp_path, capsys):
    assert main(["metagame", str(tmp_path / "nothing")]) == 2
    assert "no such folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["metagame", str(tmp_path / "empty")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_command_offers_every_payoff_measure():
    from kemps_sim.cli.metagame import MEASURE_NAMES
    from kemps_sim.metagame import MEASURES

    assert tuple(MEASURES) == MEASURE_NAMES
