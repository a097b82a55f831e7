"""``kemps-sim report --by`` writes its grouped table to a file of its own and leaves the sweep's summary.csv as the
sweep wrote it; ``--csv`` still says where the table goes."""

from __future__ import annotations

import pandas as pd
import pytest

from kemps_sim.cli import main
from kemps_sim.report import summary_csv_name
from kemps_sim.sweep import run_sweep
from tests.sweeps import quick_spec

PARAMS = ("rules.double_kemps", "profile.observer.d_fixated")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("files") / "sweep"
    run_sweep(quick_spec(folder, matches=3), workers=1, progress=False)
    return folder


def test_a_grouped_report_keeps_the_sweeps_summary_and_says_where_its_table_went(folder, capsys):
    assert main(["report", str(folder)]) == 0
    assert f"table written to {folder / 'summary.csv'}" in capsys.readouterr().out
    per_cell = (folder / "summary.csv").read_bytes()
    assert len(pd.read_csv(folder / "summary.csv")) == 4  # one row per cell
    assert main(["report", str(folder), "--by", "rules.double_kemps"]) == 0
    out = capsys.readouterr().out
    grouped = folder / "summary_by_rules.double_kemps.csv"
    line = f"table written to {grouped} (summary.csv beside it keeps the sweep's per-cell table)"
    assert line in " ".join(out.split())  # wrapped to fit 100 columns
    assert (folder / "summary.csv").read_bytes() == per_cell
    table = pd.read_csv(grouped)
    assert list(table["rules.double_kemps"]) == [False, True] and list(table["matches"]) == [6, 6]
    assert main(["report", str(folder), "--by", "replicate,cell"]) == 0
    assert len(pd.read_csv(folder / "summary_by_replicate+cell.csv")) == 12
    assert (folder / "summary.csv").read_bytes() == per_cell


def test_csv_still_says_where_the_table_goes(folder, tmp_path, capsys):
    before = (folder / "summary.csv").read_bytes() if (folder / "summary.csv").exists() else None
    target = tmp_path / "mine.csv"
    assert main(["report", str(folder), "--by", "rules.double_kemps", "--csv", str(target)]) == 0
    assert f"table written to {target}" in capsys.readouterr().out
    assert len(pd.read_csv(target)) == 2
    after = (folder / "summary.csv").read_bytes() if (folder / "summary.csv").exists() else None
    assert after == before


def test_grouped_file_names_are_plain_and_distinct_for_any_columns():
    assert summary_csv_name(list(PARAMS), PARAMS) == "summary.csv"
    assert summary_csv_name(["cell"], ()) == "summary.csv"
    assert summary_csv_name(["cell"], PARAMS) == "summary_by_cell.csv"
    assert summary_csv_name(list(reversed(PARAMS)), PARAMS) == (
        "summary_by_profile.observer.d_fixated+rules.double_kemps.csv")
    odd = [["a/b c"], ["a-b-c"], [".."], ["../x"], ["x" * 300], ["é"], ["a", "b"], ["a+b"]]
    names = [summary_csv_name(columns, PARAMS) for columns in odd]
    assert len(set(names)) == len(names)
    for name in names:
        assert name.startswith("summary_by_") and name.endswith(".csv") and len(name.encode()) < 160
        assert "/" not in name and "\\" not in name and " " not in name and ".." not in name[len("summary_by_"):]
