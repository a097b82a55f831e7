"""A whole match as a pure function of (rules, lineup, profiles, seed): rounds until a pair has lost or won.

All randomness comes from one :class:`numpy.random.SeedSequence` root spawned into independent streams: the
table (deals, exact ties, dealer choice), the pairs' candidate signals, every agent, and every seat's human
timings, perception and fidgets.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kemps_sim.conventions import deal_candidates, natural_signals
from kemps_sim.engine.config import EngineConfig
from kemps_sim.engine.gc_pause import fewer_collections
from kemps_sim.engine.guard import Stopwatch, run_contained
from kemps_sim.engine.live import Live
from kemps_sim.engine.round import RoundSim
from kemps_sim.engine.seat import SeatKit
from kemps_sim.errors import AgentError, ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE, Repertoire
from kemps_sim.lineup import LineupLike, resolve_lineup
from kemps_sim.observation import Observation
from kemps_sim.presets import load_rules
from kemps_sim.profiles import PlayerProfile
from kemps_sim.results import EndReason, MatchResult, RoundResult
from kemps_sim.rules import Rules
from kemps_sim.scoring import Outcome, Standings, match_over, ranking, winners
from kemps_sim.seating import NOBODY, pair_of
from kemps_sim.state import FixedClock, RoundState
from kemps_sim.streams import GeneratorOrMaker, Streams
from kemps_sim.table import InvariantError, TableState
from kemps_sim.trace import CallHeard

#: One (display name, agent factory) per seat, as :func:`~kemps_sim.lineup.resolve_lineup` gives them.
Seats = Sequence[tuple[str, Callable[[], Any]]]
ProfilesLike = PlayerProfile | Mapping[str, Any] | Sequence[PlayerProfile | Mapping[str, Any]] | None


def resolve_profiles(profiles: ProfilesLike, players: int) -> tuple[PlayerProfile, ...]:
    """One profile per seat from one profile (everyone), one per pair, or one per seat."""
    if profiles is None:
        return (PlayerProfile(),) * players
    if isinstance(profiles, str | bytes):
        raise ConfigError(f"profiles = {profiles!r}: must be a PlayerProfile, a mapping of its fields or a sequence "
                          "of them (a profile file is read by kemps_sim.profile_file.load_profile_file)")
    if isinstance(profiles, PlayerProfile | Mapping):
        return (PlayerProfile.from_mapping(profiles),) * players
    items = [PlayerProfile.from_mapping(p, f"profiles[{i}]") for i, p in enumerate(profiles)]
    if len(items) == players:
        return tuple(items)
    if len(items) == players // 2:
        return tuple(items[s % (players // 2)] for s in range(players))
    if len(items) == 1:
        return tuple(items) * players
    raise ConfigError(f"profiles: {len(items)} given for {players} players; give 1, {players // 2} (one per pair) "
                      f"or {players} (one per seat)")


def _setup(rules: Rules, seats: Seats, profiles: ProfilesLike, seed: int, repertoire: Repertoire,
           watch: Stopwatch) -> tuple[int, list[str], list[SeatKit]]:
    """The seed and one kit per seat (agent, human samplers), all spawned from the one seed."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ConfigError(f"seed = {seed!r}: must be a whole number >= 0")
    seed = int(seed)
    n = rules.players
    seat_profiles = resolve_profiles(profiles, n)
    streams = Streams(seed)
    kits = []
    for seat, (name, factory) in enumerate(seats):
        watch.blame = functools.partial(_early_error, name, "before the first deal", seed)
        agent = watch.call(seat, "start_match", _start_agent, factory, seat, n, streams.sequence(AGENT, seat))
        kits.append(SeatKit.build(seat, agent, name, seat_profiles[seat], n, repertoire,
                                  rules.signal_modality in ("silent", "seen_only"), streams.child(SEAT, seat)))
    return seed, [name for name, _ in seats], kits


def _start_agent(factory: Callable[[], Any], seat: int, players: int, stream: np.random.SeedSequence) -> Any:
    """A fresh agent from its factory, started for the match (agent code: called through the stopwatch)."""
    agent = factory()
    agent.start_match(seat, players, np.random.default_rng(stream))
    return agent


def _early_error(name: str, when: str, seed: int, seat: int, problem: str) -> AgentError:
    """An agent's error outside a round (starting, choosing a signal), naming agent, seat, when and seed."""
    return AgentError(f"agent {name} at seat {seat}, {when}, seed {seed}: {problem}")


# Every random stream of a match is a child of SeedSequence(seed) addressed by a fixed key, so that what one
# stream draws never shifts another: a different knob in round 3 leaves the deal of round 4 as it was.
DEALS, TIES, DEALERS, AGENT, SEAT = range(5)
#: The stream of the pairs' candidate signals (kemps_sim.conventions), drawn once before the first round.
CONVENTION = 5


