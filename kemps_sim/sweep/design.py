"""The cells of a sweep: every combination of the axes' levels (a grid), or points drawn at random or by Latin
hypercube (``scipy.stats.qmc``) from the master seed.

A cell is identified by a stable hash of its parameters, and its matches' seeds are keyed by that hash and the
replicate number: adding a cell, a level or replicates never changes the seed of a match already in the plan.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import qmc

from kemps_sim.sweep.spec import SweepSpec

#: Spawn keys under the master seed: one for the sampled design, one for the matches.
DESIGN_KEY, MATCH_KEY = 0, 1


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
