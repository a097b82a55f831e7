"""The learning examples the "train an agent" page shows run as written, at a small size."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "rl"


def _run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_single_file_ppo_trains_and_writes_its_curve_and_weights(tmp_path):
    said = _run("ppo_masked.py", "--total-steps", "1024", "--envs", "2", "--rollout", "256", "--out", str(tmp_path))
    assert "1024 decisions" in said
    with (tmp_path / "curve.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["steps"]) for r in rows] == [512, 1024]
    assert int(rows[-1]["episodes"]) > 0 and float(rows[-1]["mean_return"]) < 0  # a random start loses letters
    assert (tmp_path / "policy.pt").stat().st_size > 10_000


def test_the_pettingzoo_table_runs_as_a_vector_of_its_learners():
    said = _run("pettingzoo_vector.py", "--steps", "300", "--tables", "2")
    assert said.startswith("8 entries (2 tables of 4 learners), 300 steps")


def test_a_bad_argument_is_a_usage_error():
    done = subprocess.run([sys.executable, str(EXAMPLES / "ppo_masked.py"), "--envs", "0"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and "must be at least 1" in done.stderr and "Traceback" not in done.stderr


def test_the_sb3_example_trains_and_its_model_plays_by_name(tmp_path):
    said = _run("sb3_maskable.py", "--steps", "512", "--out", str(tmp_path))
    assert said.startswith("winners: (") and (tmp_path / "model.zip").is_file()


def test_the_training_page_shows_the_examples_as_they_are():
    """The page includes each example file whole (pymdownx.snippets), so what it shows is what the tests run."""
    page = (ROOT / "docs" / "train-an-agent.md").read_text()
    for script in ("sb3_maskable.py", "ppo_masked.py", "pettingzoo_vector.py"):
        assert f'--8<-- "examples/rl/{script}"' in page
