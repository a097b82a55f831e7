"""Fitting the uncertain parameters of the human model to the calibration targets, by simulation.

A candidate set of parameters is played on a fixed set of cells (presets and lineups) with the same seeds every time
(common random numbers: the loss changes with the parameters, not with the luck of new deals), the cells' statistics
are set beside the targets (:func:`~kemps_sim.calibration.statistics.compare_to_targets`) and the loss adds up how
far each estimate lies outside its target's interval, in standard errors of the estimate (:func:`loss_of`).
Optuna's TPE sampler proposes the candidates; the fit keeps every trial, so that the spread of the parameters among
the trials whose loss is within the loss's own noise of the best says how tightly the targets pin each parameter
down. ``scripts/calibrate.py`` runs it and writes the fitted defaults (:mod:`kemps_sim.fitted_human`).
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from kemps_sim.calibration.contrast import ACUITY, GAIN, precision_gain
from kemps_sim.calibration.statistics import compare_to_targets, table_statistics
from kemps_sim.calibration.targets import Targets, load_targets
from kemps_sim.errors import ConfigError


@dataclass(frozen=True)
class Parameter:
    """One fitted parameter: a profile field by its dotted name (``observer.priming``, ``slips_per_hour``) or an
    agent parameter of every built-in (``agent.signal_discipline``), its range and why."""

    name: str
    low: float
    high: float
    why: str

    def __post_init__(self) -> None:
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise ConfigError(f"parameter {self.name}: low = {self.low!r}, high = {self.high!r}: need low < high")


#: The human parameters that no study measures at a card table, with the ranges a fit may search.
PARAMETERS: tuple[Parameter, ...] = (
    Parameter("observer.priming", 0.0, 1.0, "how often a partner's look-alike touch is read as the signal"),
    Parameter("observer.criterion", -0.5, 1.5, "how readily a gesture is taken as possibly meant"),
    Parameter("observer.unfamiliar", 0.1, 1.0, "how much of d' is left for a signal whose form is not known yet"),
    Parameter("slips_per_hour", 0.0, 6.0, "how often an hour an idle touch of the pair's own signal looks meant"),
    # searched within the exact 95% interval of the worked game's 2 changes in 7 chances (agents.signal_choice)
    Parameter("agent.signal_discipline", 0.04, 0.71, "how often a pair changes a blown signal before the next round"),
    # from a quarter to the loss aversion of a gamble at leisure (agents.composed.CAUTION)
    Parameter("agent.caution", 0.25, 2.25, "how much a wrong call's cost weighs against a right call's gain"),
)
#: The smallest standard error a miss is measured in, as a share of the estimate's scale (an estimate with no
#: spread, say a share of 0 in every match, would otherwise weigh infinitely).
FLOOR = 0.01
#: The targets the fit aims at: what a table of people does (the worked game and the acceptance bounds). The human
#: model's own inputs (face touches, blinks, reaction time) are checked, not fitted.
FITTED_TARGETS: tuple[str, ...] = (
    "worked_game.right_kemps", "worked_game.right_stop", "worked_game.wrong_calls", "worked_game.kemps_precision",
    "bound.right_stop_at_most_a_quarter", "bound.right_stop_far_rarer_in_first_rounds",
    "bound.wrong_calls_within_a_factor_of_three", "bound.right_kemps_commonest_end",
    "bound.round_lasts_a_minute_or_a_few", "bound.kemps_precision_rises_with_d_prime")
#: The cells every candidate plays: each preset with the default lineup and a collecting pair against watchers.
CELLS: dict[str, Sequence[Any]] = {"rules": ["standard", "german", "party", "kems", "peanut_butter"],
                                   "lineup": ["collector", "collector,watcher"]}
#: The cells of the targets on how call accuracy changes with d' (:mod:`kemps_sim.calibration.contrast`): the
#: standard rules with both lineups at half and one and a half times the default d' (1 to 3 for a gesture looked
#: at, 0.4 to 1.2 at the edge of view), everything else the candidate's.
CONTRAST_CELLS: dict[str, Sequence[Any]] = {"rules": ["standard"], "lineup": ["collector", "collector,watcher"],
                                            ACUITY: [0.5, 1.5]}


@dataclass
class Fit:
    """Every trial of a fit: its parameters and loss, and what the best candidate's cells measured."""

    parameters: tuple[Parameter, ...]
    trials: pd.DataFrame  # one row per trial: the parameters, then ``loss``
    noise: float  # the standard deviation of the best candidate's loss over fresh seeds
    comparison: pd.DataFrame  # the best candidate's cells beside the targets
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> dict[str, float]:
        """The parameters of the trial with the smallest loss."""
        row = self.trials.loc[self.trials["loss"].idxmin()]
        return {p.name: float(row[p.name]) for p in self.parameters}

    def spread(self) -> dict[str, tuple[float, float]]:
        """Each parameter's range over the trials whose loss is within two noise deviations of the best: the values
        the targets cannot tell apart from the best."""
        best = float(self.trials["loss"].min())
        near = self.trials[self.trials["loss"] <= best + 2.0 * self.noise]
        return {p.name: (float(near[p.name].min()), float(near[p.name].max())) for p in self.parameters}


