"""Moved: the sensitivity indices read a sweep's folder and design, so they live with the sweeps, in
:mod:`kemps_sim.sweep.sensitivity` (the statistics sit below the sweeps and import nothing of them)."""

raise ImportError("kemps_sim.stats.sensitivity has moved: import kemps_sim.sweep.sensitivity (sobol_indices, "
                  "sobol_second_order, morris_indices, cell_metric, SensitivityWarning; also from kemps_sim.sweep)")
