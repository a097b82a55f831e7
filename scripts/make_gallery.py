"""Make the figures of the documentation's gallery (docs/gallery/) with the commands its page shows.

    python scripts/make_gallery.py [--work DIR]

Each figure comes from one `kemps-sim` command run here as a user would run it (sweeps write under ``--work``, a
temporary folder by default, and resume from what it holds); the PNG files are then copied into docs/gallery/, with
the sensitivity indices the figure shows (sensitivity.csv). Run it again after a change that alters a figure; the
page docs/gallery.md lists the same commands, and how long each took is printed.

The sensitivity figure comes from docs/gallery/sensitivity.toml, a Sobol' design big enough for stable indices
(61,440 matches: most of this script's time); experiments/sensitivity.toml is the same design at a size for trying
it out, whose indices are noise.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GALLERY = ROOT / "docs" / "gallery"
#: The metric of the gallery's sensitivity figure: the match length, which the four parameters move far more than
#: the luck of the deals does (the win rate, which they barely move, would need some 1,000 matches a point).
SENSITIVITY_METRIC = "duration"


def kemps_sim(*args: str, cwd: Path) -> None:
    """Run one command of the gallery, failing loudly."""
    command = [sys.executable, "-m", "kemps_sim", *args]
    print("$ kemps-sim " + " ".join(args), flush=True)
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    print(f"  took {time.perf_counter() - started:.0f} s", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", default=None, help="where the sweeps write (default: a temporary folder)")
    args = parser.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="kemps-gallery-"))
    work.mkdir(parents=True, exist_ok=True)
    for spec in ("quickstart.toml", "krepet.toml"):
        shutil.copy(ROOT / "experiments" / spec, work / spec)
    shutil.copy(GALLERY / "sensitivity.toml", work / "sensitivity.toml")
    kemps_sim("sweep", "quickstart.toml", "--no-progress", cwd=work)
    kemps_sim("report", "results/quickstart", "--plots", cwd=work)
    kemps_sim("play", "--seed", "1", "--quiet", "--timeline", "timeline.png", cwd=work)
    kemps_sim("tournament", "collector", "watcher", "bluffer", "feeder", "--matches", "20", "--no-progress",
              "--output", "results/tournament", "--plots", "tournament", cwd=work)
    kemps_sim("sweep", "sensitivity.toml", "--no-progress", cwd=work)
    kemps_sim("report", "results/sensitivity-gallery", "--sensitivity", SENSITIVITY_METRIC, "--plots", cwd=work)
    kemps_sim("sweep", "krepet.toml", "--no-progress", cwd=work)
    kemps_sim("report", "results/krepet", "--plots", cwd=work)
    GALLERY.mkdir(parents=True, exist_ok=True)
    quick = "results/quickstart"
    figures = {
        "win_rate.png": f"{quick}/win_rate.png", "call_accuracy.png": f"{quick}/call_accuracy.png",
        "round_length.png": f"{quick}/round_length.png", "call_delay.png": f"{quick}/call_delay.png",
        "timeline.png": "timeline.png", "ratings.png": "tournament/ratings.png",
        "head_to_head.png": "tournament/head_to_head.png",
        "sensitivity.png": "results/sensitivity-gallery/sensitivity.png",
        "sensitivity.csv": "results/sensitivity-gallery/sensitivity.csv",
        "krepet_win_rate.png": "results/krepet/win_rate.png",
        "krepet_misses_caught.png": "results/krepet/misses_caught.png"}
    for name, made in figures.items():
        shutil.copy(work / made, GALLERY / name)
        print(f"docs/gallery/{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
