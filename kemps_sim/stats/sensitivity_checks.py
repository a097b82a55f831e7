"""Whether sensitivity indices mean anything yet: the problems a too-small sample leaves in them, one line each, and
the sample size that would fix them.

Sobol' indices are shares of variance: each lies in [0, 1], a parameter's first-order index ``S1`` never exceeds its
total-order index ``ST``, and the ``S1`` of all parameters add up to at most 1. Estimates from a small sample break
these bounds by more than their intervals allow, or carry intervals so wide that they cannot tell an index from 0.
Morris's ``mu_star`` is an absolute effect in the metric's own unit; its interval should be narrower than ``mu_star``
itself, or than a tenth of the largest ``mu_star`` for a parameter that barely matters.

The suggested size rests on the Monte Carlo rate: a bootstrap half-width ``h`` at base sample ``N`` (or ``r``
Morris trajectories) shrinks like ``1/sqrt(N)``, so ``N * (h / goal)**2`` brings it under ``goal``. Each index's goal
is the index itself (then its interval excludes 0) or :data:`TARGET_HALFWIDTH` when the index is smaller than that
(then it is known to be small); the suggestion is the size that brings every half-width under its goal, rounded up
to a power of 2 for Sobol' (Saltelli's scheme needs one).

More sample points cannot help a metric whose points differ mostly by the luck of their matches: each point's value
is a mean over ``m`` matches, whose variance ``s^2 / m`` (``s^2`` the variance between one point's matches) is noise
the indices apportion as if the parameters caused it. :func:`with_luck` adds a problem when that noise is more than
:data:`LUCK_SHARE` of the variance between points, with the matches a point that bring it under: the noise falls
like ``1/m``, so ``m' = m L (1 - share) / ((1 - L) share)`` for a luck share ``L``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
from scipy import stats

__all__ = ["LUCK_SHARE", "TARGET_HALFWIDTH", "SensitivityWarning", "Verdict", "morris_verdict", "sobol_verdict",
           "with_luck"]

#: The half-width under which a Sobol' index smaller than it counts as known (indices are shares, 0 to 1).
TARGET_HALFWIDTH = 0.1
#: For Morris: the share of the largest mu* under which a smaller mu*'s half-width counts as known.
TARGET_SHARE = 0.1
#: The share of the variance between sample points that the luck of their matches may make up.
LUCK_SHARE = 0.1


class SensitivityWarning(UserWarning):
    """Sensitivity indices whose intervals or bounds say the sample is too small for them to mean anything."""


@dataclass(frozen=True)
class Verdict:
    """What is wrong with a table of indices (one line per problem, none when they can be read) and the sample
    size that would fix it: ``size`` is the Sobol' base sample ``N`` or the number of Morris trajectories (None when
    more samples would not help or nothing is wrong)."""

    problems: tuple[str, ...] = ()
    suggestion: str | None = None
    size: int | None = None

    def lines(self) -> list[str]:
        """The problems, then the suggestion."""
        return [*self.problems, *([self.suggestion] if self.suggestion else [])]


@dataclass(frozen=True)
class _Widest:
    """The half-width furthest above its goal: which index, its half-width and its goal."""

    label: str
    half: float
    goal: float

    @property
    def ratio(self) -> float:
        return self.half / self.goal


def sobol_verdict(table: pd.DataFrame, samples: int, points: int, matches: int,
                  target: float = TARGET_HALFWIDTH) -> Verdict:
    """The problems of a table of Sobol' indices (``S1``/``ST`` with ``*_conf`` half-widths per ``parameter``, or
    ``S2`` per ``parameter`` and ``other``) from base sample ``samples``, that is ``points`` sample points of
    ``matches`` matches each."""
    problems: list[str] = []
    widest: _Widest | None = None
    names = [_label(row) for row in table.to_dict("records")]
    for index in ("S1", "ST", "S2"):
        if index not in table.columns:
            continue
        for name, value, half in zip(names, table[index], table[f"{index}_conf"], strict=True):
            if not (math.isfinite(value) and math.isfinite(half)):
                continue
            shown = f"{index} of {name} = {value:.3f} ± {half:.3f}"
            goal = max(abs(value), target)
            if value + half < 0 or value - half > 1:
                side = "below 0" if value < 0 else "above 1"
                problems.append(f"{shown}: {side} beyond its interval, though an index is a share of variance")
            elif half > goal:
                problems.append(f"{shown}: its interval is wider than the index and than {target:g}, so it "
                                "cannot tell the index from 0")
            if widest is None or half / goal > widest.ratio:
                widest = _Widest(f"{index} of {name}", half, goal)
    if {"S1", "ST"} <= set(table.columns):
        problems += _bounds(table, names)
    if not problems or widest is None:
        return Verdict(tuple(problems))
    if widest.ratio <= 1:
        return Verdict(tuple(problems), f"the intervals are narrow already, so a larger N will not help: the metric "
                       f"may be too noisy at {matches} match{'es' if matches != 1 else ''} a point; play more "
                       "matches per point")
    raw = samples * widest.ratio ** 2
    size = 1 << max(0, math.ceil(raw) - 1).bit_length()
    cost = _cost(size * points // samples, matches)
    return Verdict(tuple(problems), _suggestion("N", samples, widest, raw, f"samples = {size} ({cost})", target),
                   size)


def morris_verdict(table: pd.DataFrame, trajectories: int, points: int, matches: int,
                   share: float = TARGET_SHARE) -> Verdict:
    """The problems of a table of Morris indices (``mu_star`` and ``mu_star_conf`` per ``parameter``) from
    ``trajectories`` trajectories, that is ``points`` sample points of ``matches`` matches each: a half-width above
    both its ``mu_star`` and ``share`` of the largest one."""
    values, halves = table["mu_star"].to_numpy(float), table["mu_star_conf"].to_numpy(float)
    finite = [v for v in values if math.isfinite(v)]
    largest = max(finite, default=0.0)
    if largest <= 0:
        return Verdict()
    floor = share * largest
    problems: list[str] = []
    widest: _Widest | None = None
    for name, value, half in zip(table["parameter"], values, halves, strict=True):
        if not (math.isfinite(value) and math.isfinite(half)):
            continue
        goal = max(value, floor)
        if half > goal:
            problems.append(f"mu* of {name} = {value:.3g} ± {half:.3g}: its interval is wider than mu* and than "
                            f"{share:g} of the largest mu* ({largest:.3g}), so it cannot tell the effect from 0")
        if widest is None or half / goal > widest.ratio:
            widest = _Widest(f"mu* of {name}", half, goal)
    if not problems or widest is None:
        return Verdict(tuple(problems))
    raw = trajectories * widest.ratio ** 2
    size = math.ceil(raw)
    cost = _cost(size * points // trajectories, matches)
    return Verdict(tuple(problems), _suggestion("r", trajectories, widest, raw, f"trajectories = {size} ({cost})",
                                                f"{share:g} of the largest mu*"), size)


def with_luck(verdict: Verdict, luck: float, matches: int, points: int = 0, share: float = LUCK_SHARE) -> Verdict:
    """``verdict`` with one more problem when ``luck`` (the mean over ``points`` sample points of their matches'
    variance over ``matches``, as a share of the variance between the points' values) is above ``share``: the
    suggestion then names the matches a point that would bring it under ``share``. When one-way analysis of
    variance (``F = 1 / luck`` on ``points - 1`` and ``points (matches - 1)`` degrees of freedom) cannot tell the
    points apart at the 5% level, it says that the parameters show no effect at all at this size. Under common
    random numbers the points share some of their luck, so ``luck`` is an upper bound there."""
    if not math.isfinite(luck) or luck <= share:
        return verdict
    each = f"{matches} match{'es' if matches != 1 else ''} each"
    if points > 1 and matches > 1 and stats.f.sf(1.0 / luck, points - 1, points * (matches - 1)) > 0.05:
        line = (f"the sample points differ no more than the luck of their {each} would make them differ (analysis "
                "of variance), so the indices apportion noise: the parameters show no effect at this size")
        return Verdict((*verdict.problems, line), verdict.suggestion, verdict.size)
    needed = math.ceil(matches * luck * (1 - share) / ((1 - luck) * share))
    line = (f"{luck:.0%} of the variance between sample points is the luck of their {each} (at most, as common "
            f"random numbers share some of it), so the indices apportion that noise as if the parameters caused "
            f"it; about {needed} matches a point bring it under {share:.0%} (the noise falls like 1/matches)")
    return Verdict((*verdict.problems, line), verdict.suggestion, verdict.size)


def _bounds(table: pd.DataFrame, names: Sequence[str]) -> list[str]:
    """S1 above ST, and the S1 adding up to more than 1, each beyond what the intervals allow."""
    problems = []
    for name, first, first_half, total, total_half in zip(names, table["S1"], table["S1_conf"], table["ST"],
                                                          table["ST_conf"], strict=True):
        noise = math.hypot(first_half, total_half)
        if first - total > noise:
            problems.append(f"S1 of {name} = {first:.3f} exceeds its ST = {total:.3f} by more than their intervals "
                            f"allow (± {noise:.3f}), though S1 can never exceed ST")
    first = table["S1"].to_numpy(float)
    noise = math.sqrt(float((table["S1_conf"].to_numpy(float) ** 2).sum()))
    if len(first) > 1 and first.sum() - 1 > noise:
        problems.append(f"the S1 add up to {first.sum():.2f} ± {noise:.2f}, beyond 1, though the shares of "
                        "variance the parameters cause alone add up to at most 1")
    return problems


def _suggestion(symbol: str, size: int, widest: _Widest, raw: float, setting: str, floor: str | float) -> str:
    floor = f"{floor:g}" if isinstance(floor, float) else floor
    return (f"{symbol} = {size} is too small: half-widths shrink like 1/sqrt({symbol}), so bringing the widest "
            f"({widest.label}, ± {widest.half:.3g}) under its goal {widest.goal:.3g} (the index itself, or {floor} "
            f"if larger) needs {symbol} = {size} x ({widest.half:.3g} / {widest.goal:.3g})^2 = {raw:.0f}: "
            f"{setting}; check again there, as the half-widths of a small sample are rough themselves")


def _cost(points: int, matches: int) -> str:
    return f"{points * matches:,} matches at {matches} a point"


def _label(row: dict) -> str:
    """A row's parameter, or its two parameters for a second-order index."""
    return f"{row['parameter']} x {row['other']}" if "other" in row else str(row["parameter"])
