"""Parameter recovery through the live table itself: simulated people with known parameters
(:class:`kemps_sim.serve.simulated.SimulatedPerson`) play sessions through the same table, screens, messages and
recorder as a person at a browser (on the simulated clock, in lockstep), and `calibrate`'s fit of the recorded data
gives back their parameters within its 95% intervals as often as a 95% interval should: for each parameter at
least the binomial lower bound at α = 0.01, and over all parameters together too."""

from __future__ import annotations

import numpy as np
from scipy import stats

from kemps_sim.presets import load_rules
from kemps_sim.profiles import PlayerProfile
from kemps_sim.serve import LiveTable
from kemps_sim.serve.simulated import SimulatedPerson, partner_fours
from kemps_sim.study.fit import fit_study
from kemps_sim.timing import ExGaussian, LogNormal

PEOPLE, SESSIONS, LEVEL, ALPHA = 16, 6, 0.95, 0.01
RULES = load_rules({"preset": "standard", "dealer_rotation": "same", "scoring": "points", "target_points": 8})
#: The partner fidgets a hundred times as often as the default player, so that its idle gestures of the pair's
#: signal (a few an hour at the natural rate) come often enough to measure false alarms; the others as usual.
PROFILES = [PlayerProfile(), PlayerProfile(), PlayerProfile(fidget_scale=100.0), PlayerProfile()]


def person(index: int) -> SimulatedPerson:
    """A simulated person whose parameters are drawn around typical values (fixed seed per person)."""
    rng = np.random.default_rng(1000 + index)
    return SimulatedPerson(
        reaction=ExGaussian(mu=rng.uniform(0.35, 0.55), sigma=rng.uniform(0.04, 0.08), tau=rng.uniform(0.1, 0.2)),
        reach=LogNormal(median=rng.uniform(0.25, 0.45), sigma=rng.uniform(0.15, 0.3)),
        speech=ExGaussian(mu=rng.uniform(0.5, 0.7), sigma=rng.uniform(0.05, 0.1), tau=rng.uniform(0.15, 0.25)),
        noise=rng.uniform(0.5, 1.0), threshold=rng.uniform(1.0, 1.6), rng_seed=index)


def truth(simulated: SimulatedPerson) -> dict[str, float]:
    """The profile parameters the fit should find: speech's mu less the profile's perception latency (the model
    adds perceiving separately), d' at the default acuity of 1."""
    perceiving = PlayerProfile().perception_latency.mean
    return {"reaction.mu": simulated.reaction.mu, "reaction.sigma": simulated.reaction.sigma,
            "reaction.tau": simulated.reaction.tau, "reach.median": simulated.reach.median,
            "reach.sigma": simulated.reach.sigma, "observer.d_fixated": simulated.d_prime,
            "observer.criterion": simulated.criterion, "speech.mu": simulated.speech.mu - perceiving,
            "speech.sigma": simulated.speech.sigma, "speech.tau": simulated.speech.tau}


def test_calibrate_recovers_simulated_peoples_parameters_at_the_advertised_rate(tmp_path):
    covered: dict[str, list[bool]] = {}
    for index in range(PEOPLE):
        simulated, folder = person(index), tmp_path / f"person{index}"
        for session in range(SESSIONS):
            seed = 100 * index + session
            table = LiveTable(RULES, ["collector"] * 4, remote=[0], seed=seed, factor=None, data=folder,
                              lockstep=True, profiles=PROFILES, participants={0: f"sim{index}"},
                              packs=partner_fours(RULES, seed, 0, rounds=40, every=2))
            simulated.play(table, 0)
            assert table.join(timeout=120).end_reason == "match_over"
        estimates = fit_study(folder).table().set_index("parameter")
        for name, value in truth(simulated).items():
            row = estimates.loc[name]
            assert np.isfinite(row["lower"]), f"person {index}: {name} not fitted: {row['method']}"
            covered.setdefault(name, []).append(bool(row["lower"] <= value <= row["upper"]))
    per_parameter = int(stats.binom.ppf(ALPHA, PEOPLE, LEVEL))
    together = int(stats.binom.ppf(ALPHA, PEOPLE * len(covered), LEVEL))
    counts = {name: sum(hits) for name, hits in covered.items()}
    print(f"\ncovered of {PEOPLE} (bound {per_parameter}): {counts}; together {sum(counts.values())} of "
          f"{PEOPLE * len(covered)} (bound {together})")
    assert all(count >= per_parameter for count in counts.values()), counts
    assert sum(counts.values()) >= together
