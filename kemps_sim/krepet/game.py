"""Krepet as a :class:`~kemps_sim.games.Game`: the record that the sweeps, the command line and the reports ask.

Krepet is a game for two, each player a side of its own (the ``pairs`` table holds one row per player, so the win
rates, ratings and tournaments of Kemps work unchanged); its rules, clock, records, summary and command-line
bodies live in this package; the record names them, importing none of them.
"""

from __future__ import annotations

from kemps_sim.games import Game, Hooks

GAME = Game(
    name="krepet",
    title="Krepet",
    description="the two-player racing patience with its call, one player per chair",
    unit="player",
    default_rules="wikibooks",
    default_lineup="greedy",
    example_entry=("lookout", "attention=0.9"),
    agent_methods=("decide", "start_match", "habits", "calls"),
    hooks=Hooks(load_rules="kemps_sim.krepet.presets:load_krepet_rules", presets="kemps_sim.krepet.presets:PRESETS",
                knob_specs="kemps_sim.krepet.rules:knob_specs", config="kemps_sim.krepet.realtime:KrepetConfig",
                play="kemps_sim.krepet.realtime:play_krepet", tables="kemps_sim.krepet.records:TABLES",
                play_cli="kemps_sim.krepet.cli:run_play", rules_cli="kemps_sim.krepet.cli:run_rules",
                summary="kemps_sim.krepet.stats:krepet_summary", legend="kemps_sim.krepet.stats:LEGEND",
                figures="kemps_sim.krepet.figures:krepet_figures",
                check_agent="kemps_sim.krepet.conformance:check_krepet_agent",
                replay="kemps_sim.krepet.replay:page_parts", agents="kemps_sim_agents:KREPET_BUILTINS",
                metrics="kemps_sim.krepet.metrics:METRICS", live_table="kemps_sim.krepet.table:KrepetTable"),
    players=2,
    seats_per_side=1,
    count_word="games",
    summary_tables=("matches", "pairs", "misses", "calls"),  # its moves table is not needed
    config_word="Krepet engine setting",
    config_prefix="krepet.",
)
