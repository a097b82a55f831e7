"""Snap for kemps-sim: players turn cards onto their own face-up piles at their own pace and race to call "Snap!"
when two piles show one rank.

An example of a game installed beside the library rather than inside it: the record (:mod:`kemps_snap.game`),
the rules and presets (:mod:`kemps_snap.rules`, :mod:`kemps_snap.presets`), the cards on the table
(:mod:`kemps_snap.table`), the match on the library's human model (:mod:`kemps_snap.realtime`), its trace, result
and tables (:mod:`kemps_snap.trace`, :mod:`kemps_snap.result`, :mod:`kemps_snap.records`), the summary and figure
of a sweep (:mod:`kemps_snap.stats`, :mod:`kemps_snap.figures`), the command-line bodies (:mod:`kemps_snap.cli`),
the agent boundary and two agents (:mod:`kemps_snap.agent`, :mod:`kemps_snap.agents`) and their conformance check
(:mod:`kemps_snap.conformance`). ``docs/write-a-game.md`` walks through it.
"""

from __future__ import annotations

import importlib
from typing import Any

#: What the package exports, by the module each name lives in: imported on first use, so that loading the record
#: (:mod:`kemps_snap.game`, which every layer of the library may ask for) loads nothing of the match itself.
_EXPORTS = {"BaseSnapAgent": "agent", "Habits": "agent", "SnapAgent": "agent", "SnapView": "agent",
            "PRESETS": "presets", "load_snap_rules": "presets", "SnapConfig": "realtime", "play_snap": "realtime",
            "SnapResult": "result", "SnapRules": "rules", "knob_specs": "rules"}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'kemps_snap' has no attribute {name!r}")
    return getattr(importlib.import_module(f"kemps_snap.{_EXPORTS[name]}"), name)
