"""What a conformance check reports, for either game: the checks' names, a failure, the error listing every
failure, the report of a passed check, and the two judgements both games share (the livelock tolerance, and
where two plays of the same game first differ). :mod:`kemps_sim.testing` and :mod:`kemps_sim.krepet.conformance`
play the games."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

CRASH, DETERMINISM, LIVELOCK, BUILD = "legal intents, no crash", "determinism", "livelock", "construction"


@dataclass(frozen=True)
class Failure:
    """One failed check: which check, where (preset, players, seed, lineup) and what happened."""

    check: str
    where: str
    detail: str

    def line(self) -> str:
        """The failure as one line: ``[check] where: what happened``."""
        return f"[{self.check}] {self.where}: {self.detail}"


class ConformanceError(AssertionError):
    """An agent failed the conformance check; the message lists every failure, one per line."""

    def __init__(self, agent: str, failures: Sequence[Failure], matches: int = 0) -> None:
        self.agent = agent
        self.failures = tuple(failures)
        head = f"agent {agent} failed {len(self.failures)} conformance check(s)"
        super().__init__(head + (f" in {matches} matches" if matches else "") + ":\n"
                         + "\n".join(f"- {f.line()}" for f in self.failures))


@dataclass(frozen=True)
class ConformanceReport:
    """What a passed check played: matches, rounds, timeouts per lineup, and the wall time it took. (A Krepet
    game is one match of one round; its timeouts are games that hit the move cap.)"""

    agent: str
    matches: int
    rounds: int
    timeouts: int  # rounds ending in timeout with the agent in one pair against the opponents
    baseline_timeouts: int  # ... with the opponents in every seat, on the same deals
    self_play_timeouts: int  # ... with the agent in every seat (reported, not judged)
    seconds: float
    livelock: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)  # preset: (a_to, a_n, b_to, b_n)

    def __str__(self) -> str:
        return (f"agent {self.agent}: {self.matches} matches, {self.rounds} rounds in {self.seconds:.1f} s; "
                f"timeouts in one pair {self.timeouts}, baseline {self.baseline_timeouts}, "
                f"every seat {self.self_play_timeouts}")


def livelocked(a_timeouts: int, a_rounds: int, b_timeouts: int, b_rounds: int) -> bool:
    """The livelock tolerance (:mod:`kemps_sim.testing`): the share of rounds (or games) finished with the agent
    below half the baseline's, by two or more."""
    if not a_rounds or not b_rounds or b_timeouts == b_rounds:
        return False
    a_finished, b_finished = 1 - a_timeouts / a_rounds, 1 - b_timeouts / b_rounds
    excess = a_timeouts - a_rounds * b_timeouts / b_rounds
    return a_finished < b_finished / 2 and excess >= 2


def first_difference(a: Sequence[Any], b: Sequence[Any]) -> str | None:
    """Where two event sequences first differ (``event 12: X then Y``, or their lengths), None if identical;
    events holding NaN, which never equals itself, are settled by their repr."""
    for position, (e, f) in enumerate(zip(a, b, strict=False)):
        if not (e == f or repr(e) == repr(f)):
            return f"event {position}: {short(e)} then {short(f)}"
    if len(a) != len(b):
        return f"{len(a)} events then {len(b)}"
    return None


def short(event: Any, limit: int = 160) -> str:
    """An event's repr, cut to ``limit`` characters."""
    text = repr(event)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_construction(seat: Callable[[], Any], name: str, methods: Sequence[str], base: str,
                       each: str = "seat") -> Any:
    """The first of two agents the factory ``seat`` builds, checked: the factory runs, the agent has every method of
    its game's protocol (``methods``; else: subclass ``base``), and each call builds a fresh agent (one per
    ``each``, seat or player). Every problem is a :class:`ConformanceError` under ``BUILD``."""
    try:
        one, two = seat(), seat()
    except Exception as exc:
        raise ConformanceError(name, [Failure(BUILD, "building the agent",
                                              f"the factory raised {type(exc).__name__}: {exc}")]) from exc
    problems = []
    missing = [m for m in methods if not callable(getattr(one, m, None))]
    if missing:
        problems.append(f"{type(one).__name__} has no {', '.join(m + '()' for m in missing)}; subclass {base}"
                        + (" and implement decide()" if "decide" in methods else ""))
    if one is two:
        problems.append(f"the factory returned the same object twice; the engine needs a fresh agent per {each}")
    if problems:
        raise ConformanceError(name, [Failure(BUILD, "building the agent", p) for p in problems])
    return one
