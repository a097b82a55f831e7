"""What a call is worth to the caller's pair under the rules in force: the gain if it is right, the loss if it is
wrong, and what is lost if the other side's call settles the matter first.

Values come from :func:`kemps_sim.scoring.score`, so they follow every scoring knob (letters, points, rounds won,
Double Kemps, ``right_kemps_penalises``, ``wrong_kemps_points``) without restating a rule. A score change is worth
to a pair what it does to the gap between that pair and the others: under letters (bad) a letter to the pair is −1
and a letter to each other pair +1/(pairs − 1); under points and rounds won the signs are the other way round.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from kemps_sim.pickling import by_fields
from kemps_sim.rules import Rules
from kemps_sim.scoring import Call, CallKind, Outcome, ScoreDelta, allowed_stop_targets, score
from kemps_sim.seating import opponents, pair_of, partner

#: A wrong call is never taken as free: without any cost (rounds won, play going on) a caller would call on nothing.
MIN_LOSS = 0.05


def pair_value(rules: Rules, delta: ScoreDelta, pair: int) -> float:
    """What ``delta`` is worth to ``pair``: its own change against the mean change of the other pairs."""
    column = {"letters": delta.letters, "points": delta.points, "rounds_won": delta.rounds_won}[rules.scoring]
    others = [column[p] for p in range(rules.pairs) if p != pair]
    gap = column[pair] - sum(others) / len(others)
    return -gap if rules.scoring == "letters" else gap


@dataclass(frozen=True)
class Stakes:
    """A call's stakes for the caller's pair: ``gain`` if right, ``loss`` if wrong (>= MIN_LOSS), ``missed`` if the
    other side settles it first (positive when that hurts the pair)."""

    gain: float
    loss: float
    missed: float

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied through __init__ (kemps_sim.pickling)


def _value(rules: Rules, call: Call, outcome: Outcome, pair: int) -> float:
    return pair_value(rules, score(rules, call, outcome), pair)


@functools.lru_cache(maxsize=1024)  # a pure function of frozen rules: every match of a sweep cell asks the same
def kemps_stakes(rules: Rules, seat: int, double: bool = False) -> Stakes:
    """Kemps (or Double Kemps) by ``seat`` on its partner; missed: an opponent's right Stop Kemps on the partner."""
    pair, mate = pair_of(rules.players, seat), partner(rules.players, seat)
    kind, right, wrong = ((CallKind.DOUBLE_KEMPS, Outcome.DOUBLE_RIGHT, Outcome.DOUBLE_WRONG) if double
                          else (CallKind.KEMPS, Outcome.KEMPS_RIGHT, Outcome.KEMPS_WRONG))
    call = Call(kind, seat)
    stealers = [o for o in opponents(rules.players, seat) if mate in allowed_stop_targets(rules, o)]
    missed = (-sum(_value(rules, Call(CallKind.STOP_KEMPS, o, mate), Outcome.STOP_RIGHT, pair) for o in stealers)
              / len(stealers)) if stealers else 0.0
    return Stakes(_value(rules, call, right, pair), max(-_value(rules, call, wrong, pair), MIN_LOSS), missed)


@functools.lru_cache(maxsize=1024)
def stop_stakes(rules: Rules, seat: int, accused: int) -> Stakes:
    """Stop Kemps by ``seat`` naming ``accused``; missed: the accused's partner calls a right Kemps first."""
    pair = pair_of(rules.players, seat)
    call = Call(CallKind.STOP_KEMPS, seat, accused)
    mate = partner(rules.players, accused)
    missed = -_value(rules, Call(CallKind.KEMPS, mate), Outcome.KEMPS_RIGHT, pair)
    return Stakes(_value(rules, call, Outcome.STOP_RIGHT, pair),
                  max(-_value(rules, call, Outcome.STOP_WRONG, pair), MIN_LOSS), missed)
