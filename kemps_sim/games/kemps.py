"""Kemps as a :class:`~kemps_sim.games.Game`: the record that the sweeps, the command line and the reports ask.

Kemps is the core game, so its parts live across the library (rules and presets, the engine, the records); this
record points at them by name (the tables a sweep writes of each match are :data:`kemps_sim.records.TABLES`), so
that asking for it imports none of them: playing one match from the command line loads no pandas.
"""

from __future__ import annotations

from kemps_sim.games import Game, Hooks

GAME = Game(
    name="kemps",
    title="Kemps",
    description="pairs swap cards with the middle in real time and signal four of a kind (the default)",
    unit="pair",
    default_rules="standard",
    default_lineup="collector",
    example_entry=("watcher", "threshold=0.9"),
    agent_methods=("decide", "start_match", "choose_signal"),
    hooks=Hooks(load_rules="kemps_sim.presets:load_rules", presets="kemps_sim.presets:PRESETS",
                knob_specs="kemps_sim.rules:knob_specs", config="kemps_sim.engine.config:EngineConfig",
                play="kemps_sim.engine.match:simulate_match", tables="kemps_sim.records:TABLES",
                play_cli="kemps_sim.cli.play:run_kemps", rules_cli="kemps_sim.cli.rules:run_kemps",
                summary="kemps_sim.stats.summary:summary_table",
                figures="kemps_sim.plots.standard:standard_figures", replay="kemps_sim.replay.page:kemps_page",
                agents="kemps_sim_agents:KEMPS_BUILTINS", live_table="kemps_sim.serve.table:LiveTable"),
    players=None,
    seats_per_side=2,
    scored=True,
    streamed=True,
)
