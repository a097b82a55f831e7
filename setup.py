"""The optional compiled build: with ``KEMPS_SIM_COMPILE=1`` set, ``pip install .`` compiles the engine's and the
belief's hot modules (``[tool.kemps-sim] compiled`` in ``pyproject.toml``) to C extensions with mypyc, which builds
them from their type hints (checked with ``[tool.mypy]``'s settings); without it the package is pure Python, the
reference implementation. The two play every match identically (``tests/test_compiled_build.py``,
``benchmarks/compiled_build.py``).

    KEMPS_SIM_COMPILE=1 pip install .     # pip fetches mypy for the build; needs a C compiler and Python's headers

``KEMPS_SIM_COMPILE`` may instead name some of the listed modules, separated by commas, to compile only those
(``KEMPS_SIM_COMPILE=kemps_sim/seating.py,kemps_sim/cards.py``: what the test does, quickly).
"""

from __future__ import annotations

import os
import sys
import tomllib
from contextlib import chdir
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
#: Where the build reads the sources from: links named as the packages import (mypy names a module after its folders,
#: and the built-in agents live in agents/ but import as kemps_sim_agents).
STAGE = HERE / "build" / "mypyc-src"
PACKAGES = {"kemps_sim": "kemps_sim", "kemps_sim_agents": "agents"}


def listed() -> list[str]:
    """The source files of the compiled build, as ``pyproject.toml`` lists them."""
    with open(HERE / "pyproject.toml", "rb") as file:
        return list(tomllib.load(file)["tool"]["kemps-sim"]["compiled"])


def chosen() -> list[str]:
    """The modules ``KEMPS_SIM_COMPILE`` asks for: none (unset, empty or 0), every listed one (1), or those named."""
    value = os.environ.get("KEMPS_SIM_COMPILE", "").strip()
    if value in ("", "0"):
        return []
    modules = listed()
    if value == "1":
        return modules
    named = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in named if name not in modules]
    if unknown:
        sys.exit(f"setup.py: KEMPS_SIM_COMPILE = {value!r}: {', '.join(unknown)} not in the compiled build's list "
                 "([tool.kemps-sim] compiled in pyproject.toml); give 1 for all of them, or some of those paths")
    return named


def extensions(modules: list[str]) -> list:
    """mypyc's extension modules for ``modules`` (none when none are asked for)."""
    if not modules:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if {"egg_info", "dist_info"} & set(sys.argv[1:]):
            return []  # pip first asks for the build's requirements (setup_requires below), then builds with them
        sys.exit("setup.py: KEMPS_SIM_COMPILE is set but mypy (which brings mypyc) is not installed: pip install "
                 "mypy, or unset KEMPS_SIM_COMPILE for the pure-Python package")
    STAGE.mkdir(parents=True, exist_ok=True)
    for name, folder in PACKAGES.items():
        link = STAGE / name
        if not link.is_symlink():
            link.symlink_to(HERE / folder, target_is_directory=True)
    staged = [f"kemps_sim_agents/{name.removeprefix('agents/')}" if name.startswith("agents/") else name
              for name in modules]
    with chdir(STAGE):
        made = mypycify(["--config-file", str(HERE / "pyproject.toml"), *staged], opt_level="3",
                        group_name="kemps_sim")
    for extension in made:  # its C sources and headers were written under the stage
        extension.sources = [str(STAGE / path) for path in extension.sources]
        extension.include_dirs = [path if os.path.isabs(path) else str(STAGE / path)
                                  for path in extension.include_dirs]
    return made


MODULES = chosen()
setup(ext_modules=extensions(MODULES), setup_requires=["mypy>=1.19"] if MODULES else [])
