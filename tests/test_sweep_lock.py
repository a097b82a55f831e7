"""One writer per results folder: a second sweep on a folder is refused in one line naming the holder, the first
one's result is complete, a lock left by a killed run is taken over, and the lock is held for the whole run."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kemps_sim.sweep.lock as lock_module
from kemps_sim.errors import ConfigError
from kemps_sim.sweep import ResultStore, SerialExecutor, run_sweep
from kemps_sim.sweep.lock import LOCK_NAME, FolderLock
from tests.sweeps import all_tables, assert_same_tables, quick_data, quick_spec, toml_text

ROOT = Path(__file__).parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
#: Waits for a go file, then runs ``kemps-sim sweep`` (everything imported beforehand, so both start together).
RACER = """
import sys, time, pathlib
from kemps_sim.cli import main
go, ready = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
ready.touch()
while not go.exists():
    time.sleep(0.001)
sys.exit(main(["sweep", sys.argv[3], "--serial", "--no-progress"]))
"""
#: Takes a folder's lock, says so, and waits to be killed.
HOLDER = """
import sys, time
from kemps_sim.sweep.lock import FolderLock
FolderLock(sys.argv[1]).acquire()
print("locked", flush=True)
time.sleep(600)
"""


def _wait_for(path: Path, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.01)


def test_two_sweeps_started_together_one_refused_the_other_complete(tmp_path):
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(toml_text(quick_data(tmp_path / "out", matches=6)))
    go = tmp_path / "go"
    racers = [subprocess.Popen([sys.executable, "-c", RACER, str(go), str(tmp_path / f"ready{i}"), str(spec_path)],
                               cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
              for i in range(2)]
    for i in range(2):
        _wait_for(tmp_path / f"ready{i}")
    go.touch()
    outcomes = [(p.pid, *p.communicate(timeout=300), p.returncode) for p in racers]
    statuses = sorted(status for *_, status in outcomes)
    assert statuses == [0, 2], outcomes
    (winner, _, _, _), = [o for o in outcomes if o[3] == 0]
    (_, out, err, _), = [o for o in outcomes if o[3] == 2]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err and out == "", err
    assert lines[0].startswith("kemps-sim sweep: error: output ") and "in use by another sweep" in lines[0]
    assert f"pid {winner} on host {socket.gethostname()}, started 20" in lines[0], lines[0]
    run_sweep(quick_spec(tmp_path / "reference", matches=6), workers=1, progress=False)
    assert_same_tables(all_tables(tmp_path / "out"), all_tables(tmp_path / "reference"))
    assert not (tmp_path / "out" / LOCK_NAME).exists()


def test_a_lock_held_by_a_killed_process_is_taken_over(tmp_path):
    folder = tmp_path / "out"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], cwd=ROOT, env=ENV,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(ConfigError, match=rf"in use by another sweep \(pid {holder.pid} on host "):
            run_sweep(quick_spec(folder, matches=1), workers=1, progress=False)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=60)
    assert json.loads((folder / LOCK_NAME).read_text())["pid"] == holder.pid  # left behind by the kill
    run = run_sweep(quick_spec(folder, matches=1), workers=1, progress=False)
    assert (run.mode, run.ran) == ("new", 4) and not (folder / LOCK_NAME).exists()


def test_a_lock_file_left_by_a_dead_process_is_taken_over(tmp_path):
    folder = tmp_path / "out"
    run_sweep(quick_spec(folder, matches=1), workers=1, progress=False)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (folder / LOCK_NAME).write_text(json.dumps({"pid": int(dead.stdout), "host": socket.gethostname(),
                                                "started": "2026-01-01 00:00:00 UTC"}))
    run = run_sweep(quick_spec(folder, matches=2), workers=1, progress=False, extend=True)
    assert (run.mode, run.ran) == ("extend", 4) and not (folder / LOCK_NAME).exists()


class _Prober(SerialExecutor):
    """Runs chunks serially, trying the folder's lock before each: every try must be refused."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.refused = folder, 0

    def imap_unordered(self, fn, items):
        for item in items:
            with pytest.raises(ConfigError, match=rf"in use by another sweep \(pid {os.getpid()} "):
                FolderLock(self.folder).acquire()
            self.refused += 1
            yield item, fn(item)


def test_the_lock_is_held_through_every_round_of_a_targeted_sweep(tmp_path):
    folder = tmp_path / "out"
    prober = _Prober(folder)
    spec = quick_spec(folder, matches=4, axes={"rules.double_kemps": [False, True]}, until_ci=0.2, max_matches=24,
                      chunk=4)
    run = run_sweep(spec, executor=prober, progress=False)
    assert run.complete and max(cell.rounds for cell in run.targets) > 1  # more than the first round ran
    assert prober.refused >= run.ran // 4 and run.ran > 8
    assert not (folder / LOCK_NAME).exists()
    with FolderLock(folder):  # released at the end: anyone may take it now
        assert (folder / LOCK_NAME).is_file()


def test_a_refused_or_failed_run_leaves_nothing_behind(tmp_path):
    refused = pytest.raises(ConfigError, match=r"'.*out': in use by another sweep \(pid \d+ on host .*, started 20")
    with FolderLock(tmp_path / "out"), refused:
        run_sweep(quick_spec(tmp_path / "out", matches=1), workers=1, progress=False)
    assert not (tmp_path / "out").exists()  # the lock created the folder and took it away again
    with pytest.raises(ConfigError, match="nowhere"):
        run_sweep(quick_spec(tmp_path / "new", matches=1), scheduler="nowhere", progress=False)
    assert not (tmp_path / "new").exists()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not a kemps-sim results folder"):
        run_sweep(quick_spec(tmp_path / "mine", matches=1), workers=1, progress=False)
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["notes.txt"]


def test_without_fcntl_an_exclusive_file_locks_and_a_dead_holder_is_stale(tmp_path, monkeypatch):
    monkeypatch.setattr(lock_module, "fcntl", None)
    folder = tmp_path / "out"
    refused = pytest.raises(ConfigError, match=rf"in use by another sweep \(pid {os.getpid()} on host ")
    with FolderLock(folder), refused:
        FolderLock(folder).acquire()
    assert not (folder / LOCK_NAME).exists()
    folder.mkdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (folder / LOCK_NAME).write_text(json.dumps({"pid": int(dead.stdout), "host": socket.gethostname()}))
    with FolderLock(folder) as taken:
        assert taken.held and json.loads((folder / LOCK_NAME).read_text())["pid"] == os.getpid()
    (folder / LOCK_NAME).write_text(json.dumps({"pid": 1, "host": "elsewhere", "started": "then"}))
    with pytest.raises(ConfigError, match=r"pid 1 on host elsewhere, started then"):
        FolderLock(folder).acquire()


def test_temporary_names_belong_to_their_writer(tmp_path, monkeypatch):
    written: list[str] = []
    real = os.replace

    def record(source, target):
        written.append(Path(source).name)
        return real(source, target)

    monkeypatch.setattr(os, "replace", record)
    run_sweep(quick_spec(tmp_path / "out", matches=1), workers=1, progress=False)
    assert written and all(name.endswith(f".{os.getpid()}.tmp") for name in written), written
    assert ResultStore(tmp_path / "out").clean() == 0
