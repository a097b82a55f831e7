"""A player's profile as a file: TOML with a ``[profile]`` table in the form :meth:`PlayerProfile.from_mapping`
accepts (what :meth:`PlayerProfile.as_dict` gives), and optionally a ``[calibration]`` table saying where the
values came from (``kemps-sim calibrate`` writes one), which loading ignores.

``kemps-sim play --profile``, ``kemps-sim tournament --profile`` and a sweep spec's ``base.profile = "FILE.toml"``
read such a file. The writer is a few lines of its own (plain tables of numbers, strings, booleans and lists are
all a profile needs), so writing one adds no dependency; :mod:`tomllib` reads it back.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.profiles import PlayerProfile
from kemps_sim.suggest import did_you_mean

#: The tables a profile file may hold: the profile, and where it came from (ignored on loading).
FILE_TABLES = ("profile", "calibration")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def load_profile_file(path: str | Path, where: str | None = None) -> PlayerProfile:
    """The profile in the TOML file ``path`` (its ``[profile]`` table over the default profile); a missing file,
    bad TOML, a missing or misspelt table or a bad profile field is a one-line :class:`ConfigError` that starts
    with ``where`` (default: ``profile file 'PATH'``)."""
    where = f"profile file {str(path)!r}" if where is None else where
    table = read_profile_table(path, where)
    try:
        return PlayerProfile.from_mapping(table, "profile")
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def read_profile_table(path: str | Path, where: str | None = None) -> dict[str, Any]:
    """The ``[profile]`` table of a profile file as plain data, the file's layout checked but not its values."""
    path = Path(path)
    where = f"profile file {str(path)!r}" if where is None else where
    if not path.is_file():
        problem = "is a folder, not a file" if path.is_dir() else "no such file"
        raise ConfigError(f"{where}: {problem}; give a TOML file with a [profile] table (kemps-sim calibrate "
                          "writes one)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{where}: not valid TOML: {' '.join(str(exc).split())}") from None
    for key in data:
        if key not in FILE_TABLES:
            raise ConfigError(f"{where}: unknown table [{key}]{did_you_mean(key, FILE_TABLES)}; a profile file has "
                              "[profile] and optionally [calibration]")
    table = data.get("profile")
    if not isinstance(table, dict):
        shown = "(missing)" if table is None else repr(table)
        raise ConfigError(f"{where}: [profile] = {shown}: must be a table of profile fields (reaction, reach, "
                          "speech, observer, ...)")
    return table


def profile_table(value: Any, where: str, folder: str | Path | None = None) -> Any:
    """A profile given by file name (a string: a profile file, taken from ``folder`` when relative) as the whole
    profile table it holds (every field, checked); any other value as it is. Errors start with ``where``."""
    if not isinstance(value, str):
        return value
    path = Path(value).expanduser()
    if not path.is_absolute() and folder is not None:
        path = Path(folder) / path
    shown = f"{where} = {value!r}" + (f" (the file {str(path)!r})" if str(path) != value else "")
    return load_profile_file(path, shown).as_dict()


def write_profile_file(path: str | Path, profile: PlayerProfile,
                       calibration: Mapping[str, Any] | None = None) -> Path:
    """Write ``profile`` (whole, every field) and ``calibration`` (where it came from) to ``path`` as TOML."""
    path = Path(path)
    document: dict[str, Any] = {"profile": profile.as_dict()}
    if calibration:
        document["calibration"] = dict(calibration)
    text = "# A kemps-sim player profile: [profile] is read by --profile and base.profile; [calibration] is a record.\n"
    path.write_text(text + toml_text(document), encoding="utf-8")
    return path


def toml_text(document: Mapping[str, Any]) -> str:
    """``document`` (nested mappings of numbers, strings, booleans and lists of them) as TOML: each mapping a
    ``[dotted.table]`` whose plain values come before its sub-tables."""
    lines: list[str] = []
    _table(lines, (), document)
    return "\n".join(lines).lstrip("\n") + "\n"


def _table(lines: list[str], name: tuple[str, ...], table: Mapping[str, Any]) -> None:
    plain = {key: value for key, value in table.items() if not isinstance(value, Mapping)}
    nested = {key: value for key, value in table.items() if isinstance(value, Mapping)}
    if name and (plain or not nested):
        lines += ["", f"[{'.'.join(_key(part) for part in name)}]"]
    lines += [f"{_key(key)} = {_value(value)}" for key, value in plain.items()]
    for key, value in nested.items():
        _table(lines, (*name, str(key)), value)


def _key(key: Any) -> str:
    text = str(key)
    return text if _BARE_KEY.match(text) else _string(text)


def _string(text: str) -> str:
    """A TOML basic string: a JSON string is one, once DEL (which JSON leaves as it is) is escaped."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007F")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(float(value))  # float(): a NumPy float's repr names its type
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if hasattr(value, "item"):  # a NumPy scalar
        return _value(value.item())
    raise TypeError(f"not TOML data: {value!r}")
