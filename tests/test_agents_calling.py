"""Calls from the shared belief: precision against calling on every percept, precision against the eyes' d', and the
attitude to risk (``cautious`` against ``eager``).

Every comparison holds the rest fixed: the same seeds, the pair under test in pair 0 against the same opponents, the
dealer drawn by the seed. Both pairs signal with a blink here, a gesture everyone makes twenty times a minute, so
that the caller's judgment matters: with a rarer gesture nearly every percept is a signal, every caller is right
and no comparison could show anything.
"""

from __future__ import annotations

import functools
import itertools

import pytest
from scipy.stats import CensoredData, binomtest, fisher_exact, logrank

from kemps_sim import PlayerProfile, preset_names, simulate_match
from kemps_sim.scoring import Outcome
from kemps_sim.trace import CallHeard, HandFour
from tests.test_agents_collecting import km_median

BLINK = "(signal='blink', signal_policy='fixed')"
#: The attitude to risk alone: no caution learnt from the pair's own wrong calls (``shy=0``), since a burnt eager
#: pair soon calls almost as cautiously as the cautious one (once bitten, twice shy: :mod:`kemps_sim.belief.decision`).
STEADY = "(signal='blink', signal_policy='fixed', shy=0)"


def eyes(d_prime: float) -> PlayerProfile:
    """Every seat's d' scaled together: fixated d', peripheral 0.4 of it, heard 0.75 of it (the defaults' ratios)."""
    return PlayerProfile().with_params({"observer.d_fixated": d_prime, "observer.d_peripheral": 0.4 * d_prime,
                                        "observer.heard_d": 0.75 * d_prime})


@functools.cache
def kemps_calls(agent: str, d_prime: float, matches: int) -> tuple[int, int]:
    """(right, wrong) Kemps by pair 0 (``agent``) against collectors, everyone with the given d'."""
    right = wrong = 0
    for seed in range(matches):
        result = simulate_match("standard", [agent + BLINK, "collector" + BLINK], profiles=eyes(d_prime), seed=seed)
        for rnd in result.rounds:
            for event in rnd.trace:
                if type(event) is CallHeard and event.call == "kemps" and event.seat % 2 == 0:
                    right += event.right
                    wrong += not event.right
    return right, wrong


def test_at_d_prime_zero_the_belief_is_more_precise_than_calling_on_every_percept():
    """d' = 0: a deliberate blink looks exactly like a natural one. ``naive`` calls Kemps on every percept of its
    partner's blink; the collector weighs it against how often people blink. Measured: 150 matches each."""
    believed, naive = kemps_calls("collector", 0.0, 150), kemps_calls("naive", 0.0, 150)
    precision = believed[0] / sum(believed)
    assert precision >= naive[0] / sum(naive)
    assert fisher_exact([list(believed), list(naive)], alternative="greater").pvalue < 1e-6, (believed, naive)
    assert believed[0] >= 0.5 * naive[0]  # and it still calls: not precise by saying nothing


def test_precision_rises_with_d_prime():
    """The same collectors with sharper eyes: d' 0, 1.5, 3, 4.5 (150 matches each). Precision rises from end to end
    (Fisher's exact test) and never falls by more than the noise of a step (two standard errors)."""
    calls = {d: kemps_calls("collector", d, 150) for d in (0.0, 1.5, 3.0, 4.5)}
    precision = {d: right / (right + wrong) for d, (right, wrong) in calls.items()}
    assert fisher_exact([list(calls[4.5]), list(calls[0.0])], alternative="greater").pvalue < 0.01, calls
    levels = sorted(precision)
    for low, high in itertools.pairwise(levels):
        n = sum(calls[high])
        noise = 2 * (precision[high] * (1 - precision[high]) / n) ** 0.5
        assert precision[high] >= precision[low] - noise, precision


def calls_and_delays(preset: str, matches: int) -> tuple[list[int], list[CensoredData]]:
    """Per pair (0 cautious, 1 eager): wrong calls, and for every four of a kind at the table the seconds until the
    pair's right call about it, censored when the four was settled otherwise (another call, broken, round over)."""
    wrong = [0, 0]
    done: list[list[float]] = [[], []]
    censored: list[list[float]] = [[], []]

    def settle(seconds: float, by: int | None) -> None:
        for pair in (0, 1):
            (done if by == pair else censored)[pair].append(seconds)

    for seed in range(matches):
        result = simulate_match(preset, ["cautious" + STEADY, "eager" + STEADY], seed=seed)
        n = result.rules.players
        for rnd in result.rounds:
            holding: dict[int, float] = {}  # holder -> when its four of a kind began
            for event in rnd.trace:
                if type(event) is HandFour:
                    if event.rank >= 0:
                        holding[event.seat] = event.time
                    elif event.seat in holding:
                        settle(event.time - holding.pop(event.seat), None)
                elif type(event) is CallHeard:
                    wrong[event.seat % 2] += not event.right
                    if event.right:  # a right call ends the round: every four still held is settled now
                        about = (event.seat + n // 2) % n if event.accused < 0 else event.accused
                        pair = {about, (about + n // 2) % n} if event.accused >= 0 else {about}
                        for holder, began in holding.items():
                            settle(event.time - began, event.seat % 2 if holder in pair else None)
                        holding.clear()
            for began in holding.values():
                settle(rnd.end_time - began, None)
    return wrong, [CensoredData(uncensored=done[p], right=censored[p]) for p in (0, 1)]


@pytest.mark.parametrize("preset", preset_names())
def test_cautious_calls_wrongly_less_often_and_rightly_later_than_eager(preset):
    """``cautious`` (the loss aversion of a choice at leisure) against ``eager`` (a third of the default caution)
    at the same table, neither learning caution from its burns, 100 matches per preset: wrong calls (Kemps, Double
    Kemps and Stop Kemps) of each pair, and the time from a four of a kind to each pair's right call about it
    (log-rank test, Kaplan-Meier medians)."""
    wrong, (cautious, eager) = calls_and_delays(preset, 100)
    # same matches for both pairs: under equal rates each wrong call is the cautious pair's with probability 1/2
    assert wrong[0] < wrong[1]
    assert binomtest(wrong[0], sum(wrong), 0.5, alternative="less").pvalue < 1e-3, wrong
    # 'less': the first sample (cautious) gets its right calls in at a lower rate than the second (eager)
    assert logrank(cautious, eager, alternative="less").pvalue < 1e-3
    assert km_median(cautious) > km_median(eager)


def test_a_table_of_loss_averse_callers_ends_its_rounds_by_calls():
    """Four ``cautious`` seats: their belief in a signalling partner stops short of certainty (a signal and a fake
    look alike: :meth:`kemps_sim.belief.Belief.limit`) and below the threshold of a look that settles it, so when
    they waited for such a look every round ran to the engine's time cap. Weighing what a look can settle puts the
    threshold below the limit (:mod:`kemps_sim.belief.decision`): in 20 matches every round ends in a call."""
    ends = [rnd.outcome for seed in range(20) for rnd in simulate_match("standard", "cautious", seed=seed).rounds]
    assert len(ends) >= 20 and Outcome.TIMEOUT not in ends, ends
