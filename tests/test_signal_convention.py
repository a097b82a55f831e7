"""Signals as pairs choose them: a natural pool dealt apart (kemps_sim.conventions), kept private to each pair, and
changed between rounds once blown (the ``convention`` policy of agents.signal_choice)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from kemps_sim_agents.collector import Collector
from kemps_sim_agents.random_agent import RandomAgent
from kemps_sim_agents.signal_choice import DISCIPLINE, SignalChoice

from kemps_sim import EngineConfig, load_rules, simulate_match, simulate_round
from kemps_sim.belief.signals import NATURAL_PRIOR, ODD_PRIOR, SignalKnowledge, prior_counts
from kemps_sim.belief.tracking import TableReader
from kemps_sim.conventions import deal_candidates, natural_signals
from kemps_sim.engine.match import CONVENTION
from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE, Gesture, Repertoire
from kemps_sim.observation import Observation
from kemps_sim.presets import PRESETS
from kemps_sim.rules import Rules
from kemps_sim.scoring import Standings
from kemps_sim.seating import pair_of
from kemps_sim.state import FixedClock, RoundState
from kemps_sim.table import TableState
from kemps_sim.trace import CallHeard
from tests.scripted import Idle

SHORT = EngineConfig(max_round_seconds=0.5)  # the signals are chosen before the deal: no need to play the round


def dealt(rules: Rules, seed: int) -> tuple[tuple[str, ...], ...]:
    """The candidates the engine deals for ``seed``: the natural pool from the match's convention stream."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(CONVENTION,)))
    return deal_candidates(natural_signals(DEFAULT_REPERTOIRE, rules.signal_modality), rules.pairs, rng)


# The pool and the deal ------------------------------------------------------------------------------------------
def test_the_natural_pool_leaves_out_the_hopeless_and_the_odd_and_the_heard_and_follows_the_modality_rule():
    spoken = natural_signals(DEFAULT_REPERTOIRE, "spoken_allowed")
    assert set(spoken) == {"cheek", "chin", "ear", "eye_rub", "forehead", "hair", "mouth", "nod", "nose"}
    assert not {"blink", "cough", "yawn"} & set(spoken)  # 1200/h: hopeless; 0.25/h and 0.6/h: spotted at once
    assert not {"tap", "word"} & set(spoken)  # natural, but every ear at the table hears them: no secret
    assert all(1.0 <= DEFAULT_REPERTOIRE[g].fidget_rate_per_hour <= 60.0 for g in spoken)
    assert list(spoken) == sorted(spoken)
    assert natural_signals(DEFAULT_REPERTOIRE, "silent") == spoken == natural_signals(DEFAULT_REPERTOIRE, "seen_only")
    # the heard ones join only when the seen ones are fewer than the pairs
    assert natural_signals(DEFAULT_REPERTOIRE, "spoken_allowed", pairs=10) == (
        "cheek", "chin", "ear", "eye_rub", "forehead", "hair", "mouth", "nod", "nose", "tap", "word")
    assert natural_signals(DEFAULT_REPERTOIRE, "silent", pairs=10) == (
        "cheek", "chin", "ear", "eye_rub", "forehead", "hair", "mouth", "nod", "nose", "tap")
    assert natural_signals(DEFAULT_REPERTOIRE, "silent", low_per_hour=2.9, high_per_hour=3.0) == ("tap",)


def test_a_repertoire_without_natural_gestures_falls_back_to_the_allowed_ones_that_are_not_hopeless():
    odd = Repertoire((Gesture("blink", "seen", 1200.0), Gesture("cough", "heard", 0.25),
                      Gesture("yawn", "seen", 0.6)))
    assert natural_signals(odd, "spoken_allowed") == ("cough", "yawn")
    assert natural_signals(odd, "seen_only") == ("yawn",)
    assert natural_signals(Repertoire((Gesture("blink", "seen", 1200.0),)), "seen_only") == ("blink",)


