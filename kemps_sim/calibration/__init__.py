"""Calibration: the sourced targets a table of people should meet, and the statistics of a simulated table that
are measured against them.

:func:`load_targets` reads the versioned targets file (:mod:`kemps_sim.calibration.targets`);
:func:`table_statistics` and :func:`sweep_statistics` measure a sweep's tables and :func:`compare_to_targets` sets
the two side by side (:mod:`kemps_sim.calibration.statistics`); :func:`precision_gain` measures how Kemps precision
changes along a sweep over d' (:mod:`kemps_sim.calibration.contrast`); :func:`same_game` compares every
statistic of play between two versions of the model on the same seeds (:mod:`kemps_sim.calibration.equivalence`).
The belief's constants are measured on simulated play here too (:mod:`kemps_sim.calibration.belief`, run by
``scripts/fit_belief.py``), above the engine that plays it.
"""

from __future__ import annotations

from kemps_sim.calibration.contrast import precision_gain
from kemps_sim.calibration.equivalence import same_game
from kemps_sim.calibration.statistics import (
    PARAMETER_STATISTICS,
    STATISTICS,
    compare_to_targets,
    parameter_statistics,
    sweep_statistics,
    table_statistics,
)
from kemps_sim.calibration.targets import Target, Targets, load_targets, targets_from_mapping

__all__ = [
    "PARAMETER_STATISTICS",
    "STATISTICS",
    "Target",
    "Targets",
    "compare_to_targets",
    "load_targets",
    "parameter_statistics",
    "precision_gain",
    "same_game",
    "sweep_statistics",
    "table_statistics",
    "targets_from_mapping",
]
