"""Built-in agent policies for kemps-sim, found by name through :mod:`kemps_sim.registry`.

``BUILTINS`` lists every built-in class in a stable order; the registry maps ``cls.name`` to each. The built-ins
are assembled from parts (:mod:`agents.composed`): collecting, feeding, signalling, attention, calling and signal
choice, each in its own module; every caller but ``naive`` and ``random`` reasons from the shared belief
(:mod:`kemps_sim.belief`). ``greedy``, ``careful``, ``loader`` and ``lookout`` play Krepet (:mod:`agents.krepet`).
"""

from __future__ import annotations

from kemps_sim_agents.bluffer import Bluffer
from kemps_sim_agents.callers import Cautious, Eager
from kemps_sim_agents.camouflage import Camouflage
from kemps_sim_agents.collector import Collector
from kemps_sim_agents.feeder import Feeder
from kemps_sim_agents.krepet import Careful, Greedy, Loader, Lookout
from kemps_sim_agents.naive import Naive
from kemps_sim_agents.random_agent import RandomAgent
from kemps_sim_agents.watcher import Watcher

from kemps_sim.agent import BaseAgent

#: Every built-in agent class, in a stable order (the registry reads it).
BUILTINS: tuple[type[BaseAgent], ...] = (RandomAgent, Naive, Collector, Feeder, Camouflage, Watcher, Bluffer,
                                         Cautious, Eager)
#: Every built-in Krepet agent class, in a stable order (listed by the registry after the Kemps ones).
KREPET_BUILTINS: tuple[type[BaseAgent], ...] = (Greedy, Careful, Loader, Lookout)

__all__ = ["BUILTINS", "KREPET_BUILTINS", "Bluffer", "Camouflage", "Careful", "Cautious", "Collector", "Eager",
           "Feeder", "Greedy", "Loader", "Lookout", "Naive", "RandomAgent", "Watcher"]
