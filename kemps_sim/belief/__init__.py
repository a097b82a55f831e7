"""One model of belief, shared by every caller: what a seat has seen turned into the probability that a player holds
four of a kind now, and calls chosen by their expected score.

- :mod:`~kemps_sim.belief.tracking`: what the public log shows (cards taken and kept, ranks collected, calls);
- :mod:`~kemps_sim.belief.prior`: the prior from play (a model fitted to simulated play, plus card logic);
- :mod:`~kemps_sim.belief.percepts`: the likelihood of what the seat perceived (rates, evidence, silence);
- :mod:`~kemps_sim.belief.signals`: which gesture each pair signals with, learned from calls;
- :mod:`~kemps_sim.belief.honesty`: how often each pair's deliberate-looking gestures were fakes;
- :mod:`~kemps_sim.belief.tells`: how long a player had sat still when it gestured: the bins each pair's honesty
  is kept in, so that a fake's timing gives it away;
- :mod:`~kemps_sim.belief.model`: :class:`Belief`, the three combined by Bayes' rule;
- :mod:`~kemps_sim.belief.payoffs` and :mod:`~kemps_sim.belief.decision`: :class:`Caller`, calls as decisions.

Measured constants live in :mod:`~kemps_sim.belief.fitted`, written by ``scripts/fit_belief.py``. A plugin agent
can use the same model: build a :class:`Belief` and a :class:`Caller` in ``start_match`` and ask them in
``decide`` (see ``docs/agents.md``).
"""

from __future__ import annotations

from kemps_sim.belief.decision import Caller, Choice
from kemps_sim.belief.model import Belief
from kemps_sim.belief.tracking import TableReader

__all__ = ["Belief", "Caller", "Choice", "TableReader"]
