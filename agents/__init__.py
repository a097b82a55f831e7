"""Built-in agent policies for kemps-sim, found by name through :mod:`kemps_sim.registry`.

``BUILTINS`` lists the built-in policies in a stable order, and ``KEMPS_BUILTINS`` those followed by the learned
agents: the Kemps agents the registry lists, mapping ``cls.name`` to each. The policies are assembled from parts
(:mod:`agents.composed`): collecting, feeding, signalling, attention, calling and signal choice, each in its own
module; every caller but ``naive`` and ``random`` reasons from the shared belief (:mod:`kemps_sim.belief`).
``LEARNED`` lists the agents that play a trained model (``ppo``, :mod:`agents.ppo`): each plays only the table its
model learnt, so the checks that play every built-in at every table leave them to tests of their own
(``tests/test_rl_train.py``). ``greedy``, ``careful``, ``loader`` and ``lookout`` play Krepet (:mod:`agents.krepet`).
"""

from __future__ import annotations

from kemps_sim_agents.bluffer import Bluffer
from kemps_sim_agents.callers import Cautious, Eager
from kemps_sim_agents.camouflage import Camouflage
from kemps_sim_agents.collector import Collector
from kemps_sim_agents.feeder import Feeder
from kemps_sim_agents.krepet import Careful, Greedy, Loader, Lookout
from kemps_sim_agents.naive import Naive
from kemps_sim_agents.ppo import Ppo
from kemps_sim_agents.random_agent import RandomAgent
from kemps_sim_agents.watcher import Watcher

from kemps_sim.agent import BaseAgent

#: Every built-in Kemps policy class, in a stable order: each plays any table by its name alone.
BUILTINS: tuple[type[BaseAgent], ...] = (RandomAgent, Naive, Collector, Feeder, Camouflage, Watcher, Bluffer,
                                         Cautious, Eager)
#: The built-in agents that play a trained model (given by a parameter), each only at the table it was trained for.
LEARNED: tuple[type[BaseAgent], ...] = (Ppo,)
#: Every built-in Kemps agent, as the registry lists them: the policies, then the learned agents.
KEMPS_BUILTINS: tuple[type[BaseAgent], ...] = BUILTINS + LEARNED
#: Every built-in Krepet agent class, in a stable order (listed by the registry after the Kemps ones).
KREPET_BUILTINS: tuple[type[BaseAgent], ...] = (Greedy, Careful, Loader, Lookout)

__all__ = ["BUILTINS", "KEMPS_BUILTINS", "KREPET_BUILTINS", "LEARNED", "Bluffer", "Camouflage", "Careful", "Cautious",
           "Collector", "Eager", "Feeder", "Greedy", "Loader", "Lookout", "Naive", "Ppo", "RandomAgent", "Watcher"]
