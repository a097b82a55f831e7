"""What people did at a live table, as data: the tables a session writes (:mod:`kemps_sim.study.schema`), the
writer that puts them on disk as the match goes (:mod:`kemps_sim.study.writer`), and loading them back
(:mod:`kemps_sim.study.load`). Nothing here needs the web server: a study's data can be read and fitted anywhere."""

from __future__ import annotations

from kemps_sim.study.load import load_session, load_sessions
from kemps_sim.study.schema import SCHEMA_VERSION, TABLES

__all__ = ["SCHEMA_VERSION", "TABLES", "load_session", "load_sessions"]
