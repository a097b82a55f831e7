"""The metric registry: every metric is defined once, in :mod:`kemps_sim.metrics`, and every layer that names
metrics (the summary's columns, labels and legend, ``report --metric``, a spec's ``[compare]`` and ``until_metric``,
``--until-ci``, the comparison machinery, the figures' captions) lists exactly the registry's names for its role;
each estimator gives what its closed form, or the function it stood for, gives on a fixed table."""

from __future__ import annotations

import math
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from kemps_sim import metrics, stats
from kemps_sim.cli import main
from kemps_sim.errors import ConfigError
from kemps_sim.games import BUILT_IN, game_names
from kemps_sim.metrics import ESTIMATORS, estimator, every, get, names, target_names
from kemps_sim.plots.labels import METRIC_LABELS, METRICS
from kemps_sim.report import comparison as report_comparison
from kemps_sim.results import ACCURACY_METRICS, COMPARE_METRICS, FATES
from kemps_sim.stats import _compared
from kemps_sim.stats.summary import CALLS_HEADER, LABELS, summary_legend
from kemps_sim.sweep import comparison as spec_comparison
from kemps_sim.sweep import targets
from kemps_sim.sweep.spec import COMPARE_KEYS, SWEEP_KEYS
from tests.sweeps import quick_data, quick_spec

RNG = np.random.default_rng(11)


def _tables(scoring: str = "letters") -> dict[str, pd.DataFrame]:
    """A small fixed set of a sweep's tables: two cells of six matches, two pairs, calls and fours."""
    matches, pairs, calls, fours = [], [], [], []
    for cell in ("a", "b"):
        for replicate in range(6):
            seed = 100 + replicate
            matches.append({"cell": cell, "replicate": replicate, "seed": seed,
                            "end_reason": "agent_error" if replicate == 5 and cell == "b" else "match_over"})
            for pair in (0, 1):
                pairs.append({"cell": cell, "replicate": replicate, "seed": seed, "pair": pair, "agents": f"p{pair}",
                              "won": bool((replicate + pair) % 2), "rounds": 3 + replicate % 2,
                              "letters": (replicate + pair) % 3, "points": 0, "rounds_won": 1 + pair})
            for i in range(3):
                calls.append({"cell": cell, "replicate": replicate, "seed": seed,
                              "call": ("kemps", "stop_kemps", "double_kemps")[(i + replicate) % 3],
                              "right": bool((i + replicate) % 2), "four_to_call": 1.0 + i + replicate / 10,
                              "four_to_signal": 0.5, "signal_to_call": 0.5 + i})
            for i in range(2):
                fours.append({"cell": cell, "replicate": replicate, "seed": seed, "fate": FATES[(i + replicate) % 4]})
    tables = {"matches": pd.DataFrame(matches), "pairs": pd.DataFrame(pairs), "calls": pd.DataFrame(calls),
              "fours": pd.DataFrame(fours)}
    return {name: table.assign(**{"rules.scoring": scoring}) for name, table in tables.items()}


# One place for the names --------------------------------------------------------------------------------------
def test_the_summary_columns_are_the_registrys_summary_metrics_in_order():
    summary = stats.summary_table(_tables(), by=("cell",))
    expected = ["cell"]
    for metric in every("kemps", "summary"):
        if metric.score_of not in (None, "letters"):
            continue  # a score shows only where some group plays under its rule
        for column in metric.columns_for((0, 1)):
            expected += [column, f"{column}_ci_low", f"{column}_ci_high"] if metric.summary_ci else [column]
    assert list(summary.columns) == [*expected, "ci_level"]
    assert {m.column: m.label for m in every("kemps", "summary") if m.label != m.column
                      and "N_" not in m.column} == LABELS
    assert metrics.GROUP_LABELS["calls"] == CALLS_HEADER


def test_the_legend_explains_every_summary_column_in_the_registrys_words():
    summary = stats.summary_table(_tables(), by=("cell",))
    legend = " ".join(summary_legend(summary, width=10_000))
    for metric in every("kemps", "summary"):
        if metric.score_of in (None, "letters"):
            assert metrics.legend_text(metric) in legend, metric.name
    assert "its 95% Wilson interval in brackets" in legend


