"""Built-in agent policies for kemps-sim, found by name through :mod:`kemps_sim.registry`."""
