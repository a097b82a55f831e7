"""One writer per results folder: a lock file that a running sweep holds for its whole run.

Two sweeps writing one folder would interleave their manifests, and one's clean-up would delete the other's
half-written chunks; so a sweep takes ``FOLDER/.lock`` before it looks at the folder and keeps it to the end, and a
second sweep on the same folder is refused in one line naming the holder (pid, host, when it started).

Where :mod:`fcntl` exists the lock is ``flock(LOCK_EX | LOCK_NB)`` on the open lock file: the operating system
releases it when the holder's process ends however it ends (``kill -9`` included), so a lock left by a killed run
is simply taken over. Local worker processes are started fresh (``spawn``) and the descriptor is not inheritable,
so no worker keeps the lock after its sweep died. Without :mod:`fcntl` the file is created exclusively
(``O_CREAT | O_EXCL``); a file left by a process that no longer runs on this host is stale and taken over.

The holder's details are written into the lock file as JSON for the refusal message. The file is removed when the
lock is released (and the folder too, with every parent folder it needed, if the lock created them and nothing
else was written), so a refused or failed run leaves nothing behind. Readers (``kemps-sim report``) never need
the lock: they read only finished chunks.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from kemps_sim.errors import ConfigError

try:  # pragma: no cover - which branch runs depends on the platform
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: The lock file's name inside a results folder.
LOCK_NAME = ".lock"
#: How long a refused run waits for a holder that has just taken the lock to write its details (seconds).
_DETAILS_WAIT = 0.5
#: Without fcntl, a lock file with no details this old (seconds) was left by a run killed as it took the lock.
_UNWRITTEN_STALE = 10.0


class FolderLock:
    """The exclusive lock of a results folder; a context manager that takes it on entry and releases it on exit."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self._fd: int | None = None
        #: The folders taking the lock created (the folder and its missing parents), deepest first.
        self._created: list[Path] = []

    @property
    def held(self) -> bool:
        """Whether this object holds the lock now."""
        return self._fd is not None

    def acquire(self) -> FolderLock:
        """Take the lock, creating the folder if needed; refuse with a one-line ConfigError if another run has it."""
        if self._fd is not None:
            return self
        if self.folder.exists() and not self.folder.is_dir():
            raise ConfigError(f"output {str(self.folder)!r}: exists and is not a folder; choose an empty or new "
                              "folder")
        if not self.folder.exists():
            missing = [self.folder, *(p for p in self.folder.parents)]
            self._created = missing[:next(i for i, p in enumerate(missing) if p.exists())]
            self.folder.mkdir(parents=True, exist_ok=True)
        try:
            self._fd = _take_flock(self.path) if fcntl is not None else _take_exclusive(self.path)
        except BaseException:
            self._remove_created_folder()
            raise
        if self._fd is None:
            self._remove_created_folder()
            raise ConfigError(f"output {str(self.folder)!r}: in use by another sweep ({holder_text(self.path)}); "
                              "wait for it to finish or stop it (a lock left by a killed sweep is taken over by "
                              "the next run)")
        _write_details(self._fd)
        return self

    def release(self) -> None:
        """Give the lock up: remove the lock file (while still holding it, so no one locks a removed file) and the
        folder, with the parents it needed, if this lock created them and they stayed empty."""
        if self._fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)
        finally:
            os.close(self._fd)
            self._fd = None
            self._remove_created_folder()

    def _remove_created_folder(self) -> None:
        """Remove the folders this lock created, deepest first, each only if it is empty (a sweep that wrote
        anything keeps its folder, and a parent something else was put in stays); never one that existed before."""
        created, self._created = self._created, []
        for folder in created:
            try:
                folder.rmdir()
            except OSError:
                break

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.release()


def holder(path: str | Path) -> dict[str, Any]:
    """The details the holder of a lock file wrote (empty if none could be read yet)."""
    deadline = time.monotonic() + _DETAILS_WAIT
    while True:
        try:
            details = json.loads(Path(path).read_text(encoding="utf-8") or "null")
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            details = None
        if isinstance(details, dict) or time.monotonic() >= deadline:
            return details if isinstance(details, dict) else {}
        time.sleep(0.02)  # the holder has just taken the lock and is writing its details


def holder_text(path: str | Path) -> str:
    """The holder of a lock as ``pid 123 on host h, started 2026-01-01 12:00:00 UTC``."""
    details = holder(path)
    if not details:
        return "its details are not readable"
    return (f"pid {details.get('pid', '?')} on host {details.get('host', '?')}, "
            f"started {details.get('started', '?')}")


def _details() -> dict[str, Any]:
    return {"pid": os.getpid(), "host": socket.gethostname(),
            "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
            "command": " ".join(sys.argv)[:300]}


def _write_details(fd: int) -> None:
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, json.dumps(_details(), sort_keys=True).encode("utf-8"))


def _take_flock(path: Path) -> int | None:
    """The descriptor of the lock file with ``flock`` held, or None if another process holds it.

    A lock file removed (by its releasing holder) between our open and our lock is not the folder's lock any
    more, so the lock is taken again on the file that is there now.
    """
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        except BaseException:
            os.close(fd)
            raise
        try:
            same = os.fstat(fd).st_ino == path.stat().st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)


def _take_exclusive(path: Path) -> int | None:
    """The descriptor of a lock file this process created, or None if a live process holds it (no fcntl)."""
    for _ in range(3):
        try:
            return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            pass
        details = holder(path)
        if not details:  # killed between creating the file and writing into it, or just created
            try:
                if time.time() - path.stat().st_mtime < _UNWRITTEN_STALE:
                    return None
            except FileNotFoundError:
                continue
        elif details.get("host") != socket.gethostname() or _alive(details.get("pid")):
            return None  # another host's holder cannot be checked from here: it is taken to be running
        path.unlink(missing_ok=True)  # stale: its process ended without releasing it
    return None


def _alive(pid: Any) -> bool:
    """Whether a process with this pid runs on this host (unknown pids count as running)."""
    if not isinstance(pid, int) or pid <= 0:
        return True
    if pid == os.getpid():
        return True
    if os.name == "nt":  # pragma: no cover - Windows: os.kill would terminate the process
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        ctypes.windll.kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        ctypes.windll.kernel32.CloseHandle(handle)
        return code.value == 259  # STILL_ACTIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