@pytest.mark.parametrize(("low", "high"), [(-1, 60), (2.0, 1.0), ("1", 60), (1, float("nan"))])
def test_bad_pool_bounds_are_refused_in_one_line(low, high):
    with pytest.raises(ConfigError, match="per_hour") as caught:
        natural_signals(DEFAULT_REPERTOIRE, "spoken_allowed", low, high)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("pairs", [1, 2, 3, 4, 8])
def test_the_deal_is_disjoint_and_spends_the_whole_pool(pairs):
    pool = natural_signals(DEFAULT_REPERTOIRE, "spoken_allowed")
    for seed in range(20):
        hands = deal_candidates(pool, pairs, np.random.default_rng(seed))
        assert len(hands) == pairs and all(hands)
        flat = [g for hand in hands for g in hand]
        assert sorted(flat) == sorted(pool)  # disjoint, and every gesture dealt once
        assert max(map(len, hands)) - min(map(len, hands)) <= 1  # round robin


def test_the_deal_is_a_function_of_the_seed_and_differs_across_seeds():
    pool = natural_signals(DEFAULT_REPERTOIRE, "spoken_allowed")
    deals = [deal_candidates(pool, 3, np.random.default_rng(seed)) for seed in range(20)]
    assert deals == [deal_candidates(pool, 3, np.random.default_rng(seed)) for seed in range(20)]
    # 20 draws of one of len(pool)! orders: a repeat has probability below 20² / (2 · 8!) < 0.5 %, and 20 equal
    # deals would mean the seed is not used at all
    assert len(set(deals)) >= 19


def test_with_fewer_gestures_than_pairs_every_pair_gets_the_whole_pool_turned():
    hands = deal_candidates(("a", "b", "c"), 5, np.random.default_rng(1))
    first = hands[0]
    assert sorted(first) == ["a", "b", "c"]
    for pair, hand in enumerate(hands):
        assert hand == first[pair % 3:] + first[:pair % 3]
    assert len({hand[0] for hand in hands[:3]}) == 3  # the first three pairs still start apart


@pytest.mark.parametrize(("pool", "pairs"), [((), 2), (("ear", "ear"), 2), (("ear",), 0), (("ear",), True)])
def test_a_bad_deal_is_refused_in_one_line(pool, pairs):
    with pytest.raises(ConfigError) as caught:
        deal_candidates(pool, pairs, np.random.default_rng(0))
    assert "\n" not in str(caught.value)


# The engine: distinct first signals, the deal's stream, privacy ----------------------------------------------------
def lineups(players: int) -> list[list[str]]:
    """The default lineup (collectors everywhere), and collector and watcher pairs taking turns."""
    pairs = players // 2
    return [["collector"] * pairs, [("collector", "watcher")[p % 2] for p in range(pairs)]]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [4, 6, 8])
def test_no_default_table_shares_a_signal_between_pairs_at_the_start(preset, players):
    rules = load_rules(preset, players=players)
    for lineup, seed in itertools.product(lineups(players), range(4)):
        signals = simulate_round(rules, lineup, seed=seed, config=SHORT).signals
        assert len(set(signals)) == rules.pairs, (preset, players, lineup, seed, signals)
        assert signals == tuple(hand[0] for hand in dealt(rules, seed))  # each pair's first candidate


def test_the_deal_is_deterministic_for_a_seed_and_differs_across_seeds():
    rules = load_rules("standard", players=6)
    first = [simulate_round(rules, "collector", seed=seed, config=SHORT).signals for seed in range(12)]
    assert first == [simulate_round(rules, "collector", seed=seed, config=SHORT).signals for seed in range(12)]
    assert len(set(first)) > 1


def test_the_old_table_is_one_lineup_away_and_as_reproducible():
    """``signal='ear', signal_policy='fixed'`` is the table before conventions: every pair an ear touch all match."""
    old = "collector(signal='ear', signal_policy='fixed')"
    result = simulate_match("standard", old, seed=3)
    assert all(rnd.signals == ("ear", "ear") for rnd in result.rounds)
    again = simulate_match("standard", old, seed=3)
    assert [r.trace for r in result.rounds] == [r.trace for r in again.rounds]


