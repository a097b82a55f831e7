"""Sensitivity of a sweep metric to the axes of a sensitivity design: Sobol' indices and Morris screening (SALib).

A ``sobol`` or ``morris`` sweep (see :mod:`kemps_sim.sweep.design`) plays one cell per row of SALib's sample
matrix. Here the chosen metric is averaged over each cell's matches, the cells' means are laid out in the sample's
row order (a point drawn twice reads its one cell twice), and ``SALib.analyze`` apportions their variance:

- :func:`sobol_indices`: first-order (``S1``) and total-order (``ST``) indices per axis, with bootstrap intervals;
- :func:`sobol_second_order`: the second-order indices of each two axes (a spec with ``second_order = true``);
- :func:`morris_indices`: Morris's mean absolute elementary effect ``mu_star`` (with a bootstrap interval), the
  signed mean ``mu`` and the spread ``sigma``, per axis. An effect is the change of the metric per whole range of
  the axis (each axis is scaled to [0, 1]), so the axes compare directly.

The ``*_conf`` columns are SALib's half-widths at the ``confidence`` level, from ``resamples`` bootstrap
resamples of the sample rows (normal approximation: z times the bootstrap standard deviation); the level is in the
``confidence`` column and in ``attrs["confidence"]``. The bootstrap seed is fixed, so the same tables give the same
answer. A sample too small for its indices to mean anything (intervals wider than the indices, an index below 0
or ``S1`` above ``ST`` beyond their intervals, ``S1`` adding up to more than 1) is said in ``attrs["problems"]``,
one line each, with the size that would fix it in ``attrs["suggestion"]`` and ``attrs["suggested_size"]`` (see
:mod:`kemps_sim.stats.sensitivity_checks`), and in a :class:`SensitivityWarning`.

Under common random numbers (the default for these designs) every sample point plays the same deals and timings,
so the metric is one smooth function of the point and the indices are not blurred by match-to-match luck.

A metric is ``pairN_COLUMN``, a column of the pairs table for pair N (``pair0_won``: the share of matches pair 0
won; ``pair0_win_share``, ``pair0_points``, ``pair0_letters``, ``pair1_rounds_won`` ...), or a numeric column of
the matches table (``duration``, ``rounds``, ``events``), or, given a table, any numeric column of it. Matches that
ended with an agent error or a crash are left out.
"""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.results import FAILED_END_REASONS
from kemps_sim.stats.sensitivity_checks import (
    SensitivityWarning,
    Verdict,
    morris_verdict,
    sobol_verdict,
    with_luck,
)
from kemps_sim.suggest import did_you_mean
from kemps_sim.sweep.design import SENSITIVITY_DESIGNS, SweepSpec, design_points, salib_problem, sample_matrix
from kemps_sim.sweep.store import SweepResults, load_results

__all__ = ["SensitivityWarning", "cell_metric", "morris_indices", "sobol_indices", "sobol_second_order"]

#: Bootstrap resamples behind the intervals, and the seed that makes them repeatable.
RESAMPLES, SEED = 1000, 0
_PAIR_METRIC = re.compile(r"^pair(\d+)_(.+)$")

ResultsLike = SweepResults | pd.DataFrame | str | Path


def cell_metric(results_or_table: ResultsLike, metric: str = "pair0_won") -> pd.Series:
    """The metric's mean over each cell's matches, indexed by cell id (``attrs["n"]``: matches per cell;
    ``attrs["noise"]``: the variance of each mean that the luck of its matches makes, NaN for a single match).

    ``results_or_table`` is a results folder, its :class:`~kemps_sim.sweep.store.SweepResults`, or one table with
    a ``cell`` column (a pairs table for ``pairN_COLUMN``, else any table holding the column).
    """
    if isinstance(results_or_table, str | Path):
        results_or_table = load_results(results_or_table)
    table, column = _metric_rows(results_or_table, metric)
    if "end_reason" in table.columns:
        table = table[~table["end_reason"].isin(FAILED_END_REASONS)]
    values = table[column]
    if values.dtype == object and len(values) and values.map(lambda v: isinstance(v, bool)).all():
        values = values.astype(bool)
    if values.dtype == bool:
        values = values.astype(float)
    if not pd.api.types.is_numeric_dtype(values):
        raise ConfigError(f"metric {metric!r}: column {column!r} is not numeric (dtype {values.dtype}); "
                          "give a numeric column")
    grouped = values.astype(float).groupby(table["cell"], sort=False)
    means = grouped.mean()
    counts = grouped.count()
    means.attrs["n"] = counts.to_dict()
    means.attrs["noise"] = (grouped.var(ddof=1) / counts).to_dict()  # the variance of each mean from its matches' luck
    means.name = metric
    return means


