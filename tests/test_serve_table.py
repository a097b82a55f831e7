"""People at the table, without a browser: a scripted person plays a seat of a live match through its inbox, and
what the seat is shown is exactly what the engine's visibility rules let it know."""

from __future__ import annotations

import numpy as np
import pytest

from kemps_sim.engine.seat import SeatKit
from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.intents import Swap, Wait
from kemps_sim.profiles import PlayerProfile
from kemps_sim.serve import LiveTable, RemoteSeat
from kemps_sim.trace import Dealt, Perceived, PlayStarted, RaceLost, Swapped
from kemps_sim.visibility import HIDDEN_CARD, seen_by


def play_scripted(seed: int) -> tuple[LiveTable, list]:
    """Seat 0 is a person who, in every round, swaps the first card of their hand for the first middle card as
    soon as play starts; the others are collectors. 100 simulated seconds to a wall second."""
    table = LiveTable("standard", ["collector"] * 4, remote=[0], seed=seed, factor=0.01).start()
    shown, hand = [], None
    while (message := table.outboxes[0].get(timeout=120)) is not None:
        shown.append(message)
        if message[0] == "view":
            continue
        _, _, event = message
        if isinstance(event, Dealt):
            hand = event.hands[0]
        elif isinstance(event, PlayStarted):
            table.send(0, Swap(give=(hand[0],), take=(event.middle[0],)))
    table.join(timeout=120)
    return table, shown


@pytest.mark.parametrize("seed", [1, 2])
def test_a_scripted_person_plays_a_seat_and_sees_only_what_it_may(seed):
    table, shown = play_scripted(seed)
    result = table.result
    assert result is not None and result.end_reason == "match_over" and result.agents[0] == "remote0"
    # Every round, the person's swap was played (it landed, or lost the race for the card to a faster hand) or,
    # when the card had gone by the time it arrived, refused in words to the person, and the match went on.
    refused = [m for m in shown if m[0] == "refused"]
    played_swaps = sum(any(isinstance(e, Swapped | RaceLost) and e.seat == 0 for e in played.trace)
                       for played in result.rounds)
    assert played_swaps + len(refused) >= len(result.rounds) and played_swaps >= 1
    assert all("not in the middle" in m[1] or "not in your hand" in m[1] for m in refused)
    # What the seat was shown is, event for event, what the visibility rules let seat 0 know: no other hand.
    expected = [("event", i, seen) for i, played in enumerate(result.rounds) for e in played.trace
                if not isinstance(e, Perceived) and (seen := seen_by(e, 0)) is not None]
    assert [m for m in shown if m[0] == "event"] == expected
    # Its views are its own hand and the face-up middle, as the deals and swaps it was shown make them.
    views = [m[1] for m in shown if m[0] == "view"]
    assert views and all(v["seat"] == 0 and len(v["hand"]) == 4 and HIDDEN_CARD not in v["hand"] for v in views)
    dealt = {i: e for kind, i, e, *_ in [m for m in shown if m[0] == "event"] if isinstance(e, Dealt)}
    firsts = {}
    for v in views:
        firsts.setdefault(v["round"], v)
    for index, view in firsts.items():
        assert view["hand"] == list(dealt[index].hands[0]) and view["middle"] == list(dealt[index].middle)
    for _, _, event in [m for m in shown if m[0] == "event"]:
        if isinstance(event, Dealt):
            assert all(card == HIDDEN_CARD for seat, hand in enumerate(event.hands) if seat for card in hand)
            assert HIDDEN_CARD not in event.hands[0]


def test_an_action_the_rules_refuse_is_refused_not_the_end_of_the_match():
    """A person's click can be late (the card gone before it arrives): the engine refuses the intent, says why, and
    the match goes on; an agent that is not a person still ends the match with such an intent."""
    table = LiveTable("standard", ["collector"] * 4, remote=[0], seed=3, factor=0.01).start()
    sent = False
    notes = []
    while (message := table.outboxes[0].get(timeout=120)) is not None:
        if message[0] == "refused":
            notes.append(message[1])
        elif message[0] == "event" and isinstance(message[2], Dealt) and not sent:
            own = message[2].hands[0]
            table.send(0, Swap(give=(own[0],), take=(own[1],)))  # its own card is never in the middle
            sent = True
    result = table.join(timeout=120)
    assert result.end_reason == "match_over" and len(notes) == 1
    assert notes[0].startswith("Swap(give=") and "not in the middle" in notes[0]


def test_a_measured_seat_takes_no_simulated_time_to_act():
    """A person's own times are real: the engine draws none for a remote seat, and draws as before for others."""
    profile = PlayerProfile()
    seed = np.random.SeedSequence(3)
    remote = SeatKit.build(0, RemoteSeat(), "remote", profile, 4, DEFAULT_REPERTOIRE, False, seed)
    bot = SeatKit.build(0, Wait, "bot", profile, 4, DEFAULT_REPERTOIRE, False, seed)  # any object: not measured
    assert [remote.reaction_next(), remote.reach_next(), remote.speech(), remote.gesture_time(),
            remote.card_read()] == [0.0] * 5
    assert min(bot.reaction_next(), bot.reach_next(), bot.speech()) > 0.0


def test_a_remote_seat_plays_what_it_is_sent_in_order_and_else_looks_again():
    seat = RemoteSeat(poll=0.1)
    first, second = Swap((1,), (2,)), Swap((3,), (4,))
    seat.send(first)
    seat.send(second)
    assert [seat.decide(None), seat.decide(None), seat.decide(None)] == [first, second, Wait(0.1)]


@pytest.mark.parametrize(("make", "message"), [
    (lambda: RemoteSeat(poll=0), r"^RemoteSeat.poll = 0: must be a number of seconds > 0$"),
    (lambda: RemoteSeat().send("swap"), r"^RemoteSeat.send\('swap'\): not an intent; allowed: Swap, "),
    (lambda: LiveTable("standard", ["collector"] * 4, remote=[4]), r"^remote = \[4\]: give the seats played from "
                                                                    r"outside, each from 0 to 3$"),
    (lambda: LiveTable("standard", ["collector"] * 3, remote=[0]), r"^lineup has 3 entries for 4 players"),
    (lambda: LiveTable("standard", ["collector"] * 4, remote=[0]).send(1, Wait()),
     r"^seat 1: not a remote seat of this table; remote seats: \[0\]$"),
])
def test_bad_input_is_one_line(make, message):
    with pytest.raises(ConfigError, match=message):
        make()
