"""What an agent may ask to do: the intents that cross the agent boundary into the engine.

An agent looks at its :class:`~kemps_sim.observation.Observation` and returns one of these. The engine checks
each against the rules and the seat's situation, then carries it out in simulated time (a reach, a gesture, a
spoken call); an intent the rules forbid is refused with :class:`~kemps_sim.errors.AgentError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from kemps_sim.scoring import CallKind


@dataclass(frozen=True, slots=True)
class Swap:
    """Exchange hand cards ``give`` for middle cards ``take`` (as many each way).

    Under ``swap = multi_drop_first`` the hand cards are put down first and the middle cards picked up after a
    second reach; a seat that owes cards (its picks were lost to faster hands) sends ``give=()``.
    """

    give: tuple[int, ...]
    take: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Gesture:
    """Make a gesture of the repertoire on purpose: the pair's signal, a fake, or a decoy."""

    name: str


@dataclass(frozen=True, slots=True)
class CallKemps:
    """Say "Kemps!": the caller believes the partner holds four of a kind."""


@dataclass(frozen=True, slots=True)
class CallStopKemps:
    """Say "Stop Kemps!" naming the accused player (under ``accused_pair`` that player's pair shows)."""

    accused: int


@dataclass(frozen=True, slots=True)
class CallDoubleKemps:
    """Say "Double Kemps!": the caller holds four of a kind and believes the partner does too."""


@dataclass(frozen=True, slots=True)
class SayStalled:
    """Say the middle has stalled (``stall_call``), or vote for a fresh middle (``all_agree``, ``dealer_decides``)."""


@dataclass(frozen=True, slots=True)
class Object:
    """Object to a pending "stalled" during its objection window."""


@dataclass(frozen=True, slots=True)
class Wait:
    """Do nothing until something the seat can see changes, or for at most ``timeout`` seconds.

    Waiting while the middle is unchanged also says "I want none of these cards": under ``nobody_wants`` the
    dealer sweeps once every player waits on the same middle.
    What wakes the seat early is the agent's to say (``wakes_on``, ``wakes_on_middle``); a seat not woken by a
    change of the middle goes on passing on it.

    ``stale=True`` (without a timeout) waits until the seat's patience with the middle runs out
    (:attr:`~kemps_sim.observation.Observation.patience_left`), kept by the engine: a middle that changes by
    cards the agent does not wake for restarts the patience after a glance (a reaction time), and a fresh middle
    it does not want after a glance at it, without asking the agent. A player who wants nothing looks up when its
    patience runs out, which is when a person would say "stalled".
    """

    timeout: float | None = None
    stale: bool = False


Call = CallKemps | CallStopKemps | CallDoubleKemps
#: ``Wait()`` without a timeout, shared: intents are immutable, and an agent answers this one hundreds of times a
#: match, so it need not build a new one each time.
WAIT = Wait()
#: ``Wait(stale=True)``, shared: wait until the seat's patience with the middle runs out.
WAIT_STALE = Wait(stale=True)
Intent = Swap | Gesture | CallKemps | CallStopKemps | CallDoubleKemps | SayStalled | Object | Wait
INTENT_TYPES: tuple[type, ...] = (Swap, Gesture, CallKemps, CallStopKemps, CallDoubleKemps, SayStalled, Object, Wait)
#: The intents that are calls, and the call each one speaks.
CALL_INTENTS: dict[type, CallKind] = {CallKemps: CallKind.KEMPS, CallStopKemps: CallKind.STOP_KEMPS,
                                      CallDoubleKemps: CallKind.DOUBLE_KEMPS}
