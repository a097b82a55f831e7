"""The conformance check for Krepet agents, the same three promises as for Kemps agents.

``check_agent`` (:mod:`kemps_sim.testing`) sends a Krepet agent here. It plays short games of the given presets,
each seed with the agent as both players, twice, and with the agent against ``opponents`` in either chair, and
checks that no game ends with an agent error under strict checks (every move one it was shown, the position
left as it was shown, no exception, no hang past five seconds), that the same game played twice gives the same
trace, and that the agent does not keep games from ending: games hitting the move cap with the agent in one chair
are judged against games of ``opponents`` alone on the same deals, with the tolerance Kemps uses for rounds.
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
from kemps_sim.krepet.presets import PRESETS, load_krepet_rules
from kemps_sim.krepet.realtime import KrepetConfig, play_krepet
from kemps_sim.krepet.result import KrepetResult

#: The methods a Krepet agent must have.
METHODS = ("decide", "start_match", "habits", "calls")


def check_krepet_agent(seat: Any, *, presets: Iterable[str] | None = None, seeds: Iterable[int] = range(3),
                       opponents: Any = "greedy", max_moves: int = 3000) -> Any:
    """Play the agent (a named factory from :func:`kemps_sim.testing.resolve_agent`) and raise
    :class:`~kemps_sim.conformance.ConformanceError` listing every failure, or return the report."""
    started = time.perf_counter()
    presets, seeds = tuple(PRESETS if presets is None else presets), tuple(seeds)
    if not (presets and seeds):
        raise ConfigError("check_agent: presets and seeds must each name at least one value")
    check_construction(seat, seat.name, METHODS, "kemps_sim.krepet.agent.BaseKrepetAgent", each="player")
    config = KrepetConfig(max_moves=max_moves, decide_timeout=5.0, strict=True)
    label = opponents if isinstance(opponents, str) else getattr(opponents, "name", "opponents")
    failures: list[Failure] = []
    games = self_timeouts = 0
    tally = [0, 0, 0, 0]  # agent-in-one-chair timeouts and games, baseline timeouts and games

    def play(rules: Any, lineup: list[Any], seed: int) -> KrepetResult:
        return play_krepet(rules, lineup, seed=seed, config=config, errors="record")

    for preset in presets:
        rules = load_krepet_rules(preset)
        for seed in seeds:
            where = f"{preset}, seed {seed}"
            first, again = play(rules, [seat], seed), play(rules, [seat], seed)
            mixed = [play(rules, [seat, opponents], seed), play(rules, [opponents, seat], seed)]
            baseline = play(rules, [opponents], seed)
            games += 5
            self_timeouts += first.reason == "timeout"
            for result, who in ((first, "as both players"), (again, "as both players"),
                                (mixed[0], f"as player 0 against {label}"), (mixed[1], f"as player 1 against {label}")):
                if result.error:
                    failures.append(Failure(CRASH, f"{where}, {who}", result.error))
                    break
            if baseline.error:
                raise ConfigError(f"check_agent: the opponents {label!r} alone failed at {where}: {baseline.error}")
            if first.error == again.error and first.reason == again.reason:
                found = first_difference(first.trace, again.trace)
                if found is not None:
                    failures.append(Failure(DETERMINISM, where, f"the same game played twice differed at {found}"))
            else:
                failures.append(Failure(DETERMINISM, where, f"the same game played twice ended {first.reason} "
                                        f"then {again.reason}"))
            tally = [tally[0] + sum(m.reason == "timeout" for m in mixed), tally[1] + 2,
                     tally[2] + 2 * (baseline.reason == "timeout"), tally[3] + 2]
    if livelocked(*tally):
        failures.append(Failure(LIVELOCK, f"against {label}", f"{tally[0]} of {tally[1]} games hit the move cap "
                                f"(max_moves={max_moves}) against {tally[2] // 2} of {tally[3] // 2} with {label} "
                                "as both players on the same deals; allowed: finishing at least half the baseline's "
                                "share of games"))
    if failures:
        raise ConformanceError(seat.name, failures, games)
    return ConformanceReport(seat.name, games, games, tally[0], tally[2] // 2, self_timeouts,
                             time.perf_counter() - started)
