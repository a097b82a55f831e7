"""``kemps-sim report``: the summary follows the scoring rule, and ``--compare`` names its groups, design and level,
prints p-values that are never 0, and refuses a metric the scoring rule lacks."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from kemps_sim.cli import main
from kemps_sim.stats import _intervals, format_p
from kemps_sim.stats._difference_tests import _Pooled
from kemps_sim.sweep import load_results, run_sweep
from tests.sweeps import quick_spec

AXES = {"rules.double_kemps": [False, True]}


@pytest.fixture(scope="module")
def paired_folder(tmp_path_factory):
    """A grid sweep under rounds-won scoring; grids use common random numbers unless told otherwise."""
    folder = tmp_path_factory.mktemp("report") / "paired"
    run_sweep(quick_spec(folder, matches=12, axes=AXES), workers=1, progress=False)
    return folder


@pytest.fixture(scope="module")
def unpaired_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report") / "unpaired"
    run_sweep(quick_spec(folder, matches=12, axes=AXES, common_random_numbers=False), workers=1, progress=False)
    return folder


def _p_values(text: str) -> list[str]:
    return re.findall(r"p (?:=|<) \S+", text)


def test_the_summary_shows_the_score_of_the_scoring_rule_only(paired_folder, tmp_path, capsys):
    assert main(["report", str(paired_folder), "--csv", str(tmp_path / "s.csv")]) == 0
    out = capsys.readouterr().out
    table = out[:out.index("pairs: ")]
    headers = " ".join(block.splitlines()[0] for block in table.split("\n\n"))
    assert "p0_rounds_won" in headers and "letters" not in headers and "points" not in headers
    assert "pair0_win_rate" in headers and "K_prec" in headers
    assert "p0_rounds_won (CSV: pair0_rounds_won): pair 0's mean rounds won per match" in out
    assert "intervals are 95% confidence intervals" in out
    summary = pd.read_csv(tmp_path / "s.csv")
    assert "pair0_rounds_won" in summary and not {"pair0_letters", "pair0_points"} & set(summary)
    assert (summary["ci_level"] == 0.95).all()


def test_compare_pairs_common_random_numbers_and_names_groups_and_level(paired_folder, capsys):
    seeds = load_results(paired_folder).matches.groupby("rules.double_kemps")["seed"].apply(sorted)
    assert seeds[False] == seeds[True]  # common random numbers: replicate r plays the same seed in both cells
    assert main(["report", str(paired_folder), "--compare", "False", "True", "--metric", "win_rate",
                 "--confidence", "0.9"]) == 0
    out = capsys.readouterr().out
    assert "pair0_win_rate, pair1_win_rate: share of matches pair N won (co-wins count), its 90% Wilson" in out
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("win_rate of pair 0"))
    block = lines[start:next(i for i in range(start, len(lines)) if "p = " in lines[i] or "p < " in lines[i]) + 1]
    assert max(map(len, block)) <= 100  # wrapped to 100 columns
    text = " ".join(" ".join(block).split())
    assert "by rules.double_kemps: A = False vs B = True" in text
    assert "(paired: 12 pairs of matches, each pair with the same seed)" in text
    assert "A (False): " in text and "B (True): " in text and "90% CI [" in text
    assert len(_p_values(text)) == 1 and not re.search(r"p = 0(?![.\d])", text)


def test_compare_is_unpaired_when_cells_play_their_own_seeds(unpaired_folder, capsys):
    assert main(["report", str(unpaired_folder), "--compare", "False", "True", "--metric",
                 "kemps_precision"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the comparison is wrapped to 100 columns
    assert "unpaired: the groups play different matches, each match a unit" in out
    calls = load_results(unpaired_folder).calls
    kemps = calls[calls["call"].isin(["kemps", "double_kemps"])]
    with_calls = kemps.groupby("rules.double_kemps")["seed"].nunique()  # the matches the Kemps calls came from
    assert f"Miettinen-Nurminen score test on {with_calls[False]} + {with_calls[True]} matches" in out
    assert "Kemps calls in" in out and "95% CI [" in out


@pytest.mark.parametrize("metric", ["letters", "points"])
def test_compare_refuses_a_score_the_scoring_rule_lacks(paired_folder, metric, capsys):
    assert main(["report", str(paired_folder), "--compare", "False", "True", "--metric", metric]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert f"metric {metric!r} is not scored under scoring = rounds_won" in err
    assert "allowed under rounds_won: win_rate, kemps_precision" in err and "rounds_won" in err
    assert captured.out == ""  # refused before the summary is printed or written


def test_compare_of_rounds_won_and_a_missing_pair(paired_folder, capsys):
    assert main(["report", str(paired_folder), "--compare", "False", "True", "--metric", "rounds_won",
                 "--pair", "1"]) == 0
    assert "rounds_won of pair 1 (watcher) by rules.double_kemps" in capsys.readouterr().out
    assert main(["report", str(paired_folder), "--compare", "False", "True", "--pair", "3"]) == 2
    assert "pair 3: no such pair" in capsys.readouterr().err


def test_p_values_below_the_floor_print_as_a_bound():
    assert format_p(0.0) == "p < 1e-6" and format_p(2e-9) == "p < 1e-6" and format_p(0.01234) == "p = 0.012"


def test_pooled_medians_match_numpy_on_concatenated_clusters():
    rng = np.random.default_rng(1)
    clusters = [np.zeros(0)] + [rng.exponential(1.0, rng.integers(0, 5)) for _ in range(11)]
    pool = _Pooled(clusters)
    assert np.isnan(pool.median(np.array([0, 0])))  # only the empty cluster: no values, no median
    chosen = rng.integers(0, 12, size=(50, 12))
    expected = []
    for row in chosen:
        values = np.concatenate([clusters[i] for i in row])
        expected.append(np.median(values) if len(values) else _intervals.NAN)
    np.testing.assert_allclose(pool.medians(chosen), expected)


def test_a_confidence_level_outside_zero_to_one_is_refused_in_one_line(paired_folder, capsys):
    assert main(["report", str(paired_folder), "--confidence", "95"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--confidence 95.0: must be strictly between 0 and 1" in err


def test_sensitivity_indices_of_a_sobol_sweep_are_printed_written_and_drawn(tmp_path, capsys):
    from kemps_sim.sweep import spec_from_mapping

    folder = tmp_path / "sobol"
    spec = spec_from_mapping({
        "sweep": {"name": "sobol", "seed": 4, "matches": 2, "output": str(folder), "design": "sobol", "samples": 4},
        "base": {"rules": "standard", "lineup": "collector,watcher"},
        "axes": {"profile.observer.d_fixated": {"low": 0.5, "high": 3.0},
                 "profile.fidget_scale": {"low": 0.5, "high": 4.0}}})
    run_sweep(spec, workers=1, progress=False)
    capsys.readouterr()
    assert main(["report", str(folder), "--sensitivity", "duration", "--plots"]) == 0
    out = capsys.readouterr().out
    assert "Sobol' indices of duration" in out and "95% bootstrap interval" in out
    # four base samples cannot give readable indices: the report says why, one line each, and the N it needs
    block = out[out.index("warning: these indices do not mean anything yet:"):out.index("indices written to")]
    assert max(map(len, block.splitlines())) <= 100  # each problem wrapped, its own lines indented under it
    warning = [" ".join(item.split()) for item in re.split(r"\n  (?! )", block)]  # one item per problem
    assert warning[1].startswith("S1 of ") or warning[1].startswith("ST of ")
    assert any(line.startswith("N = 4 is too small: half-widths shrink like 1/sqrt(N)") and "samples = " in line
               for line in warning)
    indices = pd.read_csv(folder / "sensitivity.csv")
    assert list(indices["parameter"]) == ["profile.observer.d_fixated", "profile.fidget_scale"]
    assert {"S1", "S1_conf", "ST", "ST_conf"} <= set(indices.columns)
    assert (folder / "sensitivity.png").stat().st_size > 10_000


def test_sensitivity_needs_a_sensitivity_design(paired_folder, capsys):
    assert main(["report", str(paired_folder), "--sensitivity", "pair0_won"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "design is 'grid'" in err and "sobol" in err
