"""The parsed form of a sweep (:class:`SweepSpec`, its :class:`Axis` and :class:`Range`) and its cells: every
combination of the axes' levels (a grid), points drawn at random or by Latin hypercube (``scipy.stats.qmc``) from
the master seed, or the sample of a sensitivity analysis (SALib): Saltelli's scheme for Sobol' indices, or Morris
trajectories.

A cell is identified by a stable hash of its parameters. Its matches' seeds come from the master seed keyed either
by that hash and the replicate number, or, under common random numbers, by the replicate number alone, so that
replicate r of every cell deals the same cards and draws the same human timings. Either way adding a cell, a level
or replicates never changes the seed of a match already in the plan.

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

from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME, game

#: The designs a sweep may use.
DESIGNS = ("grid", "random", "lhs", "sobol", "morris")
#: The designs of a sensitivity analysis: numeric ranges only, cells in the order of SALib's sample matrix.
SENSITIVITY_DESIGNS = ("sobol", "morris")
#: The designs under which common random numbers are on unless the spec says otherwise: those whose cells are
#: compared with one another (a grid's levels, a tournament's seatings) or analysed as one function of the sample
#: point (Sobol', Morris). Random and Latin-hypercube designs, whose cells are not compared pairwise, default to off.
PAIRED_DESIGNS = ("grid", "sobol", "morris")
#: Spawn keys under the master seed: the sampled design, the matches of one cell, the matches shared by every cell.
DESIGN_KEY, MATCH_KEY, COMMON_KEY = 0, 1, 2
#: The default number of grid levels of a Morris design.
MORRIS_LEVELS = 4


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
        """The value at quantile ``u`` in [0, 1] of a uniform (log-uniform under ``log``) draw over the range."""
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
class CompareSpec:
    """The question a sweep asks (its ``[compare]`` table): the difference ``a - b`` in ``metric`` between two
    levels of the listed axis ``by``, for pair ``pair`` (Kemps) or player ``pair`` (Krepet), pooled over the other
    axes. ``a`` and ``b`` are the axis's own levels, typed as the axis holds them; ``question`` is printed before the
    answer. It decides no row: a spec's identity leaves it out."""

    by: str
    a: Any
    b: Any
    metric: str = "win_rate"
    pair: int = 0
    question: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The ``[compare]`` table that gives this comparison (``question`` only when there is one)."""
        table = {"by": self.by, "a": self.a, "b": self.b, "metric": self.metric, "pair": self.pair}
        return {"question": self.question, **table} if self.question is not None else table


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
    #: Replicate r of every cell plays the same match seed (the same deals and human-timing streams).
    common_random_numbers: bool = False
    second_order: bool = False  # sobol: a sample that also gives second-order indices, N x (2D + 2) cells
    trajectories: int | None = None  # morris: the number of trajectories, each of D + 1 cells
    levels: int | None = None  # morris: the number of grid levels of each range
    #: A precision-targeted sweep (see :mod:`kemps_sim.sweep.targets`): the interval half-width each cell's
    #: ``until_metric`` must reach, adding replicates in rounds up to ``max_matches`` per cell; None for a plain sweep.
    until_ci: float | None = None
    until_metric: str = "pair0.win_rate"
    max_matches: int | None = None
    #: The game the sweep plays (:func:`kemps_sim.games.game`): Kemps by default, or Krepet (whose matches are
    #: games of two players, each a side of its own: the pairs table holds one row per player), or a plugin's.
    game: str = DEFAULT_GAME
    #: The comparison the sweep's summary answers (its ``[compare]`` table), or None; not part of the identity.
    compare: CompareSpec | None = None

    def base_rule_overrides(self) -> dict[str, Any]:
        """The rule knobs the base sets: its ``set`` table, and ``players``."""
        overrides = dict(self.base.get("set") or {})
        if "players" in self.base:
            overrides["players"] = self.base["players"]
        return overrides

    def base_rules(self) -> Any:
        """The rules of the base, before any axis is applied (of the sweep's game)."""
        return game(self.game).load_rules(self.base.get("rules"), **self.base_rule_overrides())

    def sides(self) -> int:
        """How many sides a match has: Kemps' pairs, or Krepet's two players."""
        return game(self.game).sides(self.base_rules())

    def identity(self) -> dict[str, Any]:
        """What decides the rows, with defaults filled in: everything but the name, the output folder, the chunk
        size and the comparison asked (``[compare]``), plus the base rules as resolved (so an edited rules file
        counts as a different spec)."""
        identity = {"seed": self.seed, "matches": self.matches, "design": self.design, "samples": self.samples,
                    "common_random_numbers": self.common_random_numbers,
                    "events": self.events, "base": plain_data(self.base), "base_rules": self.base_rules().as_dict(),
                    "axes": [[axis.name, plain_data(axis.levels) if axis.levels is not None
                              else plain_data(vars(axis.range))] for axis in self.axes]}
        if self.design == "sobol":
            identity["second_order"] = self.second_order
        if self.design == "morris":
            identity.update(trajectories=self.trajectories, levels=self.levels)
        if self.game != DEFAULT_GAME:  # absent from a Kemps sweep's identity, so older folders still resume
            identity["game"] = self.game
        if self.until_ci is not None:  # absent from a plain sweep's identity, so older folders still resume
            identity.update(until_ci=self.until_ci, until_metric=self.until_metric, max_matches=self.max_matches)
        return identity

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
    """The cells of the spec's design, in a deterministic order, without duplicates.

    A sampled design's cells come in the order of its sample; a point drawn twice (a Morris grid point shared by
    two trajectories, say) is one cell, which plays the same matches whichever row asks for it.
    """
    cells = design_points(spec)
    return list({cell.id: cell for cell in cells}.values())


def design_points(spec: SweepSpec) -> list[Cell]:
    """The cell of every point of the design in design order, repeats included.

    For ``sobol`` and ``morris`` entry i is row i of SALib's sample matrix (see :func:`sample_matrix`), so that
    results looked up by cell id line up with the sample for :mod:`SALib.analyze`.
    """
    names = [axis.name for axis in spec.axes]
    if spec.design == "grid":
        rows = list(itertools.product(*(axis.grid() for axis in spec.axes)))
    else:
        rows = [tuple(axis.at(float(u)) for axis, u in zip(spec.axes, row, strict=True))
                for row in sample_matrix(spec)]
    return [Cell(tuple(zip(names, row, strict=True))) for row in rows]


def sample_matrix(spec: SweepSpec) -> np.ndarray:
    """The unit-cube sample behind a sampled design, one row per point and one column per axis, in [0, 1].

    Each axis maps its column to a value with :meth:`Axis.at` (uniformly over a range, log-uniformly under
    ``log``). ``sobol`` is Saltelli's scheme (``SALib.sample.sobol``, scrambled Sobol' sequence, N x (D + 2) rows,
    or N x (2D + 2) with ``second_order``); ``morris`` is ``SALib.sample.morris`` with ``levels`` grid levels,
    ``trajectories`` x (D + 1) rows. Every draw comes from the master seed.
    """
    rng = np.random.default_rng(np.random.SeedSequence(spec.seed, spawn_key=(DESIGN_KEY,)))
    d, n = len(spec.axes), spec.samples or 1
    if spec.design == "grid":
        raise ConfigError("sweep.design = 'grid': a grid has no sample matrix; its cells are every combination "
                          "of the axes' levels")
    if spec.design in SENSITIVITY_DESIGNS:
        problem = salib_problem(spec)
        if spec.design == "sobol":
            from SALib.sample import sobol

            return sobol.sample(problem, n, calc_second_order=spec.second_order, scramble=True, seed=rng)
        from SALib.sample import morris

        return morris.sample(problem, spec.trajectories or 2, num_levels=spec.levels or MORRIS_LEVELS, seed=rng)
    if d == 0:
        return np.zeros((n, 0))
    if spec.design == "lhs":
        from scipy.stats import qmc  # here, not at import: every sweep worker imports this module

        return qmc.LatinHypercube(d=d, rng=rng).random(n)
    return rng.random((n, d))  # row by row: more samples keep the first ones


def salib_problem(spec: SweepSpec) -> dict[str, Any]:
    """SALib's problem definition of a sensitivity design: one variable per axis, over the unit interval (each
    axis maps [0, 1] onto its range, so Morris effects are per whole range and comparable across axes)."""
    names = [axis.name for axis in spec.axes]
    return {"num_vars": len(names), "names": names, "bounds": [[0.0, 1.0]] * len(names)}


def match_seed(master: int, cell: Cell, replicate: int, common: bool = False) -> int:
    """The seed of one match: from ``SeedSequence(master)`` keyed by the cell's digest and the replicate number,
    or with ``common`` (common random numbers) by the replicate number alone, the same in every cell.

    The 63-bit result fits a signed 64-bit column and replays the match alone through ``simulate_match``.
    """
    if common:
        sequence = np.random.SeedSequence(master, spawn_key=(COMMON_KEY, replicate))
    else:
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
