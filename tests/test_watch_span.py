"""What a reasoning seat watches: its own pair's signal and at most ``watch_span`` of the other pairs' gestures,
chosen by how much a percept of each would tell. Before anything is known they are the rarest gestures (nobody's
natural signal), so the opponents' signal goes unwatched; once the table has heard a pair's signal called, it takes
a place in its opponents' watch."""

from __future__ import annotations

from collections import defaultdict

import pytest
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
