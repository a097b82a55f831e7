"""``camouflage``: after making four of a kind the holder keeps swapping (out and straight back), so the stillness
tell does not build up, and the swapping makes its partner's Kemps no more often wrong than a still holder's."""

from __future__ import annotations

from scipy.stats import mannwhitneyu

from kemps_sim import simulate_match
from kemps_sim.trace import CallHeard, HandFour, Swapped

MATCHES = 40


def holder_behaviour(agent: str) -> dict[str, list]:
    """For pair 0 (seats 0 and 2) played by ``agent`` against collectors: whether each four of a kind was followed
    by swaps of its holder, the holder's seconds without a swap when its partner's right Kemps was heard, and the
    pair's Kemps calls (right or not)."""
    out: dict[str, list] = {"swapped": [], "still": [], "right": []}
    for seed in range(MATCHES):
        for rnd in simulate_match("standard", [agent, "collector"], seed=seed).rounds:
            last: dict[int, float] = {}
            four_at: dict[int, float] = {}
            swapped: set[int] = set()
            for event in rnd.trace:
                kind = type(event)
                if kind is HandFour and event.seat % 2 == 0 and event.rank >= 0:
                    four_at.setdefault(event.seat, event.time)
                elif kind is Swapped:
                    last[event.seat] = event.time
                    if event.seat in four_at:
                        swapped.add(event.seat)
                elif kind is CallHeard and event.call == "kemps" and event.seat % 2 == 0:
                    out["right"].append(event.right)
                    if event.right:
                        out["still"].append(event.time - last.get((event.seat + 2) % 4, 0.0))
            out["swapped"] += [seat in swapped for seat in four_at]
    return out


def test_camouflage_keeps_swapping_after_four_of_a_kind_without_spoiling_its_partners_call():
    camouflage, collector = holder_behaviour("camouflage"), holder_behaviour("collector")
    assert not any(collector["swapped"])  # a plain holder stops swapping: the tell
    assert sum(camouflage["swapped"]) > len(camouflage["swapped"]) / 3
    test = mannwhitneyu(camouflage["still"], collector["still"], alternative="less")
    assert test.pvalue < 1e-3, test
    # People err (a look-alike read as the signal, a slip), so a plain collector pair calls some Kemps wrong too; the
    # swapping must not add to that: camouflage's share of wrong Kemps is within three pooled standard errors of
    # the collectors' (two shares of about a hundred calls each).
    wrong, calls = camouflage["right"].count(False), len(camouflage["right"])
    base_wrong, base_calls = collector["right"].count(False), len(collector["right"])
    pooled = (wrong + base_wrong) / (calls + base_calls)
    margin = 3 * (pooled * (1 - pooled) * (1 / calls + 1 / base_calls)) ** 0.5
    assert wrong / calls <= base_wrong / base_calls + margin, (wrong, calls, base_wrong, base_calls)
