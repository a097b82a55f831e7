"""The layers point one way: every import of the package (at the top of a module, inside a function or under
TYPE_CHECKING alike) is read from the source, modules are grouped into their layer (a sub-package, or a top-level
module), and the graph of layers has no circle. The directions the design names are checked one by one, so that a
circle that comes back says which rule it breaks; and the installed package list names every sub-package."""

from __future__ import annotations

import ast
import graphlib
import itertools
import tomllib
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The import name of each source folder: the built-in agents install as ``kemps_sim_agents``.
FOLDERS = {"kemps_sim": ROOT / "kemps_sim", "kemps_sim_agents": ROOT / "agents"}


def _modules() -> dict[str, Path]:
    found = {}
    for name, folder in FOLDERS.items():
        for path in sorted(folder.rglob("*.py")):
            parts = (name, *path.relative_to(folder).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def layer(module: str) -> str:
    """A module's layer: ``kemps_sim.X`` for a sub-package or top-level module X, the agents as one."""
    parts = module.split(".")
    return parts[0] if parts[0] == "kemps_sim_agents" else ".".join(parts[:2])


@cache
def imports() -> dict[str, dict[str, list[str]]]:
    """For each layer, the layers it imports and the module imports that make each edge."""
    modules = _modules()
    edges: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for name, path in modules.items():
        package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = name.split(".") if package else name.split(".")[:-1]
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            else:
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if not target or target == "kemps_sim":  # the package's own front door re-exports every layer
                    continue
                source, destination = layer(name), layer(target)
                if name != "kemps_sim" and source != destination:
                    edges[source][destination].append(f"{name} imports {target}")
    return {source: dict(found) for source, found in edges.items()}


def test_the_layers_have_no_import_circle():
    graph = {source: set(found) for source, found in imports().items()}
    try:
        order = list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        circle = exc.args[1]
        found = imports()
        why = [(found.get(a, {}).get(b) or found.get(b, {}).get(a))[0] for a, b in itertools.pairwise(circle)]
        pytest.fail("import circle between layers: " + " -> ".join(circle) + " (" + "; ".join(why) + ")")
    assert {"kemps_sim.engine", "kemps_sim.sweep", "kemps_sim.stats", "kemps_sim_agents"} <= set(order)


@pytest.mark.parametrize(("lower", "upper", "why"), [
    ("kemps_sim.stats", "kemps_sim.sweep", "statistics of tables sit below the sweeps that write them"),
    ("kemps_sim.belief", "kemps_sim.engine", "the belief is what a seat knows; its fitting plays matches above"),
    ("kemps_sim.belief", "kemps_sim.lineup", "the belief builds no lineups"),
    ("kemps_sim.ratings", "kemps_sim.lineup", "ratings take outcomes, not lineups"),
    ("kemps_sim.ratings", "kemps_sim.sweep", "ratings take outcomes, not sweeps"),
    ("kemps_sim.registry", "kemps_sim_agents", "the registry finds the built-ins through the game records"),
    ("kemps_sim.report", "kemps_sim.cli", "the report is worked out below the command line that prints it"),
    ("kemps_sim.krepet", "kemps_sim.cli", "a game's package needs nothing of the command line"),
    ("kemps_sim.games", "kemps_sim.records", "a game record names its parts; it imports none of them"),
    ("kemps_sim.metrics", "kemps_sim.stats", "a metric names its estimator; the statistics use the registry"),
])
def test_a_named_direction_holds(lower, upper, why):
    made = imports().get(lower, {}).get(upper, [])
    assert not made, f"{lower} must not import {upper} ({why}): {'; '.join(made[:3])}"


def test_the_install_lists_every_sub_package():
    """A sub-package missing from pyproject's list would be left out of a (non-editable) install."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {name for name, path in _modules().items() if path.name == "__init__.py"}
    assert found == listed


@pytest.mark.parametrize(("old", "new"), [("kemps_sim.stats.sensitivity", "kemps_sim.sweep.sensitivity"),
                                          ("kemps_sim.belief.fitting", "kemps_sim.calibration.belief")])
def test_a_moved_module_says_where_it_went(old, new):
    import importlib

    with pytest.raises(ImportError, match=rf"^{old} has moved: import {new}"):
        importlib.import_module(old)
    importlib.import_module(new)
