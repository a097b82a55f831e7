"""Bulk experiments: sweep specs, seeds keyed by cell, chunked runs on processes or Dask, a Parquet results store.

``run_sweep(spec)`` runs or resumes a sweep; ``load_results(folder)`` reads what it stored as tidy DataFrames.
Designs: a grid, random or Latin-hypercube samples, and the samples of a Sobol' or Morris sensitivity analysis
(SALib; :mod:`kemps_sim.stats.sensitivity` computes the indices). Grids, tournaments and sensitivity designs play
common random numbers by default: replicate r of every cell has the same seed.
A spec with ``until_ci`` adds replicates to each cell in rounds until its metric's interval is that narrow or the
cell reaches ``max_matches`` (:mod:`kemps_sim.sweep.targets`).
"""

from __future__ import annotations

from kemps_sim.sweep.cells import CellPlan, plan_cell, plan_cells
from kemps_sim.sweep.design import Cell, design_cells, design_points, match_seed, salib_problem, sample_matrix
from kemps_sim.sweep.executors import DaskExecutor, Executor, ProcessExecutor, SerialExecutor, make_executor
from kemps_sim.sweep.runner import SweepRun, plan_tasks, run_sweep
from kemps_sim.sweep.spec import Axis, Range, SpecError, SweepSpec, read_spec, spec_from_mapping
from kemps_sim.sweep.store import ResultStore, SweepResults, load_results, manifest_spec
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
    "design_points",
    "load_results",
    "make_executor",
    "manifest_spec",
    "match_seed",
    "plan_cell",
    "plan_cells",
    "plan_tasks",
    "read_spec",
    "run_sweep",
    "salib_problem",
    "sample_matrix",
    "spec_from_mapping",
    "tournament_spec",
]
