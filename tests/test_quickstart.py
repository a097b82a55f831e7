"""The README's main job shows the game: both pairs defend (call Stop Kemps) and learn (every built-in of the lineup
reasons from the shared belief, which learns signals and honesty), every cell of the quickstart sweep has all
four call outcomes: right and wrong Kemps, right and wrong Stop Kemps, and its summary fits a terminal of 100
columns and ends with the answer to the question the spec asks."""

from __future__ import annotations

import tomllib
from pathlib import Path

from kemps_sim import simulate_match
from kemps_sim.cli.report import print_summary
from kemps_sim.lineup import resolve_lineup
from kemps_sim.sweep import CompareSpec, load_results, run_sweep, spec_from_mapping

QUICKSTART = Path(__file__).resolve().parent.parent / "experiments" / "quickstart.toml"


def test_every_quickstart_cell_shows_all_four_call_outcomes_from_two_defending_learning_pairs(tmp_path, capsys):
    data = tomllib.loads(QUICKSTART.read_text())
    data["sweep"]["output"] = str(tmp_path / "quickstart")
    spec = spec_from_mapping(data)
    assert spec.compare == CompareSpec("rules.double_kemps", True, False, "win_rate", 0,
                                       "Does Double Kemps change who wins?")
    # both pairs learn: after a match, every seat's belief has learned the other pair's signal from the calls (the
    # pairs keep their first signal here: under the default convention a signal seen called is changed, and the
    # last round's is then one nobody has seen yet)
    made = []

    def keep(factory):
        def build():
            made.append(factory().clone(signal_policy="fixed"))
            return made[-1]
        return build

    seats = [keep(factory) for _, factory in resolve_lineup(data["base"]["lineup"], 4)]
    result = simulate_match(data["base"]["rules"], seats, seed=1)
    allowed = len(made[0].calling.belief.knowledge.counts[1])  # could-be signals: each has share 1/allowed at first
    for agent in made:
        other = 1 - agent.seat % 2
        belief = agent.calling.belief
        assert agent.stop  # it defends
        assert belief.knowledge.share(other, result.rounds[-1].signals[other]) > 3 / allowed, agent.seat
    run_sweep(spec, workers=2, progress=False)
    results = load_results(tmp_path / "quickstart")
    calls = results.calls
    cells = results.matches["cell"].unique()
    assert len(cells) == 4
    for cell in cells:
        mine = calls[calls["cell"] == cell]
        kemps, stop = mine["call"].isin(("kemps", "double_kemps")), mine["call"] == "stop_kemps"
        outcomes = {"right Kemps": kemps & mine["right"], "wrong Kemps": kemps & ~mine["right"],
                    "right Stop Kemps": stop & mine["right"], "wrong Stop Kemps": stop & ~mine["right"]}
        missing = [name for name, rows in outcomes.items() if not rows.any()]
        assert not missing, (cell, missing)
        for pair in (0, 1):  # both pairs defend
            assert (stop & mine["right"] & (mine["caller_pair"] == pair)).any(), (cell, pair)
    capsys.readouterr()
    print_summary(tmp_path / "quickstart")
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines() if "table written to" not in line) <= 100  # but the path
    answer = out.rstrip("\n").split("\n\n")[-1]
    question, answer = answer.split("\n", 1)
    answer = " ".join(answer.split())
    assert question == "Does Double Kemps change who wins?"
    assert answer.startswith("win_rate of pair 0 (collector) is ")
    assert "(95% CI " in answer and " on 300 pairs of matches, p " in answer
