"""Where a replay page may be written, checked before any match is played (the command line's ``--html``)."""

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