def test_the_krepet_summary_is_the_registrys_krepet_metrics_made_by_their_estimators():
    """Every column of a Krepet summary is a registry metric of Krepet's (one player's taken player by player), its
    legend the registry's words, and each value what the metric's estimator makes of the rows."""
    from kemps_sim.krepet import stats as krepet_stats
    from kemps_sim.krepet.realtime import play_krepet
    from kemps_sim.krepet.records import calls_rows, game_row, misses_rows, sides_rows

    results = [play_krepet("wikibooks", "greedy(lapse=0.3),lookout", seed=seed) for seed in range(6)]
    tables = {name: pd.DataFrame([row for result in results for row in rows(result)]).assign(cell="c")
              for name, rows in (("pairs", sides_rows), ("misses", misses_rows), ("calls", calls_rows))}
    tables["matches"] = pd.DataFrame([game_row(result) for result in results]).assign(cell="c")
    summary = krepet_stats.krepet_summary(tables, by=("cell",))
    columns = [c for c in summary.columns if c not in ("cell", "ci_level") and not c.endswith(("_ci_low", "_ci_high"))]
    mine = every("krepet", "summary")
    assert [m.name for m in mine][:2] == ["games", "win_rate"] and all(m.applies_to("krepet") for m in mine)
    assert sorted(columns) == sorted(c for m in mine for c in m.columns_for((0, 1), unit="player"))
    for metric in mine:
        assert metrics.legend_text(metric, "player", "games") in krepet_stats.LEGEND, metric.name
    row = summary.iloc[0]
    won = int(sum(result.winner == 1 for result in results))
    assert row["player1_win_rate"] == estimator("win_rate")(won, 6, 0.95).value == won / 6
    caught = tables["misses"][tables["misses"]["player"] == 0]
    share = estimator("caught_share")(caught["caught"].astype(bool).to_numpy(), caught["seed"].to_numpy(), 0.95)
    assert (row["player0_caught_share_ci_low"], row["player0_caught_share_ci_high"]) == (share.ci_low, share.ci_high)
    with pytest.raises(ConfigError, match=r"^--by 'agents': a Krepet summary's rows are groups of games"):
        krepet_stats.krepet_summary(tables, by=("agents",))


def test_the_streamed_summary_reads_the_columns_of_the_registrys_summary_metrics():
    from kemps_sim.stats.streamed import COLUMNS

    for metric in every("kemps", "summary"):
        assert set(metric.columns) <= set(COLUMNS[metric.tables[0]]), metric.name


def test_every_list_of_metric_names_is_the_registrys_for_its_role():
    assert COMPARE_METRICS == stats.METRICS == names(role="compare") == tuple(_compared._metrics(0))
    assert set(_compared._rows(0)) == set(names(role="compare"))
    assert ACCURACY_METRICS == stats.ACCURACY_METRICS == METRICS == names(role="accuracy")
    assert tuple(f"{m}" for m in names(role="accuracy")) == ACCURACY_METRICS
    assert [f"conversion_{fate}" for fate in FATES] == [m for m in names(role="accuracy") if m.startswith("conv")]
    assert {m.name: m.figure_caption for m in every(role="accuracy")} == METRIC_LABELS
    assert (*target_names(), targets.SIGN) == targets.TARGET_METRICS  # and the sign of a round robin's pairings
    assert target_names() == ("win_rate", "pairN.win_rate", *ACCURACY_METRICS)
    assert tuple(m.name for m in every(role="compare") if m.per_side) == report_comparison.PAIR_METRICS
    assert spec_comparison.SCORED_ONLY_UNDER == {"letters": "letters", "points": "points"}
    assert stats.metrics_under("rounds_won") == tuple(m for m in names(role="compare") if m not in ("letters",
                                                                                                    "points"))
    assert SWEEP_KEYS["until_metric"].startswith("the metric until_ci narrows, one of " + ", ".join(target_names()))
    assert COMPARE_KEYS["metric"].startswith("one of " + ", ".join(names(role="compare")))
    for metric in names(role="compare"):
        assert report_comparison.tables_for(metric) == tuple(dict.fromkeys(("matches", "pairs", *get(metric).tables)))


def test_a_games_metrics_are_those_the_registry_says_apply_to_it():
    assert set(metrics.KNOWN_GAMES) == set(BUILT_IN) and set(metrics.KNOWN_GAMES) <= set(game_names())
    others = [name for name in BUILT_IN if name != "kemps"]
    for name in others:
        assert names(name, "compare") == ("win_rate",) and target_names(name) == ("win_rate", "pairN.win_rate")
    assert names("kemps", "compare") == names(role="compare")


def test_report_metric_is_checked_against_the_registry(capsys):
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    assert ", ".join(names(role="compare")) in " ".join(capsys.readouterr().out.split())
    assert main(["report", "nowhere", "--metric", "winrate"]) != 0
    assert capsys.readouterr().err.strip() == ("kemps-sim report: error: --metric winrate: unknown metric (did you "
                                               "mean win_rate?); allowed: " + ", ".join(names(role="compare")))


