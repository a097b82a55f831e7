"""A practice round before the match: the person alone with slow agents at a table like the match's, for one round
(or one game), to learn the page (where the cards are, how a move and a call are made, what the others do). Not
recorded. Each game's table makes its own (``practice(seat)``) from what is here."""

from __future__ import annotations

from kemps_sim.profiles import PlayerProfile
from kemps_sim.timing import ExGaussian, LogNormal

#: The agents of a practice round react, reach and speak about twice as slowly as the default player, so that a
#: newcomer has time to look before the table changes.
SLOW = PlayerProfile(reaction=ExGaussian(mu=0.7, sigma=0.08, tau=0.25), reach=LogNormal(median=0.9, sigma=0.2),
                     speech=ExGaussian(mu=0.6, sigma=0.06, tau=0.2))
#: The practice's seed is the match's plus this: another deal than the match's first.
PRACTICE_SEED = 7919
