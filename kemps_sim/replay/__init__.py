"""A match you can watch: a self-contained HTML replay page (:func:`write_html`), and the data it plays.

The names load on first use, so that checking a ``--html`` argument (:mod:`kemps_sim.replay.target`) costs nothing.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {"page_html": "kemps_sim.replay.page", "write_html": "kemps_sim.replay.page",
          "replay_data": "kemps_sim.replay.data", "krepet_replay_data": "kemps_sim.krepet.replay"}
__all__ = ["krepet_replay_data", "page_html", "replay_data", "write_html"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'kemps_sim.replay' has no attribute {name!r}")
