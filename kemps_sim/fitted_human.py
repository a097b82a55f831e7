"""Human-model parameters fitted to the calibration targets by ``scripts/calibrate.py``: do not edit; run the
script (``--write``). The defaults read them (:mod:`kemps_sim.perception`, :mod:`kemps_sim.profiles`,
:mod:`agents.signal_choice`); :mod:`kemps_sim.calibration.fit` says how they are fitted."""

#: How the values were made: the command, the date, the trials, the cells and the targets' version.
PROVENANCE = {'script': 'scripts/calibrate.py',
 'command': 'python scripts/calibrate.py --trials 40 --matches 30 --workers 2 --write',
 'date': '2026-12-01',
 'trials': 40,
 'matches': 30,
 'seed': 2026,
 'cells': {'rules': ['standard', 'german', 'party', 'kems', 'peanut_butter'],
           'lineup': ['collector', 'collector,watcher']},
 'targets_version': 1,
 'targets_date': '2026-12-01',
 'loss': 0.3286,
 'loss_noise': 1.5956}

#: What each fitted parameter is.
MEANING = {'observer.priming': "how often a partner's look-alike touch is read as the signal",
 'observer.criterion': 'how readily a gesture is taken as possibly meant',
 'observer.unfamiliar': "how much of d' is left for a signal whose form is not known yet",
 'slips_per_hour': "how often an hour an idle touch of the pair's own signal looks meant",
 'agent.signal_discipline': 'how often a pair changes a blown signal before the next round'}

#: The fitted value of each parameter (dotted profile names).
FITTED = {'observer.priming': 0.842,
 'observer.criterion': 0.682,
 'observer.unfamiliar': 0.653,
 'slips_per_hour': 5.796,
 'agent.signal_discipline': 0.506}

#: The range of each parameter over the trials whose loss is within two noise deviations of the best: the
#: values the targets cannot tell apart (a wide range: the targets leave the parameter free).
SPREAD = {'observer.priming': (0.445, 0.997),
 'observer.criterion': (0.315, 1.46),
 'observer.unfamiliar': (0.21, 0.653),
 'slips_per_hour': (3.554, 5.996),
 'agent.signal_discipline': (0.506, 0.708)}
