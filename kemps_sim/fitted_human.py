"""Human-model parameters fitted to the calibration targets by ``scripts/calibrate.py``: do not edit; run the
script (``--write``). The defaults read them (:mod:`kemps_sim.perception`, :mod:`kemps_sim.profiles`,
:mod:`agents.signal_choice`, :mod:`agents.composed`); :mod:`kemps_sim.calibration.fit` says how they are fitted."""

#: How the values were made: the command, the date, the trials, the cells and the targets' version.
PROVENANCE = {'script': 'scripts/calibrate.py',
 'command': 'python scripts/calibrate.py --trials 12 --matches 30 --workers 2 --write',
 'date': '2026-12-02',
 'trials': 12,
 'matches': 30,
 'seed': 2026,
 'cells': {'rules': ['standard', 'german', 'party', 'kems', 'peanut_butter'],
           'lineup': ['collector', 'collector,watcher']},
 'targets_version': 2,
 'targets_date': '2026-12-01',
 'loss': 0.0,
 'loss_noise': 0.072}

#: What each fitted parameter is.
MEANING = {'observer.priming': "how often a partner's look-alike touch is read as the signal",
 'observer.criterion': 'how readily a gesture is taken as possibly meant',
 'observer.unfamiliar': "how much of d' is left for a signal whose form is not known yet",
 'slips_per_hour': "how often an hour an idle touch of the pair's own signal looks meant",
 'agent.signal_discipline': 'how often a pair changes a blown signal before the next round',
 'agent.caution': "how much a wrong call's cost weighs against a right call's gain"}

#: The fitted value of each parameter (dotted profile names).
FITTED = {'observer.priming': 0.965,
 'observer.criterion': -0.155,
 'observer.unfamiliar': 0.59,
 'slips_per_hour': 0.791,
 'agent.signal_discipline': 0.64,
 'agent.caution': 0.281}

#: The range of each parameter over the trials whose loss is within two noise deviations of the best: the
#: values the targets cannot tell apart (a wide range: the targets leave the parameter free).
SPREAD = {'observer.priming': (0.965, 0.965),
 'observer.criterion': (-0.155, -0.155),
 'observer.unfamiliar': (0.59, 0.59),
 'slips_per_hour': (0.791, 0.791),
 'agent.signal_discipline': (0.64, 0.64),
 'agent.caution': (0.281, 0.281)}