def test_a_krepet_sweep_refuses_a_target_metric_that_is_not_measured_there(tmp_path):
    other = next(name for name in BUILT_IN if name != "kemps")
    assert targets.metric_problem("kemps_precision", game=other) == (
        "kemps_precision is not measured in a Krepet sweep; its target metrics: win_rate, pairN.win_rate")
    assert targets.metric_problem("pair1.win_rate", pairs=2, game=other) is None
    assert targets.metric_problem("kemps_precision", game="kemps") is None
    data = {"sweep": {"name": "k", "game": other, "seed": 1, "matches": 2, "output": str(tmp_path / "o"),
                      "until_ci": 0.1, "until_metric": "kemps_precision"},
            "base": {}, "axes": {}}
    from kemps_sim.sweep import spec_from_mapping

    with pytest.raises(ConfigError, match=r"sweep.until_metric = 'kemps_precision': kemps_precision is not measured "
                                          r"in a Krepet sweep; its target metrics: win_rate, pairN.win_rate"):
        spec_from_mapping(data)
    assert spec_from_mapping({**data, "sweep": {**data["sweep"], "until_metric": "win_rate"}}).until_metric \
        == "pair0.win_rate"


def test_target_metrics_keep_their_spelling_and_tables():
    assert targets.canonical_metric("win_rate") == "pair0.win_rate"
    assert targets.canonical_metric("kemps_precision") == "kemps_precision"
    assert targets.metric_tables("pair1.win_rate") == ("pairs",) == targets.metric_tables("win_rate")
    assert targets.metric_tables("conversion_broken") == ("calls", "fours") == targets.metric_tables("stop_precision")
    assert targets.metric_problem("pairN.win_rate") is not None  # the placeholder is not a metric


def test_a_metric_is_refused_unless_it_is_whole():
    base = get("win_rate")
    for change, problem in (({"direction": "up"}, "direction = 'up'"), ({"roles": ("plot",)}, "role 'plot' unknown"),
                            ({"scoring": "goals"}, "scoring = 'goals'"), ({"name": "Win"}, "name must be"),
                            ({"column": None}, "a summary metric needs its column"), ({"games": ()}, "needs at least")):
        with pytest.raises(ConfigError, match=problem):
            replace(base, **change)
    with pytest.raises(ConfigError, match=r"^metric 'winrate': unknown \(did you mean win_rate\?\)"):
        get("winrate")
    with pytest.raises(ConfigError, match=r"^metric 'letters': does not apply to a krepet sweep"):
        get("letters", next(name for name in BUILT_IN if name != "kemps"))
    assert all(metric.estimator in ESTIMATORS for metric in every())


