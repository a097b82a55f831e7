"""Judging and scoring calls, keeping standings, and deciding when a match is over and who won.

Everything here is a pure function of the rules, the call and the hands at the moment of the call: no time, no
randomness. The engine decides *when* a call happens; this module decides what it was worth, whether it ends the
round, what is shown and who is barred.

Seats run 0..n-1; partners and pairs are :mod:`kemps_sim.seating`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from kemps_sim.cards import is_four_of_a_kind
from kemps_sim.errors import IllegalMove
from kemps_sim.pickling import by_fields
from kemps_sim.rules import Rules
from kemps_sim.seating import pair_of, pair_seats, partner

LETTERS = "KEMPS"


class CallKind(StrEnum):
    """The three calls a player can make."""

    KEMPS = "kemps"
    STOP_KEMPS = "stop_kemps"
    DOUBLE_KEMPS = "double_kemps"


class Outcome(StrEnum):
    """How a round (or, with play going on after wrong calls, a call) turned out."""

    KEMPS_RIGHT = "kemps_right"
    KEMPS_WRONG = "kemps_wrong"
    STOP_RIGHT = "stop_right"
    STOP_WRONG = "stop_wrong"
    STOP_INEFFECTIVE = "stop_ineffective"
    DOUBLE_RIGHT = "double_right"
    DOUBLE_WRONG = "double_wrong"
    VOID_PACK_EXHAUSTED = "void_pack_exhausted"
    TIMEOUT = "timeout"


_RIGHT = frozenset({Outcome.KEMPS_RIGHT, Outcome.STOP_RIGHT, Outcome.DOUBLE_RIGHT})
_NO_CALL = frozenset({Outcome.VOID_PACK_EXHAUSTED, Outcome.TIMEOUT})


@dataclass(frozen=True)
class Call:
    """A call: its kind, the calling seat and, for a Stop Kemps only, the accused seat.

    A Stop Kemps always names one player; under ``accused_pair`` that player's partner shows too.
    """

    kind: CallKind
    caller: int
    accused: int | None = None

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied through __init__ (kemps_sim.pickling)


@dataclass(frozen=True)
class ScoreDelta:
    """What one call adds to each pair's letters, points and rounds won (tuples indexed by pair)."""

    letters: tuple[int, ...]
    points: tuple[int, ...]
    rounds_won: tuple[int, ...]

    @classmethod
    def zero(cls, pairs: int) -> ScoreDelta:
        """A delta that changes nothing, for ``pairs`` pairs."""
        return cls((0,) * pairs, (0,) * pairs, (0,) * pairs)

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied through __init__ (kemps_sim.pickling)


@dataclass(frozen=True)
class Verdict:
    """The judged call: whether it was right, what the table (or only the caller) sees, and its score.

    ``revealed`` are the seats whose hands the table sees if the round (or the match) ends on this call; while
    play goes on the table sees none. ``shown_to_caller`` is the accused who shows two cards to the caller alone
    (003's penalty) and ``barred`` the caller who may not call Stop Kemps again this round.
    """

    call: Call
    outcome: Outcome
    right: bool
    revealed: tuple[int, ...]
    shown_to_caller: int | None
    ends_round: bool
    barred: int | None
    delta: ScoreDelta

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied through __init__ (kemps_sim.pickling)


@dataclass(frozen=True)
class Standings:
    """The match score so far, per pair, and how many rounds were decided by a call."""

    letters: tuple[int, ...]
    points: tuple[int, ...]
    rounds_won: tuple[int, ...]
    rounds_played: int = 0

    @classmethod
    def start(cls, rules: Rules) -> Standings:
        """Everyone at zero, before the first round."""
        zero = (0,) * rules.pairs
        return cls(zero, zero, zero, 0)

    def apply(self, delta: ScoreDelta) -> Standings:
        """New standings with a call's delta added (letters, once given, stay for the match)."""
        return Standings(_add(self.letters, delta.letters), _add(self.points, delta.points),
                         _add(self.rounds_won, delta.rounds_won), self.rounds_played)

    def finish_round(self, decided: bool) -> Standings:
        """New standings after a round ends; only a round ended by a call counts as played."""
        return Standings(self.letters, self.points, self.rounds_won, self.rounds_played + int(decided))

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied through __init__ (kemps_sim.pickling)


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


