"""A sweep's parent stays small: chunks built as one table each and encoded by the worker, and the summary added up
chunk by chunk; none of it may change a row or a number.

Nothing here measures memory or time (benchmarks/bench_memory.py prints those).
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pandas.testing import assert_frame_equal

from kemps_sim import records, stats
from kemps_sim.cli import main
from kemps_sim.engine import simulate_match
from kemps_sim.errors import ConfigError
from kemps_sim.report import with_scoring
from kemps_sim.results import ACCURACY_METRICS, COMPARE_METRICS, EndReason
from kemps_sim.sweep import ResultStore, load_results, plan_tasks, run_sweep, spec_from_mapping, streaming
from kemps_sim.sweep.chunks import TABLES, Chunk, chunk_tables, crashed_chunk, make_chunks, run_chunk
from kemps_sim.sweep.receipts import RECEIPTS, chunk_file, sha256
from kemps_sim.sweep.streaming import summarise_folder
from tests.sweeps import quick_data, quick_spec


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A small sweep with events, two swept parameters and chunks of uneven size."""
    out = tmp_path_factory.mktemp("memory") / "results"
    run_sweep(quick_spec(out, matches=5, events=True, chunk=3), workers=1, progress=False)
    return out


def _reference_chunk(chunk: Chunk) -> dict[str, pd.DataFrame]:
    """A chunk's tables built as they were before chunks had one table each: a few small DataFrames per match
    from the per-match table functions, each led by the cell's columns, then stacked."""
    plans = {plan.cell.id: plan for plan in chunk.plans}
    makers = {"pairs": records.pairs_table, "rounds": records.rounds_table, "calls": records.calls_table,
              "fours": records.fours_table, **({"events": records.events_table} if chunk.events else {})}
    collected: dict[str, list[pd.DataFrame]] = {name: [] for name in TABLES}
    for task in chunk.tasks:
        plan = plans[task.cell]
        lead = {"cell": task.cell, **plan.cell.as_dict(), "replicate": task.replicate}
        result = simulate_match(plan.rules, plan.lineup, plan.profiles, task.seed, config=plan.config,
                                errors="record")
        tables = {"matches": pd.DataFrame([{
            "seed": task.seed, "end_reason": result.end_reason, "error": result.error or "",
            "rounds": len(result.rounds), "events": result.events,
            "duration": sum(r.end_time for r in result.rounds), "winners": ",".join(map(str, result.winners))}])}
        tables.update({name: make(result) for name, make in makers.items()})
        for name, table in tables.items():
            # Rows of the scored tables also say the cell's scoring rule, after the replicate.
            led = {**lead, "rules.scoring": plan.rules.scoring} if name != "events" else lead
            if len(table) == 0 and "seed" in table.columns:  # an empty table keeps its keys' types (chunks._frame)
                table = table.assign(seed=table["seed"].astype("int64"))
            front = pd.DataFrame({k: pd.Series([v] * len(table), dtype=pd.Series([v]).dtype, index=table.index)
                                  for k, v in led.items()}, index=table.index)
            collected[name].append(pd.concat([front, table], axis=1))
    return {name: pd.concat([f for f in frames if len(f)] or frames[:1], ignore_index=True)
            for name, frames in collected.items() if frames}


@pytest.mark.parametrize("size", [1, 4])
def test_a_chunks_tables_equal_the_per_match_tables_stacked(tmp_path, size):
    spec = quick_spec(tmp_path / "x", matches=3, events=True)
    tasks, plans = plan_tasks(spec)
    for chunk in list(make_chunks(tasks, plans, size, events=True))[:3]:
        built, expected = chunk_tables(chunk), _reference_chunk(chunk)
        assert list(built) == list(expected)
        for name in expected:
            assert_frame_equal(built[name], expected[name], check_exact=True)


def test_the_worker_hands_back_parquet_bytes_with_their_receipt_fields(tmp_path):
    tasks, plans = plan_tasks(quick_spec(tmp_path / "x", matches=2))
    chunk = next(make_chunks(tasks, plans, 3, events=False))
    output, tables = run_chunk(chunk), chunk_tables(chunk)
    assert list(output.tables) == list(tables)
    for name, encoded in output.tables.items():
        assert encoded.checksum == sha256(encoded.data) and encoded.rows == len(tables[name])
        assert_frame_equal(pq.read_table(pa.BufferReader(encoded.data)).to_pandas(), tables[name])
    assert output.keys == tuple((t.cell, t.replicate) for t in chunk.tasks)
    assert output.failures == 0


