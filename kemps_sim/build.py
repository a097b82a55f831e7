"""Which build of kemps-sim is running: the pure-Python reference, or the optional compiled build (``setup.py``,
``KEMPS_SIM_COMPILE=1``), whose engine, belief and agents' parts mypyc made C extensions of. Both play every match
identically; benchmarks print which one they measured, and those that count the engine's calls by replacing its
methods need the pure-Python one (compiled classes cannot be patched)."""

from __future__ import annotations

import importlib.machinery
import tomllib
from pathlib import Path

import kemps_sim.engine.round


def compiled() -> bool:
    """Whether the engine's modules were loaded from C extensions of the compiled build."""
    origin = kemps_sim.engine.round.__file__ or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def build_name() -> str:
    """``"compiled (mypyc)"`` or ``"pure Python"``, for printing beside a figure."""
    return "compiled (mypyc)" if compiled() else "pure Python"


def compiled_modules(tree: Path) -> list[str]:
    """The source files the compiled build compiles, as the ``pyproject.toml`` of the source tree ``tree`` lists
    them (``[tool.kemps-sim] compiled``; ``setup.py`` reads the same list, before kemps-sim can be imported)."""
    with open(Path(tree) / "pyproject.toml", "rb") as file:
        return list(tomllib.load(file)["tool"]["kemps-sim"]["compiled"])
