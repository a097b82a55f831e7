"""Every table of a results folder goes out as CSV with the same columns, and reads back to the same values as the
Parquet tables; nothing half-written is left when the export fails."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from kemps_sim.cli import main
from kemps_sim.errors import ConfigError
from kemps_sim.sweep import export_csv, load_results, run_sweep, spec_from_mapping
from tests.sweeps import quick_spec


@pytest.fixture(scope="module")
def kemps_folder(tmp_path_factory):
    """A Kemps sweep that stored its events too: two cells of two matches."""
    out = tmp_path_factory.mktemp("export") / "kemps"
    run_sweep(quick_spec(out, matches=2, axes={"rules.double_kemps": [False, True]}, events=True), workers=1,
              progress=False)
    return out


@pytest.fixture(scope="module")
def krepet_folder(tmp_path_factory):
    """A Krepet sweep of two games, with its misses and moves tables."""
    out = tmp_path_factory.mktemp("export") / "krepet"
    run_sweep(spec_from_mapping({
        "sweep": {"name": "krepet", "game": "krepet", "seed": 3, "matches": 2, "output": str(out)},
        "base": {"lineup": "greedy(lapse=0.2),lookout", "engine": {"max_moves": 1500}}, "axes": {}}),
        workers=1, progress=False)
    return out


#: pandas 3 reads floats back bit for bit by default; pandas 2 needs to be asked (the option is deprecated in 3).
_EXACT = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}


def _plain(value):
    """A cell as CSV can hold it: missing values and empty text are one empty field, everything else its text."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
        return ""
    return str(value)


def assert_round_trip(table: pd.DataFrame, path) -> None:
    """The CSV holds the table's columns in order and, read back with pandas, the same values: numbers bit for bit,
    true/false columns as booleans, and text (or text with gaps) alike once a missing value and empty text are
    taken as the one empty field CSV has for both."""
    back = pd.read_csv(path, **_EXACT)
    assert list(back.columns) == list(table.columns)
    assert len(back) == len(table)
    for column in table.columns:
        ours, theirs = table[column], back[column]
        if pd.api.types.is_bool_dtype(ours):
            assert pd.api.types.is_bool_dtype(theirs), column
            assert ours.tolist() == theirs.tolist(), column
        elif pd.api.types.is_numeric_dtype(ours):
            assert pd.api.types.is_numeric_dtype(theirs), column
            assert np.array_equal(ours.to_numpy(float), theirs.to_numpy(float), equal_nan=True), column
            if pd.api.types.is_integer_dtype(ours):
                assert pd.api.types.is_integer_dtype(theirs), column
        else:
            assert ours.map(_plain).tolist() == theirs.map(_plain).tolist(), column


def test_every_kemps_table_round_trips_through_csv(kemps_folder, tmp_path):
    results = load_results(kemps_folder)
    written = export_csv(kemps_folder, tmp_path / "csv")
    assert [p.name for p in written] == [f"{name}.csv" for name in results.tables]
    assert {p.stem for p in written} == {"matches", "pairs", "rounds", "calls", "fours", "events"}
    for path in written:
        assert_round_trip(results[path.stem], path)
    assert sorted(p.name for p in (tmp_path / "csv").iterdir()) == sorted(p.name for p in written)  # no temp file


def test_the_krepet_tables_round_trip_too(krepet_folder, tmp_path):
    results = load_results(krepet_folder)
    written = export_csv(krepet_folder, tmp_path / "out")
    assert {p.stem for p in written} == {"matches", "pairs", "calls", "misses", "moves"}
    for path in written:
        assert_round_trip(results[path.stem], path)


def test_the_command_exports_to_the_folder_csv_by_default_or_where_asked(kemps_folder, tmp_path, capsys):
    assert main(["report", str(kemps_folder), "--export", "csv"]) == 0
    out = capsys.readouterr().out
    assert f"6 tables written as CSV to {kemps_folder / 'csv'}: pairs.csv, rounds.csv" in out
    assert (kemps_folder / "csv" / "matches.csv").is_file()
    assert load_results(kemps_folder)["matches"].shape[0] == 4  # the extra folder does not disturb the results
    target = tmp_path / "elsewhere" / "tables"
    assert main(["report", str(kemps_folder), "--export", "csv", "--export-to", str(target)]) == 0
    assert sorted(p.name for p in target.iterdir()) == sorted(p.name for p in (kemps_folder / "csv").iterdir())


def test_a_failed_export_leaves_nothing_half_written(kemps_folder, tmp_path, monkeypatch):
    target = tmp_path / "csv"
    target.mkdir()
    (target / "matches.csv").write_text("old\n", encoding="utf-8")
    calls = []

    def fail_on_third(self, path, *args, **kwargs):
        calls.append(path)
        if len(calls) == 3:
            raise OSError("disk full")
        return original(self, path, *args, **kwargs)

    original = pd.DataFrame.to_csv
    monkeypatch.setattr(pd.DataFrame, "to_csv", fail_on_third)
    with pytest.raises(OSError, match="disk full"):
        export_csv(kemps_folder, target)
    assert [p.name for p in target.iterdir()] == ["matches.csv"]  # no new file, no temporary file
    assert (target / "matches.csv").read_text(encoding="utf-8") == "old\n"


def test_bad_exports_are_one_line_usage_errors(kemps_folder, tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    with pytest.raises(ConfigError, match="exists and is not a folder"):
        export_csv(kemps_folder, afile)
    with pytest.raises(ConfigError, match=r"table 'pair': unknown \(did you mean pairs\?\)"):
        export_csv(kemps_folder, tmp_path / "x", tables=["pair"])
    assert main(["report", str(tmp_path / "nothing"), "--export", "csv"]) == 2
    assert "no manifest.json" in capsys.readouterr().err
    assert main(["report", str(kemps_folder), "--export-to", str(tmp_path / "x")]) == 2
    assert "--export-to" in capsys.readouterr().err and not (tmp_path / "x").exists()
