"""Verified result chunks: every kind of damage to any file of a finished chunk (its receipt included) is named by
``report`` in one line, ``--skip-damaged`` reports from the sound chunks, and a resume quarantines the chunk and
recomputes it into the undamaged rows; left-overs of an interruption are ignored; old folders still load."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kemps_sim.cli import main
from kemps_sim.errors import ConfigError
from kemps_sim.sweep import ResultStore, load_results, run_sweep
from kemps_sim.sweep.receipts import RECEIPTS, chunk_file, pending_file, receipt_file
from tests.sweeps import all_tables, assert_same_tables, quick_data, quick_spec, toml_text

TABLE_NAMES = ("matches", "pairs", "rounds", "calls", "fours", "events")
KINDS = (*TABLE_NAMES, "receipt")
#: 4 cells x 3 matches in chunks of 4: three chunks, every table (events too) in each.
SWEEP = {"matches": 3, "chunk": 4, "events": True}


def _spec(folder: Path):
    return quick_spec(folder, **SWEEP)


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    """A finished sweep, its tables, and its chunk ids."""
    folder = tmp_path_factory.mktemp("integrity") / "whole"
    run_sweep(_spec(folder), workers=1, progress=False)
    chunks = sorted(p.name[len("chunk-"):-len(".json")] for p in (folder / RECEIPTS).glob("chunk-*.json"))
    return folder, all_tables(folder), chunks


def _copy(sweep, tmp_path: Path) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(sweep[0], target)
    return target


def _path(kind: str, chunk: str) -> str:
    return receipt_file(chunk) if kind == "receipt" else chunk_file(kind, chunk)


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "delete":
        path.unlink()
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "truncate":
        path.write_bytes(data[:len(data) // 2])
    else:  # garble one byte at the start, the middle or the end
        at = {"garble-start": 0, "garble-middle": len(data) // 2, "garble-end": len(data) - 1}[how]
        path.write_bytes(data[:at] + bytes([data[at] ^ 0x5A]) + data[at + 1:])


def _one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


def test_the_fixture_has_several_chunks_with_every_table(sweep):
    folder, tables, chunks = sweep
    assert len(chunks) == 3 and sorted(tables) == sorted(TABLE_NAMES)
    for chunk in chunks:
        receipt = json.loads((folder / receipt_file(chunk)).read_text())
        assert sorted(receipt["files"]) == sorted(TABLE_NAMES)
        assert all(len(entry["sha256"]) == 64 and entry["bytes"] > 0 for entry in receipt["files"].values())
    assert ResultStore(folder).manifest()["format"] == 2
    assert not list((folder / RECEIPTS).glob("*.pending"))


@pytest.mark.parametrize("how", ["truncate", "garble-start", "garble-middle", "garble-end", "empty", "delete"])
@pytest.mark.parametrize("kind", KINDS)
def test_damage_to_any_chunk_file_is_named_and_repaired_by_a_resume(sweep, tmp_path, kind, how, capsys):
    _, reference, chunks = sweep
    copy = _copy(sweep, tmp_path)
    chunk = chunks[1]
    name = _path(kind, chunk)
    _damage(copy / name, how)
    assert main(["report", str(copy)]) == 2
    line = _one_error_line(capsys)
    assert name in line and "1 damaged chunk" in line and "resume the sweep" in line, line
    partial = load_results(copy, skip_damaged=True)
    assert list(partial.skipped) == [chunk] and len(partial.matches) == len(reference["matches"]) - 4
    run = run_sweep(_spec(copy), workers=1, progress=False)
    assert (run.quarantined, run.ran, run.already_done) == (1, 4, 8)
    assert_same_tables(all_tables(copy), reference)
    kept = list((copy / "quarantine").rglob(f"chunk-{chunk}.*"))
    assert len(kept) == (6 if how == "delete" else 7)  # nothing lost but what was deleted


@pytest.mark.parametrize("kind", ["pairs", "receipt"])
def test_report_skip_damaged_says_how_many_chunks_it_left_out(sweep, tmp_path, kind, capsys):
    copy = _copy(sweep, tmp_path)
    _damage(copy / _path(kind, sweep[2][0]), "truncate")
    _damage(copy / _path("rounds", sweep[2][2]), "delete")
    assert main(["report", str(copy)]) == 2
    line = _one_error_line(capsys)
    assert "2 damaged chunks" in line and _path(kind, sweep[2][0]) in line and _path("rounds", sweep[2][2]) in line
    with pytest.raises(ConfigError, match=r"^results folder .*: 2 damaged chunks: .*; resume the sweep \(run it again"):
        load_results(copy)
    assert main(["report", str(copy), "--skip-damaged", "--csv", str(tmp_path / "s.csv")]) == 0
    captured = capsys.readouterr()
    assert "skipped 2 damaged chunks" in captured.err and "Traceback" not in captured.err
    assert "4 matches; table written to" in captured.out  # only the sound chunk's 4 matches


def test_the_sweep_command_says_how_many_chunks_it_quarantined(sweep, tmp_path, capsys):
    copy = _copy(sweep, tmp_path)
    _damage(copy / _path("calls", sweep[2][0]), "garble-middle")
    _damage(copy / _path("matches", sweep[2][2]), "garble-end")
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(toml_text(quick_data(copy, **SWEEP)))
    assert main(["sweep", str(spec_path), "--serial", "--no-progress"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the closing line wraps at 100 columns
    assert "12 of 12 matches stored (8 run now" in out and "2 damaged chunks moved into" in out
    assert_same_tables(all_tables(copy), sweep[1])


def test_left_overs_of_an_interrupted_chunk_are_ignored_and_removed(sweep, tmp_path):
    copy = _copy(sweep, tmp_path)
    chunk = sweep[2][1]
    (copy / receipt_file(chunk)).unlink()
    (copy / pending_file(chunk)).write_bytes(b"")  # as a run killed before the receipt leaves it
    (copy / "pairs" / f"chunk-{chunk}.parquet.4242.tmp").write_bytes(b"half")
    assert len(load_results(copy).matches) == 8 and ResultStore(copy).done() == set(
        load_results(copy).matches[["cell", "replicate"]].itertuples(index=False, name=None))
    run = run_sweep(_spec(copy), workers=1, progress=False)
    assert (run.quarantined, run.ran) == (0, 4)
    assert not list(copy.rglob("*.tmp")) and not list(copy.rglob("*.pending")) and not (copy / "quarantine").exists()
    assert_same_tables(all_tables(copy), sweep[1])


def _as_format_1(folder: Path) -> None:
    """Make a folder look as the previous format wrote it: no receipts, ``format`` 1."""
    shutil.rmtree(folder / RECEIPTS)
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_text(json.dumps({**manifest, "format": 1}, indent=2, sort_keys=True))


def test_a_folder_of_the_previous_format_loads_and_resumes_into_receipts(sweep, tmp_path, capsys):
    copy = _copy(sweep, tmp_path)
    _as_format_1(copy)
    assert_same_tables(all_tables(copy), sweep[1])
    assert main(["report", str(copy), "--csv", str(tmp_path / "s.csv")]) == 0
    assert "12 matches" in capsys.readouterr().out
    run = run_sweep(_spec(copy), workers=1, progress=False)
    assert (run.mode, run.ran, run.already_done, run.quarantined) == ("resume", 0, 12, 0)
    assert ResultStore(copy).manifest()["format"] == 2 and len(list((copy / RECEIPTS).glob("*.json"))) == 3
    assert_same_tables(all_tables(copy), sweep[1])
    (copy / _path("pairs", sweep[2][0])).unlink()  # now verified like any new folder
    with pytest.raises(ConfigError, match="pairs/chunk-.*is missing"):
        load_results(copy)


def test_an_unreadable_file_of_the_previous_format_is_named_and_recomputed(sweep, tmp_path, capsys):
    copy = _copy(sweep, tmp_path)
    _as_format_1(copy)
    _damage(copy / _path("rounds", sweep[2][2]), "truncate")
    assert main(["report", str(copy)]) == 2
    line = _one_error_line(capsys)
    assert f"{_path('rounds', sweep[2][2])} is not readable Parquet" in line
    run = run_sweep(_spec(copy), workers=1, progress=False)
    assert (run.quarantined, run.ran) == (1, 4)
    assert_same_tables(all_tables(copy), sweep[1])
