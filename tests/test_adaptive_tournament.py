"""Adaptive round robins (``until_metric = "sign"``, :mod:`kemps_sim.sweep.adaptive`): the Hoeffding interval and
its Bonferroni count in closed form, the pairings read from a tournament's lineups, the refusal of cells that are
not a round robin, and an adaptive tournament that reaches the full round robin's response graph with fewer
matches."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kemps_sim.errors import ConfigError
from kemps_sim.sweep import spec_from_mapping
from kemps_sim.sweep.adaptive import hoeffding_halfwidth, looks, matches_saved, recorded_savings, sides_of
from kemps_sim.sweep.targets import MIN_GROWTH
from kemps_sim.sweep.tournament import tournament_data


def test_looks_count_every_round_a_pairing_can_play():
    # 10 -> 13 -> 17 -> 22 -> 28 -> 35 -> 40: growth by MIN_GROWTH (rounded up) until the cap.
    sizes, n = [10], 10
    while n < 40:
        n = min(40, max(math.ceil(n * MIN_GROWTH), n + 1))
        sizes.append(n)
    assert looks(10, 40) == len(sizes) == 7
    assert looks(5, 5) == 1
    assert looks(1, 3) == 3  # 1 -> 2 -> 3: at least one more replicate a round


def test_hoeffding_halfwidth_is_the_closed_form():
    # P(|mean - mu| >= t) <= 2 exp(-2 n t^2 / R^2) with R = 1: t = sqrt(log(2/delta) / (2n)).
    assert hoeffding_halfwidth(50, 0.05) == pytest.approx(math.sqrt(math.log(40.0) / 100.0))
    assert 2 * math.exp(-2 * 50 * hoeffding_halfwidth(50, 0.01) ** 2) == pytest.approx(0.01)
    assert hoeffding_halfwidth(0, 0.05) == math.inf


def test_sides_of_names_sides_as_the_pairs_table_does():
    assert sides_of("collector,watcher(threshold=0.9)", 4, 2) == ("collector", "watcher(threshold=0.9)")
    assert sides_of("feeder,naive,collector,naive", 4, 2) == ("feeder + collector", "naive")
    assert sides_of("watcher( threshold = 0.9 ),collector", 4, 2) == ("watcher(threshold=0.9)", "collector")


def test_matches_saved_against_a_round_robin_of_the_largest_pairing():
    assert matches_saved({"a": 10, "b": 10, "c": 40, "d": 40}) == (100, 160)
    record = {"until_ci": {"metric": "sign", "cells": {"a": {"matches": 10}, "b": {"matches": 30}}}}
    assert recorded_savings(record) == (40, 60)
    assert recorded_savings({"until_ci": {"metric": "pair0.win_rate", "cells": {"a": {"matches": 10}}}}) is None
    assert recorded_savings({}) is None


def _adaptive(strategies, matches, cap, resolution, output):
    data = tournament_data(strategies, matches=matches, output=str(output))
    data["sweep"].update({"until_metric": "sign", "until_ci": resolution, "max_matches": cap})
    return spec_from_mapping(data)


def test_a_sweep_that_is_not_a_round_robin_is_refused(tmp_path):
    data = tournament_data(["collector", "naive"], matches=2, output=str(tmp_path / "t"))
    data["axes"]["lineup"] = ["collector,naive"]  # one seating only
    data["sweep"].update({"until_metric": "sign", "until_ci": 0.1})
    with pytest.raises(ConfigError, match="sweep.until_metric = 'sign': lineups of collector and naive: an "
                                          "adaptive round robin plays every pairing in both seatings"):
        spec_from_mapping(data)
    assert _adaptive(["collector", "naive"], 2, 8, 0.1, tmp_path / "u").until_metric == "sign"


def test_an_adaptive_round_robin_reaches_the_full_round_robins_ranking_with_fewer_matches(tmp_path):
    """random, naive and collector, 6 matches a seating to start, at most 40: the pairings against random settle
    by their sign after a round or two, collector against naive plays on. The full round robin plays 40 a seating
    everywhere, on the same seeds (the adaptive run's replicates are its first ones): the same response graph on
    every pairing the adaptive run settled by sign, the same Nash-averaging order, with fewer matches."""
    from kemps_sim.metagame import nash_averaging, payoff_table, response_graph
    from kemps_sim.sweep import load_results, run_sweep
    from kemps_sim.sweep.cells import plan_cells

    strategies = ["random", "naive", "collector"]
    spec = _adaptive(strategies, 6, 40, 0.05, tmp_path / "adaptive")
    adaptive = run_sweep(spec, workers=1, progress=False)
    assert adaptive.complete and not adaptive.failures
    whys = {target.why for target in adaptive.targets}
    assert "sign" in whys and whys <= {"sign", "tie", "cap"}
    played, round_robin = matches_saved({target.cell: target.matches for target in adaptive.targets})
    assert played == adaptive.planned < round_robin == 6 * 40
    full = run_sweep(spec_from_mapping(tournament_data(strategies, matches=40, output=str(tmp_path / "full"))),
                     workers=1, progress=False)
    assert full.planned == round_robin
    tables = [payoff_table(load_results(run.folder, tables=["pairs"])["pairs"]) for run in (adaptive, full)]
    names = list(tables[0].strategies)
    assert names == list(tables[1].strategies)
    lineups = {plan.cell.id: plan.lineup for plan in plan_cells(spec)}
    by_sign = {tuple(sorted(names.index(side) for side in lineups[target.cell].split(",")))
               for target in adaptive.targets if target.why == "sign"}
    graphs = [set(response_graph(table.matrix)) for table in tables]
    assert by_sign and all(({(i, j), (j, i)} & graphs[0]) == ({(i, j), (j, i)} & graphs[1]) for i, j in by_sign)
    orders = [list(np.argsort(-nash_averaging(table.matrix).ratings, kind="stable")) for table in tables]
    assert orders[0] == orders[1]
