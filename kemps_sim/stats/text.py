"""Estimates in words, for the sentences a notebook or report prints: the value with its interval, its level and
its sample size, and whether two estimates are told apart by their intervals or lie within noise of each other."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def estimate_text(row: Mapping[str, Any], percent: bool = True, unit: str = "", digits: int = 1) -> str:
    """``value [ci_low, ci_high] (95% CI, n = N)`` from a statistics row (``value``, ``ci_low``, ``ci_high``,
    ``ci_level``, ``n``); shares as percentages unless ``percent`` is off."""
    def number(x: float) -> str:
        return f"{x:.0%}" if percent else f"{x:.{digits}f}{unit}"

    level = row.get("ci_level", 0.95)
    return (f"{number(row['value'])} [{number(row['ci_low'])}, {number(row['ci_high'])}] "
            f"({level:.0%} CI, n = {int(row['n'])})")


def apart(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    """Whether the two estimates' intervals do not overlap (a difference the data tell apart from noise)."""
    return first["ci_low"] > second["ci_high"] or second["ci_low"] > first["ci_high"]


def difference_text(first: Mapping[str, Any], second: Mapping[str, Any], names: tuple[str, str]) -> str:
    """A clause saying whether ``names[0]`` and ``names[1]`` differ beyond noise, judged by their intervals."""
    if apart(first, second):
        return f"the intervals of '{names[0]}' and '{names[1]}' do not overlap"
    return f"'{names[0]}' and '{names[1]}' are within noise of each other (their intervals overlap)"
