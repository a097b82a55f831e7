"""kemps-sim: a discrete-event simulator and research toolkit for the real-time card game Kemps."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from kemps_sim.engine import EngineConfig, MatchResult, RoundResult, simulate_match, simulate_round
from kemps_sim.errors import AgentError, ConfigError, IllegalMove, KempsError
from kemps_sim.presets import PRESETS, load_rules, preset_names
from kemps_sim.profiles import PlayerProfile
from kemps_sim.rules import Rules
from kemps_sim.table import TableState

try:
    __version__ = version("kemps-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+source"

#: Bulk-experiment entry points, imported on first use so that ``import kemps_sim`` stays light.
_SWEEP_EXPORTS = ("load_results", "run_sweep", "read_spec", "spec_from_mapping", "tournament_spec")


def __getattr__(name: str):
    if name in _SWEEP_EXPORTS:
        from kemps_sim import sweep

        return getattr(sweep, name)
    raise AttributeError(f"module 'kemps_sim' has no attribute {name!r}")


__all__ = [
    "PRESETS",
    "AgentError",
    "ConfigError",
    "EngineConfig",
    "IllegalMove",
    "KempsError",
    "MatchResult",
    "PlayerProfile",
    "RoundResult",
    "Rules",
    "TableState",
    "__version__",
    "load_results",
    "load_rules",
    "preset_names",
    "read_spec",
    "run_sweep",
    "simulate_match",
    "simulate_round",
    "spec_from_mapping",
    "tournament_spec",
]