def sobol_indices(results_or_table: ResultsLike, spec: SweepSpec | None = None, metric: str = "pair0_won", *,
                  confidence: float = 0.95, resamples: int = RESAMPLES, seed: int = SEED) -> pd.DataFrame:
    """First- and total-order Sobol' indices of the metric for each axis of a ``sobol`` sweep.

    One row per axis: ``parameter``, ``S1``, ``S1_conf``, ``ST``, ``ST_conf`` (half-widths of intervals at
    ``confidence``) and ``confidence``. ``spec`` defaults to the one in the results folder's manifest.
    """
    spec, y, problem, luck = _prepared(results_or_table, spec, metric, "sobol", confidence, resamples, seed)
    si = _sobol(spec, y, problem, confidence, resamples, seed)
    table = pd.DataFrame({"parameter": problem["names"], "S1": si["S1"], "S1_conf": si["S1_conf"], "ST": si["ST"],
                          "ST_conf": si["ST_conf"], "confidence": confidence})
    verdict = with_luck(sobol_verdict(table, spec.samples, len(y), spec.matches), *luck, len(y))
    return _stamp(table, spec, metric, confidence, y, verdict)


def sobol_second_order(results_or_table: ResultsLike, spec: SweepSpec | None = None, metric: str = "pair0_won", *,
                       confidence: float = 0.95, resamples: int = RESAMPLES, seed: int = SEED) -> pd.DataFrame:
    """Second-order Sobol' indices of a ``sobol`` sweep drawn with ``second_order = true``: one row per two axes
    (``parameter``, ``other``, ``S2``, ``S2_conf``, ``confidence``)."""
    spec, y, problem, luck = _prepared(results_or_table, spec, metric, "sobol", confidence, resamples, seed)
    if not spec.second_order:
        raise ConfigError("sweep.second_order = false: the sample has no second-order rows; draw it with "
                          "second_order = true for second-order indices")
    si = _sobol(spec, y, problem, confidence, resamples, seed)
    names = problem["names"]
    rows = [{"parameter": names[i], "other": names[j], "S2": si["S2"][i, j], "S2_conf": si["S2_conf"][i, j],
             "confidence": confidence} for i in range(len(names)) for j in range(i + 1, len(names))]
    table = pd.DataFrame(rows, columns=["parameter", "other", "S2", "S2_conf", "confidence"])
    verdict = with_luck(sobol_verdict(table, spec.samples, len(y), spec.matches), *luck, len(y))
    return _stamp(table, spec, metric, confidence, y, verdict)


def morris_indices(results_or_table: ResultsLike, spec: SweepSpec | None = None, metric: str = "pair0_won", *,
                   confidence: float = 0.95, resamples: int = RESAMPLES, seed: int = SEED) -> pd.DataFrame:
    """Morris screening of the metric for each axis of a ``morris`` sweep.

    One row per axis: ``parameter``, ``mu_star`` (mean absolute elementary effect, per whole range of the axis),
    ``mu_star_conf`` (half-width of its interval at ``confidence``), ``mu`` (signed mean), ``sigma`` (spread of the
    effects: interaction or non-linearity) and ``confidence``.
    """
    from SALib.analyze import morris

    spec, y, problem, luck = _prepared(results_or_table, spec, metric, "morris", confidence, resamples, seed)
    si = morris.analyze(problem, sample_matrix(spec), y, num_resamples=resamples, conf_level=confidence,
                        num_levels=spec.levels, seed=_salib_seed(seed))
    table = pd.DataFrame({"parameter": problem["names"], "mu_star": np.asarray(si["mu_star"], float),
                          "mu_star_conf": np.asarray(si["mu_star_conf"], float), "mu": np.asarray(si["mu"], float),
                          "sigma": np.asarray(si["sigma"], float), "confidence": confidence})
    verdict = with_luck(morris_verdict(table, spec.trajectories, len(y), spec.matches), *luck, len(y))
    return _stamp(table, spec, metric, confidence, y, verdict)


def _sobol(spec: SweepSpec, y: np.ndarray, problem: dict[str, Any], confidence: float, resamples: int,
           seed: int) -> dict[str, Any]:
    from SALib.analyze import sobol

    return sobol.analyze(problem, y, calc_second_order=spec.second_order, num_resamples=resamples,
                         conf_level=confidence, seed=_salib_seed(seed))


def _salib_seed(seed: int) -> int:
    """A non-zero seed from ours: ``SALib.analyze.sobol`` takes a seed of 0 for none and resamples unseeded."""
    return int(np.random.SeedSequence(seed).generate_state(1)[0]) or 1


