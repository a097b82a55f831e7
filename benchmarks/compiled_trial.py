"""An optional compiled build, tried: the engine's hot modules compiled by Cython as they are written (plain Python,
no declarations added), played seed by seed against the pure-Python tree, for speed and identical traces.

    pip install 'cython>=3.2'
    python benchmarks/compiled_trial.py [--matches 200] [--preset standard] [--lineup collector]
                                        [--modules PATH ...] [--keep DIR] [--typed [--against compiled]]

It copies this tree's ``kemps_sim`` and ``agents`` into a temporary folder (``--keep DIR``: that folder, kept), has
Cython compile the listed modules there in place (``--modules``: paths relative to the tree; by default the modules
a match spends its time in: the engine, the belief, the built-ins' shared parts, the table, timing, perception and
the trace), then runs ``ab_trees.py`` with the pure-Python tree as A and the compiled copy as B: both speeds per
CPU second, B's speed-up and how many matches played identically. Pure Python stays the reference: nothing here
changes how kemps-sim installs or runs.

``--typed`` adds C types where ``benchmarks/typed/`` declares them: a ``.pxd`` there, at a module's path in the tree
(``typed/kemps_sim/belief/tracking.pxd``), is copied beside that module, which Cython then compiles as a C class with
typed fields (its type hints set aside, the declarations ruling). ``--against compiled`` makes A the same modules
compiled as written instead of the pure-Python tree, so that B's speed-up is what the declarations add.

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
#: Declarations for ``--typed``: ``typed/<path of a module>.pxd``.
TYPED = Path(__file__).resolve().parent / "typed"
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


def with_declarations(files: list[str]) -> list[str]:
    """The ``files`` that :data:`TYPED` declares C types for."""
    return [name for name in files if (TYPED / name).with_suffix(".pxd").is_file()]


def build(into: Path, files: list[str], typed: bool = False) -> None:
    """A copy of the tree's packages in ``into``, with ``files`` compiled in place (``typed``: with the declarations
    of :data:`TYPED` for those that have one)."""
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.c", "*.pxd")
    for package in ("kemps_sim", "agents"):
        shutil.copytree(TREE / package, into / package, ignore=skip)
    declared = with_declarations(files) if typed else []
    for name in declared:
        shutil.copyfile((TYPED / name).with_suffix(".pxd"), (into / name).with_suffix(".pxd"))
    plain = [name for name in files if name not in declared]
    for group, options in ((plain, ()), (declared, ("-X", "annotation_typing=False"))):
        if group:
            cythonize(into, group, options)


def cythonize(into: Path, files: list[str], options: tuple[str, ...]) -> None:
    """Compile ``files`` of the copy in ``into`` in place, on every core."""
    jobs = str(os.cpu_count() or 1)
    done = subprocess.run([sys.executable, "-m", "Cython.Build.Cythonize", "-i", "-3", "-j", jobs, "-X", "binding=True",
                           *options, *files], cwd=into, capture_output=True, text=True)
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
    parser.add_argument("--typed", action="store_true",
                        help="add the C declarations of benchmarks/typed/ to the modules that have one")
    parser.add_argument("--against", choices=("pure", "compiled"), default="pure",
                        help="tree A: the pure-Python tree (default) or, with --typed, the same modules compiled "
                             "as written")
    args = parser.parse_args()
    version = cython_version()
    if version is None or version < OLDEST_CYTHON:
        parser.error(f"Cython {'is not installed' if version is None else '.'.join(map(str, version))}: "
                     "this trial needs Cython 3.2 or later (pip install 'cython>=3.2')")
    if args.matches < 1:
        parser.error(f"--matches {args.matches}: must be a whole number >= 1")
    if args.keep is not None and args.keep.exists():
        parser.error(f"--keep {args.keep}: already exists; give a new folder")
    if args.against == "compiled" and not args.typed:
        parser.error("--against compiled: compares the typed build with the build as written; add --typed")
    try:
        files = modules(args.modules)
    except ValueError as exc:
        parser.error(str(exc))
    declared = with_declarations(files) if args.typed else []
    if args.typed and not declared:
        parser.error(f"--typed: none of the {len(files)} modules has declarations in {TYPED} (there: "
                     + ", ".join(sorted(str(p.relative_to(TYPED)) for p in TYPED.rglob("*.pxd"))) + ")")
    how = f"{len(declared)} of them with C declarations" if args.typed else "plain Python, as written"
    print(f"compiling {len(files)} modules with Cython {'.'.join(map(str, version))} ({how})", flush=True)
    with tempfile.TemporaryDirectory(prefix="kemps-compiled-") as scratch:
        copy = args.keep.resolve() if args.keep is not None else Path(scratch) / "tree"
        copy.mkdir(parents=True)
        baseline = TREE
        try:
            build(copy, files, typed=args.typed)
            if args.against == "compiled":
                baseline = Path(scratch) / "as-written"
                baseline.mkdir()
                build(baseline, files)
        except RuntimeError as exc:
            print(f"compiled_trial.py: {exc}", file=sys.stderr)
            return 1
        compiled = [path for package in ("kemps_sim", "agents") for path in (copy / package).rglob("*.so")]
        print(f"compiled: {len(compiled)} extension modules in {copy}"
              + (f"; A: the same compiled as written, in {baseline}" if baseline != TREE else ""), flush=True)
        done = subprocess.run([sys.executable, str(TREE / "benchmarks" / "ab_trees.py"), str(baseline), str(copy),
                               "--matches", str(args.matches), "--preset", args.preset, "--lineup", args.lineup])
        return done.returncode


if __name__ == "__main__":
    sys.exit(main())
