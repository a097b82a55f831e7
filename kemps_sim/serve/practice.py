"""A practice round before the match: the person alone with slow agents at a table like the match's, for one round,
to learn the page (where the cards are, how a swap and a call are made, what the avatars do). Not recorded."""

from __future__ import annotations

from kemps_sim.profiles import PlayerProfile
from kemps_sim.serve.table import LiveTable
from kemps_sim.timing import ExGaussian, LogNormal

#: The agents of a practice round react, reach and speak about twice as slowly as the default player, so that a
#: newcomer has time to look before the middle changes.
SLOW = PlayerProfile(reaction=ExGaussian(mu=0.7, sigma=0.08, tau=0.25), reach=LogNormal(median=0.9, sigma=0.2),
                     speech=ExGaussian(mu=0.6, sigma=0.06, tau=0.2))
#: The practice's seed is the match's plus this: another deal than the match's first.
PRACTICE_SEED = 7919


def practice_table(table: LiveTable, seat: int) -> LiveTable:
    """One round at ``table``'s rules and agents, the person at ``seat`` and the others slow (:data:`SLOW`), on the
    wall's clock at ``table``'s speed; nothing is recorded."""
    players = table.rules.players
    return LiveTable(table.rules, table.names, remote=[seat], seed=table.seed + PRACTICE_SEED,
                     factor=1.0 if table.factor is None else table.factor, profiles=[SLOW] * players,
                     on_leave=table.on_leave, max_rounds=1)
