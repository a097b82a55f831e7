"""A round robin between pair strategies as a sweep: one cell per seating of every two strategies, four players;
or, with ``game = "krepet"``, between Krepet players, one per chair.

Running it as an ordinary sweep gives tournaments everything sweeps have: any executor, resuming, Parquet tables.
:mod:`kemps_sim.ratings` turns its pairs table into Bradley–Terry ratings and the head-to-head matrix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.ratings import pairings
from kemps_sim.sweep.spec import SweepSpec, spec_from_mapping


def tournament_data(strategies: Sequence[str], matches: int = 50, rules: str | None = None,
                    overrides: Mapping[str, Any] | None = None, seed: int = 0,
                    output: str = "results/tournament", game: str = "kemps") -> dict[str, Any]:
    """The plain spec data of the round robin (``matches`` per seating of every two strategies; ``rules`` None:
    the game's default preset, standard or wikibooks)."""
    overrides = dict(overrides or {})
    if game == "krepet":
        if "players" in overrides:
            raise ConfigError(f"players = {overrides['players']!r}: Krepet is a game for two; leave it out")
        lineups = pairings(strategies)
        return {"sweep": {"name": "tournament", "game": "krepet", "seed": seed, "matches": matches,
                          "output": output},
                "base": {"rules": rules or "wikibooks", "set": overrides, "lineup": lineups[0]},
                "axes": {"lineup": lineups}}
    rules = rules or "standard"
    if overrides.get("players", 4) != 4:
        raise ConfigError(f"players = {overrides['players']!r}: a tournament plays two pairs, so 4 players")
    overrides.pop("players", None)
    lineups = pairings(strategies)
    return {"sweep": {"name": "tournament", "seed": seed, "matches": matches, "output": output},
            "base": {"rules": rules, "players": 4, "set": overrides, "lineup": lineups[0]},
            "axes": {"lineup": lineups}}


def tournament_spec(strategies: Sequence[str], matches: int = 50, rules: str | None = None,
                    overrides: Mapping[str, Any] | None = None, seed: int = 0,
                    output: str = "results/tournament", game: str = "kemps") -> SweepSpec:
    """The validated sweep spec of a round robin between ``strategies`` (agent specs such as ``"watcher"``, or
    Krepet players such as ``"careful"`` with ``game = "krepet"``)."""
    return spec_from_mapping(tournament_data(strategies, matches, rules, overrides, seed, output, game),
                             source="tournament")