# Seats and pairs -------------------------------------------------------------------------------------------
def check_seat(rules: Rules, name: str, seat: object) -> None:
    """Refuse, with a one-line :class:`IllegalMove` naming ``call.<name>``, a ``seat`` that is not a seat of this
    table (a bool is not one)."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise IllegalMove(f"call.{name} = {seat!r}: not a seat; allowed seats are 0 to {rules.players - 1}")


def allowed_stop_targets(rules: Rules, caller: int) -> tuple[int, ...]:
    """Seats the caller may accuse in a Stop Kemps, in seat order.

    Never the caller's own pair. Under ``adjacent_pairs`` only the pairs of the two seats beside the caller
    qualify, which at 4 and 6 players is every other pair and at 8 leaves out the pair sitting opposite.
    """
    check_seat(rules, "caller", caller)
    n = rules.players
    if rules.stop_kemps_targets == "adjacent_pairs":
        pairs = {pair_of(n, (caller + step) % n) for step in (-1, 1)}
    else:
        pairs = set(range(rules.pairs))
    pairs.discard(pair_of(n, caller))
    return tuple(sorted(seat for pair in pairs for seat in pair_seats(n, pair)))


#: Every call kind's value (a call's kind may be given as the enum member or its value).
_CALL_KIND_VALUES: frozenset[str] = frozenset(k.value for k in CallKind)


def check_call(rules: Rules, call: Call) -> None:
    """Refuse, with a one-line :class:`IllegalMove`, a call these rules do not allow at this table."""
    if call.kind not in _CALL_KIND_VALUES or (call.kind == CallKind.DOUBLE_KEMPS and not rules.double_kemps):
        kinds = ", ".join(k.value for k in CallKind if k is not CallKind.DOUBLE_KEMPS or rules.double_kemps)
        if call.kind not in _CALL_KIND_VALUES:
            raise IllegalMove(f"call.kind = {call.kind!r}: unknown call; allowed kinds are {kinds}")
        raise IllegalMove(f"call.kind = 'double_kemps': not allowed with rules.double_kemps = false; "
                          f"allowed kinds are {kinds}")
    check_seat(rules, "caller", call.caller)
    if call.kind != CallKind.STOP_KEMPS:
        if call.accused is not None:
            raise IllegalMove(f"call.accused = {call.accused!r}: only a Stop Kemps names an accused; "
                              f"must be None for a {CallKind(call.kind).value} call")
        return
    targets = allowed_stop_targets(rules, call.caller)
    if type(call.accused) is int and call.accused in targets:  # the usual answer, without the wording
        return
    allowed = f"allowed seats for caller {call.caller} are {', '.join(map(str, targets))}"
    if call.accused is None:
        raise IllegalMove(f"call.accused = None: a Stop Kemps must name an accused seat; {allowed}")
    check_seat(rules, "accused", call.accused)
    n = rules.players
    if pair_of(n, call.accused) == pair_of(n, call.caller):
        raise IllegalMove(f"call.accused = {call.accused}: seat {call.accused} is in the caller's own pair "
                          f"{pair_of(n, call.caller)}; {allowed}")
    if call.accused not in targets:
        raise IllegalMove(f"call.accused = {call.accused}: pair {pair_of(n, call.accused)} does not sit "
                          f"next to the caller (rules.stop_kemps_targets = 'adjacent_pairs'); {allowed}")


# Judging ---------------------------------------------------------------------------------------------------
def judge(rules: Rules, call: Call, hands: Sequence[Sequence[int]]) -> Verdict:
    """Judge a legal call against the hands as they are at the moment of the call, and score it.

    A right call ends the round. A wrong one ends it too under ``wrong_call_ends_round``; when play goes on
    instead, 003's penalty shows two cards of the accused to the accuser alone and bars the accuser from Stop
    Kemps. A Stop Kemps on a pair holding a Double (``STOP_INEFFECTIVE``) follows ``stop_against_double``:
    ``like_wrong_stop`` as a wrong Stop Kemps; ``play_on`` scored while play goes on, nobody barred and nothing
    shown to anyone; ``ends_round`` scored and ending the round, hands shown as for any Stop Kemps.
    """
    check_call(rules, call)
    n = rules.players
    if len(hands) != n:
        raise ValueError(f"hands: got {len(hands)} hands, the table has {n} players")
    has = [is_four_of_a_kind(h) for h in hands]
    mate = partner(n, call.caller)
    if call.kind == CallKind.KEMPS:
        outcome = Outcome.KEMPS_RIGHT if has[mate] else Outcome.KEMPS_WRONG
        revealed: tuple[int, ...] = (mate,)
    elif call.kind == CallKind.DOUBLE_KEMPS:
        outcome = Outcome.DOUBLE_RIGHT if has[call.caller] and has[mate] else Outcome.DOUBLE_WRONG
        revealed = tuple(sorted((call.caller, mate)))
    else:
        assert call.accused is not None
        accused = call.accused
        revealed = (accused,) if rules.stop_kemps_reveals == "accused_player" else pair_seats(n, pair_of(n, accused))
        if rules.double_kemps and has[accused] and has[partner(n, accused)]:
            # The accused pair holds a Double: a Stop Kemps cannot catch it.
            outcome = Outcome.STOP_INEFFECTIVE
        else:
            outcome = Outcome.STOP_RIGHT if any(has[s] for s in revealed) else Outcome.STOP_WRONG
    ends = ends_round(rules, outcome)
    shown_to_caller: int | None = None
    barred: int | None = None
    if outcome is Outcome.STOP_INEFFECTIVE and rules.stop_against_double == "play_on":
        revealed = ()  # the accusation bounces off: nobody sees anything, nobody is barred
    elif stop_penalty_applies(rules, outcome):
        # Only the accuser gets a look (at two different cards); the table sees nothing; the accuser is barred.
        revealed, shown_to_caller, barred = (), call.accused, call.caller
    return Verdict(call=call, outcome=outcome, right=outcome in _RIGHT, revealed=revealed,
                   shown_to_caller=shown_to_caller, ends_round=ends, barred=barred,
                   delta=score(rules, call, outcome))


def ends_round(rules: Rules, outcome: Outcome) -> bool:
    """Whether a call judged ``outcome`` ends the round under these rules."""
    if outcome in _RIGHT or outcome in _NO_CALL:
        return True
    if outcome is Outcome.STOP_INEFFECTIVE and rules.stop_against_double != "like_wrong_stop":
        return rules.stop_against_double == "ends_round"
    return rules.wrong_call_ends_round


def stop_penalty_applies(rules: Rules, outcome: Outcome) -> bool:
    """Whether 003's penalty follows a call judged ``outcome``: play goes on, the accused shows two cards to the
    accuser alone, and the accuser may not call Stop Kemps again this round."""
    if rules.wrong_call_ends_round or rules.wrong_stop_penalty_003 is not True:
        return False
    return outcome is Outcome.STOP_WRONG or (outcome is Outcome.STOP_INEFFECTIVE
                                             and rules.stop_against_double == "like_wrong_stop")


# Scoring ---------------------------------------------------------------------------------------------------
def _to(pairs: int, amount: int, winners: Sequence[int]) -> tuple[int, ...]:
    return tuple(amount if p in winners else 0 for p in range(pairs))


def score(rules: Rules, call: Call, outcome: Outcome) -> ScoreDelta:
    """What a judged call adds to each pair under these rules.

    Letters go to the pair in the wrong, points to the pair in the right; both tuples are always filled but
    only the one the rules score with is non-zero. Rounds won are recorded under every scoring mode as a
    statistic, for calls that end the round (see :func:`ends_round`); only ``rounds_won`` scoring ends the match
    on them.
    """
    n = rules.pairs
    if outcome in _NO_CALL:
        return ScoreDelta.zero(n)
    caller = pair_of(rules.players, call.caller)
    accused = [pair_of(rules.players, call.accused)] if call.accused is not None else []  # its pair
    others = [p for p in range(n) if p != caller]

    letters: tuple[int, ...] = (0,) * n
    points: tuple[int, ...] = (0,) * n
    if rules.scoring == "letters":
        # With two pairs the other pair always takes it; the knob only speaks for 3-4 pairs.
        penalised = others if n == 2 or rules.right_kemps_penalises == "all_other_pairs" else []
        letters = {
            Outcome.KEMPS_RIGHT: _to(n, 1, penalised),
            Outcome.DOUBLE_RIGHT: _to(n, 2, penalised),
            Outcome.KEMPS_WRONG: _to(n, 1, [caller]),
            Outcome.DOUBLE_WRONG: _to(n, 2, [caller]),
            Outcome.STOP_RIGHT: _to(n, 1, accused),
            Outcome.STOP_WRONG: _to(n, 1, [caller]),
            Outcome.STOP_INEFFECTIVE: _to(n, 1, [caller]),
        }[outcome]
    elif rules.scoring == "points":
        gainers = others if rules.wrong_kemps_points == "other_pairs" else []
        points = {
            Outcome.KEMPS_RIGHT: _to(n, 1, [caller]),
            Outcome.STOP_RIGHT: _to(n, 1, [caller]),
            Outcome.DOUBLE_RIGHT: _to(n, 2, [caller]),
            Outcome.STOP_WRONG: _to(n, 1, accused),
            Outcome.STOP_INEFFECTIVE: _to(n, 1, accused),
            Outcome.KEMPS_WRONG: _to(n, 1, gainers),
            Outcome.DOUBLE_WRONG: _to(n, 2, gainers),
        }[outcome]

    # A round is won by the caller's pair on a right call, and on a wrong call that ends it by every pair but the
    # wrong caller's (with two pairs, the other one).
    rounds_won: tuple[int, ...] = (0,) * n
    if outcome in _RIGHT:
        rounds_won = _to(n, 1, [caller])
    elif ends_round(rules, outcome):
        rounds_won = _to(n, 1, others)
    return ScoreDelta(letters, points, rounds_won)


def resolve_call(rules: Rules, call: Call, hands: Sequence[Sequence[int]],
                 standings: Standings) -> tuple[Verdict, Standings]:
    """Check, judge and score a call and add its delta to the standings.

    The round is not closed here: when ``verdict.ends_round`` the caller follows with ``finish_round(True)``.
    """
    verdict = judge(rules, call, hands)
    return verdict, standings.apply(verdict.delta)


# Match end and ranking -------------------------------------------------------------------------------------
def match_over(rules: Rules, standings: Standings) -> bool:
    """Whether the match has ended: 5 letters, the target in points, or every agreed round decided."""
    if rules.scoring == "letters":
        return max(standings.letters) >= len(LETTERS)
    if rules.scoring == "points":
        assert rules.target_points is not None
        return max(standings.points) >= rules.target_points
    assert rules.rounds_to_play is not None
    return standings.rounds_played >= rules.rounds_to_play


def ranking(rules: Rules, standings: Standings) -> tuple[int, ...]:
    """Rank of each pair, 1 best, ties sharing the better rank: fewest letters, most points or most rounds."""
    if rules.scoring == "letters":
        keys = list(standings.letters)
    elif rules.scoring == "points":
        keys = [-p for p in standings.points]
    else:
        keys = [-r for r in standings.rounds_won]
    return min_ranks(keys)


def min_ranks(keys: Sequence[int]) -> tuple[int, ...]:
    """Rank of each key, 1 for the smallest, ties sharing the better rank: ``(3, 1, 3, 0)`` ranks ``(3, 2, 3, 1)``.

    The same numbers as ``scipy.stats.rankdata(keys, method="min")``, counted directly: a key's rank is one more
    than the number of keys below it. A table has at most six pairs, so counting beats sorting, and it keeps SciPy
    (slow to import) out of ``import kemps_sim``.
    """
    return tuple(1 + sum(other < key for other in keys) for key in keys)


def winners(rules: Rules, standings: Standings) -> tuple[int, ...]:
    """The pairs ranked first (more than one on a tie)."""
    return tuple(p for p, r in enumerate(ranking(rules, standings)) if r == 1)


def letters_text(count: int) -> str:
    """A letter count as people write it: 3 is ``K-E-M``; anything from 5 up is ``K-E-M-P-S``."""
    if count < 0:
        raise ValueError(f"count = {count}: a letter count cannot be negative")
    return "-".join(LETTERS[:count])
