"""Snap as a :class:`~kemps_sim.games.Game`: the record every layer of kemps-sim asks, found through the entry
point ``snap`` of the group ``kemps_sim.games`` (this package's ``pyproject.toml``).

Each player is a side of its own (``unit = "player"``, one seat a side), and the number of players is a rule knob
(``players = None``: the rules say, so ``--players`` and a sweep's ``players`` work). The parts are named as
``"module:attribute"`` and imported only when a layer asks for them.
"""

from __future__ import annotations

from kemps_sim.games import Game, Hooks

GAME = Game(
    name="snap",
    title="Snap",
    description="race to call \"Snap!\" when two face-up piles show one rank (an example of a game plugin)",
    unit="player",
    default_rules="classic",
    default_lineup="snapper",
    example_entry=("snapper", "threshold=1.5"),
    agent_methods=("start_match", "habits", "calls"),
    hooks=Hooks(load_rules="kemps_snap.presets:load_snap_rules", presets="kemps_snap.presets:PRESETS",
                knob_specs="kemps_snap.rules:knob_specs", config="kemps_snap.realtime:SnapConfig",
                play="kemps_snap.realtime:play_snap", tables="kemps_snap.records:TABLES",
                play_cli="kemps_snap.cli:run_play", rules_cli="kemps_snap.cli:run_rules",
                summary="kemps_snap.stats:snap_summary", legend="kemps_snap.stats:LEGEND",
                figures="kemps_snap.figures:snap_figures",
                check_agent="kemps_snap.conformance:check_snap_agent", metrics="kemps_snap.metrics:METRICS"),
    players=None,
    seats_per_side=1,
    compare_metrics=("win_rate",),
    summary_tables=("matches", "pairs", "calls"),
)
