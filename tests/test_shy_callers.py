"""Once bitten, twice shy: a wrong call of a seat's pair about a pair closes a share ``shy`` of the gap between the
seat's caution and the loss aversion of a choice at leisure, for its Stop Kemps on that pair on a gesture of the
same timing bin (:mod:`kemps_sim.belief.decision`).

The bookkeeping is checked in closed form on hand-made logs; the effect is measured at the table against a told
bluffing pair, the mechanism on against off with everything else fixed (the same seeds, timing tells off, so that
the burns alone are measured).
"""

from __future__ import annotations

import numpy as np
import pytest
from kemps_sim_agents.composed import CAUTION, LOSS_AVERSION

from kemps_sim import simulate_match
from kemps_sim.belief import Belief, Caller
from kemps_sim.belief.decision import LEISURE, SHY
from kemps_sim.errors import ConfigError
from kemps_sim.perception import Percept
from kemps_sim.seating import NOBODY
from kemps_sim.trace import CallHeard, PlayStarted
from tests.test_fake_tells import TOLD, belief_after_a_burn, late, nines, rates_below, view, wrong_stops_by_round


def stop(seat: int, accused: int, right: bool, at: float) -> CallHeard:
    return CallHeard(at, seat, "stop_kemps", accused, "stop_right" if right else "stop_wrong", right, at - 0.4,
                     True, "ear")


def kemps(seat: int, right: bool, at: float) -> CallHeard:
    return CallHeard(at, seat, "kemps", NOBODY, "kemps_right" if right else "kemps_wrong", right, at - 0.4, True,
                     "ear")


def caller_after(calls: list[CallHeard], risk: float = 0.3, shy: float = 0.5) -> Caller:
    """Seat 0's caller (standard rules, four players) once it has heard ``calls`` (nobody swapped: every cue came
    after a stillness, timing bin 1); half the gap closed per burn, so that counts show."""
    belief = Belief(0, 4, np.random.default_rng(0))
    obs = view([PlayStarted(0.0, 1, ()), *calls], [], 30.0)
    belief.refresh(obs)
    caller = Caller(belief, risk, shy=shy)
    caller.decide(obs, False)
    return caller


def raised(risk: float, burns: int, shy: float = 0.5) -> float:
    return LEISURE - (LEISURE - risk) * (1.0 - shy) ** burns


def test_the_defaults_tie_shyness_to_the_loss_aversion_of_a_choice_at_leisure() -> None:
    assert LOSS_AVERSION == LEISURE == 2.25 and SHY == 1.0 and CAUTION < LEISURE
    assert caller_after([stop(0, 1, False, 5.0)], shy=SHY).risk_about(1) == LEISURE  # one burn: as at leisure


def test_a_wrong_stop_of_the_seats_pair_raises_its_caution_about_the_accused_pair_only() -> None:
    caller = caller_after([stop(0, 1, False, 5.0)])
    assert caller.burns == [[0, 0], [0, 1]]  # pair 1, bin 1 (after a stillness)
    assert caller.risk_about(1) == caller.risk_about(3) == pytest.approx(raised(0.3, 1))
    assert caller.risk_about(2) == 0.3  # the partner: no burn about it
    # the partner's wrong Stop is the pair's letter: it counts as the seat's own; two burns leave a quarter of the gap
    twice = caller_after([stop(0, 1, False, 5.0), stop(2, 3, False, 9.0)])
    assert twice.burns == [[0, 0], [0, 2]]
    assert twice.risk_about(1) == pytest.approx(raised(0.3, 2)) == pytest.approx(2.25 - 1.95 / 4)


def test_right_calls_and_the_other_pairs_wrong_calls_raise_nothing() -> None:
    caller = caller_after([stop(0, 1, True, 5.0), stop(1, 0, False, 9.0), kemps(3, False, 12.0)])
    assert caller.burns == [[0, 0], [0, 0]]
    assert [caller.risk_about(s) for s in range(1, 4)] == [0.3, 0.3, 0.3]


def test_a_wrong_kemps_makes_no_seat_shy():
    """Only the other pairs are suspected of deceiving the seat: a wrong Kemps answered the partner's accident."""
    caller = caller_after([kemps(0, False, 5.0), kemps(2, False, 9.0)], shy=SHY)
    assert caller.burns == [[0, 0], [0, 0]]
    assert [caller.risk_about(s) for s in range(1, 4)] == [0.3, 0.3, 0.3]


def test_shy_zero_or_a_caution_at_leisure_already_changes_nothing() -> None:
    burnt = [stop(0, 1, False, 5.0), stop(2, 3, False, 9.0)]
    assert [caller_after(burnt, shy=0.0).risk_about(s) for s in (1, 3)] == [0.3, 0.3]
    assert [caller_after(burnt, risk=3.0).risk_about(s) for s in (1, 3)] == [3.0, 3.0]
    assert caller_after(burnt, shy=1.0).risk_about(1) == pytest.approx(LEISURE)


@pytest.mark.parametrize("reads_tells", [True, False])
def test_a_burn_on_a_gesture_right_after_a_swap_leaves_a_gesture_after_a_stillness_to_the_racing_caution(reads_tells):
    """Seat 0 called a wrong Stop Kemps on seat 1's ear touch 0.6 s after its swap (round 0); in round 1 seat 1
    touches its ear again, right after its swap or after 5.5 s of stillness. With tells read, only the first is
    weighed at leisure; without, every gesture of the pair is (one bin)."""
    risks = []
    for made_at in (3.6, 8.5):
        belief = belief_after_a_burn(reads_tells)
        caller = Caller(belief, 0.3, shy=SHY)
        obs = view([PlayStarted(0.0, 1, ()), *nines(1, 1.0)], [Percept(1, "ear", 2.0, 4.0, "fixated", made_at)],
                   9.0, round_index=1)
        belief.refresh(obs)
        caller.decide(obs, False)
        assert caller.burns[1] == ([1, 0] if reads_tells else [1]), caller.burns
        risks.append(caller.risk_about(1))
    assert risks == ([LEISURE, 0.3] if reads_tells else [LEISURE, LEISURE])


@pytest.mark.parametrize("shy", [-0.1, 1.5, True, "half"])
def test_a_bad_shy_is_refused_by_name(shy) -> None:
    with pytest.raises(ConfigError, match=r"^watcher\.shy = .*must be a share from 0"):
        simulate_match("standard", [f"watcher(shy={shy!r})", "collector"], seed=0)


def test_burnt_watchers_grow_shy_of_a_told_bluffing_pair() -> None:
    """300 matches of 8 rounds against a told bluffing pair, timing tells off: round 0 is the same on or off (nothing
    is learnt before the first wrong call, which ends the round), and in rounds 5-7 the watchers' wrong Stop Kemps
    are far fewer with the burns remembered (measured 104 against 571 in 900 rounds) and at most a third of round
    0's rate (183 in 300)."""
    on, off = wrong_stops_by_round(TOLD, False, 300, shy=SHY), wrong_stops_by_round(TOLD, False, 300, shy=0.0)
    assert on[0] == off[0] and on[0][1] >= 90, (on[0], off[0])
    assert rates_below(late(on), late(off)) < 1e-6, (late(on), late(off))
    assert rates_below(late(on), on[0], 1 / 3) < 0.01, (on[0], late(on))
    # without the burns the fakes keep paying: nothing like a fall to a third
    assert rates_below(late(off), off[0], 1 / 3) > 0.5, (off[0], late(off))
