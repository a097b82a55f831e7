"""The optional compiled build (``setup.py`` with ``KEMPS_SIM_COMPILE``): mypyc builds its modules from their type
hints, so every listed module must type-check; and compiled modules play every match as the pure-Python ones do.
(The whole build against pure Python, for speed and traces: ``benchmarks/compiled_build.py``.)"""

from __future__ import annotations

import copy
import dataclasses
import importlib
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
from kemps_sim.gestures import DEFAULT_REPERTOIRE
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


def test_the_compiled_build_plays_every_match_as_pure_python(tmp_path: Path) -> None:
    """Every listed module compiled, as ``KEMPS_SIM_COMPILE=1 pip install .`` builds them, plays the pure-Python
    traces seed by seed, under the standard rules and Kem's (a third of a minute to build on two cores)."""
    pytest.importorskip("mypyc")
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        pytest.skip("no Python.h: nothing can be compiled here")
    copy = tmp_path / "tree"
    done = subprocess.run([sys.executable, str(TREE / "benchmarks" / "compiled_build.py"), "--matches", "4",
                           "--keep", str(copy)], capture_output=True, text=True, timeout=900, cwd=TREE)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "identical traces 4/4" in done.stdout, done.stdout
    built = sorted(str(path.relative_to(copy)).split(".")[0] + ".py" for package in ("kemps_sim", "agents")
                   for path in (copy / package).rglob("*.so"))
    assert built == sorted(compiled_modules(TREE)), built
    assert list(copy.glob("kemps_sim__mypyc*.so")), "the build's shared library is missing"
    kems = subprocess.run([sys.executable, str(TREE / "benchmarks" / "ab_trees.py"), str(TREE), str(copy),
                           "--matches", "3", "--preset", "kems", "--lineup", "collector,watcher"],
                          capture_output=True, text=True, timeout=900, cwd=TREE)
    assert kems.returncode == 0 and "identical traces 3/3" in kems.stdout, kems.stdout + kems.stderr[-2000:]

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
