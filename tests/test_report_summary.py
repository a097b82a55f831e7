"""The summary that ``kemps-sim sweep`` and ``kemps-sim report`` print: a table and legend that fit a terminal of 100
columns and explain every column, ending with the answer to the question of the spec's ``[compare]`` table, worked
out from only the tables its metric needs."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from kemps_sim import stats
from kemps_sim.cli import main
from kemps_sim.report import tables_for
from kemps_sim.stats.summary import CALLS_HEADER, LABELS, format_summary, group_label, summary_legend
from kemps_sim.sweep import load_results, run_sweep, spec_from_mapping
from tests.sweeps import quick_data, toml_text

QUESTION = {"question": "Does Double Kemps change who wins?", "by": "rules.double_kemps", "a": True, "b": False}


@pytest.fixture(scope="module")
def asked(tmp_path_factory):
    """A quick sweep whose spec asks whether Double Kemps changes who wins."""
    folder = tmp_path_factory.mktemp("asked") / "sweep"
    data = {**quick_data(folder, matches=6), "compare": QUESTION}
    run_sweep(spec_from_mapping(data), workers=1, progress=False)
    return folder


def _table_and_legend(out: str) -> tuple[list[str], list[str]]:
    """The printed table's lines (up to the pairs line) and the legend's (up to the counts line)."""
    lines = out.splitlines()
    pairs = next(i for i, line in enumerate(lines) if line.startswith("pairs: "))
    counts = next(i for i, line in enumerate(lines) if re.match(r"\d+ matches; table written to", line))
    return lines[:pairs], lines[pairs + 1:counts + 1]


def _headers(table: list[str]) -> list[list[str]]:
    """Each block's column labels (a block's first line follows a blank line)."""
    return [line.split() for i, line in enumerate(table) if line and (i == 0 or not table[i - 1])]


def test_the_summary_fits_100_columns_and_its_legend_explains_every_column(asked, capsys):
    assert main(["report", str(asked)]) == 0
    out = capsys.readouterr().out
    table, legend = _table_and_legend(out)
    assert max(len(line) for line in table + legend) <= 100
    headers = _headers(table)
    assert len(headers) >= 2  # the columns do not fit one block of 100
    assert all(block[:2] == ["double_kemps", "observer.d_fixated"] for block in headers)
    labels = list(dict.fromkeys(label for block in headers for label in block))
    assert {"matches", "failures", "rounds", "pair0_win_rate", "pair1_win_rate", "K_prec", CALLS_HEADER,
            "p0_rounds_won"} <= set(labels)
    explained = " ".join(" ".join(legend).split())
    for label in labels:  # every label, word for word, before a colon or listed with others before one
        assert re.search(rf"(^|[\s,=(])({re.escape(label)})(,| =|:| \(CSV)", explained), label
    assert "one row per double_kemps = rules.double_kemps, observer.d_fixated = profile.observer.d_fixated" in \
        explained
    assert "rounds (CSV: rounds_per_match): mean rounds per match" in explained
    assert "matches: matches played failures: of them, matches that ended in an agent error or a crash" in explained
    assert "intervals are 95% confidence intervals" in explained
    # the CSV keeps the full names
    summary = pd.read_csv(asked / "summary.csv")
    assert {"rounds_per_match", "kemps_precision", "kemps_right_calls", "pair0_rounds_won"} <= set(summary.columns)


def test_the_legend_says_letters_are_penalties_and_names_every_renamed_column():
    summary = pd.DataFrame({"cell": ["a"], "matches": [3], "rounds_per_match": [7.0], "pair0_win_rate": [0.5],
                            "pair0_win_rate_ci_low": [0.2], "pair0_win_rate_ci_high": [0.8],
                            "kemps_precision": [0.9], "four_to_call_median": [np.nan], "pair0_letters": [3.5],
                            "ci_level": [0.9]})
    legend = summary_legend(summary)
    assert legend[:2] == ["one row per cell", "matches: matches played"] and max(map(len, legend)) <= 100
    explained = " ".join(" ".join(legend).split())
    assert "p0_letters (CSV: pair0_letters): pair 0's mean letters per match (letters scoring); letters are " \
           "penalties, fewer is better" in explained
    assert "its 90% Wilson interval in brackets" in explained and "failures" not in explained
    text = format_summary(summary)
    assert text.splitlines()[0].split() == ["cell", "matches", "rounds", "pair0_win_rate", "K_prec", "t_call",
                                            "p0_letters"]
    assert "0.50 [0.20, 0.80]" in text and text.splitlines()[1].split()[-2] == "-"  # no call: nothing measured
    for name, label in LABELS.items():
        assert " " not in label and len(label) < len(name)


def test_wide_groups_are_numbered_and_labels_keep_whose_parameter_it_is():
    assert group_label("rules.double_kemps") == "double_kemps"
    assert group_label("profile.observer.d_fixated") == "observer.d_fixated"
    assert group_label("pair1.agent.caution") == "pair1.caution"
    assert group_label("player0.profile.reach.median") == "player0.reach.median"
    assert group_label("lineup") == "lineup"
    assert group_label("rules.sweep_time", ["rules.sweep_time", "engine.sweep_time"]) == "rules.sweep_time"
    groups = {f"pair{p}.profile.observer.some_long_parameter_name": [0.5, 1.5] for p in range(3)}
    rows = {"matches": [10, 10], "failures": [0, 1], "rounds_per_match": [7.0, 6.5]}
    for p in range(3):
        rows.update({f"pair{p}_win_rate": [0.3, 0.4], f"pair{p}_win_rate_ci_low": [0.1, 0.2],
                     f"pair{p}_win_rate_ci_high": [0.5, 0.6]})
    summary = pd.DataFrame({**groups, **rows, "ci_level": [0.95, 0.95]})
    text = format_summary(summary)
    blocks = text.split("\n\n")
    assert max(len(line) for line in text.splitlines()) <= 100
    assert all(block.splitlines()[0].split()[0] == "#" for block in blocks)
    assert [block.splitlines()[1].split()[0] for block in blocks] == ["1"] * len(blocks)
    keyed = " ".join(block.splitlines()[0] for block in blocks[:2])
    assert all(f"pair{p}.observer.some_long_parameter_name" in keyed for p in range(3))
    assert len(format_summary(summary, width=None).split("\n\n")) == 1


def test_the_summary_ends_with_the_answer_to_the_specs_question(asked, capsys, monkeypatch):
    import kemps_sim.sweep as sweep

    asked_for = []
    original = sweep.load_results

    def recording(folder, tables=None, skip_damaged=False):
        asked_for.append(tables)
        return original(folder, tables=tables, skip_damaged=skip_damaged)

    monkeypatch.setattr(sweep, "load_results", recording)
    assert main(["report", str(asked), "--confidence", "0.9"]) == 0
    out = capsys.readouterr().out
    # the summary is streamed, and the answer loads the two tables a win rate needs
    assert asked_for == [("matches", "pairs")]
    monkeypatch.undo()
    results = load_results(asked, tables=("matches", "pairs"))
    # pooled over the other axis: a match is paired with its twin, same seed and same other swept parameters
    outcome = stats.compare(dict(results.tables), "win_rate", True, False, by="rules.double_kemps",
                            confidence=0.9, pair=0, within=["profile.observer.d_fixated"])
    assert outcome.paired and outcome.n_pairs == 12 and outcome.unit == "matches"
    expected = stats.comparison_sentence(outcome, by="rules.double_kemps", who="pair 0 (collector)")
    tail = out.rstrip("\n").split("\n\n")[-1].splitlines()
    assert tail[0] == "Does Double Kemps change who wins?"
    assert " ".join(tail[1:]) == expected and max(map(len, tail)) <= 100
    assert "90% CI" in expected and "12 pairs of matches" in expected


def test_tables_a_metric_needs():
    assert tables_for("win_rate") == ("matches", "pairs") and tables_for("rounds_won") == ("matches", "pairs")
    assert tables_for("kemps_precision") == ("matches", "pairs", "calls")
    assert tables_for("four_to_call_median") == ("matches", "pairs", "calls")
    assert tables_for("conversion_stolen") == ("matches", "pairs", "fours")


def test_the_sweep_command_ends_with_the_answer(tmp_path, capsys):
    data = {**quick_data(tmp_path / "out", matches=3), "compare": {**QUESTION, "metric": "kemps_precision"}}
    (tmp_path / "spec.toml").write_text(toml_text(data))
    assert main(["sweep", str(tmp_path / "spec.toml"), "--serial", "--no-progress"]) == 0
    tail = capsys.readouterr().out.rstrip("\n").split("\n\n")[-1].splitlines()
    assert tail[0] == "Does Double Kemps change who wins?"
    assert tail[1].startswith("kemps_precision is ") and "with rules.double_kemps = True" in tail[1]


def test_a_krepet_sweep_answers_with_a_players_win_rate(tmp_path, capsys):
    data = {"sweep": {"name": "krepet", "game": "krepet", "seed": 11, "matches": 3, "output": str(tmp_path / "k")},
            "base": {"rules": "wikibooks", "lineup": "greedy(lapse=0.2),lookout"},
            "axes": {"player1.agent.attention": [0.1, 0.9]},
            "compare": {"question": "Does a closer lookout win more?", "by": "player1.agent.attention", "a": 0.9,
                        "b": 0.1, "pair": 1}}
    run_sweep(spec_from_mapping(data), workers=1, progress=False)
    assert main(["report", str(tmp_path / "k")]) == 0
    out = capsys.readouterr().out
    tail = out.rstrip("\n").split("\n\n")[-1].splitlines()
    assert tail[0] == "Does a closer lookout win more?"
    assert tail[1].startswith("win_rate of player 1 is ") and "with player1.agent.attention = 0.9" in tail[1]
    table = out.split("\n\n")[0]
    assert max(len(line) for line in out.splitlines()[:out.splitlines().index("")]) <= 100
    assert table.splitlines()[0].split()[0] == "player1.attention"
