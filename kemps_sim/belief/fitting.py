"""Moved: the fitting of the belief's constants plays matches, so it runs above the engine, in
:mod:`kemps_sim.calibration.belief` (run by ``scripts/fit_belief.py``); the belief imports nothing that plays."""

raise ImportError("kemps_sim.belief.fitting has moved: import kemps_sim.calibration.belief (FitPlan, run, "
                  "write_module), or run scripts/fit_belief.py")
