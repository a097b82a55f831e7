"""Comparing spec identities: whether a new spec only adds cells or replicates to the one a folder was run with,
and the first field in which two identities differ (for one-line refusals)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Identity fields added after folders were first written, with the value an identity without them meant: a folder
#: from before common random numbers played cell-keyed seeds.
LEGACY_IDENTITY = {"common_random_numbers": False}


def extension_problem(old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """Why the spec identity ``new`` does not merely add cells or replicates to ``old`` (None if it does).

    Everything must stay as it was except: more matches per cell, more levels on a listed axis (every old level
    kept, the axes in the same order), more samples of a random or sobol design and more trajectories of a morris
    design (whose first samples or trajectories stay the same).
    """
    for key in sorted(set(old) | set(new)):
        if key not in ("matches", "samples", "trajectories", "axes", *TARGET_FIELDS) and old.get(key) != new.get(key):
            return f"{key} changed"
    target = _target_problem(old, new)
    if target:
        return target
    if new.get("matches", 0) < old.get("matches", 0):
        return f"matches went down from {old['matches']} to {new['matches']}"
    if old.get("samples") != new.get("samples") and (
            new.get("design") not in ("random", "sobol") or (new.get("samples") or 0) < (old.get("samples") or 0)):
        return "only a random or sobol design can draw more samples (a Latin hypercube is redrawn whole)"
    if (new.get("trajectories") or 0) < (old.get("trajectories") or 0):
        return f"trajectories went down from {old['trajectories']} to {new['trajectories']}"
    old_axes, new_axes = old.get("axes", []), new.get("axes", [])
    if [name for name, _ in old_axes] != [name for name, _ in new_axes]:
        return "the axes are not the same ones in the same order"
    for (name, before), (_, after) in zip(old_axes, new_axes, strict=True):
        if isinstance(before, list) and isinstance(after, list):
            if any(level not in after for level in before):
                return f"axis {name} lost a level"
        elif before != after:
            return f"axis {name} changed its range"
    return None


#: The identity fields of a precision-targeted sweep (present only when it has ``until_ci``).
TARGET_FIELDS = ("until_ci", "until_metric", "max_matches")


def _target_problem(old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """Why a change of precision target does not merely add replicates: a plain sweep may gain a target, and a
    target may tighten (until_ci down) or its cap rise; anything that could leave stored matches unexplained by the
    new spec (a looser target, a lower cap, another metric, dropping the target) is refused."""
    if old.get("until_ci") is None:
        return None
    if new.get("until_ci") is None:
        return "until_ci was dropped (a plain sweep cannot describe the replicates the target added)"
    if new["until_metric"] != old["until_metric"]:
        return f"until_metric changed from {old['until_metric']} to {new['until_metric']}"
    if new["until_ci"] > old["until_ci"]:
        return f"until_ci went up from {old['until_ci']} to {new['until_ci']} (only a tighter target adds matches)"
    if new["max_matches"] < old["max_matches"]:
        return f"max_matches went down from {old['max_matches']} to {new['max_matches']}"
    return None


def difference(old: Mapping[str, Any], new: Mapping[str, Any], prefix: str = "") -> str:
    """The first field in which two spec identities differ, as ``field: old -> new``."""
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if isinstance(a, Mapping) and isinstance(b, Mapping):
            inner = difference(a, b, f"{prefix}{key}.")
            if inner:
                return inner
        elif a != b:
            return f"{prefix}{key}: {_short(a)} -> {_short(b)}"
    return ""


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
