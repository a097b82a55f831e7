"""What a round and a match produce, and the names of the tables made from them: the types every layer above the
engine (records, statistics, sweeps, plots) reads, kept below the engine so that none of them needs it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kemps_sim.metrics import names as metric_names
from kemps_sim.rules import Rules
from kemps_sim.scoring import Outcome, Standings
from kemps_sim.trace import TraceEvent


class EndReason(StrEnum):
    """How a match ended: a pair lost or won, the round cap (``EngineConfig.max_rounds``), an agent's error, or
    (in a sweep) a worker that crashed while playing it."""

    MATCH_OVER = "match_over"
    ROUND_CAP = "round_cap"
    AGENT_ERROR = "agent_error"
    CRASHED = "crashed"


#: How a match can end, as the tables write it.
END_REASONS = tuple(reason.value for reason in EndReason)
#: End reasons of matches that did not finish as a game.
FAILED_END_REASONS = (EndReason.AGENT_ERROR.value, EndReason.CRASHED.value)


class Fate(StrEnum):
    """What became of a four of a kind (the ``fours`` table): called by its pair, caught by a Stop Kemps, still
    held when the round ended otherwise, or broken up before any call."""

    KEMPS = "kemps"
    STOLEN = "stolen"
    UNCALLED = "uncalled"
    BROKEN = "broken"


#: The fates in the order the statistics report them.
FATES = tuple(fate.value for fate in Fate)
#: The shares ``kemps_sim.stats.call_accuracy`` reports, in its output order: the metric registry's
#: ``accuracy`` role (:mod:`kemps_sim.metrics`, standard library only, so command-line help lists them cheaply).
ACCURACY_METRICS = metric_names(role="accuracy")
#: The metrics ``kemps_sim.stats.compare`` tests, in the order its error message lists them (``stats.METRICS``):
#: the registry's ``compare`` role.
COMPARE_METRICS = metric_names(role="compare")
#: The tables made from every match (see :mod:`kemps_sim.records`), in the order they are written.
MATCH_TABLES = ("pairs", "rounds", "calls", "fours")
#: Every table a sweep stores: the match tables, the optional events table and one row per match.
#: A Krepet sweep's own tables beside matches, pairs (one row per player) and calls.
KREPET_TABLES = ("misses", "moves")
SWEEP_TABLES = (*MATCH_TABLES, *KREPET_TABLES, "events", "matches")


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
    end_reason: str  # an EndReason value
    error: str | None = None  # with end_reason "agent_error": what the agent did, naming agent, seat and seed

    @property
    def events(self) -> int:
        """How many trace events the match produced."""
        return sum(len(r.trace) for r in self.rounds)