def first_dealer(rules: Rules, seed: int) -> int:
    """The seat that deals the first round of the match of ``seed`` (drawn from its own stream, whatever the
    deal): what a stacked pack (:func:`kemps_sim.table.stack_pack`) needs to know to give each seat its hand."""
    return int(Streams(seed).generator(DEALERS).integers(rules.players))


def _candidates(rules: Rules, repertoire: Repertoire, seed: int) -> tuple[tuple[str, ...], ...]:
    """Each pair's candidate signals for the match: the natural pool dealt round robin (kemps_sim.conventions)."""
    pool = natural_signals(repertoire, rules.signal_modality, pairs=rules.pairs)
    return deal_candidates(pool, rules.pairs, Streams(seed).generator(CONVENTION))


def _seen_called(rules: Rules, result: RoundResult) -> list[tuple[int, str]]:
    """The (pair, gesture) of every call of the round whose cue was that pair's signal: the call was about the pair
    (a Kemps by one of its players, or a Stop Kemps accusing one), and everyone heard what it answered."""
    n = rules.players
    seen = []
    for event in result.trace:
        if type(event) is CallHeard and event.cue:
            pair = pair_of(n, event.seat if event.accused == NOBODY else event.accused)
            if event.cue == result.signals[pair]:
                seen.append((pair, event.cue))
    return seen


def _round_rngs(seed: int, round_index: int) -> tuple[np.random.Generator, GeneratorOrMaker]:
    """The round's deal (and reshuffle) generator and its tie-break generator (built at the first exact tie, which
    most rounds never have)."""
    streams = Streams(seed)
    return streams.generator(DEALS, round_index), streams.later(TIES, round_index)


def simulate_match(rules: Rules | str | Mapping[str, Any] | None = None, lineup: LineupLike = "collector",
                   profiles: ProfilesLike = None, seed: int = 0, *, config: EngineConfig | None = None,
                   repertoire: Repertoire = DEFAULT_REPERTOIRE, errors: str = "raise",
                   packs: Sequence[Sequence[int]] = (), live: Live | None = None,
                   contained: bool = True) -> MatchResult:
    """Play one match and return its result. Same arguments and seed, same result, always.

    ``live`` plays it on another clock (:meth:`Live.realtime`: the wall's, for people at the table) and tells a
    listener every event as it happens (:mod:`kemps_sim.engine.live`); the result is the same.

    ``packs`` stacks the pack of the first rounds (round ``r`` deals ``packs[r]``, the first card first; see
    :func:`kemps_sim.table.stack_pack`) instead of shuffling it: a scripted game, such as a rule book's example.

    An agent that raises anything (even ``SystemExit`` or ``KeyboardInterrupt``), answers with something that is
    not an allowed intent, decides more than ``EngineConfig.max_decisions_per_round`` times in a round, or does not
    return within ``EngineConfig.decide_timeout`` seconds ends the match. With ``errors="raise"`` that is an
    :class:`~kemps_sim.errors.AgentError`; with ``errors="record"`` the match is returned with ``end_reason
    "agent_error"``, the rounds played so far and the error's message, so that a sweep can go on. The match plays
    in a thread of its own (:mod:`kemps_sim.engine.guard`); Ctrl-C in the calling thread stops it.

    Under ``EngineConfig(strict=True)`` a broken table invariant (a bug of the engine) is a
    :class:`~kemps_sim.table.InvariantError` whose message starts ``invariant broken: seed S, round R, simulated
    time T s:`` and names the agent and seat that moved last; with ``errors="record"`` it is recorded the same way
    as an agent error, with that message.

    ``contained=False`` plays in the calling thread instead, with no wall-clock limit on agent calls (their errors
    are still the agent's) and the garbage collector's thresholds left as they are: for a caller that steps the match
    from outside, such as a learning environment (:mod:`kemps_sim.rl`), whose learner seats hand control back to it
    while they decide, with other matches paused meanwhile. The result is the same.
    """
    if errors not in ("raise", "record"):
        raise ConfigError(f"errors = {errors!r}: must be 'raise' or 'record'")
    config = config or EngineConfig()
    rules = rules if isinstance(rules, Rules) else load_rules(rules)
    seats = resolve_lineup(lineup, rules.players)
    labels = tuple(label for label, _ in seats)
    played = _Played(rules, int(seed) if isinstance(seed, int | np.integer) else 0, labels, Standings.start(rules))

    def play(watch: Stopwatch) -> MatchResult:
        return _play_match(played, seats, profiles, seed, config, repertoire, packs, watch, live)

    def failed(error: BaseException) -> MatchResult:
        if errors == "raise" or not isinstance(error, AgentError | InvariantError):
            raise error
        return played.failed(error)

    try:
        if not contained:  # paused in a greenlet, as several matches may be at once: the thresholds stay as they are
            return play(Stopwatch(None))
        with fewer_collections():
            return run_contained(play, config.decide_timeout, failed)
    except (AgentError, InvariantError) as exc:
        return failed(exc)


