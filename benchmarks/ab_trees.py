"""Two source trees of kemps-sim side by side: speed per CPU second and identical traces, seed by seed.

    python benchmarks/ab_trees.py TREE_A TREE_B [--matches 200] [--preset standard] [--lineup collector]
                                  [--engine SETTING=VALUE] [--core 0]

Each tree (a checkout or a worktree: ``git worktree add /tmp/before HEAD~1``) is played by a worker process of its
own, pinned to the same core, that imports that tree's ``kemps_sim`` and agents; every seed is played by both, one
after the other in alternating order, and each match's CPU time and trace fingerprint sent back. It prints both
rates, the speed of B against A and how many matches played identically: the measure of a lever that claims to
change nothing, where load from elsewhere falls on both trees alike (a run of a tree against itself gives its
noise: about ±2 % at 150 matches on a shared machine). ``--engine`` sets an engine setting in each tree that has
it (e.g. ``all_looks=true`` to compare with a tree from before a lever that changed traces on purpose). Each match
collects garbage as ``simulate_match`` does by default (``kemps_sim.engine.gc_pause``; before 2026-12-03 the workers
left Python's thresholds as they are, which costs a compiled match about a sixth of its time).

Prints figures only; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from trace_compare import engine_value  # this folder is on the path of a script run from it

WORKER = r'''
import dataclasses, hashlib, json, os, sys, time
os.sched_setaffinity(0, {int(sys.argv[4])})
sys.path.insert(0, sys.argv[1])
from kemps_sim import simulate_match
from kemps_sim.engine.config import EngineConfig
try:
    from kemps_sim.engine.gc_pause import fewer_collections
except ImportError:  # a tree from before it
    from contextlib import nullcontext as fewer_collections
known = {f.name for f in dataclasses.fields(EngineConfig)}
config = EngineConfig(**{k: v for k, v in json.loads(sys.argv[5]).items() if k in known})
preset, lineup = sys.argv[2], sys.argv[3]
simulate_match(preset, lineup=lineup, seed=10**6, config=config, contained=False)
for line in sys.stdin:
    seed = int(line)
    start = time.process_time()
    with fewer_collections():  # as simulate_match collects garbage by default (its thread left out)
        result = simulate_match(preset, lineup=lineup, seed=seed, config=config, contained=False)
    spent = time.process_time() - start
    digest = hashlib.sha256(repr([r.trace for r in result.rounds]).encode()).hexdigest()
    print(json.dumps([spent, digest]), flush=True)
'''


def importable(tree: Path, into: Path) -> Path:
    """A folder from which ``kemps_sim`` and ``kemps_sim_agents`` import from ``tree`` (the agents live in
    ``agents/`` and install under another name), with the shared library of a compiled build beside them."""
    into.mkdir()
    (into / "kemps_sim").symlink_to(tree / "kemps_sim")
    (into / "kemps_sim_agents").symlink_to(tree / "agents")
    for library in sorted(tree.glob("*__mypyc*.so")):  # benchmarks/compiled_build.py's modules load it by name
        (into / library.name).symlink_to(library)
    return into


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree_a", type=Path)
    parser.add_argument("tree_b", type=Path)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--lineup", default="collector")
    parser.add_argument("--engine", action="append", default=[], metavar="SETTING=VALUE")
    parser.add_argument("--core", type=int, default=0, help="the core both workers are pinned to")
    args = parser.parse_args()
    for tree in (args.tree_a, args.tree_b):
        if not (tree / "kemps_sim" / "__init__.py").is_file() or not (tree / "agents").is_dir():
            parser.error(f"{tree}: not a kemps-sim source tree (no kemps_sim/__init__.py or agents/)")
    if args.matches < 1:
        parser.error(f"--matches {args.matches}: must be a whole number >= 1")
    if not 0 <= args.core < (os.cpu_count() or 1):
        parser.error(f"--core {args.core}: must be a core from 0 to {(os.cpu_count() or 1) - 1}")
    if any("=" not in item for item in args.engine):
        parser.error("--engine: give SETTING=VALUE, e.g. all_looks=true")
    engine = json.dumps({key: engine_value(text) for key, text in (item.split("=", 1) for item in args.engine)})
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{args.preset}, lineup {args.lineup!r}, {args.matches} matches, both trees pinned to core {args.core}")
    with tempfile.TemporaryDirectory(prefix="kemps-ab-") as folder:
        workers = [subprocess.Popen([sys.executable, "-c", WORKER,
                                     str(importable(tree.resolve(), Path(folder) / name)), args.preset,
                                     args.lineup, str(args.core), engine],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                   for name, tree in (("a", args.tree_a), ("b", args.tree_b))]
        spent, same = [0.0, 0.0], 0
        try:
            for seed in range(args.matches):
                found = [None, None]
                for i in ((0, 1) if seed % 2 else (1, 0)):
                    workers[i].stdin.write(f"{seed}\n")
                    workers[i].stdin.flush()
                    line = workers[i].stdout.readline()
                    if not line:
                        print(f"ab_trees.py: the worker of tree {'AB'[i]} stopped at seed {seed}", file=sys.stderr)
                        return 1
                    found[i] = json.loads(line)
                    spent[i] += found[i][0]
                same += found[0][1] == found[1][1]
        finally:
            for worker in workers:
                worker.stdin.close()
                worker.wait()
    print(f"A {args.matches / spent[0]:.1f} matches per CPU s, B {args.matches / spent[1]:.1f}; "
          f"B {spent[0] / spent[1]:.3f}x as fast as A; identical traces {same}/{args.matches}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
