"""Bulk experiments: sweep specs, seeds keyed by cell, chunked runs on processes or Dask, a Parquet results store.

``run_sweep(spec)`` runs or resumes a sweep; ``load_results(folder)`` reads what it stored as tidy DataFrames, and
``export_csv(folder)`` writes those tables as CSV files.
Designs: a grid, random or Latin-hypercube samples, and the samples of a Sobol' or Morris sensitivity analysis
(SALib; :mod:`kemps_sim.sweep.sensitivity` computes the indices from a sweep's folder). Grids, tournaments and
sensitivity designs play common random numbers by default: replicate r of every cell has the same seed.
A spec with ``until_ci`` adds replicates to each cell in rounds until its metric's interval is that narrow or the
cell reaches ``max_matches`` (:mod:`kemps_sim.sweep.targets`). A spec's optional ``[compare]`` table names the
question it asks (:class:`CompareSpec`), which its summary answers. A folder's summary is added up chunk by chunk
(:mod:`kemps_sim.sweep.streaming`), so it needs no more memory for a large sweep than for a small one.

The names below are imported from their modules on first use, so that ``import kemps_sim.sweep`` (and the command
line's ``--help``) stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers and editors; at run time each name loads on first access (below)
    from kemps_sim.sweep.cells import CellPlan, plan_cell, plan_cells
    from kemps_sim.sweep.design import Cell, design_cells, design_points, match_seed, salib_problem, sample_matrix
    from kemps_sim.sweep.executors import DaskExecutor, Executor, ProcessExecutor, SerialExecutor, make_executor
    from kemps_sim.sweep.export import export_csv
    from kemps_sim.sweep.runner import SweepRun, plan_tasks, run_sweep
    from kemps_sim.sweep.sensitivity import (
        SensitivityWarning,
        cell_metric,
        morris_indices,
        sobol_indices,
        sobol_second_order,
    )
    from kemps_sim.sweep.spec import Axis, CompareSpec, Range, SpecError, SweepSpec, read_spec, spec_from_mapping
    from kemps_sim.sweep.store import ResultStore, SweepResults, load_results, manifest_spec
    from kemps_sim.sweep.tournament import pairings, tournament_spec

#: Where each export lives. They load on first access, so that importing a light submodule (or the command line's
#: ``--help``) does not import pandas, pyarrow and SciPy through the store and the designs.
_EXPORTS = {
    "cells": ("CellPlan", "plan_cell", "plan_cells"),
    "design": ("Cell", "design_cells", "design_points", "match_seed", "salib_problem", "sample_matrix"),
    "executors": ("DaskExecutor", "Executor", "ProcessExecutor", "SerialExecutor", "make_executor"),
    "export": ("export_csv",),
    "runner": ("SweepRun", "plan_tasks", "run_sweep"),
    "sensitivity": ("SensitivityWarning", "cell_metric", "morris_indices", "sobol_indices", "sobol_second_order"),
    "spec": ("Axis", "CompareSpec", "Range", "SpecError", "SweepSpec", "read_spec", "spec_from_mapping"),
    "store": ("ResultStore", "SweepResults", "load_results", "manifest_spec"),
    "tournament": ("pairings", "tournament_spec"),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'kemps_sim.sweep' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"kemps_sim.sweep.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])


__all__ = [
    "Axis",
    "Cell",
    "CellPlan",
    "CompareSpec",
    "DaskExecutor",
    "Executor",
    "ProcessExecutor",
    "Range",
    "ResultStore",
    "SensitivityWarning",
    "SerialExecutor",
    "SpecError",
    "SweepResults",
    "SweepRun",
    "SweepSpec",
    "cell_metric",
    "design_cells",
    "design_points",
    "export_csv",
    "load_results",
    "make_executor",
    "manifest_spec",
    "match_seed",
    "morris_indices",
    "pairings",
    "plan_cell",
    "plan_cells",
    "plan_tasks",
    "read_spec",
    "run_sweep",
    "salib_problem",
    "sample_matrix",
    "sobol_indices",
    "sobol_second_order",
    "spec_from_mapping",
    "tournament_spec",
]
