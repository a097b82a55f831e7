"""``watcher``: a collector whose eyes hunt the other pairs (004: "watch the other pair's faces more than their
hands"; "call Stop Kemps the instant you see the signal").

It reasons like every built-in, from the shared belief (:mod:`kemps_sim.belief`): the prior from play (what each
opponent takes and keeps, how long it has sat still), what it perceives of each opponent's gestures weighed by how
rare each gesture is and how likely it is that pair's signal, and each pair's honesty; across rounds it learns
every pair's signal from the calls it hears and how often a pair's deliberate-looking gestures were fakes. What
sets it apart is where it looks: the ``adaptive`` attention policy (:mod:`agents.attention`) keeps most of its gaze
on the opponents, with an eye on the partner, and turns to the partner while the partner looks ready.
"""

from __future__ import annotations

from dataclasses import dataclass

from kemps_sim_agents.collector import Collector


@dataclass(repr=False, eq=False)
class Watcher(Collector):
    """A collector that hunts the other pairs' signals with its eyes (``attention="adaptive"``) and learns them and
    their honesty from every call it hears (004, 001)."""

    attention: str = "adaptive"

    name = "watcher"
    description = "watches the other pairs: learns their signals and honesty from calls, calls Stop Kemps"
    sources = ("004", "001")
