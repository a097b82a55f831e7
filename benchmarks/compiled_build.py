"""The optional compiled build (``setup.py``, ``KEMPS_SIM_COMPILE=1``) against pure Python: its modules compiled by
mypyc in a copy of this tree, then every seed played by both, for speed and identical traces.

    pip install 'mypy>=1.19'
    python benchmarks/compiled_build.py [--matches 200] [--preset standard] [--lineup collector]
                                        [--modules PATH ...] [--keep DIR]

It copies this tree's ``kemps_sim``, ``agents``, ``setup.py`` and ``pyproject.toml`` into a temporary folder
(``--keep DIR``: that folder, kept), builds the compiled build there in place exactly as ``pip install`` would
(``KEMPS_SIM_COMPILE=1 python setup.py build_ext --inplace``; ``--modules``: only some of the listed modules), then
runs ``ab_trees.py`` with the pure-Python tree as A and the compiled copy as B: both speeds per CPU second, B's
speed-up and how many matches played identically. Building every listed module takes about 40 seconds on two
cores.

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

from kemps_sim.build import compiled_modules

TREE = Path(__file__).resolve().parent.parent


def build(into: Path, modules: list[str] | None = None) -> list[Path]:
    """A copy of the tree in ``into`` with the compiled build made in place (``modules``: only those; None: all
    listed); returns the extension modules made."""
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.c", "build")
    for package in ("kemps_sim", "agents"):
        shutil.copytree(TREE / package, into / package, ignore=skip)
    for name in ("setup.py", "pyproject.toml"):
        shutil.copyfile(TREE / name, into / name)
    env = dict(os.environ, KEMPS_SIM_COMPILE="1" if modules is None else ",".join(modules))
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=into, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("mypyc could not build the modules:\n" + (done.stdout + done.stderr)[-3000:])
    return sorted(path for path in into.rglob("*.so") if path.relative_to(into).parts[0] != "build")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--lineup", default="collector")
    parser.add_argument("--modules", nargs="+", default=None, metavar="PATH",
                        help="compile only these of the listed modules (paths relative to the tree)")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="build the compiled copy in DIR (a new folder) and keep it")
    args = parser.parse_args()
    try:
        import mypyc  # noqa: F401
    except ImportError:
        parser.error("mypy is not installed: this benchmark builds with mypyc (pip install 'mypy>=1.19')")
    if args.matches < 1:
        parser.error(f"--matches {args.matches}: must be a whole number >= 1")
    if args.keep is not None and args.keep.exists():
        parser.error(f"--keep {args.keep}: already exists; give a new folder")
    known = compiled_modules(TREE)
    for name in args.modules or ():
        if name not in known:
            parser.error(f"--modules {name}: not in the compiled build's list ([tool.kemps-sim] compiled in "
                         f"pyproject.toml: {len(known)} modules, e.g. {known[0]})")
    count = len(args.modules) if args.modules else len(known)
    print(f"compiling {count} of the {len(known)} modules of the compiled build with mypyc", flush=True)
    with tempfile.TemporaryDirectory(prefix="kemps-mypyc-") as scratch:
        copy = args.keep.resolve() if args.keep is not None else Path(scratch) / "tree"
        copy.mkdir(parents=True)
        try:
            made = build(copy, args.modules)
        except RuntimeError as exc:
            print(f"compiled_build.py: {exc}", file=sys.stderr)
            return 1
        print(f"compiled: {len(made)} extension modules in {copy}", flush=True)
        done = subprocess.run([sys.executable, str(TREE / "benchmarks" / "ab_trees.py"), str(TREE), str(copy),
                               "--matches", str(args.matches), "--preset", args.preset, "--lineup", args.lineup])
        return done.returncode


if __name__ == "__main__":
    sys.exit(main())
