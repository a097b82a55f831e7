"""Where a replay page may be written and whose view it shows, checked before any match is played (the command
line's ``--html`` and ``--seat``)."""

from __future__ import annotations

from pathlib import Path

from kemps_sim.errors import ConfigError


def html_target(path: str, option: str = "--html") -> Path:
    """``path`` as a Path: a name ending in .html, in a folder that exists, not itself a folder."""
    target = Path(path)
    if target.suffix.lower() not in (".html", ".htm"):
        raise ConfigError(f"{option} {path}: the file name must end in .html")
    if not target.parent.is_dir():
        raise ConfigError(f"{option} {path}: folder {str(target.parent)!r} does not exist")
    if target.is_dir():
        raise ConfigError(f"{option} {path}: is a folder, not a file")
    return target


def html_seat(seat: int | None, players: int, option: str = "--seat") -> int | None:
    """``seat`` (None: every hand) if it is one of the match's seats, numbered 0 to ``players - 1``."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        raise ConfigError(f"{option} {seat!r}: not a seat of this match; its {players} seats are numbered 0 to "
                          f"{players - 1}")
    return seat
