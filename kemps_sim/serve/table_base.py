"""What every live table has, whatever its game: people's seats behind outboxes and screens, their inputs stamped,
numbered, rate-limited and recorded, the game played in a thread of its own on the wall's clock (or the simulated
one), paused for a person who left or handed to an agent, stopped, and saved. A game's table says how its match is
played, how a page's message becomes an action, and what a page is shown (:class:`kemps_sim.serve.LiveTable` for
Kemps, :class:`kemps_sim.krepet.table.KrepetTable` for Krepet)."""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import simpy
import simpy.rt

from kemps_sim.errors import ConfigError
from kemps_sim.lineup import resolve_lineup
from kemps_sim.serve.limits import RateLimit
from kemps_sim.serve.messages import stamp
from kemps_sim.serve.remote import Sent
from kemps_sim.serve.screen import Screen
from kemps_sim.study.writer import SessionWriter

#: The child of the match seed's SeedSequence that draws what only the screens show (how emphatic each avatar
#: gesture is, who stands in how fast): far beyond the streams the engine spawns, so the match is the same.
DISPLAY_STREAM = 2**31 - 7
#: Wall seconds a finished session waits at most for the pages still there to say they drew its last message before
#: it is saved (a page's socket is ordered: once it drew the end, every input it sent before has arrived).
DRAW_GRACE = 30.0
#: What a seat whose person leaves becomes: ``pause`` holds the table until they are back; an agent's name plays on.
PAUSE = "pause"


class TableStopped(BaseException):
    """Raised at a person's seat to end a match whose table was stopped (not an error of anyone at it)."""


