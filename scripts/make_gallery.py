"""Make the figures of the documentation's gallery (docs/gallery/) with the commands its page shows.

    python scripts/make_gallery.py [--work DIR]

Each figure comes from one `kemps-sim` command run here as a user would run it (sweeps write under ``--work``, a
temporary folder by default); the PNG files are then copied into docs/gallery/. Run it again after a change that
alters a figure; the page docs/gallery.md lists the same commands.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GALLERY = ROOT / "docs" / "gallery"


def kemps_sim(*args: str, cwd: Path) -> None:
    """Run one command of the gallery, failing loudly."""
    command = [sys.executable, "-m", "kemps_sim", *args]
    print("$ kemps-sim " + " ".join(args), flush=True)
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", default=None, help="where the sweeps write (default: a temporary folder)")
    args = parser.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="kemps-gallery-"))
    work.mkdir(parents=True, exist_ok=True)
    for spec in ("quickstart.toml", "sensitivity.toml", "krepet.toml"):
        shutil.copy(ROOT / "experiments" / spec, work / spec)
    kemps_sim("sweep", "quickstart.toml", "--no-progress", cwd=work)
    kemps_sim("report", "results/quickstart", "--plots", cwd=work)
    kemps_sim("play", "--seed", "1", "--quiet", "--timeline", "timeline.png", cwd=work)
    kemps_sim("tournament", "collector", "watcher", "bluffer", "feeder", "--matches", "20", "--no-progress",
              "--output", "results/tournament", "--plots", "tournament", cwd=work)
    kemps_sim("sweep", "sensitivity.toml", "--no-progress", cwd=work)
    kemps_sim("report", "results/sensitivity", "--sensitivity", "pair1_won", "--plots", cwd=work)
    kemps_sim("sweep", "krepet.toml", "--no-progress", cwd=work)
    kemps_sim("report", "results/krepet", "--plots", cwd=work)
    GALLERY.mkdir(parents=True, exist_ok=True)
    quick = "results/quickstart"
    figures = {
        "win_rate.png": f"{quick}/win_rate.png", "call_accuracy.png": f"{quick}/call_accuracy.png",
        "round_length.png": f"{quick}/round_length.png", "call_delay.png": f"{quick}/call_delay.png",
        "timeline.png": "timeline.png", "ratings.png": "tournament/ratings.png",
        "head_to_head.png": "tournament/head_to_head.png", "sensitivity.png": "results/sensitivity/sensitivity.png",
        "krepet_win_rate.png": "results/krepet/win_rate.png",
        "krepet_misses_caught.png": "results/krepet/misses_caught.png"}
    for name, made in figures.items():
        shutil.copy(work / made, GALLERY / name)
        print(f"docs/gallery/{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
