"""A round robin between strategies as a sweep: one cell per seating of every two strategies, one strategy a side
(Kemps: two pairs, four players; Krepet: two players, one per chair).

Running it as an ordinary sweep gives tournaments everything sweeps have: any executor, resuming, Parquet tables.
:func:`pairings` lists its lineups; :mod:`kemps_sim.ratings` turns the outcomes in its pairs table into Bradley–Terry
ratings and the head-to-head matrix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME
from kemps_sim.games import game as game_record
from kemps_sim.lineup import entry_text, parse_entry, split_lineup
from kemps_sim.sweep.spec import SweepSpec, spec_from_mapping


def pairings(strategies: Sequence[str]) -> list[str]:
    """The lineups of a round robin: every unordered pair of distinct strategies, in both seatings.

    The order follows the input: for ``i < j`` the lineup ``"S_i,S_j"`` comes right before ``"S_j,S_i"``, so
    three strategies give six lineups and each ordered pair appears once. Playing both seatings cancels the
    first-seat advantage out of the head-to-head means.
    """
    if isinstance(strategies, str):
        raise ConfigError(f"strategies = {strategies!r}: must be a sequence of strategy names, not one string")
    names = []
    for entry in strategies:
        if not isinstance(entry, str) or not entry.strip():
            raise ConfigError(f"strategy {entry!r}: must be a non-empty agent spec such as 'collector'")
        if len(split_lineup(entry)) != 1:
            raise ConfigError(f"strategy {entry!r}: must be one agent spec; commas only inside its parentheses")
        names.append(_canonical(entry))
    if len(names) < 2:
        raise ConfigError(f"strategies = {list(strategies)!r}: a round robin needs at least 2 strategies")
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ConfigError(f"strategies = {names!r}: each strategy must appear once; repeated: {duplicates}")
    lineups = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            lineups += [f"{first},{second}", f"{second},{first}"]
    return lineups


def _canonical(entry: str) -> str:
    """The agent spec as a lineup labels it (``watcher()`` and ``watcher`` alike), so equal specs compare equal."""
    return entry_text(*parse_entry(entry))


def tournament_data(strategies: Sequence[str], matches: int = 50, rules: str | None = None,
                    overrides: Mapping[str, Any] | None = None, seed: int = 0,
                    output: str = "results/tournament", game: str = DEFAULT_GAME,
                    profile: Mapping[str, Any] | str | None = None) -> dict[str, Any]:
    """The plain spec data of the round robin (``matches`` per seating of every two strategies; ``rules`` None:
    the game's default preset, standard or wikibooks; ``profile`` the human profile of every seat, a table of
    profile fields or a profile file, None: the default profile)."""
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
    if profile is not None:  # absent otherwise, so that a tournament's spec and folder stay as they were
        base["profile"] = profile
    return {"sweep": sweep, "base": {**base, "set": overrides, "lineup": lineups[0]}, "axes": {"lineup": lineups}}


def tournament_spec(strategies: Sequence[str], matches: int = 50, rules: str | None = None,
                    overrides: Mapping[str, Any] | None = None, seed: int = 0,
                    output: str = "results/tournament", game: str = DEFAULT_GAME,
                    profile: Mapping[str, Any] | str | None = None) -> SweepSpec:
    """The validated sweep spec of a round robin between ``strategies`` (agent specs such as ``"watcher"``, or
    Krepet players such as ``"careful"`` with ``game = "krepet"``); a ``profile`` file is read from the working
    directory when relative."""
    return spec_from_mapping(tournament_data(strategies, matches, rules, overrides, seed, output, game, profile),
                             source="tournament")