class LiveTableBase:
    """One game with people at ``remote`` seats of ``players``: ``factor`` wall seconds per simulated second (None:
    the simulated clock, as fast as the computer, for scripted people who time themselves with :class:`Sent`
    ``not_before``). :meth:`start` plays it in a thread; each remote seat's ``outboxes`` receives, as they happen,
    the messages of its page (a :class:`~kemps_sim.serve.screen.Screen`), and None at the end; ``result`` is the
    game once it is over.

    ``data`` (a folder) records the session (:mod:`kemps_sim.study`); ``on_leave`` is what a seat becomes when its
    person leaves (:data:`PAUSE`, or an agent's name); ``rate`` caps each person's inputs a second (a burst of twice
    as many allowed); ``lockstep`` (on the simulated clock) holds the game at each look of a person's seat until
    every page still there has drawn what it was sent, so that scripted people act at the simulated times they
    chose; ``participants`` gives a person's seat the participant id they had in an earlier session (else a new one
    is drawn)."""

    #: The game's name (its record in :mod:`kemps_sim.games`) and its page (in ``kemps_sim/serve/assets``).
    game: ClassVar[str]
    page: ClassVar[str]

    def __init__(self, players: int, lineup: Sequence[str], remote: Sequence[int], seed: int,
                 factor: float | None, rules: Mapping[str, Any], data: str | Path | None, on_leave: str, rate: float,
                 lockstep: bool, participants: Mapping[int, str] | None) -> None:
        if len(lineup) != players:
            raise ConfigError(f"lineup has {len(lineup)} entries for {players} players: give one per seat")
        if not remote or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players for s in remote):
            raise ConfigError(f"remote = {list(remote)!r}: give the seats played from outside, each from 0 to "
                              f"{players - 1}")
        for seat, entry in enumerate(lineup):  # an unknown agent is one line now, not when the game starts
            if seat not in remote:
                resolve_lineup(entry, 1, game=self.game)
        if on_leave != PAUSE:
            resolve_lineup(on_leave, 1, game=self.game)  # nor when someone leaves
        if lockstep and factor is not None:
            raise ConfigError(f"lockstep = True: only on the simulated clock (factor = None), not factor = {factor!r}")
        self.players, self.names, self.seed, self.factor = players, list(lineup), seed, factor
        self.on_leave, self.lockstep = on_leave, lockstep
        self.started_at = time.monotonic()
        self.outboxes: dict[int, queue.SimpleQueue] = {s: queue.SimpleQueue() for s in sorted(set(remote))}
        self.limits = {seat: RateLimit(rate) for seat in self.outboxes}  # checked before any folder is made
        self.writer = None if data is None else SessionWriter(data, self._meta(rules), sorted(self.outboxes),
                                                              participants)
        self.screens = {seat: self._screen(seat, box) for seat, box in self.outboxes.items()}
        self.seats: dict[int, Any] = {}
        self._inputs = dict.fromkeys(self.outboxes, 0)
        self._display = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(DISPLAY_STREAM,)))
        self.result: Any = None
        self.error: BaseException | None = None
        self.departures: list[dict[str, Any]] = []
        self.away: set[int] = set()
        self.joins: list[dict[str, Any]] = []
        self._env: simpy.Environment | None = None
        self._stopped = self._over = False
        self._ending = threading.Lock()
        self._pausing = threading.Lock()  # a pause and a stop, each whole
        self._running = threading.Event()
        self._running.set()
        self._thread = threading.Thread(target=self._play, name=f"{self.game}-live-{seed}", daemon=True)

    # What a game's table says ------------------------------------------------------------------------------------
    def _screen(self, seat: int, box: queue.SimpleQueue) -> Screen:
        """The screen of the person at ``seat``."""
        return Screen(seat, self.players, box, 1.0 if self.factor is None else self.factor, self.writer, self.clock)

    def _parse(self, data: Any) -> Any:
        """The action a page's message asks for (a one-line ConfigError if it is none)."""
        raise NotImplementedError

    def _columns(self, action: Any) -> dict[str, Any]:
        """The inputs table's columns of an action."""
        raise NotImplementedError

    def _match(self) -> Any:
        """Play the game with ``self.live``; its result."""
        raise NotImplementedError

    def _stand_in(self, seat: int) -> None:
        """Let the ``on_leave`` agent play ``seat``."""
        raise NotImplementedError

    # The table -------------------------------------------------------------------------------------------------
    def _factory(self, seat: int) -> Any:
        """The lineup entry of a person's seat: a factory that gives the game its remote seat (the same one the
        table feeds), named after the seat."""
        agent = self.seats[seat]

        def remote() -> Any:
            return agent

        remote.name = f"remote{seat}"  # type: ignore[attr-defined]
        return remote

    def _meta(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        people = self.outboxes
        return {"game": self.game, "rules": dict(rules), "seed": self.seed,
                "factor": 1.0 if self.factor is None else self.factor,
                "clock": "simulated" if self.factor is None else "wall",
                "lineup": ["person" if seat in people else name for seat, name in enumerate(self.names)],
                "humans": sorted(people), "on_leave": self.on_leave,
                "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}

    def clock(self) -> float:
        """The server's seconds since the table was made (the data's ``server_time``)."""
        return time.monotonic() - self.started_at

    def send(self, seat: int, intent: Any) -> None:
        """Play ``intent`` (or a :class:`Sent`) at remote ``seat`` at its next look."""
        if seat not in self.seats:
            raise ConfigError(f"seat {seat!r}: not a remote seat of this table; remote seats: {sorted(self.seats)}")
        self.seats[seat].send(intent)

    def receive(self, seat: int, data: Any) -> None:
        """A message from ``seat``'s page: a draw acknowledged (``{"kind": "drawn", "id": n, "t": s}``), or an input,
        stamped and numbered, checked against the rate limit and the message format, and played at the seat's next
        look; an input refused here is recorded and answered on the page in one line."""
        if isinstance(data, dict) and data.get("kind") == "drawn":
            self.screens[seat].drawn(data.get("id"), data.get("t"))
            return
        number, now = self.next_input(seat), self.clock()
        stamps = {"client_time": stamp(data, "t") if isinstance(data, dict) else math.nan,
                  "first_client_time": stamp(data, "t_first") if isinstance(data, dict) else math.nan}
        problem, status, intent = self.limits[seat].refusal(now), "limited", None
        if problem is None:
            try:
                intent = self._parse(data)
            except ConfigError as exc:
                problem, status = str(exc), "invalid"
        if problem is not None:
            self._record(seat, number, intent, stamps, now, status, math.nan, -1, problem)
            self.screens[seat].notice("error", problem)
            return
        with self._ending:
            if not self._over:
                self.seats[seat].send(Sent(intent, number, server_time=now, round=self.screens[seat].round, **stamps))
                return
        self._record(seat, number, intent, stamps, now, "unplayed", math.nan, -1, "the match had ended")

    def next_input(self, seat: int) -> int:
        """The running number of the seat's next input (for a scripted person sending :class:`Sent` directly)."""
        number = self._inputs[seat]
        self._inputs[seat] += 1
        return number

    def joined(self, seat: int) -> None:
        """The person at ``seat`` connected (having read and agreed to the study's intro): when is kept."""
        self.joins.append({"seat": seat, "server_time": self.clock()})

    def leave(self, seat: int) -> None:
        """The person at ``seat`` left (their page closed): pause the table, or let the ``on_leave`` agent play
        (nothing once the table is stopping: a page that closes then must not hold it)."""
        with self._pausing:
            if self._stopped:
                return
            self.departures.append({"seat": seat, "server_time": self.clock(), "became": self.on_leave})
            self.away.add(seat)
            if self.on_leave == PAUSE:
                self._running.clear()
        if self.on_leave == PAUSE:
            for screen in self.screens.values():
                screen.notice("paused", f"seat {seat} left; the table waits for them")
            return
        self._stand_in(seat)
        for other, screen in self.screens.items():
            if other != seat:
                screen.notice("resumed", f"seat {seat} left; {self.on_leave} plays it now")

    def back(self, seat: int) -> None:
        """The person at ``seat`` is back: a table paused for them goes on (once no one else is away)."""
        self.away.discard(seat)
        if self.on_leave == PAUSE and not self._running.is_set() and not self.away:
            self._running.set()
            for screen in self.screens.values():
                screen.notice("resumed", f"seat {seat} is back; play on")

    @property
    def paused(self) -> bool:
        """Whether the table waits for a person who left."""
        return not self._running.is_set()

    @property
    def started(self) -> bool:
        """Whether :meth:`start` was called."""
        return self._thread.ident is not None

    def start(self) -> LiveTableBase:
        """Begin the match (once)."""
        self._thread.start()
        return self

    def join(self, timeout: float | None = None) -> Any:
        """Wait for the end of the match (at most ``timeout`` wall seconds); the result, None if not over, and an
        error the match ended with raised here."""
        self._thread.join(timeout)
        if self.error is not None:
            raise self.error
        return self.result

    def stop(self, timeout: float = 10.0) -> None:
        """End the table now (the server is stopping): a match still playing stops at its people's next look, and
        its session is saved as ``stopped`` with every row written so far; a table never started is saved as
        ``not started``."""
        with self._pausing:
            if self._stopped:
                return
            self._stopped = True
            self.away.update(self.screens)  # a stopped table waits for no page's last draws
            self._running.set()
        if self.started:
            self._thread.join(timeout)
        elif self.writer is not None and self.writer.meta["status"] == "playing":
            self.writer.meta["departures"], self.writer.meta["joins"] = self.departures, self.joins
            self.writer.close(None, "not started")

    def _clock(self) -> simpy.Environment:
        """A round's environment: the wall's clock at ``factor``, non-strict (a slow moment of the computer delays
        the table rather than failing it), or the simulated clock."""
        if self.factor is None:
            self._env = simpy.Environment()
        else:
            self._env = simpy.rt.RealtimeEnvironment(factor=float(self.factor), strict=False)
        return self._env

    def _gate(self) -> None:
        """Called at every look of a person's seat: while the table is paused the match waits here, and its clock
        then starts again from where it stopped (not rushing through the pause's events)."""
        paused = not self._running.is_set()
        if paused:
            self._running.wait()
        while self.lockstep and not self._stopped and any(
                screen.undrawn for seat, screen in self.screens.items() if seat not in self.away):
            time.sleep(0.0002)
        if self._stopped:
            raise TableStopped("the table was stopped")
        if paused and isinstance(self._env, simpy.rt.RealtimeEnvironment):
            self._env.sync()

    def _reported(self, seat: int) -> Any:
        def report(sent: Sent, status: str, sim_time: float, index: int, problem: str) -> None:
            self._record(seat, sent.number, sent.intent, {"client_time": sent.client_time,
                                                          "first_client_time": sent.first_client_time},
                         sent.server_time, status, sim_time, index, problem)
        return report

    def _record(self, seat: int, number: int, intent: Any, stamps: dict[str, float], server_time: float,
                status: str, sim_time: float, index: int, problem: str) -> None:
        if self.writer is not None:
            self.writer.row("inputs", seat, input=number, **self._columns(intent), **stamps, server_time=server_time,
                            sim_time=sim_time, round=index, status=status, problem=problem)

    def _play(self) -> None:
        try:
            self.result = self._match()
        except BaseException as exc:  # kept for join(), which raises it in the caller's thread
            self.error = exc
        finally:
            with self._ending:  # an input that comes from now on is recorded as it arrives
                self._over = True
            for seat, remote in self.seats.items():
                remote.settle()
                for sent in remote.unplayed():
                    self._reported(seat)(sent, "unplayed", math.nan, -1, "the match ended first")
            for screen in self.screens.values():
                screen.over(self.result, self.error)
            if self.writer is not None:
                deadline = time.monotonic() + DRAW_GRACE  # the pages' last draws are still on their way
                while time.monotonic() < deadline and any(
                        screen.undrawn for seat, screen in self.screens.items() if seat not in self.away):
                    time.sleep(0.01)
                self.writer.meta["departures"], self.writer.meta["joins"] = self.departures, self.joins
                status = "stopped" if self._stopped else "failed" if self.error is not None else "finished"
                self.writer.close(self.result, status)
