"""The parts of the built-in agents on hand-made tables and on recorded matches: reading the public log, the
collecting part's switch and throw rules, the feeder's inference, the bluffers' fake protocol and the watcher's
learning of signals."""

from __future__ import annotations

from kemps_sim_agents.collecting import Collecting, rank_counts
from kemps_sim_agents.fakes import FAKE_WINDOW
from kemps_sim_agents.feeder import Feeding
from kemps_sim_agents.watcher import Watcher

from kemps_sim import load_rules, simulate_match
from kemps_sim.belief.tracking import TableReader
from kemps_sim.cards import cards, rank_of
from kemps_sim.observation import Observation
from kemps_sim.state import RoundState
from kemps_sim.trace import CallHeard, Gestured, PlayStarted, Refilled, Swapped, Swept

RULES = load_rules("standard")
SEVEN, KING, THREE, NINE = (rank_of(cards(name)[0]) for name in ("7S", "KS", "3S", "9S"))


def view(hand: str, middle: str, log: list, seat: int = 0) -> Observation:
    """Seat ``seat``'s observation of a hand-made table whose public log is ``log`` (a live list: extend it)."""
    hands = [cards(hand) if s == seat else [] for s in range(RULES.players)]
    state = RoundState.sketch(RULES, hands=hands, middle=cards(middle), log=log, dealer=1)
    state.signals = ("ear",) * RULES.pairs
    return Observation(seat, state)


def sweep(t: float, fresh: str) -> list:
    return [Swept(t, 1, (), "stall_call"), Refilled(t + 1, 1, tuple(cards(fresh)), False)]


def test_collecting_abandons_an_unseen_pair_after_switch_after_sweeps_but_never_three_of_a_kind():
    log = [PlayStarted(0.0, 1, tuple(cards("2C 4D 5H 6S")))]
    for switch_after, hand, kept in ((2, "7S 7H KD 3C", False), (3, "7S 7H KD 3C", True), (2, "7S 7H 7D 3C", True)):
        part, reader = Collecting(switch_after), TableReader(4, 0)
        table_log = list(log)
        obs = view(hand, "2C 4D 5H 6S", table_log)
        reader.refresh(obs)
        counts = rank_counts(obs.hand)
        assert part.refresh(obs, reader, counts) == SEVEN
        table_log.extend(sweep(5.0, "2D 4C 5D 6C") + sweep(10.0, "2H 4H 5C 6D"))  # no seven shows
        reader.refresh(obs)
        assert (part.refresh(obs, reader, counts) == SEVEN) is kept, (switch_after, hand)


def test_collecting_keeps_the_ranks_others_collect_and_throws_what_nobody_takes():
    log = [PlayStarted(0.0, 1, ()), Swapped(1.0, 1, tuple(cards("4C")), tuple(cards("KH")))]  # seat 1 takes a king
    obs = view("7S 7H KD 3C", "7D 2C 4D 5H", log)
    reader, part = TableReader(4, 0), Collecting(2)
    reader.refresh(obs)
    counts = rank_counts(obs.hand)
    swap = part.plan(obs, reader, counts)
    assert swap is not None and swap.take == tuple(cards("7D")) and swap.give == tuple(cards("3C"))
    assert reader.takers(KING, 0) == 1 and reader.takers(THREE, 0) == 0


def test_feeder_reads_the_partners_rank_from_its_takes_and_feeds_it():
    log = [PlayStarted(0.0, 1, ()), Swapped(1.0, 2, tuple(cards("4C")), tuple(cards("9H"))),
           Swapped(2.0, 2, tuple(cards("5C")), tuple(cards("9D")))]  # seat 2, the partner of seat 0, takes nines
    obs = view("9S KH KD 3C", "KC 2C 4D 5H", log)
    reader, part, feeding = TableReader(4, 0), Collecting(2), Feeding(1, None)
    reader.refresh(obs)
    part.avoid = feeding.partner_rank(obs, reader)
    assert part.avoid == NINE
    counts = rank_counts(obs.hand)
    part.refresh(obs, reader, counts)
    swap = feeding.feed(obs, reader, counts, part)
    assert swap is not None and swap.give == tuple(cards("9S")) and swap.take == tuple(cards("KC"))


def test_reader_of_a_seat_never_asked_for_the_signal_still_hears_every_calls_of_finished_rounds():
    made: list[Watcher] = []

    def watcher() -> Watcher:
        made.append(Watcher(signal="ear", signal_policy="fixed"))
        return made[-1]

    result = simulate_match("standard", [watcher, "collector(signal='ear', signal_policy='fixed')"], seed=4)
    upper = made[1]  # seat 2: the lower seat 0 chooses the pair's signal, so only seat 2 relies on the live view
    heard = [e for rnd in result.rounds[:-1] for e in rnd.trace if type(e) is CallHeard]
    assert [h.call for h in upper.reader.calls[:len(heard)]] == heard
    knowledge = upper.calling.belief.knowledge
    assert knowledge.known(1) == "ear" and knowledge.share(1, "ear") > 0.5  # the other pair kept "ear"


def test_the_fake_protocol_tells_every_fake_from_every_real_signal_from_public_events_alone():
    fakes = reals = 0
    for seed in range(6):
        for rnd in simulate_match("standard", ["bluffer", "collector"], seed=seed).rounds:
            swaps: dict[int, list[float]] = {}
            for event in rnd.trace:
                if type(event) is Swapped:
                    swaps.setdefault(event.seat, []).append(event.time)
                elif type(event) is Gestured and event.deliberate and event.seat % 2 == 0:  # the bluffers
                    last = max(swaps.get(event.seat, [float("-inf")]))
                    looks_fake = event.time - last < FAKE_WINDOW
                    assert looks_fake is not event.holds_four, event
                    fakes += looks_fake
                    reals += not looks_fake
    assert fakes > 10 and reals > 10