class Spy(Collector):
    """A collector that keeps what every view it is given shows of the candidates (and the view itself)."""

    name = "spy"

    def start_match(self, seat: int, players: int, rng: np.random.Generator) -> None:
        super().start_match(seat, players, rng)
        self.views: list[Observation] = []
        self.seen: list[tuple[int, tuple[str, ...]]] = []

    def choose_signal(self, obs: Observation) -> str:
        self._keep(obs)
        return super().choose_signal(obs)

    def decide(self, obs: Observation):
        if not self.views or self.views[-1] is not obs:
            self._keep(obs)
        return super().decide(obs)

    def _keep(self, obs: Observation) -> None:
        self.views.append(obs)
        self.seen.append((obs.round_index, obs.signal_candidates))


def reachable(root: Any, depth: int = 4) -> list[Any]:
    """Every list, tuple, dict and kemps_sim object reachable from ``root`` through attributes and items."""
    found, stack, visited = [], [(root, 0)], set()
    while stack:
        item, level = stack.pop()
        if id(item) in visited or level > depth:
            continue
        visited.add(id(item))
        found.append(item)
        children: list[Any] = []
        if isinstance(item, list | tuple):
            children = list(item)
        elif isinstance(item, dict):
            children = [*item.keys(), *item.values()]
        elif type(item).__module__.startswith("kemps_sim") and not isinstance(item, str):
            names = [*getattr(item, "__dict__", {})]
            for klass in type(item).__mro__:
                names += list(getattr(klass, "__slots__", ()))
            children = [getattr(item, n) for n in names if hasattr(item, n)]
        stack.extend((child, level + 1) for child in children)
    return found


@pytest.mark.parametrize("players", [4, 8])
def test_the_candidates_reach_their_own_pair_and_no_other_seat(players):
    rules = load_rules("standard", players=players)
    spies: list[Spy] = []

    def spy() -> Spy:
        spies.append(Spy())
        return spies[-1]

    seed = 11
    result = simulate_match(rules, [spy] * players, seed=seed, config=EngineConfig(max_rounds=3))
    hands = dealt(rules, seed)
    assert len({g for hand in hands for g in hand}) == sum(map(len, hands))  # disjoint at this table
    for seat, agent in enumerate(spies):
        own = hands[pair_of(players, seat)]
        assert agent.seen and {index for index, _ in agent.seen} <= set(range(len(result.rounds)))
        assert all(shown == own for _, shown in agent.seen), (seat, agent.seen[:3], own)
        others = [list(hand) for pair, hand in enumerate(hands) if pair != pair_of(players, seat)]
        for view in agent.views[:8]:
            for item in reachable(view):
                if isinstance(item, list | tuple) and item and all(isinstance(g, str) for g in item):
                    assert list(item) not in others, (seat, item)


def test_simulate_round_deals_too_and_explicit_signals_still_work():
    rules = load_rules("standard")
    chosen = simulate_round(rules, [Idle()] * 4, seed=5, config=SHORT).signals
    assert chosen == tuple(hand[0] for hand in dealt(rules, 5))  # BaseAgent: the pair's first candidate
    assert simulate_round(rules, [Idle()] * 4, seed=5, signals=("cough", "yawn"), config=SHORT).signals == (
        "cough", "yawn")


# The convention policy between rounds -----------------------------------------------------------------------------
RULES = load_rules("standard")
CANDIDATES = (("ear", "nose", "chin"), ("tap", "mouth", "nod"))


def between(signal: str, calls: list[CallHeard], round_index: int = 1) -> Observation:
    """The view of seat 0 (pair 0) between rounds: its pair's current signal and the last round's calls."""
    table = TableState.unchecked(RULES, [[] for _ in range(4)], [])
    allowed = tuple(DEFAULT_REPERTOIRE.names)
    state = RoundState.start(RULES, table, dealer=0, round_index=round_index, signals=(signal, "tap"),
                             signals_allowed=allowed, standings=Standings.start(RULES), clock=FixedClock(),
                             candidates=CANDIDATES)
    state.public.log = list(calls)
    return Observation(0, state)


def kemps(seat: int, cue: str, right: bool = True) -> CallHeard:
    return CallHeard(1.0, seat, "kemps", -1, "kemps_right" if right else "kemps_wrong", right, 0.5, True, cue)