@dataclass
class _Played:
    """What a match has played so far: enough to record it when an agent ends it early."""

    rules: Rules
    seed: int
    names: tuple[str, ...]
    standings: Standings
    rounds: list[RoundResult] = field(default_factory=list)

    def failed(self, error: BaseException) -> MatchResult:
        """The match as it stood, ended by ``error`` (an agent's, or a broken invariant under strict checks:
        recorded like an agent error, since no end reason fits better; its text says what it is)."""
        return MatchResult(self.rules, self.seed, self.names, self.standings, ranking(self.rules, self.standings),
                           (), tuple(self.rounds), EndReason.AGENT_ERROR.value, str(error))


def _play_match(played: _Played, seats: Seats, profiles: ProfilesLike, seed: int, config: EngineConfig,
                repertoire: Repertoire, packs: Sequence[Sequence[int]], watch: Stopwatch,
                live: Live | None = None) -> MatchResult:
    """The rounds of a match until a pair has lost or won (or the round cap), keeping ``played`` up to date."""
    rules = played.rules
    seed, names, kits = _setup(rules, seats, profiles, seed, repertoire, watch)
    played.names = tuple(names)
    n = rules.players
    dealer_rng = Streams(seed).generator(DEALERS)
    dealer = int(dealer_rng.integers(n))  # the first dealer is drawn (first_dealer): no seat starts with the burden
    signals: tuple[str, ...] = ()
    last_state: RoundState | None = None
    allowed = tuple(g.name for g in repertoire.allowed_signals(rules.signal_modality))
    candidates = _candidates(rules, repertoire, seed)
    called: set[tuple[int, str]] = set()  # every (pair, gesture) the table has seen called: public knowledge
    rounds = played.rounds
    while not match_over(rules, played.standings) and len(rounds) < config.max_rounds:
        index = len(rounds)
        signals = _choose_signals(rules, kits, signals, last_state, allowed, played.standings, index, seed, watch,
                                  candidates)
        deal_rng, tie_rng = _round_rngs(seed, index)
        result, sim = _run_round(seed, index, functools.partial(
            RoundSim,
            rules=rules, kits=kits, repertoire=repertoire, config=config, deal_rng=deal_rng, tie_rng=tie_rng,
            dealer=dealer, signals=signals, standings=played.standings, round_index=index, seed=seed,
            stacked=packs[index] if index < len(packs) else None, watch=watch, candidates=candidates,
            called=frozenset(called), live=live))
        called.update(_seen_called(rules, result))
        decided = result.outcome not in (Outcome.VOID_PACK_EXHAUSTED, Outcome.TIMEOUT)
        played.standings = result.standings.finish_round(decided)
        rounds.append(dataclasses.replace(result, standings=played.standings))
        last_state = sim.state
        dealer = _next_dealer(rules, dealer, decided, dealer_rng)
    standings = played.standings
    end_reason = EndReason.MATCH_OVER if match_over(rules, standings) else EndReason.ROUND_CAP
    return MatchResult(rules, seed, tuple(names), standings, ranking(rules, standings), winners(rules, standings),
                       tuple(rounds), end_reason.value)


def _run_round(seed: int, index: int, make: Callable[[], RoundSim]) -> tuple[RoundResult, RoundSim]:
    """Deal and play a round; a broken invariant (strict checks only) gains the context to replay it."""
    sim: RoundSim | None = None
    try:
        sim = make()
        return sim.run(), sim
    except InvariantError as exc:
        raise _invariant_broken(exc, seed, index + 1, sim) from exc


