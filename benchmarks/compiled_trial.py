"""An optional compiled build, tried: the engine's hot modules compiled by Cython as they are written (plain Python,
no declarations added), played seed by seed against the pure-Python tree, for speed and identical traces.

    pip install 'cython>=3.2'
    python benchmarks/compiled_trial.py [--matches 200] [--preset standard] [--lineup collector]
                                        [--modules PATH ...] [--keep DIR]

It copies this tree's ``kemps_sim`` and ``agents`` into a temporary folder (``--keep DIR``: that folder, kept), has
Cython compile the listed modules there in place (``--modules``: paths relative to the tree; by default the modules
a match spends its time in: the engine, the belief, the built-ins' shared parts, the table, timing, perception and
the trace), then runs ``ab_trees.py`` with the pure-Python tree as A and the compiled copy as B: both speeds per
CPU second, B's speed-up and how many matches played identically. Pure Python stays the reference: nothing here
changes how kemps-sim installs or runs.

Cython before 3.2 compiles ``isinstance(x, A | B)`` (a union of types, which the code base uses) to ``False``, so
the script refuses it. Compiling the default modules takes about two minutes on two cores.

Prints figures only; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TREE = Path(__file__).resolve().parent.parent
#: The modules a match spends its time in (``py-spy`` and ``cProfile`` of 4 ``collector``s, standard rules).
HOT_MODULES = ("kemps_sim/engine/*.py", "kemps_sim/belief/*.py", "agents/composed.py", "agents/collecting.py",
               "agents/calling.py", "agents/habits.py", "agents/signalling.py", "agents/attention.py",
               "agents/signal_choice.py", "kemps_sim/timing.py", "kemps_sim/table.py", "kemps_sim/observation.py",
               "kemps_sim/trace.py", "kemps_sim/perception.py", "kemps_sim/cards.py", "kemps_sim/seating.py",
               "kemps_sim/gestures.py", "kemps_sim/intents.py")
OLDEST_CYTHON = (3, 2)


def cython_version() -> tuple[int, ...] | None:
    """The installed Cython's version, or None if there is none."""
    try:
        import Cython
    except ImportError:
        return None
    return tuple(int(part) for part in Cython.__version__.split(".")[:2] if part.isdigit())


def modules(patterns: list[str]) -> list[str]:
    """The tree's files that ``patterns`` name, sorted; a pattern that names none is an error."""
    found: list[str] = []
    for pattern in patterns:
        names = sorted(str(path.relative_to(TREE)) for path in TREE.glob(pattern)
                       if path.suffix == ".py" and path.name != "__init__.py")
        if not names:
            raise ValueError(f"--modules {pattern}: names no module of the tree (a path such as "
                             "kemps_sim/engine/round.py or kemps_sim/belief/*.py)")
        found += [name for name in names if name not in found]
    return found


def build(into: Path, files: list[str]) -> None:
    """A copy of the tree's packages in ``into``, with ``files`` compiled in place."""
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.c")
    for package in ("kemps_sim", "agents"):
        shutil.copytree(TREE / package, into / package, ignore=skip)
    jobs = str(os.cpu_count() or 1)
    done = subprocess.run([sys.executable, "-m", "Cython.Build.Cythonize", "-i", "-3", "-j", jobs, "-X", "binding=True",
                           *files], cwd=into, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("Cython could not compile the modules:\n" + (done.stderr or done.stdout)[-3000:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--lineup", default="collector")
    parser.add_argument("--modules", nargs="+", default=list(HOT_MODULES), metavar="PATH",
                        help="modules to compile, relative to the tree (globs allowed); default: the hot modules")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="build the compiled copy in DIR (a new folder) and keep it")
    args = parser.parse_args()
    version = cython_version()
    if version is None or version < OLDEST_CYTHON:
        parser.error(f"Cython {'is not installed' if version is None else '.'.join(map(str, version))}: "
                     "this trial needs Cython 3.2 or later (pip install 'cython>=3.2')")
    if args.matches < 1:
        parser.error(f"--matches {args.matches}: must be a whole number >= 1")
    if args.keep is not None and args.keep.exists():
        parser.error(f"--keep {args.keep}: already exists; give a new folder")
    try:
        files = modules(args.modules)
    except ValueError as exc:
        parser.error(str(exc))
    print(f"compiling {len(files)} modules with Cython {'.'.join(map(str, version))} (plain Python, as written)",
          flush=True)
    with tempfile.TemporaryDirectory(prefix="kemps-compiled-") as scratch:
        copy = args.keep.resolve() if args.keep is not None else Path(scratch) / "tree"
        copy.mkdir(parents=True)
        try:
            build(copy, files)
        except RuntimeError as exc:
            print(f"compiled_trial.py: {exc}", file=sys.stderr)
            return 1
        compiled = [path for package in ("kemps_sim", "agents") for path in (copy / package).rglob("*.so")]
        print(f"compiled: {len(compiled)} extension modules in {copy}", flush=True)
        done = subprocess.run([sys.executable, str(TREE / "benchmarks" / "ab_trees.py"), str(TREE), str(copy),
                               "--matches", str(args.matches), "--preset", args.preset, "--lineup", args.lineup])
        return done.returncode


if __name__ == "__main__":
    sys.exit(main())
