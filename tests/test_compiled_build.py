"""The optional compiled build (``setup.py`` with ``KEMPS_SIM_COMPILE``): mypyc builds its modules from their type
hints, so every listed module must type-check; and compiled modules play every match as the pure-Python ones do.
(The whole build against pure Python, for speed and traces: ``benchmarks/compiled_build.py``.)"""

from __future__ import annotations

import ast
import copy
import dataclasses
import importlib
import json
import os
import pickle
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from kemps_sim import load_rules
from kemps_sim.belief.tells import TimingTells
from kemps_sim.build import compiled_modules
from kemps_sim.games import DEFAULT_GAME
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.registry import builtin_names
from kemps_sim.scoring import Call, CallKind, ScoreDelta, Standings

TREE = Path(__file__).resolve().parent.parent


def test_every_module_of_the_compiled_build_exists_and_type_checks(tmp_path: Path) -> None:
    """mypy, with the settings mypyc builds with (``[tool.mypy]``), finds no error in any listed module."""
    api = pytest.importorskip("mypy.api")
    modules = compiled_modules(TREE)
    assert modules and all((TREE / name).is_file() for name in modules), modules
    assert len(set(modules)) == len(modules)
    out, err, status = api.run(["--cache-dir", str(tmp_path / "cache"), *modules])
    assert status == 0, out[-4000:] + err[-2000:]


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """Every listed module compiled in a copy of the tree, as ``KEMPS_SIM_COMPILE=1 pip install .`` builds them
    (about 40 s on two cores), and folders from which the pure-Python tree and the copy import: (copy, pure,
    compiled)."""
    pytest.importorskip("mypyc")
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        pytest.skip("no Python.h: nothing can be compiled here")
    folder = tmp_path_factory.mktemp("compiled")
    copy = folder / "tree"
    done = subprocess.run([sys.executable, str(TREE / "benchmarks" / "compiled_build.py"), "--matches", "4",
                           "--keep", str(copy)], capture_output=True, text=True, timeout=900, cwd=TREE)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "identical traces 4/4" in done.stdout, done.stdout
    sys.path.insert(0, str(TREE / "benchmarks"))
    try:
        from ab_trees import importable
    finally:
        sys.path.remove(str(TREE / "benchmarks"))
    return copy, importable(TREE, folder / "pure"), importable(copy, folder / "importable")


def test_the_compiled_build_plays_every_match_as_pure_python(build: tuple[Path, Path, Path]) -> None:
    """The compiled build plays the pure-Python traces seed by seed, under the standard rules and Kem's, with every
    built-in agent; every listed module was built."""
    copy = build[0]
    built = sorted(str(path.relative_to(copy)).split(".")[0] + ".py" for package in ("kemps_sim", "agents")
                   for path in (copy / package).rglob("*.so"))
    assert built == sorted(compiled_modules(TREE)), built
    assert list(copy.glob("kemps_sim__mypyc*.so")), "the build's shared library is missing"
    for preset, lineup in [("kems", "collector,watcher"), *(("standard", ",".join(seats)) for seats in
                                                           every_builtin_by_seat()), ("kems", "cautious,bluffer")]:
        played = subprocess.run([sys.executable, str(TREE / "benchmarks" / "ab_trees.py"), str(TREE), str(copy),
                                 "--matches", "2", "--preset", preset, "--lineup", lineup],
                                capture_output=True, text=True, timeout=900, cwd=TREE)
        assert played.returncode == 0 and "identical traces 2/2" in played.stdout, (
            f"{preset}, {lineup}: " + played.stdout + played.stderr[-2000:])


def test_python_classes_derive_from_the_compiled_classes_that_allow_it(build: tuple[Path, Path, Path]) -> None:
    derive = ("import importlib, sys; sys.path.insert(0, sys.argv[1])\n"
              "for module, name in (line.split() for line in sys.argv[2:]):\n"
              "    loaded = importlib.import_module(module)\n"
              "    assert loaded.__file__.endswith('.so'), loaded.__file__\n"
              "    type('Derived', (getattr(loaded, name),), {})\n")
    derived = subprocess.run([sys.executable, "-c", derive, str(build[2]),
                              *(f"{module} {name}" for module, name in open_classes())],
                             capture_output=True, text=True, timeout=120, cwd=build[2])
    assert derived.returncode == 0, derived.stderr[-2000:]


def test_bad_input_is_refused_alike_by_both_builds(build: tuple[Path, Path, Path]) -> None:
    """Compiled code checks its declared types on entry (a text where an int is declared is a bare TypeError, a
    bool passes as 0 or 1), so every door that takes what a user, a script or an agent gives declares ``object``
    and checks it itself: each case of ``tests/bad_input_probe.py`` ends the same way in both builds."""
    outcomes = []
    for folder in build[1:]:
        done = subprocess.run([sys.executable, str(TREE / "tests" / "bad_input_probe.py"), str(folder)],
                              capture_output=True, text=True, timeout=300, cwd=folder)
        assert done.returncode == 0, done.stderr[-2000:]
        outcomes.append(json.loads(done.stdout))
    pure, compiled = outcomes
    assert all(not outcome.startswith(("TypeError", "returned")) for outcome in pure.values()), pure
    assert compiled == pure


