"""What a reasoning seat watches: its own pair's signal and at most ``watch_span`` of the other pairs' gestures,
chosen by how much a percept of each would tell. Before anything is known they are the rarest gestures (nobody's
natural signal), so the opponents' signal goes unwatched; once the table has heard a pair's signal called, it takes
a place in its opponents' watch."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kemps_sim_agents import calling
from kemps_sim_agents.calling import WATCH_SPAN

from kemps_sim import simulate_match
from kemps_sim.seating import pair_of
from kemps_sim.trace import CallHeard


def _watched(monkeypatch: pytest.MonkeyPatch, lineup: str, seeds: range, players: int = 4):
    """Per match: its result and, per (round, seat), the gestures the seat watched."""
    found: list[tuple[int, int, frozenset[str]]] = []
    original = calling.Calling.watches

    def recording(self, obs):
        chosen = original(self, obs)
        found.append((obs.round_index, obs.seat, chosen))
        return chosen

    monkeypatch.setattr(calling.Calling, "watches", recording)
    for seed in seeds:
        found.clear()
        result = simulate_match({"preset": "standard", "players": players}, lineup, None, seed)
        yield result, {(r, s): w for r, s, w in found}


def test_the_default_span_is_two_and_round_one_watches_the_rarest_gestures_only(monkeypatch) -> None:
    assert WATCH_SPAN == 2
    for result, watched in _watched(monkeypatch, "collector", range(6)):
        for (round_index, seat), chosen in watched.items():
            own = result.rounds[round_index].signals[seat % 2]
            assert own in chosen and len(chosen) <= 1 + WATCH_SPAN
            if round_index == 0:  # nothing known: a cough and a yawn, which no pair chooses by convention
                assert chosen == {own, "cough", "yawn"}, (seat, chosen)


def test_a_signal_heard_called_takes_a_place_in_its_opponents_watch(monkeypatch) -> None:
    """After a round whose Kemps answered pair p's signal g (the table heard the call and its cue), every seat of
    the other pair watches g in the next round."""
    checked = 0
    for result, watched in _watched(monkeypatch, "collector", range(12)):
        for index, rnd in enumerate(result.rounds[:-1]):
            called = {(pair_of(4, e.seat), e.cue) for e in rnd.trace
                      if type(e) is CallHeard and e.accused < 0 and e.right and e.cue}
            for pair, gesture in called:
                for seat in range(4):
                    if pair_of(4, seat) != pair and (index + 1, seat) in watched:
                        assert gesture in watched[(index + 1, seat)], (index, seat, gesture)
                        checked += 1
    assert checked >= 20  # enough rounds to mean something


@pytest.mark.parametrize("span", [0, 1, 3])
def test_the_span_is_an_agent_parameter(monkeypatch, span: int) -> None:
    sizes: dict[int, set[int]] = defaultdict(set)
    for _, watched in _watched(monkeypatch, f"collector(watch_span={span})", range(2)):
        for (_, seat), chosen in watched.items():
            sizes[seat].add(len(chosen))
    assert max(max(s) for s in sizes.values()) == 1 + span


WORTHS = st.one_of(st.floats(1e-12, 1e3), st.sampled_from([0.0, 0.1, 0.1 + 1e-10, 0.1 + 3e-10, 0.1 + 1.5e-9, 0.2,
                                                            0.30000000049, 0.3000000005, 0.30000000051]))


@settings(max_examples=500, deadline=None)
@given(worths=st.lists(WORTHS, max_size=12), hunches=st.lists(st.floats(0.0, 1.0), min_size=12, max_size=12),
       chosen=st.sets(st.integers(0, 11), max_size=2))
def test_the_ranking_is_the_rounded_one(worths: list[float], hunches: list[float], chosen: set[int]) -> None:
    """Ranked by their worths as they are, the gestures come in the order of worths rounded to 9 decimals, ties
    going by the hunches and then the name (near ties included: worths within 1e-9 of each other)."""
    names = [f"g{i:02d}" for i in range(len(worths))]
    worth = dict(zip(names, worths, strict=True))
    order = {name: hunches[i] for i, name in enumerate(names)}
    skip = {names[i] for i in chosen if i < len(names)}
    expected = sorted((g for g, value in worth.items() if value > 0.0 and g not in skip),
                      key=lambda g: (-round(worth[g], 9), order.get(g, 1.0), g))
    assert calling.ranked_by_worth(worth, order, skip) == expected
