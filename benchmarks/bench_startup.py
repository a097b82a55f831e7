"""Start-up cost: how long a fresh process takes to ``import kemps_sim`` and to answer ``kemps-sim --version``,
and which heavy libraries (pandas, SciPy, matplotlib, pyarrow) each start-up path loads.

    python benchmarks/bench_startup.py [--repeats 15]

Every timing is a new interpreter, run interleaved with the others (so that load on a shared machine spreads over
all of them) and reported as the median wall time, beside a bare ``python -c pass`` for the interpreter's own
start. Prints figures only; nothing here asserts a time (machines are shared and noisy); tests/test_startup.py
checks that the heavy libraries stay out.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HEAVY = ("pandas", "scipy", "matplotlib", "pyarrow")

#: The start-up paths a user meets: ``import kemps_sim`` (None), or the command line with these arguments.
PATHS: dict[str, list[str] | None] = {
    "import kemps_sim": None,
    "kemps-sim --version": ["--version"],
    "kemps-sim --help": ["--help"],
    **{f"kemps-sim {name} --help": [name, "--help"]
       for name in ("rules", "play", "agents", "sweep", "report", "tournament")},
}


def path_code(argv: list[str] | None) -> str:
    """Python source that takes one start-up path: the import, or the command line as far as it exits."""
    if argv is None:
        return "import kemps_sim"
    return f"from kemps_sim.cli import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass"


def cli_command() -> list[str]:
    """The installed ``kemps-sim`` script beside this interpreter, else ``python -m kemps_sim``."""
    script = Path(sys.executable).with_name("kemps-sim")
    if script.exists():
        return [str(script)]
    found = shutil.which("kemps-sim")
    return [found] if found else [sys.executable, "-m", "kemps_sim"]


def wall_seconds(command: list[str]) -> float:
    """Wall time of one run of ``command`` in a fresh process, its output discarded."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def median_timings(commands: dict[str, list[str]], repeats: int) -> dict[str, float]:
    """Median wall seconds of each command over ``repeats`` rounds, every round running each command once."""
    times: dict[str, list[float]] = {label: [] for label in commands}
    for command in commands.values():  # warm the file cache and the bytecode once, untimed
        wall_seconds(command)
    for _ in range(repeats):
        for label, command in commands.items():
            times[label].append(wall_seconds(command))
    return {label: statistics.median(values) for label, values in times.items()}


def heavy_loaded(code: str) -> list[str]:
    """The heavy libraries in ``sys.modules`` after a fresh interpreter has run ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="fresh processes per command; the median is reported")
    args = parser.parse_args()
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import kemps_sim": [sys.executable, "-c", "import kemps_sim"],
        "kemps-sim --version": [*cli_command(), "--version"],
    }
    print(f"machine: {os.cpu_count()} cores, load average {_load()} at the start")
    medians = median_timings(commands, args.repeats)
    print(f"median wall time of {args.repeats} fresh processes each, run interleaved")
    for label, seconds in medians.items():
        print(f"{label + ':':<28} {seconds:6.3f} s")
    print(f"\nheavy libraries loaded ({', '.join(HEAVY)})")
    for label, argv in PATHS.items():
        print(f"{label + ':':<28} {', '.join(heavy_loaded(path_code(argv))) or 'none'}")
    print(f"load average at the end: {_load()}")


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
