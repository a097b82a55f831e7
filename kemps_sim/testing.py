"""A conformance check for agents: one call an agent's author can put in their own tests.

``check_agent(MyAgent)`` plays many short matches across presets and table sizes, with the agent in every seat
and with the agent in one pair against ``opponents``, and checks three things:

- **legal intents and no crash**: no match ends with an agent error (an illegal or malformed intent, an
  exception, a decide() that never returns within ``decide_timeout``), under strict engine checks;
- **determinism**: the same match played twice gives identical traces, so results are reproducible from a seed
  (an agent must draw randomness only from the generator ``start_match`` hands it, never from ``random``, the
  clock or anything else outside the match);
- **no livelock it causes alone**: with the agent in one pair and ``opponents`` in the others, rounds must not end
  in ``timeout`` (the round cap) much more often than at a table of ``opponents`` only, on the same deals.

The livelock tolerance, per preset (rule sets differ in how a middle is refreshed, so a livelock is often
rule-specific and pooling would hide it): let ``b`` be the baseline's share of timed-out rounds and ``a`` the
share with the agent in one pair. An agent that livelocks the table makes nearly every round time out
(``a`` near 1); a weak but live agent only shifts ``a`` by the noise of a few rounds (a passive pair can leave
a collector short of its fourth card, so a few extra timeouts are normal). The check fails halfway between the
two: when the share of finished rounds falls below half the baseline's, ``1 - a < (1 - b) / 2``, and the excess
is at least two rounds, so that one unlucky round in a tiny sample cannot fail an agent. If the baseline itself
finishes no round there is nothing to compare and the preset is not judged.

Limits: nondeterminism that is stable within one process (iteration order of a ``set`` of strings, which
changes only between interpreter runs) is not seen; the livelock check sees only what the sampled deals show.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from kemps_sim.agent import Agent, BaseAgent
from kemps_sim.conformance import (
    BUILD,
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
from kemps_sim.engine import EngineConfig, MatchResult, simulate_match
from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME
from kemps_sim.games import game as game_record
from kemps_sim.lineup import make_factory, parse_entry
from kemps_sim.presets import load_rules, preset_names
from kemps_sim.registry import agent_info
from kemps_sim.results import EndReason
from kemps_sim.rules import Rules
from kemps_sim.scoring import Outcome

AgentLike = str | type | BaseAgent | Callable[[], Agent]
_livelocked = livelocked  # the name the tests of the tolerance use
__all__ = ["BUILD", "CRASH", "DETERMINISM", "LIVELOCK", "ConformanceError", "ConformanceReport", "Failure",
           "check_agent", "game_of", "resolve_agent"]

class _Seat:
    """A named zero-argument factory: the engine labels the seats with ``name`` in its error messages."""

    def __init__(self, name: str, build: Callable[[], Agent]) -> None:
        self.name = name
        self._build = build

    def __call__(self) -> Agent:
        return self._build()


def resolve_agent(agent: AgentLike, game: str = DEFAULT_GAME) -> _Seat:
    """A named factory from a registered name, a lineup entry ``"name(p=1)"``, a class, an agent or a callable."""
    if isinstance(agent, str):
        name, params = parse_entry(agent, game)
        return _Seat(agent.strip(), make_factory(name, params, game))
    if isinstance(agent, BaseAgent):
        return _Seat(repr(agent), agent.clone)
    if callable(agent):
        label = getattr(agent, "name", None)
        if not isinstance(label, str) or label == BaseAgent.name:
            label = getattr(agent, "__name__", type(agent).__name__)
        return _Seat(label, agent)
    raise ConfigError(f"agent {agent!r}: must be an agent class, a registered name, a lineup entry such as "
                      "'watcher(threshold=0.9)', an agent, or a zero-argument factory")


def game_of(agent: AgentLike) -> str:
    """The game an agent plays: its registered ``game`` for a name or lineup entry, else its ``game`` attribute."""
    if isinstance(agent, str):
        return agent_info(parse_entry(agent)[0]).game
    return getattr(agent, "game", DEFAULT_GAME)


def check_agent(factory: AgentLike, *, presets: Iterable[str] | None = None, players: Iterable[int] = (4, 6, 8),
                seeds: Iterable[int] = range(2), opponents: AgentLike = "collector", max_rounds: int = 3,
                max_round_seconds: float = 60.0) -> ConformanceReport:
    """Play the agent through short matches and raise :class:`ConformanceError` listing every failed check.

    For every preset, table size and seed: the agent in every seat, twice (crash and determinism), and the agent
    in pair 0 against ``opponents`` in the other pairs (crash and livelock, judged per preset against a table
    of ``opponents`` only). Each match runs under ``EngineConfig(strict=True, decide_timeout=5.0)`` with the
    given caps. Returns a :class:`ConformanceReport` when everything passes.

    An agent of another game (its ``game``: Krepet's ``greedy``, say) is checked by its game's own conformance check
    (the record's ``check_agent``: :mod:`kemps_sim.krepet.conformance` for Krepet), against the game's default
    lineup unless other ``opponents`` are named (``players`` does not apply).
    """
    game = game_of(factory)
    if game != DEFAULT_GAME:  # the same promises, checked on the agent's own game
        played = game_record(game)
        return played.hook("check_agent")(resolve_agent(factory, game), presets=presets, seeds=seeds,
                                          opponents=opponents if opponents != "collector" else played.default_lineup)
    started = time.perf_counter()
    presets, players, seeds = tuple(preset_names() if presets is None else presets), tuple(players), tuple(seeds)
    if not (presets and players and seeds):
        raise ConfigError("check_agent: presets, players and seeds must each name at least one value")
    seat = resolve_agent(factory)
    opponent = opponents if isinstance(opponents, str) else resolve_agent(opponents)
    opponent_label = opponent if isinstance(opponent, str) else opponent.name
    _check_construction(seat)
    config = EngineConfig(strict=True, max_rounds=max_rounds, max_round_seconds=max_round_seconds,
                          decide_timeout=5.0)
    failures: list[Failure] = []
    matches = rounds = self_timeouts = 0
    livelock: dict[str, tuple[int, int, int, int]] = {}
    for preset in presets:
        tally = [0, 0, 0, 0]  # agent-in-one-pair timeouts and rounds, baseline timeouts and rounds
        timed_out: list[str] = []
        for n in players:
            rules = load_rules(preset, players=n)
            for seed in seeds:
                where = f"{preset}, {n} players, seed {seed}"
                first, again = _play(rules, [seat], seed, config), _play(rules, [seat], seed, config)
                mixed = _play(rules, [seat] + [opponent] * (rules.pairs - 1), seed, config)
                matches += 3
                rounds += len(first.rounds) + len(again.rounds) + len(mixed.rounds)
                self_timeouts += _timeouts(first)
                if first.error or again.error:
                    failures.append(Failure(CRASH, f"{where}, agent in every seat", first.error or again.error))
                difference = _difference(first, again)
                if difference:
                    failures.append(Failure(DETERMINISM, f"{where}, agent in every seat", difference))
                if mixed.error:
                    failures.append(Failure(CRASH, f"{where}, agent in pair 0 against {opponent_label}",
                                            mixed.error))
                    continue
                baseline = _play(rules, [opponent], seed, config)
                matches += 1
                rounds += len(baseline.rounds)
                if baseline.error:
                    raise ConfigError(f"check_agent: the opponents {opponent_label!r} alone failed at {where}: "
                                      f"{baseline.error}")
                tally = [tally[0] + _timeouts(mixed), tally[1] + len(mixed.rounds),
                         tally[2] + _timeouts(baseline), tally[3] + len(baseline.rounds)]
                lost = [str(r.index) for r in mixed.rounds if r.outcome == Outcome.TIMEOUT]
                if lost:
                    timed_out.append(f"{n} players seed {seed} round(s) {', '.join(lost)}")
        livelock[preset] = (tally[0], tally[1], tally[2], tally[3])
        if livelocked(*tally):
            failures.append(Failure(
                LIVELOCK, f"{preset}, agent in pair 0 against {opponent_label}",
                f"{tally[0]} of {tally[1]} rounds hit the round cap (max_round_seconds={max_round_seconds}) against "
                f"{tally[2]} of {tally[3]} with {opponent_label} in every seat on the same deals; allowed: finishing "
                f"at least half the baseline's share of rounds. Timed out: {'; '.join(timed_out)}"))
    if failures:
        raise ConformanceError(seat.name, failures, matches)
    a_to = sum(v[0] for v in livelock.values())
    b_to = sum(v[2] for v in livelock.values())
    return ConformanceReport(seat.name, matches, rounds, a_to, b_to, self_timeouts,
                             time.perf_counter() - started, livelock)


def _check_construction(seat: _Seat) -> None:
    """The factory must build a fresh agent with the protocol's methods on every call (one per seat)."""
    check_construction(seat, seat.name, ("decide", "start_match", "choose_signal"), "kemps_sim.agent.BaseAgent")


def _play(rules: Rules, lineup: list[Any], seed: int, config: EngineConfig) -> MatchResult | _Crashed:
    """One match with agent errors recorded; anything else the match raises (a bug surfacing as an exception
    outside decide(), say in start_match) is recorded as a crash too. Configuration errors propagate."""
    try:
        return simulate_match(rules, lineup, seed=seed, config=config, errors="record")
    except ConfigError:
        raise
    except Exception as exc:
        return _Crashed(f"the match raised {type(exc).__name__}: {exc}")


@dataclass(frozen=True)
class _Crashed:
    """A match that raised instead of returning: no rounds, only the error."""

    error: str
    rounds: tuple = ()
    end_reason: str = EndReason.CRASHED.value


def _timeouts(result: MatchResult | _Crashed) -> int:
    return sum(r.outcome == Outcome.TIMEOUT for r in result.rounds)


def _difference(first: MatchResult | _Crashed, again: MatchResult | _Crashed) -> str | None:
    """Where two plays of the same match first differ, or None if they are identical."""
    if first.error != again.error:
        return f"the same match played twice ended differently: {first.error!r} then {again.error!r}"
    a, b = [r.trace for r in first.rounds], [r.trace for r in again.rounds]
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        found = first_difference(x, y)
        if found is not None:
            return f"the same match played twice differed in round {index}, {found}"
    if len(a) != len(b) or first.end_reason != again.end_reason:
        return (f"the same match played twice lasted {len(a)} round(s) ({first.end_reason}) then {len(b)} "
                f"({again.end_reason})")
    return None
