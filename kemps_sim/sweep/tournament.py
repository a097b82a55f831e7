"""A round robin between strategies as a sweep: one cell per seating of every two strategies, one strategy a side
(Kemps: two pairs, four players; Krepet: two players, one per chair).

Running it as an ordinary sweep gives tournaments everything sweeps have: any executor, resuming, Parquet tables.
:mod:`kemps_sim.ratings` turns its pairs table into Bradley–Terry ratings and the head-to-head matrix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME
from kemps_sim.games import game as game_record
from kemps_sim.ratings import pairings
from kemps_sim.sweep.spec import SweepSpec, spec_from_mapping


def tournament_data(strategies: Sequence[str], matches: int = 50, rules: str | None = None,
                    overrides: Mapping[str, Any] | None = None, seed: int = 0,
                    output: str = "results/tournament", game: str = DEFAULT_GAME) -> dict[str, Any]:
    """The plain spec data of the round robin (``matches`` per seating of every two strategies; ``rules`` None:
    the game's default preset, standard or wikibooks)."""
    overrides = dict(overrides or {})
    played = game_record(game)
    sweep: dict[str, Any] = {"name": "tournament", "seed": seed, "matches": matches, "output": output}
    base: dict[str, Any] = {"rules": rules or played.default_rules}
    if game != DEFAULT_GAME:  # absent from a Kemps tournament, so that its spec and folder stay as they were
        sweep = {"name": "tournament", "game": game, **{k: v for k, v in sweep.items() if k != "name"}}
    if played.takes_players:
        two_sides = 2 * played.seats_per_side
        if overrides.get("players", two_sides) != two_sides:
            raise ConfigError(f"players = {overrides['players']!r}: a tournament plays two {played.unit}s, so "
                              f"{two_sides} players")
        overrides.pop("players", None)
        base["players"] = two_sides
    elif "players" in overrides:
        raise ConfigError(f"players = {overrides['players']!r}: {played.fixed_players_text()}; leave it out")
    lineups = pairings(strategies)
    return {"sweep": sweep, "base": {**base, "set": overrides, "lineup": lineups[0]}, "axes": {"lineup": lineups}}


def tournament_spec(strategies: Sequence[str], matches: int = 50, rules: str | None = None,
                    overrides: Mapping[str, Any] | None = None, seed: int = 0,
                    output: str = "results/tournament", game: str = DEFAULT_GAME) -> SweepSpec:
    """The validated sweep spec of a round robin between ``strategies`` (agent specs such as ``"watcher"``, or
    Krepet players such as ``"careful"`` with ``game = "krepet"``)."""
    return spec_from_mapping(tournament_data(strategies, matches, rules, overrides, seed, output, game),
                             source="tournament")