def every_builtin_by_seat() -> list[tuple[str, ...]]:
    """Every built-in agent, four to a table: each one's parts run compiled, and its own classes (some deriving from
    compiled ones) stay Python. ``ppo`` is left out: it plays only a model trained beforehand, through PyTorch, and
    the engine's side of it is that of every other agent."""
    names = [name for name in builtin_names(DEFAULT_GAME) if name != "ppo"]
    names += names[:-len(names) % 4]  # the last table filled up with the first agents
    return [tuple(names[start:start + 4]) for start in range(0, len(names), 4)]

def compiled_classes() -> dict[str, tuple[str, ast.ClassDef]]:
    """Every class the compiled build's modules define, by name: (its module's import name, its definition)."""
    found = {}
    for name in compiled_modules(TREE):
        module = name.removesuffix(".py").replace("agents/", "kemps_sim_agents/").replace("/", ".")
        for node in ast.parse((TREE / name).read_text()).body:
            if isinstance(node, ast.ClassDef):
                found[node.name] = (module, node)
    return found


def allows_python_subclasses(node: ast.ClassDef) -> bool:
    return any(isinstance(d, ast.Call) and getattr(d.func, "id", "") == "mypyc_attr"
               and any(k.arg == "allow_interpreted_subclasses" and getattr(k.value, "value", False) for k in d.keywords)
               for d in node.decorator_list)


def open_classes() -> list[tuple[str, str]]:
    """The compiled classes Python classes may derive from: (module, name)."""
    return [(module, name) for name, (module, node) in compiled_classes().items() if allows_python_subclasses(node)]


def test_every_class_deriving_from_a_compiled_one_is_allowed_to() -> None:
    """In the compiled build a Python class can derive from a compiled one only if that one allows it
    (``mypyc_attr(allow_interpreted_subclasses=True)``); every such class of the source tree, its examples and its
    tests derives from one that does, so the compiled build plays every built-in."""
    classes, listed = compiled_classes(), set(compiled_modules(TREE))
    refused = []
    for path in sorted(TREE.glob("**/*.py")):
        relative = path.relative_to(TREE).as_posix()
        if relative in listed or relative.startswith((".", "build/")) or "/." in relative:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
                    if name in classes and not allows_python_subclasses(classes[name][1]):
                        refused.append(f"{relative}: {node.name}({name})")
    assert not refused, refused
    assert len(open_classes()) >= 6, open_classes()  # the decorator is recognised


def test_a_setting_a_python_subclass_overrides_is_a_class_variable() -> None:
    """Compiled code reads a plain class-body attribute from the instance's own slot, so a Python subclass
    overriding it in its class body would go unseen; in a class that allows Python subclasses every class-body
    value is a ``ClassVar``, which compiled code looks up on the class."""
    plain = []
    for name, (module, node) in compiled_classes().items():
        if allows_python_subclasses(node):
            for statement in node.body:
                if isinstance(statement, ast.Assign) or (isinstance(statement, ast.AnnAssign) and statement.value
                                                         and "ClassVar" not in ast.unparse(statement.annotation)):
                    plain.append(f"{module}.{name}: {ast.unparse(statement).splitlines()[0]}")
    assert not plain, plain


def test_a_module_not_in_the_list_is_refused_in_one_line() -> None:
    done = subprocess.run([sys.executable, "setup.py", "--name"], capture_output=True, text=True, cwd=TREE,
                          env={**os.environ, "KEMPS_SIM_COMPILE": "kemps_sim/cards.py,kemps_sim/nope.py"})
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "setup.py: KEMPS_SIM_COMPILE = 'kemps_sim/cards.py,kemps_sim/nope.py': kemps_sim/nope.py not in the compiled "
        "build's list ([tool.kemps-sim] compiled in pyproject.toml); give 1 for all of them, or some of those paths"]


def frozen_dataclasses() -> list[type]:
    """Every frozen dataclass the compiled build's modules define."""
    found = []
    for name in compiled_modules(TREE):
        module = importlib.import_module(name.removesuffix(".py").replace("agents/", "kemps_sim_agents/")
                                         .replace("/", "."))
        for value in vars(module).values():
            if (isinstance(value, type) and value.__module__ == module.__name__ and dataclasses.is_dataclass(value)
                    and value.__dataclass_params__.frozen):
                found.append(value)
    return found


def test_every_frozen_dataclass_of_the_build_pickles_through_its_constructor() -> None:
    """Compiled, a frozen dataclass cannot be pickled or copied by attribute writes; each one in the compiled
    modules rebuilds itself from its init fields (``kemps_sim.pickling``)."""
    classes = frozen_dataclasses()
    assert len(classes) >= 10, classes
    missing = [cls.__qualname__ for cls in classes if "__reduce__" not in vars(cls)]
    assert not missing, f"frozen dataclasses without a __reduce__ of their own: {missing}"


@pytest.mark.parametrize("value", [
    DEFAULT_REPERTOIRE, Call(CallKind.STOP_KEMPS, 0, 1), ScoreDelta.zero(3), Standings.start(load_rules("kems")),
    TimingTells(),
], ids=lambda value: type(value).__name__)
def test_a_frozen_value_survives_pickle_and_copies(value: object) -> None:
    for twin in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert twin == value and type(twin) is type(value)