def stop(seat: int, accused: int, cue: str, right: bool) -> CallHeard:
    return CallHeard(1.0, seat, "stop_kemps", accused, "stop_right" if right else "stop_wrong", right, 0.5, True, cue)


@pytest.mark.parametrize(("calls", "changes"), [
    ([], False),
    ([kemps(2, "ear")], True),  # the partner called on the signal: the table has seen it
    ([kemps(2, "ear", right=False)], True),
    ([kemps(1, "ear")], False),  # a call about the other pair: nothing about ours
    ([kemps(2, "nose")], False),  # cued by another gesture: the signal was not shown
    ([stop(1, 0, "mouth", right=False)], True),  # a Stop against us, even wrong: they think they read us
    ([stop(3, 2, "", right=True)], True),
    ([stop(0, 1, "tap", right=True)], False),  # our Stop against them
])
def test_the_convention_changes_a_blown_signal_and_keeps_any_other(calls, changes):
    choice = SignalChoice("auto", "convention", discipline=1.0)
    assert choice.choose(between("", [], 0), np.random.default_rng(0)) == "ear"  # round 0: the first candidate
    assert choice.choose(between("ear", calls), np.random.default_rng(0)) == ("nose" if changes else "ear")


def test_the_convention_cycles_through_the_candidates_oldest_first():
    choice = SignalChoice("auto", "convention", discipline=1.0)
    rng = np.random.default_rng(0)
    current = choice.choose(between("", [], 0), rng)
    sequence = [current]
    blown = [True, False, True, True, False, True, True]
    for index, seen in enumerate(blown, 1):
        current = choice.choose(between(current, [kemps(2, current)] if seen else [], index), rng)
        sequence.append(current)
    assert sequence == ["ear", "nose", "nose", "chin", "ear", "ear", "nose", "chin"]


def test_an_explicit_signal_starts_the_convention_and_the_candidates_follow():
    choice = SignalChoice("word", "convention", discipline=1.0)
    rng = np.random.default_rng(0)
    assert choice.choose(between("", [], 0), rng) == "word"
    assert choice.choose(between("word", [kemps(2, "word")]), rng) == "ear"


def test_fixed_auto_keeps_the_first_candidate_even_when_blown():
    choice = SignalChoice("auto", "fixed")
    rng = np.random.default_rng(0)
    assert choice.choose(between("", [], 0), rng) == "ear"
    assert choice.choose(between("ear", [kemps(2, "ear"), stop(1, 0, "ear", True)]), rng) == "ear"
    assert SignalChoice("auto", "change_when_seen").choose(between("", [], 0), rng) == "ear"


def blown(rnd: Any, pair: int, players: int) -> bool:
    """Whether the pair's signal in ``rnd`` was seen called or a Stop Kemps accused one of its players."""
    for event in rnd.trace:
        if type(event) is CallHeard:
            about = event.seat if event.accused < 0 else event.accused
            if pair_of(players, about) == pair and (event.cue == rnd.signals[pair] or event.accused >= 0):
                return True
    return False


def test_in_play_a_pair_changes_exactly_after_a_blown_round_to_its_least_recent_candidate():
    """Disciplined collectors at four players, 30 matches: every change follows a round in which the signal was seen
    called or a Stop accused the pair, every such round is followed by a change, and the new signal is the pair's
    candidate used least recently. Both kinds of blown round and kept rounds occur in the sample."""
    rules = load_rules("standard")
    kinds = {"seen": 0, "stopped": 0, "kept": 0}
    for seed in range(30):
        result = simulate_match(rules, "collector(signal_discipline=1.0)", seed=seed)
        hands = dealt(rules, seed)
        for pair in range(rules.pairs):
            last_used = {hands[pair][0]: 0}
            for index, (before, after) in enumerate(itertools.pairwise(result.rounds), 1):
                old, new = before.signals[pair], after.signals[pair]
                was_blown = blown(before, pair, rules.players)
                assert (new != old) == was_blown, (seed, pair, index)
                if was_blown:
                    others = [g for g in hands[pair] if g != old]
                    assert new == min(others, key=lambda g: last_used.get(g, -1))
                    stopped = any(type(e) is CallHeard and e.accused >= 0
                                  and pair_of(rules.players, e.accused) == pair for e in before.trace)
                    kinds["stopped" if stopped else "seen"] += 1
                else:
                    kinds["kept"] += 1
                last_used[new] = index
    assert all(count >= 5 for count in kinds.values()), kinds