def simulate_round(rules: Rules | str | Mapping[str, Any] | None = None, lineup: LineupLike = "collector",
                   profiles: ProfilesLike = None, seed: int = 0, *, dealer: int = 0,
                   signals: Sequence[str] | None = None, config: EngineConfig | None = None,
                   repertoire: Repertoire = DEFAULT_REPERTOIRE) -> RoundResult:
    """Play one round from fresh standings: the unit for studying a single mechanism (a race, a percept).

    Agents are contained as in :func:`simulate_match`; their errors are raised as :class:`AgentError`."""
    config = config or EngineConfig()
    rules = rules if isinstance(rules, Rules) else load_rules(rules)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < rules.players:
        raise ConfigError(f"dealer = {dealer!r}: must be a seat from 0 to {rules.players - 1}")

    seats = resolve_lineup(lineup, rules.players)

    def play(watch: Stopwatch) -> RoundResult:
        checked_seed, _, kits = _setup(rules, seats, profiles, seed, repertoire, watch)
        standings = Standings.start(rules)
        allowed = tuple(g.name for g in repertoire.allowed_signals(rules.signal_modality))
        candidates = _candidates(rules, repertoire, checked_seed)
        if signals is None:
            chosen = _choose_signals(rules, kits, (), None, allowed, standings, 0, checked_seed, watch, candidates)
        else:
            chosen = tuple(signals)
            if len(chosen) != rules.pairs or any(s not in allowed for s in chosen):
                raise ConfigError(f"signals = {chosen!r}: give one per pair ({rules.pairs}), each one of "
                                  + ", ".join(allowed))
        deal_rng, tie_rng = _round_rngs(checked_seed, 0)
        return _run_round(checked_seed, 0, functools.partial(
            RoundSim,
            rules=rules, kits=kits, repertoire=repertoire, config=config, deal_rng=deal_rng, tie_rng=tie_rng,
            dealer=dealer, signals=chosen, standings=standings, round_index=0, seed=checked_seed, watch=watch,
            candidates=candidates))[0]

    def failed(error: BaseException) -> RoundResult:
        raise error

    return run_contained(play, config.decide_timeout, failed)


def _invariant_broken(exc: InvariantError, seed: int, round_number: int, sim: RoundSim | None) -> InvariantError:
    """A strict-mode invariant failure with the context to replay it: seed, round (numbered from 1), simulated time,
    and the agent and seat whose decision came last (none while dealing)."""
    time = sim.env.now if sim is not None else 0.0
    watch = sim.players.watch if sim is not None else None
    last = (f", last decision by agent {sim.kits[watch.seat].agent_name} at seat {watch.seat}"
            if sim is not None and watch is not None and watch.entered and 0 <= watch.seat < len(sim.kits) else "")
    return InvariantError(f"invariant broken: seed {seed}, round {round_number}, simulated time {time:.3f} s{last}: "
                          + " ".join(str(exc).split()))


def _next_dealer(rules: Rules, dealer: int, decided: bool, rng: np.random.Generator) -> int:
    """The same dealer deals again after a void round; otherwise ``dealer_rotation`` decides (``random``: a new
    dealer drawn among the other seats, 001's "choose a new dealer")."""
    if not decided or rules.dealer_rotation == "same":
        return dealer
    if rules.dealer_rotation == "left":
        return (dealer + 1) % rules.players
    other = int(rng.integers(rules.players - 1))
    return other + (other >= dealer)


def _choose_signals(rules: Rules, kits: Sequence[SeatKit], previous: tuple[str, ...],
                    last_state: RoundState | None, allowed: tuple[str, ...], standings: Standings,
                    round_index: int, seed: int, watch: Stopwatch,
                    candidates: Sequence[Sequence[str]] = ()) -> tuple[str, ...]:
    """Each pair's signal for the next round, chosen by the pair's first seat, who tells the partner.

    The seat sees the public log of the last round (before the first round, nothing), the standings, the pair's
    current signal and the pair's own candidate signals (``candidates``, one per pair); no hand and no percepts.
    """
    pairs = rules.pairs
    n = rules.players
    # The seat sees the public side of the table as the last round left it, with no cards in hand and no percepts.
    table = TableState.unchecked(rules, [[] for _ in range(n)], last_state.table.middle if last_state else [])
    state = RoundState.start(rules, table, dealer=last_state.public.dealer if last_state else 0,
                             round_index=round_index, signals=previous or ("",) * pairs, signals_allowed=allowed,
                             standings=standings, clock=FixedClock(), candidates=candidates)
    if last_state is not None:
        state.public.log = last_state.public.log
    chosen = []
    for pair in range(pairs):
        kit = kits[pair]
        view = Observation(pair, state, kit.memory, profile=kit.profile, perceiver=kit.perceiver,
                           repertoire=kit.repertoire)
        when = f"before round {round_index + 1}"
        watch.blame = functools.partial(_early_error, kit.agent_name, when, seed)
        signal = watch.call(pair, "choose_signal", kit.agent.choose_signal, view)
        if signal not in allowed:
            raise _early_error(kit.agent_name, when, seed, pair, f"choose_signal() returned {signal!r}; allowed "
                               f"under signal_modality = {rules.signal_modality!r}: {', '.join(allowed)}")
        chosen.append(signal)
    return tuple(chosen)
