"""The parsed form of a sweep (:class:`SweepSpec`, its :class:`Axis` and :class:`Range`) and its cells: every
combination of the axes' levels (a grid), or points drawn at random or by Latin hypercube (``scipy.stats.qmc``)
from the master seed.

A cell is identified by a stable hash of its parameters, and its matches' seeds are keyed by that hash and the
replicate number: adding a cell, a level or replicates never changes the seed of a match already in the plan.

Layering: this module imports neither the parsing (:mod:`kemps_sim.sweep.spec`) nor the planning of a cell
(:mod:`kemps_sim.sweep.cells`); both are built on it, and the parsing checks each cell through the planning.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import qmc

from kemps_sim.presets import load_rules
from kemps_sim.rules import Rules

#: The designs a sweep may use.
DESIGNS = ("grid", "random", "lhs")
#: Spawn keys under the master seed: one for the sampled design, one for the matches.
DESIGN_KEY, MATCH_KEY = 0, 1


@dataclass(frozen=True)
class Range:
    """A continuous (or whole-number) axis from ``low`` to ``high``: ``steps`` points on a grid, sampled otherwise."""

    low: float
    high: float
    steps: int | None = None
    log: bool = False
    integer: bool = False

    def grid(self) -> tuple[float | int, ...]:
        """The grid points: evenly spaced (geometrically under ``log``), rounded and de-duplicated if whole."""
        steps = self.steps or 1
        if steps == 1:
            points = [self.low]
        elif self.log:
            ratio = (self.high / self.low) ** (1 / (steps - 1))
            points = [self.low * ratio**i for i in range(steps - 1)] + [self.high]
        else:
            points = [self.low + (self.high - self.low) * i / (steps - 1) for i in range(steps)]
        if self.integer:
            low, high = math.ceil(self.low), math.floor(self.high)
            return tuple(dict.fromkeys(min(max(round(p), low), high) for p in points))
        return tuple(float(p) for p in points)

    def at(self, u: float) -> float | int:
        """The value at quantile ``u`` in [0, 1) of a uniform (log-uniform under ``log``) draw over the range."""
        if self.integer:
            low, high = math.ceil(self.low), math.floor(self.high)
            return min(low + math.floor(u * (high - low + 1)), high)
        if self.log:
            return float(math.exp(math.log(self.low) + u * (math.log(self.high) - math.log(self.low))))
        return float(self.low + u * (self.high - self.low))


@dataclass(frozen=True)
class Axis:
    """One swept parameter: its dotted name and either a list of levels or a :class:`Range`."""

    name: str
    levels: tuple[Any, ...] | None = None
    range: Range | None = None

    def grid(self) -> tuple[Any, ...]:
        """Every value a full grid visits."""
        return self.levels if self.levels is not None else self.range.grid()

    def at(self, u: float) -> Any:
        """The value at quantile ``u`` of a sampled design: a level chosen uniformly, or a point of the range."""
        if self.levels is not None:
            return self.levels[min(int(u * len(self.levels)), len(self.levels) - 1)]
        return self.range.at(u)


@dataclass(frozen=True)
class SweepSpec:
    """A whole sweep, validated: build it with :func:`~kemps_sim.sweep.spec.read_spec` or
    :func:`~kemps_sim.sweep.spec.spec_from_mapping`, which check every field and every cell."""

    name: str
    seed: int
    matches: int
    output: str
    design: str
    samples: int | None
    chunk: int | None
    events: bool
    base: Mapping[str, Any]
    axes: tuple[Axis, ...]
    source: Mapping[str, Any]  # the spec as given (plain TOML data), kept in the results' manifest

    def base_rule_overrides(self) -> dict[str, Any]:
        """The rule knobs the base sets: its ``set`` table, and ``players``."""
        overrides = dict(self.base.get("set") or {})
        if "players" in self.base:
            overrides["players"] = self.base["players"]
        return overrides

    def base_rules(self) -> Rules:
        """The rules of the base, before any axis is applied."""
        return load_rules(self.base.get("rules", "standard"), **self.base_rule_overrides())

    def identity(self) -> dict[str, Any]:
        """What decides the rows, with defaults filled in: everything but the name, the output folder and the chunk
        size, plus the base rules as resolved (so an edited rules file counts as a different spec)."""
        return {"seed": self.seed, "matches": self.matches, "design": self.design, "samples": self.samples,
                "events": self.events, "base": plain_data(self.base), "base_rules": self.base_rules().as_dict(),
                "axes": [[axis.name, plain_data(axis.levels) if axis.levels is not None
                          else plain_data(vars(axis.range))] for axis in self.axes]}

    def identity_text(self) -> str:
        """:meth:`identity` as canonical JSON, for comparing a folder's spec with this one."""
        return json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Cell:
    """One setting of the swept parameters (in axis order) and its stable id."""

    params: tuple[tuple[str, Any], ...]

    @property
    def id(self) -> str:
        """16 hex digits of the SHA-256 of the parameters as canonical JSON."""
        return self.digest().hex()[:16]

    def digest(self) -> bytes:
        """The SHA-256 of the parameters as canonical JSON: the same values give the same digest everywhere.

        A whole-valued float counts as the whole number (``1.0`` as ``1``), so a level keeps its cell when a
        fractional level joins its axis and turns the axis's numbers into floats.
        """
        canonical = {name: _canonical(value) for name, value in self.params}
        text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).digest()

    def as_dict(self) -> dict[str, Any]:
        """The parameters by axis name."""
        return dict(self.params)

    def label(self) -> str:
        """A short readable form, e.g. ``rules.double_kemps=True, profile.reaction.tau=0.1``."""
        return ", ".join(f"{k}={v!r}" for k, v in self.params) or "(base)"


def _canonical(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def design_cells(spec: SweepSpec) -> list[Cell]:
    """The cells of the spec's design, in a deterministic order, without duplicates."""
    names = [axis.name for axis in spec.axes]
    if spec.design == "grid":
        rows = list(itertools.product(*(axis.grid() for axis in spec.axes)))
    else:
        rng = np.random.default_rng(np.random.SeedSequence(spec.seed, spawn_key=(DESIGN_KEY,)))
        d, n = len(spec.axes), spec.samples or 1
        if d == 0:
            quantiles = np.zeros((n, 0))
        elif spec.design == "lhs":
            quantiles = qmc.LatinHypercube(d=d, rng=rng).random(n)
        else:
            quantiles = rng.random((n, d))  # row by row: more samples keep the first ones
        rows = [tuple(axis.at(float(u)) for axis, u in zip(spec.axes, row, strict=True)) for row in quantiles]
    cells = [Cell(tuple(zip(names, row, strict=True))) for row in rows]
    return list({cell.id: cell for cell in cells}.values())


def match_seed(master: int, cell: Cell, replicate: int) -> int:
    """The seed of one match: from ``SeedSequence(master)`` keyed by the cell's digest and the replicate number.

    The 63-bit result fits a signed 64-bit column and replays the match alone through ``simulate_match``.
    """
    digest = cell.digest()
    words = tuple(int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4))
    sequence = np.random.SeedSequence(master, spawn_key=(MATCH_KEY, *words, replicate))
    return int(sequence.generate_state(1, np.uint64)[0] >> np.uint64(1))


def plain_data(value: Any) -> Any:
    """TOML data as JSON-ready plain data (TOML dates become ISO text)."""
    if isinstance(value, Mapping):
        return {str(k): plain_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain_data(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)