def test_the_registry_loads_no_pandas_numpy_statistics_or_scipy():
    code = ("import sys; import kemps_sim.metrics as m; m.names('kemps', 'compare'); m.estimator('win_rate'); "
            "print(sorted(x for x in ('pandas', 'scipy', 'kemps_sim.stats') if x in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "[]"


# Each estimator against its closed form or the function it stood for ---------------------------------------------
def test_the_wilson_estimator_is_the_closed_form():
    successes, trials, confidence = 7, 20, 0.9
    found = estimator("win_rate")(successes, trials, confidence)
    z = scipy_stats.norm.ppf(0.95)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z / (1 + z * z / trials) * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    assert found.value == pytest.approx(p)
    assert (found.ci_low, found.ci_high) == pytest.approx((centre - half, centre + half), rel=1e-9)


def test_the_win_rate_estimator_gives_what_win_rates_gives():
    tables = _tables()
    rates = stats.win_rates(tables["pairs"], by=("cell",), confidence=0.95)
    for row in rates.to_dict("records"):
        found = estimator("win_rate")(int(row["wins"]), int(row["n"]), 0.95)
        assert (found.value, found.ci_low, found.ci_high) == (row["value"], row["ci_low"], row["ci_high"])


def test_the_clustered_share_estimator_gives_what_call_accuracy_gives():
    tables = _tables()
    accuracy = stats.call_accuracy(tables["calls"], tables["fours"], by=("cell",), confidence=0.95)
    calls = tables["calls"][tables["calls"]["cell"] == "a"]
    chosen = calls["call"].isin(("kemps", "double_kemps")).to_numpy()
    found = estimator("kemps_precision")(calls["right"].to_numpy()[chosen], calls["seed"].to_numpy()[chosen], 0.95)
    row = accuracy[(accuracy["cell"] == "a") & (accuracy["metric"] == "kemps_precision")].iloc[0]
    assert (found.value, found.ci_low, found.ci_high) == pytest.approx((row["value"], row["ci_low"], row["ci_high"]))
    assert found.value == pytest.approx(calls["right"].to_numpy()[chosen].mean())


def test_the_t_mean_estimator_is_the_closed_form():
    values = RNG.normal(2.0, 1.5, size=15)
    found = estimator("letters")(values, 0.95)
    half = scipy_stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / math.sqrt(len(values))
    assert found.value == pytest.approx(values.mean())
    assert (found.ci_low, found.ci_high) == pytest.approx((values.mean() - half, values.mean() + half))


def test_the_median_count_and_mean_estimators_are_their_closed_forms():
    delays = np.array([3.0, np.nan, 1.0, 2.0, 10.0])
    assert estimator("four_to_call_median")(delays) == 2.5
    assert math.isnan(estimator("four_to_call_median")(np.array([np.nan])))
    assert estimator("kemps_right_calls")([True, False, True, 1, 0]) == 3
    assert estimator("rounds_per_match")([3, 4, 5, 4]) == 4.0
    tables = _tables()
    summary = stats.summary_table(tables, by=("cell",))
    a = summary[summary["cell"] == "a"].iloc[0]
    calls = tables["calls"][tables["calls"]["cell"] == "a"]
    right_kemps = calls[calls["call"].isin(("kemps", "double_kemps")) & calls["right"]]
    assert a["four_to_call_median"] == estimator("four_to_call_median")(right_kemps["four_to_call"].to_numpy())
    assert a["kemps_right_calls"] == estimator("kemps_right_calls")(right_kemps["right"])
    pairs = tables["pairs"][(tables["pairs"]["cell"] == "a") & (tables["pairs"]["pair"] == 0)]
    assert a["rounds_per_match"] == estimator("rounds_per_match")(pairs["rounds"].to_numpy())
    assert a["pair0_letters"] == pytest.approx(estimator("letters")(pairs["letters"].to_numpy(), 0.95).value)


# Rows record their scoring rule -----------------------------------------------------------------------------------
def test_every_row_of_the_scored_tables_of_a_kemps_chunk_says_its_scoring_rule(tmp_path):
    from kemps_sim.games import game
    from kemps_sim.sweep import plan_tasks
    from kemps_sim.sweep.chunks import chunk_tables, make_chunks

    tasks, plans = plan_tasks(quick_spec(tmp_path / "x", matches=2, axes={"rules.double_kemps": [False, True]}))
    chunk = next(make_chunks(tasks, plans, 4, events=True))
    tables = chunk_tables(chunk)
    scored = game("kemps").tables().scored
    for name, table in tables.items():
        if name in scored:
            assert list(table.columns).index("rules.scoring") == list(table.columns).index("replicate") + 1, name
            assert set(table["rules.scoring"]) == {"rounds_won"}, name
        else:
            assert "rules.scoring" not in table.columns, name
    # A swept rule is a parameter already, written once.
    data = quick_data(tmp_path / "y", matches=1, axes={"rules.scoring": ["rounds_won"]})
    from kemps_sim.sweep import spec_from_mapping

    tasks, plans = plan_tasks(spec_from_mapping(data))
    matches = chunk_tables(next(make_chunks(tasks, plans, 4, events=False)))["matches"]
    assert list(matches.columns).count("rules.scoring") == 1
    assert set(matches["rules.scoring"]) == {"rounds_won"}


def test_rows_written_before_rows_recorded_their_rule_get_it_from_the_spec(tmp_path):
    from kemps_sim.report import with_scoring
    from kemps_sim.sweep import SweepResults, plan_cells, spec_from_mapping

    data = quick_data(tmp_path / "x", matches=1)
    cells = [plan.cell.id for plan in plan_cells(spec_from_mapping(data))]
    old = {"matches": pd.DataFrame({"cell": cells}), "pairs": pd.DataFrame({"cell": cells, "pair": 0})}
    resumed = {name: table.assign(**{"rules.scoring": ["rounds_won", *[None] * (len(cells) - 1)]})
               for name, table in old.items()}
    for tables in (old, resumed):
        filled = with_scoring(SweepResults(tmp_path, tables, (), {"spec": data}))
        assert all(list(table["rules.scoring"]) == ["rounds_won"] * len(cells) for table in filled.values())