def test_a_crashed_chunk_has_one_crashed_matches_row_per_match(tmp_path):
    tasks, plans = plan_tasks(quick_spec(tmp_path / "x", matches=2))
    chunk = next(make_chunks(tasks, plans, 3, events=False))
    output = crashed_chunk(chunk, "WorkerLost: gone")
    assert list(output.tables) == ["matches"] and output.failures == len(chunk.tasks)
    matches = pq.read_table(pa.BufferReader(output.tables["matches"].data)).to_pandas()
    assert list(matches.columns[:4]) == ["cell", "rules.double_kemps", "profile.observer.d_fixated", "replicate"]
    assert set(matches["end_reason"]) == {EndReason.CRASHED.value} and set(matches["error"]) == {"WorkerLost: gone"}


def test_encoded_chunks_are_written_with_receipts_that_verify(tmp_path):
    tasks, plans = plan_tasks(quick_spec(tmp_path / "x", matches=2))
    chunk = next(make_chunks(tasks, plans, 3, events=False))
    store = ResultStore(tmp_path / "out")
    store.write_chunk(chunk.id, run_chunk(chunk).tables)
    assert store.scan().sound.keys() == {chunk.id}
    assert store.repair() == 0  # every file checked in full against its receipt
    assert (tmp_path / "out" / chunk_file("matches", chunk.id)).is_file()


@pytest.mark.parametrize("batch", [1, 1000], ids=["chunk by chunk", "chunks together"])
@pytest.mark.parametrize("by", [("rules.double_kemps", "profile.observer.d_fixated"), ("cell",),
                                ("rules.double_kemps",), ("replicate",), ()])
def test_the_streamed_summary_equals_the_summary_of_the_loaded_tables(folder, by, batch, monkeypatch):
    monkeypatch.setattr(streaming, "BATCH_MATCHES", batch)
    results = load_results(folder)
    from kemps_sim.report import cell_scorings as _cell_scorings

    expected = stats.summary_table(with_scoring(results), by=by, confidence=0.9)
    got = summarise_folder(folder, by, confidence=0.9, scorings=_cell_scorings(results.manifest))
    assert_frame_equal(got.table, expected, check_exact=True)
    assert got.matches == len(results["matches"]) and got.failures == results.failures


def test_the_streamed_summary_tells_the_rule_from_the_scores_without_a_spec(folder):
    results = load_results(folder)
    expected = stats.summary_table(dict(results.tables), by=("cell",))
    assert_frame_equal(summarise_folder(folder, ("cell",)).table, expected, check_exact=True)


def test_report_prints_the_same_summary_streamed_or_loaded(folder, tmp_path, capsys):
    assert main(["report", str(folder), "--csv", str(tmp_path / "a.csv")]) == 0
    streamed = capsys.readouterr().out
    # A column only some tables have still loads them, and is refused as before.
    assert main(["report", str(folder), "--csv", str(tmp_path / "b.csv"), "--by", "seats"]) == 2
    assert "grouping column 'seats' is not in the calls table" in capsys.readouterr().err
    results = load_results(folder)
    table = stats.summary_table(with_scoring(results), by=results.params)
    buffer = io.StringIO()
    table.to_csv(buffer, index=False)
    assert (tmp_path / "a.csv").read_text() == buffer.getvalue()
    assert stats.format_summary(table) in streamed and f"{len(results['matches'])} matches" in streamed


def test_a_damaged_chunk_stops_the_streamed_summary_unless_skipped(folder, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    receipt = sorted((copy / RECEIPTS).glob("chunk-*.json"))[0]
    chunk = receipt.name[len("chunk-"):-len(".json")]
    path = copy / chunk_file("pairs", chunk)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ConfigError, match=f"chunk-{chunk}.parquet has changed"):
        summarise_folder(copy, ("cell",))
    skipped = summarise_folder(copy, ("cell",), skip_damaged=True)
    assert list(skipped.skipped) == [chunk]
    assert skipped.matches == len(load_results(copy, skip_damaged=True)["matches"])


def test_light_metric_lists_agree_with_the_statistics():
    assert ACCURACY_METRICS == stats.ACCURACY_METRICS
    assert COMPARE_METRICS == stats.METRICS


def test_the_streamed_summary_of_a_swept_scoring_rule(tmp_path):
    out = tmp_path / "scoring"
    data = quick_data(out, matches=2, axes={"rules.scoring": ["letters", "points", "rounds_won"]}, chunk=2)
    data["base"]["set"] = {}  # rounds_to_play means something under rounds-won scoring only
    run_sweep(spec_from_mapping(data), workers=1, progress=False)
    results = load_results(out)
    for by in (("rules.scoring",), ("replicate",)):
        expected = stats.summary_table(with_scoring(results), by=by)
        assert_frame_equal(summarise_folder(out, by).table, expected, check_exact=True)
