"""People at the table: a match played on the wall's clock with seats played from outside the engine.

:class:`RemoteSeat` is a seat whose intents come from another thread (a person at a browser, or a script standing
in for one), with no simulated reaction, reach or speech time (its times are measured in the world);
:class:`LiveTable` plays a match with such seats on the real-time clock (:class:`kemps_sim.engine.Live`) in a thread
of its own and gives each seat, as the match goes, only what that seat may know of each event
(:func:`kemps_sim.visibility.seen_by`).
"""

from __future__ import annotations

from kemps_sim.serve.remote import RemoteSeat
from kemps_sim.serve.table import LiveTable

__all__ = ["LiveTable", "RemoteSeat"]
