"""What a round and a match produce, and the names of the tables made from them: the types every layer above the
engine (records, statistics, sweeps, plots) reads, kept below the engine so that none of them needs it."""

from __future__ import annotations

from dataclasses import dataclass

from kemps_sim.rules import Rules
from kemps_sim.scoring import Outcome, Standings
from kemps_sim.trace import TraceEvent

#: How a match can end: a pair lost or won, the round cap (``EngineConfig.max_rounds``), or an agent's error.
END_REASONS = ("match_over", "round_cap", "agent_error")
#: End reasons of matches that did not finish as a game: an agent's error, or a worker that crashed in a sweep.
FAILED_END_REASONS = ("agent_error", "crashed")
#: The tables made from every match (see :mod:`kemps_sim.records`), in the order they are written.
MATCH_TABLES = ("pairs", "rounds", "calls", "fours")
#: Every table a sweep stores: the match tables, the optional events table and one row per match.
SWEEP_TABLES = (*MATCH_TABLES, "events", "matches")


@dataclass(frozen=True)
class RoundResult:
    """How one round ended, the standings after it, and everything that happened in it."""

    index: int
    dealer: int
    signals: tuple[str, ...]
    outcome: Outcome
    end_time: float
    standings: Standings
    trace: tuple[TraceEvent, ...]


@dataclass(frozen=True)
class MatchResult:
    """The final standings, the ranking of the pairs, every round and its trace, and what produced them.

    :func:`kemps_sim.records.tables` turns results into tidy tables.
    """

    rules: Rules
    seed: int
    agents: tuple[str, ...]
    standings: Standings
    ranking: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: tuple[RoundResult, ...]
    end_reason: str  # one of END_REASONS
    error: str | None = None  # with end_reason "agent_error": what the agent did, naming agent, seat and seed

    @property
    def events(self) -> int:
        """How many trace events the match produced."""
        return sum(len(r.trace) for r in self.rounds)