def loss_of(comparison: pd.DataFrame, confidence: float = 0.95) -> float:
    """The mean over cells of the summed squared distances of each estimate outside its target's interval, each in
    standard errors of the estimate (from its own interval at ``confidence``): a miss counts by how surely the
    simulation shows it, so that the wide intervals of six told rounds and the bounds without a scale weigh alike.
    An estimate without an interval is measured in units of :data:`FLOOR` of the target's scale."""
    z = stats.norm.ppf(0.5 + confidence / 2)
    total, cells = 0.0, 0
    for _, rows in comparison.groupby("cell", sort=True):
        cells += 1
        for row in rows.itertuples(index=False):
            if row.estimate != row.estimate:  # NaN: nothing to measure in this cell
                continue
            miss = max(row.target_low - row.estimate, row.estimate - row.target_high, 0.0)
            if miss > 0.0:
                se = (row.high - row.low) / (2 * z) if row.high == row.high and row.low == row.low else 0.0
                total += (miss / max(se, FLOOR * max(abs(row.estimate), 1.0))) ** 2
    return total / max(cells, 1)


def play(params: Mapping[str, float], matches: int, seed: int, workers: int | None,
         cells: Mapping[str, Sequence[Any]] = CELLS) -> dict[str, pd.DataFrame]:
    """The rounds and calls tables of ``matches`` matches a cell with every seat's profile set to ``params``."""
    from kemps_sim.sweep import load_results, run_sweep, spec_from_mapping

    profile: dict[str, Any] = {}
    agent: list[str] = []
    for name, value in params.items():
        head, _, rest = name.partition(".")
        if head == "agent":
            agent.append(f"{rest}={float(value)!r}")
        elif rest:
            profile.setdefault(head, {})[rest] = float(value)
        else:
            profile[head] = float(value)
    axes = {key: list(values) for key, values in cells.items()}
    if agent:
        axes["lineup"] = [",".join(f"{entry}({', '.join(agent)})" for entry in lineup.split(","))
                          for lineup in axes["lineup"]]
    with tempfile.TemporaryDirectory(prefix="kemps-calibrate-") as folder:
        spec = spec_from_mapping({"sweep": {"name": "calibration", "seed": seed, "matches": matches,
                                            "output": folder},
                                  "base": {"players": 4, "profile": profile}, "axes": axes})
        run_sweep(spec, workers=workers, progress=False)
        tables = load_results(folder).tables
        return {"rounds": tables["rounds"], "calls": tables["calls"]}


def evaluate(params: Mapping[str, float], targets: Targets, matches: int, seed: int,
             workers: int | None) -> tuple[float, pd.DataFrame]:
    """The loss of one candidate and its cells beside the fitted targets; the targets on the gain with d' are
    measured on :data:`CONTRAST_CELLS` at twice ``matches`` (a difference of two precisions needs the calls), one
    group per lineup (cell ``d_prime:LINEUP``)."""
    chosen = [t for t in targets if t.name in FITTED_TARGETS]
    per_cell = [t for t in chosen if t.statistic != GAIN]
    comparison = compare_to_targets(table_statistics(play(params, matches, seed, workers)), per_cell)
    along = [t for t in chosen if t.statistic == GAIN]
    if along:
        gain = precision_gain(play(params, 2 * matches, seed, workers, CONTRAST_CELLS), by=("lineup",))
        gain.insert(0, "cell", "d_prime:" + gain.pop("lineup").astype(str))
        comparison = pd.concat([comparison, compare_to_targets(gain, along)], ignore_index=True)
    return loss_of(comparison), comparison


def fit(trials: int = 40, matches: int = 30, seed: int = 2026, workers: int | None = None,
        parameters: Sequence[Parameter] = PARAMETERS, targets: Targets | None = None,
        report: Callable[[int, dict[str, float], float], None] | None = None,
        start: Sequence[Mapping[str, float]] = ()) -> Fit:
    """Search ``trials`` candidates with Optuna's TPE sampler (seeded: the same call gives the same fit), the first
    ones the ``start`` candidates (say, the defaults in force: a refit starts where the last one ended; values
    outside a parameter's range are moved to its nearest end), then measure the best one's loss on three fresh
    seeds for the noise of the loss."""
    import optuna

    targets = targets or load_targets()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(sampler=optuna.samplers.TPESampler(seed=seed))
    for candidate in start:
        study.enqueue_trial({p.name: min(max(float(candidate[p.name]), p.low), p.high)
                             for p in parameters if p.name in candidate})

    def objective(trial: optuna.Trial) -> float:
        params = {p.name: trial.suggest_float(p.name, p.low, p.high) for p in parameters}
        loss, _ = evaluate(params, targets, matches, seed, workers)
        if report is not None:
            report(trial.number, params, loss)
        return loss

    study.optimize(objective, n_trials=trials)
    rows = [{**t.params, "loss": t.value} for t in study.trials if t.value is not None]
    table = pd.DataFrame(rows, columns=[*(p.name for p in parameters), "loss"])
    best = {p.name: float(study.best_params[p.name]) for p in parameters}
    again = [evaluate(best, targets, matches, seed + k, workers)[0] for k in (1, 2, 3)]
    _, comparison = evaluate(best, targets, matches, seed, workers)
    settings = {"trials": trials, "matches": matches, "seed": seed, "cells": {k: list(v) for k, v in CELLS.items()},
                "targets_version": targets.version, "targets_date": str(targets.date)}
    return Fit(tuple(parameters), table, float(np.std([study.best_value, *again], ddof=1)), comparison, settings)
