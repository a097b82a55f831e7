"""The public log's reader alone (:class:`kemps_sim.belief.TableReader`, which every reasoning seat runs twice):
nanoseconds per public event read, per source tree, on the same recorded logs.

    python benchmarks/bench_reader.py [TREE ...] [--matches 20] [--repeats 7]

Each tree (default: this one; a copy built by ``compiled_trial.py --keep DIR`` is one too) is timed in a fresh
interpreter that imports its ``kemps_sim``: the public logs of ``--matches`` standard matches of 4 ``collector``s
(seeds 0, 1, ...; each round's events as every seat sees them) are read round by round by a reader for each seat,
as a seat's agent reads them, and the best of ``--repeats`` passes is the figure (CPU time). This is how a change to
the reader, or its compilation, is measured where a whole match would hide it: the reader is about a twentieth of
a match. Prints figures only; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from ab_trees import importable  # this folder is on the path of a script run from it

TREE = Path(__file__).resolve().parent.parent

WORKER = r'''
import sys, time
sys.path.insert(0, sys.argv[1])
from kemps_sim import simulate_match
from kemps_sim.belief.tracking import TableReader
import kemps_sim.belief.tracking as module
from kemps_sim.visibility import EVERYONE, audience, public_form
matches, repeats = int(sys.argv[2]), int(sys.argv[3])
logs = [[public_form(e) for e in r.trace if audience(e) == EVERYONE]
        for seed in range(matches) for r in simulate_match("standard", lineup="collector", seed=seed).rounds]
class View:  # what the reader asks of an observation: the round and its public log
    __slots__ = ("round_index", "log")
    def __init__(self, index, log):
        self.round_index, self.log = index, log
views = [View(i, log) for i, log in enumerate(logs)]
best = float("inf")
for _ in range(repeats):
    start = time.process_time()
    for seat in range(4):
        reader = TableReader(4, seat)
        for view in views:
            reader.refresh(view)
    best = min(best, time.process_time() - start)
kind = "compiled" if module.__file__.endswith((".so", ".pyd")) else "pure Python"
print(f"{best / (4 * sum(map(len, logs))) * 1e9:.0f} ns per event read ({kind}; {sum(map(len, logs))} events)")
'''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path, default=[TREE], metavar="TREE")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    for tree in args.trees:
        if not (tree / "kemps_sim" / "__init__.py").is_file() or not (tree / "agents").is_dir():
            parser.error(f"{tree}: not a kemps-sim source tree (no kemps_sim/__init__.py or agents/)")
    for name in ("matches", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)}: must be a whole number >= 1")
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="kemps-reader-") as folder:
        for i, tree in enumerate(args.trees):
            path = importable(tree.resolve(), Path(folder) / str(i))
            done = subprocess.run([sys.executable, "-c", WORKER, str(path), str(args.matches), str(args.repeats)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                print(f"bench_reader.py: {tree}: {done.stderr.strip().splitlines()[-1]}", file=sys.stderr)
                return 1
            print(f"{tree}: {done.stdout.strip()}", flush=True)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
