"""A whole match as a pure function of (rules, lineup, profiles, seed): rounds until a pair has lost or won.

All randomness comes from one :class:`numpy.random.SeedSequence` root spawned into independent streams: the
table (deals, exact ties, dealer choice), every agent, and every seat's human timings, perception and fidgets.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from kemps_sim.engine.config import EngineConfig
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
from kemps_sim.state import FixedClock, RoundState
from kemps_sim.table import InvariantError, TableState

ProfilesLike = PlayerProfile | Mapping[str, Any] | Sequence[PlayerProfile | Mapping[str, Any]] | None


def resolve_profiles(profiles: ProfilesLike, players: int) -> tuple[PlayerProfile, ...]:
    """One profile per seat from one profile (everyone), one per pair, or one per seat."""
    if profiles is None:
        return (PlayerProfile(),) * players
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


def _setup(rules: Rules | str | Mapping[str, Any] | None, lineup: LineupLike, profiles: ProfilesLike, seed: int,
           repertoire: Repertoire) -> tuple[Rules, int, list[str], list[SeatKit]]:
    """Rules and one kit per seat (agent, human samplers), all spawned from the one seed."""
    rules = rules if isinstance(rules, Rules) else load_rules(rules)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ConfigError(f"seed = {seed!r}: must be a whole number >= 0")
    seed = int(seed)
    n = rules.players
    seats = resolve_lineup(lineup, n)
    seat_profiles = resolve_profiles(profiles, n)
    kits = []
    for seat, (name, factory) in enumerate(seats):
        try:
            agent = factory()
            agent.start_match(seat, n, np.random.default_rng(_stream(seed, AGENT, seat)))
        except Exception as exc:
            raise AgentError(f"agent {name} at seat {seat}, before the first deal, seed {seed}: could not be "
                             f"started: {type(exc).__name__}: {exc}") from exc
        kits.append(SeatKit.build(seat, agent, name, seat_profiles[seat], n, repertoire,
                                  rules.signal_modality in ("silent", "seen_only"), _stream(seed, SEAT, seat)))
    return rules, seed, [name for name, _ in seats], kits


# Every random stream of a match is a child of SeedSequence(seed) addressed by a fixed key, so that what one
# stream draws never shifts another: a different knob in round 3 leaves the deal of round 4 as it was.
DEALS, TIES, DEALERS, AGENT, SEAT = range(5)


def _stream(seed: int, *key: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(seed, spawn_key=key)


def _round_rngs(seed: int, round_index: int) -> tuple[np.random.Generator, np.random.Generator]:
    """The round's deal (and reshuffle) generator and its tie-break generator."""
    return (np.random.default_rng(_stream(seed, DEALS, round_index)),
            np.random.default_rng(_stream(seed, TIES, round_index)))


def simulate_match(rules: Rules | str | Mapping[str, Any] | None = None, lineup: LineupLike = "collector",
                   profiles: ProfilesLike = None, seed: int = 0, *, config: EngineConfig | None = None,
                   repertoire: Repertoire = DEFAULT_REPERTOIRE, errors: str = "raise",
                   packs: Sequence[Sequence[int]] = ()) -> MatchResult:
    """Play one match and return its result. Same arguments and seed, same result, always.

    ``packs`` stacks the pack of the first rounds (round ``r`` deals ``packs[r]``, the first card first; see
    :func:`kemps_sim.table.stack_pack`) instead of shuffling it: a scripted game, such as a rule book's example.

    An agent that raises, answers with something that is not an allowed intent, or (with
    ``EngineConfig.decide_timeout``) never decides ends the match. With ``errors="raise"`` that is an
    :class:`~kemps_sim.errors.AgentError`; with ``errors="record"`` the match is returned with ``end_reason
    "agent_error"``, the rounds played so far and the error's message, so that a sweep can go on.

    Under ``EngineConfig(strict=True)`` a broken table invariant (a bug of the engine) is a
    :class:`~kemps_sim.table.InvariantError` whose message starts ``invariant broken: seed S, round R, simulated
    time T s:``; with ``errors="record"`` it is recorded the same way as an agent error, with that message.
    """
    if errors not in ("raise", "record"):
        raise ConfigError(f"errors = {errors!r}: must be 'raise' or 'record'")
    config = config or EngineConfig()
    rules = rules if isinstance(rules, Rules) else load_rules(rules)
    try:
        rules, seed, names, kits = _setup(rules, lineup, profiles, seed, repertoire)
    except AgentError as exc:
        if errors == "raise":
            raise
        labels = tuple(label for label, _ in resolve_lineup(lineup, rules.players))
        empty = Standings.start(rules)
        return MatchResult(rules, int(seed), labels, empty, ranking(rules, empty), (), (),
                           EndReason.AGENT_ERROR.value, str(exc))
    n = rules.players
    dealer_rng = np.random.default_rng(_stream(seed, DEALERS))
    standings = Standings.start(rules)
    dealer = int(dealer_rng.integers(n))  # the first dealer is drawn: no seat starts with the dealer's burden
    signals: tuple[str, ...] = ()
    last_state: RoundState | None = None
    rounds: list[RoundResult] = []
    allowed = tuple(g.name for g in repertoire.allowed_signals(rules.signal_modality))
    sim: RoundSim | None = None
    try:
        while not match_over(rules, standings) and len(rounds) < config.max_rounds:
            index = len(rounds)
            sim = None
            signals = _choose_signals(rules, kits, signals, last_state, allowed, standings, index, seed)
            deal_rng, tie_rng = _round_rngs(seed, index)
            sim = RoundSim(rules=rules, kits=kits, repertoire=repertoire, config=config, deal_rng=deal_rng,
                           tie_rng=tie_rng, dealer=dealer, signals=signals, standings=standings, round_index=index,
                           seed=seed, stacked=packs[index] if index < len(packs) else None)
            result = sim.run()
            decided = result.outcome not in (Outcome.VOID_PACK_EXHAUSTED, Outcome.TIMEOUT)
            standings = result.standings.finish_round(decided)
            rounds.append(dataclasses.replace(result, standings=standings))
            last_state = sim.state
            dealer = _next_dealer(rules, dealer, decided, dealer_rng)
    except AgentError as exc:
        if errors == "raise":
            raise
        return MatchResult(rules, seed, tuple(names), standings, ranking(rules, standings), (), tuple(rounds),
                           EndReason.AGENT_ERROR.value, str(exc))
    except InvariantError as exc:  # only under EngineConfig(strict=True): a bug of the engine, not of an agent
        broken = _invariant_broken(exc, seed, len(rounds) + 1, sim.env.now if sim is not None else 0.0)
        if errors == "raise":
            raise broken from exc
        # Recorded like an agent error (no end reason fits better), its text saying it is an invariant failure.
        return MatchResult(rules, seed, tuple(names), standings, ranking(rules, standings), (), tuple(rounds),
                           EndReason.AGENT_ERROR.value, str(broken))
    end_reason = EndReason.MATCH_OVER if match_over(rules, standings) else EndReason.ROUND_CAP
    return MatchResult(rules, seed, tuple(names), standings, ranking(rules, standings), winners(rules, standings),
                       tuple(rounds), end_reason.value)


