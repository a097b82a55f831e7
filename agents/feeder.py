"""``feeder``: feed your partner. Once you know what they collect, put those cards into the middle (000).

What the partner collects is read from the public log: the rank it has taken most (net of what it threw back),
once it has taken at least ``min_evidence`` cards of it. The feeder then leaves that rank alone (never takes it,
never collects it), throws its cards first, and, holding one, swaps it into the middle even when the middle
offers nothing it wants, taking in exchange the card most useful to itself (or one an opponent collects).

``hurry`` is a separate habit, off by default: with ``hurry`` set, when the middle holds nothing of the partner's
rank the feeder says "stalled" after ``hurry`` seconds (drawn from half to one and a half times that) instead of
its profile's patience, to bring fresh cards sooner. No source names it; it is measured apart from feeding in
the tests (``tests/test_agents_feeding.py``), where feeding alone, with the dealer seat rotated, shortens the
partner's time to four of a kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from kemps_sim_agents.collecting import Collecting
from kemps_sim_agents.collector import Collector
from kemps_sim_agents.composed import check_positive

from kemps_sim.belief.tracking import TableReader
from kemps_sim.cards import RANK
from kemps_sim.errors import ConfigError
from kemps_sim.intents import Swap
from kemps_sim.observation import Observation


class Feeding:
    """Infers the partner's rank from its takes and puts cards of that rank into the middle."""

    def __init__(self, min_evidence: int, hurry: float | None) -> None:
        self.min_evidence = min_evidence
        self.hurry = hurry

    def hurry_now(self, obs: Observation, reader: TableReader) -> float | None:
        """Seconds to look at this middle before saying "stalled" when it holds nothing for the partner (``hurry``),
        or None for the profile's usual patience."""
        if self.hurry is None:
            return None
        rank = reader.collected_rank(obs.partner, self.min_evidence)
        if rank < 0 or any(RANK[c] == rank for c in obs.middle):
            return None
        return self.hurry

    def partner_rank(self, obs: Observation, reader: TableReader) -> int:
        """The rank the partner seems to collect, or -1 while it is not clear yet."""
        return reader.collected_rank(obs.partner, self.min_evidence)

    def feed(self, obs: Observation, reader: TableReader, counts: dict[int, int],
             collecting: Collecting) -> Swap | None:
        """Give the partner's rank to the middle, taking the most useful card back; None if there is nothing to feed."""
        rank = collecting.avoid
        middle = obs.middle
        if rank < 0 or rank not in counts or not middle or obs.sweep_due:
            return None
        give = [c for c in obs.hand if RANK[c] == rank]
        options = [c for c in middle if RANK[c] != rank]
        if not options:
            return None
        target, opponents = collecting.target, obs.opponents
        # the card we want most: our target rank, then a rank we hold more of, then one an opponent collects
        options.sort(key=lambda c: (RANK[c] != target, -counts.get(RANK[c], 0),
                                    -sum(reader.net_taken(o, RANK[c]) > 0 for o in opponents), c))
        k = min(len(give), len(options), 1 if obs.rules.swap == "one_for_one" else 4)
        return Swap(tuple(give[:k]), tuple(options[:k]))


@dataclass(repr=False, eq=False)
class Feeder(Collector):
    """A collector that feeds its partner (000): it infers the partner's rank from what the partner takes (public
    log), never competes for it and throws those cards into the middle. ``min_evidence``: partner takes needed to
    name the rank; ``hurry`` (None: off): seconds before saying "stalled" on a middle with nothing for the
    partner."""

    min_evidence: int = 1
    hurry: float | None = None

    name = "feeder"
    description = "infers the partner's rank from its takes and throws those cards into the middle (000)"
    sources = ("000",)

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.min_evidence, bool) or not isinstance(self.min_evidence, int) or self.min_evidence < 1:
            raise ConfigError(f"feeder.min_evidence = {self.min_evidence!r}: must be a whole number >= 1")
        if self.hurry is not None:
            check_positive(self.name, "hurry", self.hurry)

    def make_feeding(self) -> Feeding:
        return Feeding(self.min_evidence, self.hurry)
