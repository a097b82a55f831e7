"""Loading what sessions recorded: one session's tables, or every session under a data folder stacked, each with
the schema's columns and dtypes, from Parquet when the session finished and from its JSON lines when it did not
(a session cut short by a crash keeps every row written before it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.games import game
from kemps_sim.study.schema import SCHEMA_VERSION
from kemps_sim.study.writer import STREAMED, read_rows, typed


def session_meta(folder: str | Path) -> dict[str, Any]:
    """A session's ``session.json``, its schema version checked."""
    path = Path(folder) / "session.json"
    if not path.is_file():
        raise ConfigError(f"{folder}: not a session folder (no session.json)")
    meta = json.loads(path.read_text(encoding="utf-8"))
    version = meta.get("schema_version")
    if version != SCHEMA_VERSION:
        raise ConfigError(f"{path}: schema_version = {version!r}; this kemps-sim reads version {SCHEMA_VERSION}")
    return meta


def load_session(folder: str | Path) -> dict[str, Any]:
    """One session: ``meta`` (its ``session.json``) and a frame per table (``inputs``, ``draws``,
    ``gestures_shown``, ``events``, and once the match ended the game's own tables: Kemps' ``pairs``, ``rounds``,
    ``calls`` and ``fours``, Krepet's ``pairs``, ``misses``, ``calls`` and ``moves``)."""
    folder = Path(folder)
    out: dict[str, Any] = {"meta": session_meta(folder)}
    made = game(out["meta"].get("game", "kemps")).tables()
    for table in STREAMED:
        stored = folder / f"{table}.parquet"
        out[table] = typed(pd.read_parquet(stored), table, made) if stored.exists() else read_rows(
            folder / f"{table}.jsonl", table, made)
    for table in made.makers:
        stored = folder / f"{table}.parquet"
        if stored.exists():
            out[table] = pd.read_parquet(stored)
    return out


def session_folders(data: str | Path) -> list[Path]:
    """The session folders in ``data`` (a data folder, or one session's folder), in name order."""
    data = Path(data)
    if (data / "session.json").is_file():
        return [data]
    if not data.is_dir():
        raise ConfigError(f"{data}: no such folder; give a session folder or the folder given to serve --data")
    found = sorted(path.parent for path in data.glob("*/session.json"))
    if not found:
        raise ConfigError(f"{data}: holds no sessions (no */session.json)")
    return found


def load_sessions(data: str | Path) -> dict[str, pd.DataFrame]:
    """Every session in ``data`` stacked: a frame per table, and ``sessions`` with one row per session and person
    (session, participant, seat, game, seed, factor, status)."""
    loaded = [load_session(folder) for folder in session_folders(data)]
    games = sorted({one["meta"].get("game", "kemps") for one in loaded})
    if len(games) > 1:
        raise ConfigError(f"{data}: holds sessions of several games ({', '.join(games)}); load each game's apart")
    out: dict[str, pd.DataFrame] = {}
    for table in (*STREAMED, *game(games[0]).tables().makers):
        frames = [one[table] for one in loaded if table in one and len(one[table])]
        out[table] = pd.concat(frames, ignore_index=True) if frames else (
            loaded[0][table].iloc[0:0] if table in loaded[0] else pd.DataFrame())
    out["sessions"] = pd.DataFrame([
        {"session": one["meta"]["session"], "participant": pid, "seat": int(seat), "game": one["meta"].get("game"),
         "seed": one["meta"].get("seed"), "factor": one["meta"].get("factor"), "status": one["meta"].get("status")}
        for one in loaded for seat, pid in one["meta"]["participants"].items()])
    return out
