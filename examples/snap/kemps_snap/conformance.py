"""The conformance check of Snap agents (the record's ``check_agent``), the same promises as for every game.

:func:`kemps_sim.testing.check_agent` sends a Snap agent here. For every preset, table size and seed it plays a
short match with the agent at every seat, twice, and with the agent at seat 0 against ``opponents``, under strict
checks, and reports a failure for a match that ends with the agent's error (an exception, a hang past five
seconds, habits that are not :class:`~kemps_snap.agent.Habits`), for two plays of one seed whose traces differ,
and for an agent that keeps matches from ending: a Snap match always ends at ``max_seconds``, so the livelock
judged is a table that never gets to an ``all_cards`` end, compared with a table of ``opponents`` alone on the same
deals (the library's tolerance, :func:`kemps_sim.conformance.livelocked`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from kemps_sim.conformance import (
    CRASH,
    DETERMINISM,
    LIVELOCK,
    ConformanceError,
    ConformanceReport,
    Failure,
    check_construction,
    first_difference,
    livelocked,
)
from kemps_sim.errors import ConfigError
from kemps_snap.presets import PRESETS, load_snap_rules
from kemps_snap.realtime import SnapConfig, play_snap

#: The methods a Snap agent must have (the record's ``agent_methods``).
METHODS = ("start_match", "habits", "calls")


def check_snap_agent(seat: Any, *, presets: Iterable[str] | None = None, seeds: Iterable[int] = range(2),
                     opponents: Any = "snapper", players: Iterable[int] = (2, 3),
                     max_seconds: int = 120) -> ConformanceReport:
    """Play the agent (a named factory from :func:`kemps_sim.testing.resolve_agent`) and raise
    :class:`~kemps_sim.conformance.ConformanceError` listing every failure, or return the report."""
    started = time.perf_counter()
    presets, seeds, players = tuple(PRESETS if presets is None else presets), tuple(seeds), tuple(players)
    if not (presets and seeds and players):
        raise ConfigError("check_agent: presets, seeds and players must each name at least one value")
    check_construction(seat, seat.name, METHODS, "kemps_snap.agent.BaseSnapAgent", each="player")
    config = SnapConfig(decide_timeout=5.0, strict=True)
    label = opponents if isinstance(opponents, str) else getattr(opponents, "name", "opponents")
    failures: list[Failure] = []
    matches = self_timeouts = 0
    tally = [0, 0, 0, 0]  # agent-at-seat-0 timeouts and matches, baseline timeouts and matches
    for preset in presets:
        for n in players:
            rules = load_snap_rules(preset, players=n, max_seconds=max_seconds)
            for seed in seeds:
                where = f"{preset}, {n} players, seed {seed}"
                first = play_snap(rules, [seat], seed=seed, config=config, errors="record")
                again = play_snap(rules, [seat], seed=seed, config=config, errors="record")
                mixed = play_snap(rules, [seat] + [opponents] * (n - 1), seed=seed, config=config, errors="record")
                baseline = play_snap(rules, [opponents], seed=seed, config=config, errors="record")
                matches += 4
                self_timeouts += first.reason == "timeout"
                for result, who in ((first, "at every seat"), (mixed, f"at seat 0 against {label}")):
                    if result.error:
                        failures.append(Failure(CRASH, f"{where}, {who}", result.error))
                if baseline.error:
                    raise ConfigError(f"check_agent: the opponents {label!r} alone failed at {where}: "
                                      f"{baseline.error}")
                found = first_difference(first.trace, again.trace)
                if found is not None or first.error != again.error:
                    failures.append(Failure(DETERMINISM, where, f"the same match played twice differed at "
                                            f"{found or 'its error'}"))
                tally = [tally[0] + (mixed.reason == "timeout"), tally[1] + 1,
                         tally[2] + (baseline.reason == "timeout"), tally[3] + 1]
    if livelocked(*tally):
        failures.append(Failure(LIVELOCK, f"against {label}", f"{tally[0]} of {tally[1]} matches ran to "
                                f"max_seconds={max_seconds} against {tally[2]} of {tally[3]} with {label} at every "
                                "seat on the same deals; allowed: finishing at least half the baseline's share"))
    if failures:
        raise ConformanceError(seat.name, failures, matches)
    return ConformanceReport(seat.name, matches, matches, tally[0], tally[2], self_timeouts,
                             time.perf_counter() - started)