def test_by_default_a_blown_signal_is_changed_at_the_worked_games_rate():
    """Default collectors: a signal changes only after a blown round, and after a blown round with probability
    DISCIPLINE (2 in 7, the worked game's pairs), within five binomial standard errors."""
    rules = load_rules("standard")
    blown_rounds = changed = 0
    for seed in range(60):
        result = simulate_match(rules, "collector", seed=seed)
        for pair in range(rules.pairs):
            for before, after in itertools.pairwise(result.rounds):
                new_signal = after.signals[pair] != before.signals[pair]
                if blown(before, pair, rules.players):
                    blown_rounds += 1
                    changed += new_signal
                else:
                    assert not new_signal
    assert blown_rounds > 200
    share = DISCIPLINE
    assert abs(changed / blown_rounds - share) < 5 * (share * (1 - share) / blown_rounds) ** 0.5


def test_a_third_party_agent_starts_with_its_pairs_first_candidate_and_keeps_it():
    rules = load_rules("standard")
    result = simulate_match(rules, [Idle(), "collector"], seed=2, config=EngineConfig(max_rounds=3,
                                                                                      max_round_seconds=20.0))
    first = dealt(rules, 2)[0][0]
    assert [rnd.signals[0] for rnd in result.rounds] == [first] * len(result.rounds)


# The belief's prior -------------------------------------------------------------------------------------------------
def test_the_prior_expects_a_natural_signal_but_allows_an_odd_one():
    allowed = tuple(DEFAULT_REPERTOIRE.names)
    prior = prior_counts(allowed)
    natural = set(natural_signals(DEFAULT_REPERTOIRE, "spoken_allowed"))
    assert prior == {g: NATURAL_PRIOR if g in natural else ODD_PRIOR for g in allowed}
    assert (NATURAL_PRIOR, ODD_PRIOR) == (1.0, 0.25)
    knowledge = SignalKnowledge(2, 0)
    knowledge.update(TableReader(4, 0), allowed)
    total = len(natural) * 1.0 + (len(allowed) - len(natural)) * 0.25
    assert knowledge.share(1, "ear") == pytest.approx(1.0 / total)
    assert knowledge.share(1, "cough") == pytest.approx(0.25 / total)
    uniform = SignalKnowledge(2, 0, odd_prior=1.0)  # switched off: every allowed gesture alike
    uniform.update(TableReader(4, 0), allowed)
    assert uniform.share(1, "cough") == uniform.share(1, "ear") == pytest.approx(1 / len(allowed))
    with pytest.raises(ConfigError, match="odd_prior = 0"):
        SignalKnowledge(2, 0, odd_prior=0)


# Bad parameters ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("make", "fragment"), [
    (lambda: Collector(signal=""), "collector.signal = ''"),
    (lambda: Collector(signal="two words"), "collector.signal = 'two words'"),
    (lambda: Collector(signal=None), "collector.signal = None"),
    (lambda: Collector(signal_policy="sometimes"), "collector.signal_policy = 'sometimes'"),
    (lambda: Collector(signal_policy=None), "collector.signal_policy = None"),
    (lambda: RandomAgent(signal=3), "random.signal = 3"),
    (lambda: RandomAgent(signal_policy="auto"), "random.signal_policy = 'auto'"),
    (lambda: Collector(signal_discipline=1.5), "collector.signal_discipline = 1.5: must be a probability"),
    (lambda: simulate_match("standard", "watcher(signal_policy='convention ')", seed=0), "watcher.signal_policy"),
])
def test_bad_signal_parameters_are_refused_in_one_line(make, fragment):
    with pytest.raises(ConfigError) as caught:
        make()
    message = str(caught.value)
    assert fragment in message and "\n" not in message
    assert "auto" in message or "convention" in message  # and it says what is allowed