def simulate_round(rules: Rules | str | Mapping[str, Any] | None = None, lineup: LineupLike = "collector",
                   profiles: ProfilesLike = None, seed: int = 0, *, dealer: int = 0,
                   signals: Sequence[str] | None = None, config: EngineConfig | None = None,
                   repertoire: Repertoire = DEFAULT_REPERTOIRE) -> RoundResult:
    """Play one round from fresh standings: the unit for studying a single mechanism (a race, a percept)."""
    config = config or EngineConfig()
    rules, seed, _, kits = _setup(rules, lineup, profiles, seed, repertoire)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < rules.players:
        raise ConfigError(f"dealer = {dealer!r}: must be a seat from 0 to {rules.players - 1}")
    standings = Standings.start(rules)
    allowed = tuple(g.name for g in repertoire.allowed_signals(rules.signal_modality))
    if signals is None:
        chosen = _choose_signals(rules, kits, (), None, allowed, standings, 0, seed)
    else:
        chosen = tuple(signals)
        if len(chosen) != rules.pairs or any(s not in allowed for s in chosen):
            raise ConfigError(f"signals = {chosen!r}: give one per pair ({rules.pairs}), each one of "
                              + ", ".join(allowed))
    deal_rng, tie_rng = _round_rngs(seed, 0)
    sim = RoundSim(rules=rules, kits=kits, repertoire=repertoire, config=config, deal_rng=deal_rng, tie_rng=tie_rng,
                   dealer=dealer, signals=chosen, standings=standings, round_index=0, seed=seed)
    try:
        return sim.run()
    except InvariantError as exc:
        raise _invariant_broken(exc, seed, 1, sim.env.now) from exc


def _invariant_broken(exc: InvariantError, seed: int, round_number: int, time: float) -> InvariantError:
    """A strict-mode invariant failure with the context to replay it: seed, round (numbered from 1) and time."""
    return InvariantError(f"invariant broken: seed {seed}, round {round_number}, simulated time {time:.3f} s: "
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
                    round_index: int, seed: int) -> tuple[str, ...]:
    """Each pair's signal for the next round, chosen by the pair's first seat, who tells the partner.

    The seat sees the public log of the last round (before the first round, nothing), the standings and the pair's
    current signal; no hand and no percepts.
    """
    pairs = rules.pairs
    n = rules.players
    # The seat sees the public side of the table as the last round left it, with no cards in hand and no percepts.
    table = TableState.unchecked(rules, [[] for _ in range(n)], last_state.table.middle if last_state else [])
    state = RoundState.start(rules, table, dealer=last_state.public.dealer if last_state else 0,
                             round_index=round_index, signals=previous or ("",) * pairs, signals_allowed=allowed,
                             standings=standings, clock=FixedClock())
    if last_state is not None:
        state.public.log = last_state.public.log
    chosen = []
    for pair in range(pairs):
        kit = kits[pair]
        view = Observation(pair, state, kit.memory, profile=kit.profile, perceiver=kit.perceiver,
                           repertoire=kit.repertoire)
        try:
            signal = kit.agent.choose_signal(view)
        except Exception as exc:
            raise AgentError(f"agent {kit.agent_name} at seat {pair}, before round {round_index + 1}, seed {seed}: "
                             f"choose_signal() raised {type(exc).__name__}: {exc}") from exc
        if signal not in allowed:
            raise AgentError(f"agent {kit.agent_name} at seat {pair}, before round {round_index + 1}, seed {seed}: "
                             f"choose_signal() returned {signal!r}; allowed under signal_modality = "
                             f"{rules.signal_modality!r}: {', '.join(allowed)}")
        chosen.append(signal)
    return tuple(chosen)
