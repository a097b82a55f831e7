"""Small sweep specs for the tests: one-round matches, so a cell of a few matches takes a fraction of a second."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from kemps_sim.sweep import SweepSpec, load_results, spec_from_mapping

SHORT_RULES = {"scoring": "rounds_won", "rounds_to_play": 1}
AXES = {"rules.double_kemps": [False, True], "profile.observer.d_fixated": [1.0, 2.0]}


def quick_data(output: Path, matches: int = 6, axes: dict[str, Any] | None = None, **sweep: Any) -> dict[str, Any]:
    """The plain data of a quick spec writing to ``output``."""
    return {"sweep": {"name": "quick", "seed": 7, "matches": matches, "output": str(output), **sweep},
            "base": {"rules": "standard", "set": dict(SHORT_RULES), "lineup": "collector,watcher"},
            "axes": AXES if axes is None else axes}


def quick_spec(output: Path, matches: int = 6, axes: dict[str, Any] | None = None, **sweep: Any) -> SweepSpec:
    """A validated quick spec writing to ``output``."""
    return spec_from_mapping(quick_data(output, matches, axes, **sweep))


def toml_text(data: dict[str, Any]) -> str:
    """A spec's plain data as TOML (only what quick specs use: tables of scalars and lists)."""
    lines: list[str] = []
    for section, table in data.items():
        scalars = {k: v for k, v in table.items() if not isinstance(v, dict)}
        lines.append(f"[{section}]")
        lines += [f"{_key(k)} = {_value(v)}" for k, v in scalars.items()]
        for key, value in table.items():
            if isinstance(value, dict):
                lines.append(f"[{section}.{key}]")
                lines += [f"{_key(k)} = {_value(v)}" for k, v in value.items()]
    return "\n".join(lines) + "\n"


def _key(key: str) -> str:
    return f'"{key}"' if "." in key else key


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return repr(value)


def all_tables(folder: Path) -> dict[str, pd.DataFrame]:
    """Every table of a results folder."""
    return dict(load_results(folder).tables)


def assert_same_tables(a: dict[str, pd.DataFrame], b: dict[str, pd.DataFrame]) -> None:
    """The same tables with the same rows in the same order."""
    assert sorted(a) == sorted(b)
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], obj=name)
