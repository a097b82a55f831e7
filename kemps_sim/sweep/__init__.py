"""Bulk experiments: sweep specs, seeds keyed by cell, chunked runs on processes or Dask, a Parquet results store.

``run_sweep(spec)`` runs or resumes a sweep; ``load_results(folder)`` reads what it stored as tidy DataFrames.
"""

from __future__ import annotations

from kemps_sim.sweep.cells import CellPlan, plan_cell, plan_cells
from kemps_sim.sweep.design import Cell, design_cells, match_seed
from kemps_sim.sweep.executors import DaskExecutor, Executor, ProcessExecutor, SerialExecutor, make_executor
from kemps_sim.sweep.runner import SweepRun, plan_tasks, run_sweep
from kemps_sim.sweep.spec import Axis, Range, SpecError, SweepSpec, read_spec, spec_from_mapping
from kemps_sim.sweep.store import ResultStore, SweepResults, load_results
from kemps_sim.sweep.tournament import tournament_spec

__all__ = [
    "Axis",
    "Cell",
    "CellPlan",
    "DaskExecutor",
    "Executor",
    "ProcessExecutor",
    "Range",
    "ResultStore",
    "SerialExecutor",
    "SpecError",
    "SweepResults",
    "SweepRun",
    "SweepSpec",
    "design_cells",
    "load_results",
    "make_executor",
    "match_seed",
    "plan_cell",
    "plan_cells",
    "plan_tasks",
    "read_spec",
    "run_sweep",
    "spec_from_mapping",
    "tournament_spec",
]
