"""A match with people at the table, played on the wall's clock in a thread of its own."""

from __future__ import annotations

import math
import queue
import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from kemps_sim.engine import EngineConfig, Live, simulate_match
from kemps_sim.errors import ConfigError
from kemps_sim.presets import load_rules
from kemps_sim.results import MatchResult
from kemps_sim.rules import Rules
from kemps_sim.serve.remote import POLL, RemoteSeat
from kemps_sim.trace import Perceived, TraceEvent
from kemps_sim.visibility import seen_by

#: What a seat's outbox holds: ("event", round index, the event as the seat knows it), ("view", the seat's view when
#: it changed: ``kemps_sim.serve.remote.view_of``), ("refused", why the engine refused an intent of the seat), and
#: None once the match is over.
Message = tuple[str, int, TraceEvent] | tuple[str, Any] | None


class LiveTable:
    """One match: ``lineup`` names the agents of the other seats (one entry per seat, any entry at a remote seat
    ignored), ``remote`` the seats played from outside (each a :class:`RemoteSeat`), ``factor`` wall seconds per
    simulated second. :meth:`start` plays it in a thread; each remote seat's ``outboxes`` receives, as they
    happen, the events it may know of (but the model's percepts at its seat: the person sees with their own eyes)
    and its view when it changes (``Message``), and None at the end;
    ``result`` is the match once it is over."""

    def __init__(self, rules: Rules | str | Mapping[str, Any] | None, lineup: Sequence[str], remote: Sequence[int],
                 seed: int = 0, factor: float = 1.0, profiles: Any = None, poll: float | None = None) -> None:
        self.rules = rules if isinstance(rules, Rules) else load_rules(rules)
        players = self.rules.players
        if len(lineup) != players:
            raise ConfigError(f"lineup has {len(lineup)} entries for {players} players: give one per seat")
        if not remote or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players for s in remote):
            raise ConfigError(f"remote = {list(remote)!r}: give the seats played from outside, each from 0 to "
                              f"{players - 1}")
        self.outboxes: dict[int, queue.SimpleQueue[Message]] = {s: queue.SimpleQueue() for s in sorted(set(remote))}
        self.seats = {seat: RemoteSeat(POLL if poll is None else poll, *self._tellers(seat)) for seat in self.outboxes}
        self.lineup = [self._factory(seat) if seat in self.seats else lineup[seat] for seat in range(players)]
        self.seed, self.factor, self.profiles = seed, factor, profiles
        self.live = Live.realtime(factor, self._heard)
        # a seat that looks every poll seconds decides that often: the cap on decisions grows with the round's
        looks = math.ceil(EngineConfig().max_round_seconds / min(s.poll for s in self.seats.values()))
        self.config = replace(EngineConfig(), max_decisions_per_round=EngineConfig().max_decisions_per_round + looks)
        self.result: MatchResult | None = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._play, name=f"kemps-live-{seed}", daemon=True)

    def _factory(self, seat: int) -> Any:
        agent = self.seats[seat]

        def remote() -> RemoteSeat:
            return agent

        remote.name = f"remote{seat}"  # type: ignore[attr-defined]
        return remote

    def send(self, seat: int, intent: Any) -> None:
        """Play ``intent`` at remote ``seat`` at its next look."""
        if seat not in self.seats:
            raise ConfigError(f"seat {seat!r}: not a remote seat of this table; remote seats: {sorted(self.seats)}")
        self.seats[seat].send(intent)

    @property
    def started(self) -> bool:
        """Whether :meth:`start` was called."""
        return self._thread.ident is not None

    def start(self) -> LiveTable:
        """Begin the match (once)."""
        self._thread.start()
        return self

    def join(self, timeout: float | None = None) -> MatchResult | None:
        """Wait for the end of the match (at most ``timeout`` wall seconds); the result, None if not over, and an
        error the match ended with raised here."""
        self._thread.join(timeout)
        if self.error is not None:
            raise self.error
        return self.result

    def _tellers(self, seat: int) -> tuple[Any, Any]:
        """How the remote seat's view and its refused intents reach its outbox."""
        box = self.outboxes[seat]
        return (lambda view: box.put(("view", view))), (lambda problem: box.put(("refused", problem)))

    def _heard(self, index: int, event: TraceEvent) -> None:
        if type(event) is Perceived:  # a person sees with their own eyes: what the model's observer at their seat
            return  # noticed is the model's, and would tell them of a gesture they did not see
        for seat, box in self.outboxes.items():
            shown = seen_by(event, seat)
            if shown is not None:
                box.put(("event", index, shown))

    def _play(self) -> None:
        try:
            self.result = simulate_match(self.rules, self.lineup, self.profiles, self.seed, config=self.config,
                                         live=self.live)
        except BaseException as exc:  # kept for join(), which raises it in the caller's thread
            self.error = exc
        finally:
            for box in self.outboxes.values():
                box.put(None)