def _prepared(results_or_table: ResultsLike, spec: SweepSpec | None, metric: str, design: str, confidence: float,
              resamples: int, seed: int) -> tuple[SweepSpec, np.ndarray, dict[str, Any], tuple[float, int]]:
    """The spec, the metric at every row of its sample (in sample order), SALib's problem, all checked, and the
    share of the variance between the rows that the luck of their matches makes (see
    :func:`~kemps_sim.stats.sensitivity_checks.with_luck`; NaN with one match a cell) with the matches a row."""
    if not 0.0 < float(confidence) < 1.0:
        raise ConfigError(f"confidence = {confidence!r}: must be strictly between 0 and 1")
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 2:
        raise ConfigError(f"resamples = {resamples!r}: must be a whole number >= 2")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"seed = {seed!r}: must be a whole number >= 0")
    if isinstance(results_or_table, str | Path):
        results_or_table = load_results(results_or_table)
    if spec is None:
        if not isinstance(results_or_table, SweepResults):
            raise ConfigError("spec: needed with a table; give the sweep's SweepSpec (or pass the results folder, "
                              "whose manifest holds it)")
        spec = results_or_table.spec()
    if spec.design != design:
        raise ConfigError(f"sweep.design = {spec.design!r}: {design} indices need a {design} design "
                          f"(sensitivity designs: {', '.join(SENSITIVITY_DESIGNS)})")
    means = cell_metric(results_or_table, metric)
    points = design_points(spec)
    missing = list(dict.fromkeys(cell.id for cell in points if cell.id not in means.index or
                                 np.isnan(means[cell.id])))
    if missing:
        cells = len({cell.id for cell in points})
        raise ConfigError(f"metric {metric!r}: no value for {len(missing)} of the {cells} cells of the spec's "
                          f"{design} design (e.g. cell {missing[0]}); run the sweep to the end, or give the spec "
                          "the results were made with")
    y = np.array([means[cell.id] for cell in points], dtype=float)
    noise = np.array([means.attrs["noise"][cell.id] for cell in points], dtype=float)
    played = round(float(np.mean([means.attrs["n"][cell.id] for cell in points])))
    if np.ptp(y) == 0:
        raise ConfigError(f"metric {metric!r}: the same value ({y[0]:g}) at every sample point, so there is no "
                          "variance to apportion; play more matches per cell or choose another metric")
    luck = float(noise.mean() / np.var(y, ddof=1)) if len(y) > 1 and not np.isnan(noise).any() else math.nan
    return spec, y, salib_problem(spec), (luck, played)


def _metric_rows(results_or_table: ResultsLike, metric: str) -> tuple[pd.DataFrame, str]:
    """The rows holding the metric (one pair's rows for ``pairN_COLUMN``) and the metric's column."""
    if not isinstance(metric, str) or not metric:
        raise ConfigError(f"metric = {metric!r}: must be pairN_COLUMN (a pairs-table column of pair N) or a "
                          "matches-table column")
    pair_form = _PAIR_METRIC.match(metric)
    if isinstance(results_or_table, SweepResults):
        tables = results_or_table.tables
        candidates = ([("pairs", tables.get("pairs"))] if pair_form else []) + [("matches", tables.get("matches"))]
    elif isinstance(results_or_table, pd.DataFrame):
        candidates = [("given", results_or_table)]
    else:
        raise ConfigError(f"results = {type(results_or_table).__name__}: give a results folder, its SweepResults "
                          "or a table with a cell column")
    for name, table in candidates:
        if table is None or "cell" not in table.columns:
            if name == "given":
                raise ConfigError("the given table has no cell column; give a sweep table (pairs, matches, ...)")
            continue
        if pair_form and "pair" in table.columns and pair_form.group(2) in table.columns:
            return table[table["pair"] == int(pair_form.group(1))], pair_form.group(2)
        if metric in table.columns:
            return table, metric
    where = ", ".join(name for name, table in candidates if table is not None)
    columns = sorted({c for _, table in candidates if table is not None for c in table.columns})
    pair = pair_form.group(1) if pair_form else "0"
    pairs = dict(candidates).get("pairs")
    hint = did_you_mean(metric, [*map(str, columns), *(f"pair{pair}_{c}" for c in getattr(pairs, "columns", ()))])
    raise ConfigError(f"metric {metric!r}: not in the {where} table{'s' if len(candidates) > 1 else ''}{hint}; give "
                      f"pairN_COLUMN (e.g. pair0_won) or one of: {', '.join(map(str, columns))}")


def _stamp(table: pd.DataFrame, spec: SweepSpec, metric: str, confidence: float, y: np.ndarray,
           verdict: Verdict) -> pd.DataFrame:
    """The table with what it was made from in ``attrs``, and its problems (see :mod:`.sensitivity_checks`) there
    and in a :class:`SensitivityWarning`."""
    table.attrs.update(confidence=confidence, metric=metric, design=spec.design, points=len(y),
                       matches_per_cell=spec.matches, common_random_numbers=spec.common_random_numbers,
                       problems=list(verdict.problems), suggestion=verdict.suggestion, suggested_size=verdict.size)
    if verdict.problems:
        size = f"N = {spec.samples}" if spec.design == "sobol" else f"{spec.trajectories} trajectories"
        kind = "Sobol'" if spec.design == "sobol" else "Morris"
        warnings.warn("\n".join([f"{kind} indices of {metric} at {size} do not mean anything yet:",
                                 *verdict.lines()]), SensitivityWarning, stacklevel=3)
    return table
