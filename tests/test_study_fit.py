"""Fitting human parameters to live-table sessions (``kemps-sim calibrate``), on session folders written here as the
live table's writer writes them, from people simulated with known parameters.

* recovery: over fixed-seed replications (one simulated person each) every 95 % interval covers the true value at
  least as often as the binomial distribution allows at α = 0.01 (the bound from scipy.stats.binom);
* the probit observer equals the closed forms of d' and c, and a rate of 0 or 1 gets the log-linear correction;
* the trial builder, on hand-made tables with known answers: which drawing each taken card answers, what is left
  out and why, and times divided by the session's factor;
* partial pooling puts each person between their own estimate and the group's;
* the profile file round-trips and ``play``, ``tournament`` and sweep specs read it;
* bad input is one line with exit status 2.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

from kemps_sim import ConfigError, PlayerProfile, simulate_match
from kemps_sim.cli import main
from kemps_sim.cli.play import as_json
from kemps_sim.profile_file import load_profile_file, write_profile_file
from kemps_sim.study import load_sessions
from kemps_sim.study.estimators import MIN_TRIALS, Estimate, fit_lognormal, fit_observer, pool
from kemps_sim.study.ex_gaussian import WELL_COVERED, _maximum, fit_ex_gaussian, log_likelihood
from kemps_sim.study.fit import PARAMETERS, fit_study
from kemps_sim.study.schema import TABLES
from kemps_sim.study.trials import detection_trials, swap_trials
from kemps_sim.study.writer import SessionWriter
from kemps_sim.sweep.cells import plan_cell
from kemps_sim.sweep.design import Cell
from kemps_sim.sweep.spec import SpecError, read_spec
from kemps_sim.sweep.tournament import tournament_spec

#: A column the helper does not set gets the schema's "missing" value of its type.
MISSING = {"int64": -1, "float64": math.nan, "string": "", "boolean": False}
#: The simulated person: reaction ExGaussian, reach LogNormal, observer (d', c) and call latency ExGaussian.
TRUTH = {"reaction": (0.35, 0.04, 0.12), "reach": (0.45, 0.25), "observer": (1.5, 0.2), "latency": (0.6, 0.06, 0.15)}
PERCEIVING = PlayerProfile().perception_latency.mean  # what the speech fit takes off the call latency's mu
TRUE = {"reaction.mu": 0.35, "reaction.sigma": 0.04, "reaction.tau": 0.12, "reach.median": 0.45, "reach.sigma": 0.25,
        "observer.d_fixated": 1.5, "observer.criterion": 0.2, "speech.mu": 0.6 - PERCEIVING, "speech.sigma": 0.06,
        "speech.tau": 0.15}
REPLICATIONS = 40


class Session:
    """One session of one person at seat 0, written through :class:`SessionWriter` (JSON lines; Parquet too once
    closed), every column the helper leaves out set to the schema's missing value."""

    def __init__(self, folder: Path, factor: float = 1.0) -> None:
        self.writer = SessionWriter(folder, {"game": "kemps", "seed": 0, "factor": factor}, [0])
        self.participant = self.writer.participants[0]
        self.session = self.writer.session
        self.message = self.input = 0

    def row(self, table: str, **values: Any) -> None:
        full = {name: MISSING[dtype] for name, (dtype, _) in TABLES[table].items()
                if name not in ("session", "participant", "seat")}
        self.writer.row(table, 0, **{**full, **values})

    def view(self, time: float, middle: str, rnd: int) -> int:
        self.message += 1
        self.row("draws", message=self.message, what="view", round=rnd, hand="1 2 3 4", middle=middle,
                 server_time=time, client_time=time)
        return self.message

    def swap(self, take: str, first: float, last: float, rnd: int, status: str = "played") -> None:
        self.input += 1
        self.row("inputs", input=self.input, kind="swap", give="1", take=take, first_client_time=first,
                 client_time=last, server_time=last, round=rnd, status=status)

    def gesture(self, time: float, deliberate: bool, relation: str = "partner", rnd: int = 0,
                own_signal: bool = True) -> int:
        self.message += 1
        self.row("draws", message=self.message, what="gesture", detail="ear", round=rnd, server_time=time,
                 client_time=time)
        self.row("gestures_shown", message=self.message, round=rnd, gesturer=2, relation=relation, gesture="ear",
                 hold=0.5, deliberate=deliberate, own_signal=own_signal)
        return self.message

    def call(self, time: float, call: str = "kemps", status: str = "played") -> None:
        self.input += 1
        self.row("inputs", input=self.input, kind="call", call=call, client_time=time, server_time=time,
                 status=status)


def simulated_person(folder: Path, rng: np.random.Generator, swaps: int = 150, meant: int = 100, idle: int = 100,
                     factor: float = 1.0, close: bool = False) -> Session:
    """A session of a person with the :data:`TRUTH` parameters: ``swaps`` cards reacted to and reached for, then
    ``meant`` and ``idle`` partner gestures 5 s apart (more than the window), each answered by a call with the
    observer's hit or false-alarm rate after a call latency."""
    person = Session(folder, factor)
    (mu, sigma, tau), (median, spread) = TRUTH["reaction"], TRUTH["reach"]
    t = 1.0
    for rnd in range(swaps):
        cards = rng.choice(np.arange(5, 104), 4, replace=False)
        person.view(t, " ".join(map(str, cards)), rnd)
        first = t + (rng.normal(mu, sigma) + rng.exponential(tau)) * factor
        last = first + rng.lognormal(math.log(median), spread) * factor
        person.swap(str(cards[-1]), first, last, rnd)
        t = last + 0.5
    d, c = TRUTH["observer"]
    lmu, lsigma, ltau = TRUTH["latency"]
    kinds = np.array([True] * meant + [False] * idle)
    rng.shuffle(kinds)
    for deliberate in kinds:
        t += 5.0
        person.gesture(t, bool(deliberate), rnd=swaps)
        if rng.random() < stats.norm.cdf((d / 2 if deliberate else -d / 2) - c):
            person.call(t + (rng.normal(lmu, lsigma) + rng.exponential(ltau)) * factor)
    if close:
        person.writer.close(None, "finished")
    return person


def lowest_coverage(replications: int, level: float = 0.95, alpha: float = 0.01) -> int:
    """The fewest covering intervals out of ``replications`` that a method covering at ``level`` falls below
    with probability at most ``alpha``."""
    return int(stats.binom.ppf(alpha, replications, level))


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pd.DataFrame]:
    """A data folder of :data:`REPLICATIONS` sessions, one simulated person each (a few closed, as Parquet)."""
    folder = tmp_path_factory.mktemp("study")
    rng = np.random.default_rng(20261202)
    for i in range(REPLICATIONS):
        simulated_person(folder, rng, factor=2.0 if i % 4 == 1 else 1.0, close=i % 8 == 0)
    return load_sessions(folder)


# --- (a) recovery ---------------------------------------------------------------------------------------------


def test_exact_and_wald_intervals_cover_the_true_values_at_the_advertised_rate(study):
    """Reach (exact t and chi-square intervals) and the observer (probit, Wald), one person per replication."""
    swaps, detections = swap_trials(study), detection_trials(study)
    people = sorted(study["sessions"]["participant"])
    assert len(people) == REPLICATIONS
    covered = dict.fromkeys(("reach.median", "reach.sigma", "observer.d_fixated", "observer.criterion"), 0)
    for who in people:
        mine = swaps[swaps["participant"] == who]
        seen = detections[detections["participant"] == who]
        found = [*fit_lognormal(mine["reach"], ("reach.median", "reach.sigma")),
                 *fit_observer(seen["signal"], seen["response"], ("observer.d_fixated", "observer.criterion"))]
        for e in found:
            covered[e.parameter] += e.lower <= TRUE[e.parameter] <= e.upper
    print("coverage of", REPLICATIONS, "replications:", covered)
    assert min(covered.values()) >= lowest_coverage(REPLICATIONS), covered


def test_reaction_and_speech_intervals_cover_the_true_values_at_the_advertised_rate(study):
    """The ex-Gaussian fits with their profile-likelihood intervals (the default), end to end through fit_study
    (speech: the call latency less perceiving), one person per replication (150 reactions, about 77 calls)."""
    fit = fit_study(study, group=True)
    names = ("reaction.mu", "reaction.sigma", "reaction.tau", "speech.mu", "speech.sigma", "speech.tau")
    covered = {name: sum(fit.fits[who][name].lower <= TRUE[name] <= fit.fits[who][name].upper
                         for who in fit.participants) for name in names}
    print("coverage of", len(fit.participants), "replications:", covered)
    assert len(fit.participants) == REPLICATIONS
    assert min(covered.values()) >= lowest_coverage(REPLICATIONS), covered
    # The group pools 40 people with one truth: its estimates sit near it.
    for name in names:
        group = fit.group[name]
        assert group.n == sum(fit.fits[who][name].n for who in fit.participants)
        assert abs(group.estimate - TRUE[name]) < 0.25 * TRUE[name] + 0.01, (name, group)


# --- (b) the observer's closed forms -----------------------------------------------------------------------------


def trials_of(hits: int, meant: int, false_alarms: int, idle: int) -> tuple[np.ndarray, np.ndarray]:
    signal = np.array([True] * meant + [False] * idle)
    response = np.array([True] * hits + [False] * (meant - hits) + [True] * false_alarms
                        + [False] * (idle - false_alarms))
    return signal, response


@pytest.mark.parametrize("counts", [(31, 47, 12, 83), (10, 10 + 13, 40, 41), (5, 60, 1, 12)])
def test_the_probit_observer_is_the_closed_form_of_d_prime_and_criterion(counts):
    hits, meant, false_alarms, idle = counts
    d, c = fit_observer(*trials_of(*counts), ("d", "c"))
    z_hit, z_fa = stats.norm.ppf(hits / meant), stats.norm.ppf(false_alarms / idle)
    assert d.estimate == pytest.approx(z_hit - z_fa, abs=1e-6)
    assert c.estimate == pytest.approx(-(z_hit + z_fa) / 2, abs=1e-6)
    assert d.lower < d.estimate < d.upper and c.lower < c.estimate < c.upper
    assert (d.n, c.n) == (meant + idle, meant + idle) and "Hautus" not in d.method


@pytest.mark.parametrize("counts", [(20, 20, 3, 40), (12, 30, 0, 25), (0, 15, 0, 15), (15, 15, 15, 15)])
def test_a_rate_of_0_or_1_gets_the_log_linear_correction_not_an_error(counts):
    hits, meant, false_alarms, idle = counts
    d, c = fit_observer(*trials_of(*counts), ("d", "c"))
    z_hit = stats.norm.ppf((hits + 0.5) / (meant + 1))
    z_fa = stats.norm.ppf((false_alarms + 0.5) / (idle + 1))
    assert d.estimate == pytest.approx(z_hit - z_fa, abs=1e-6)
    assert c.estimate == pytest.approx(-(z_hit + z_fa) / 2, abs=1e-6)
    assert "Hautus 1995" in d.method and math.isfinite(d.upper - d.lower)


def test_too_few_trials_are_reported_as_not_fitted_with_the_reason():
    rng = np.random.default_rng(1)
    few = MIN_TRIALS - 1
    for found in (fit_ex_gaussian(rng.random(few) + 0.3, ("a", "b", "c"), rng), fit_lognormal(np.ones(few), "ab"),
                  fit_observer(*trials_of(5, 9, 3, 40), ("d", "c"))):
        assert all(not e.fitted and math.isnan(e.lower) and e.method.startswith("not fitted: ") for e in found)
    assert "9 trials (fewer than 10)" in fit_lognormal(np.ones(few), "ab")[0].note
    assert "9 meant and 40 idle" in fit_observer(*trials_of(5, 9, 3, 40), ("d", "c"))[0].note


def test_bootstrap_intervals_are_percentiles_reproducible_from_the_generator():
    times = np.random.default_rng(8).normal(0.35, 0.04, 80) + np.random.default_rng(9).exponential(0.12, 80)
    first = fit_ex_gaussian(times, ("mu", "sigma", "tau"), np.random.default_rng(1), intervals="bootstrap",
                            n_resamples=29)
    again = fit_ex_gaussian(times, ("mu", "sigma", "tau"), np.random.default_rng(1), intervals="bootstrap",
                            n_resamples=29)
    assert first == again and "29 bootstrap resamples (percentile)" in first[0].method
    for kind in ("profile", "wald"):
        for boot, other in zip(first, fit_ex_gaussian(times, ("mu", "sigma", "tau"), intervals=kind), strict=True):
            assert boot.estimate == other.estimate and boot.lower < boot.estimate < boot.upper
            assert other.lower < other.estimate < other.upper and boot.se > 0 and other.se > 0
    with pytest.raises(ConfigError, match="intervals = 'jackknife': must be one of profile, wald, bootstrap"):
        fit_ex_gaussian(times, ("mu", "sigma", "tau"), intervals="jackknife")


def edges(times: np.ndarray, fixed: dict[int, float]) -> float:
    """The most the likelihood reaches at its edges with ``fixed`` parameters held (sigma = 0: a shifted
    exponential, mu at most the least time; tau = 0: a normal), worked out here from the two densities."""
    low, best = float(np.min(times)), -math.inf
    if fixed.get(1, 0.0) == 0.0:  # sigma 0: tau = mean - mu at mu's best, mu = min unless held
        mu = fixed.get(0, low)
        if mu <= low:
            tau = fixed.get(2, float(np.mean(times)) - mu)
            best = max(best, float(stats.expon.logpdf(times, mu, tau).sum()))
    if fixed.get(2, 0.0) == 0.0:  # tau 0: a normal, its mean and sd at their best unless held
        mu = fixed.get(0, float(np.mean(times)))
        sd = fixed.get(1, math.sqrt(float(np.mean((times - mu) ** 2))))
        if sd > 0:
            best = max(best, float(stats.norm.logpdf(times, mu, sd).sum()))
    return best


def profile_drop(times: np.ndarray, index: int, value: float) -> float:
    """2(ℓ̂ − ℓ_p(value)) found independently of the module's search: Powell from several starts in the natural
    scale, and the edges in closed form."""
    def best(fixed: dict[int, float]) -> float:
        free = [i for i in range(3) if i not in fixed]
        def negative(point: np.ndarray) -> float:
            full = {**fixed, **dict(zip(free, point, strict=True))}
            return math.inf if full[1] <= 0 or full[2] <= 0 else -log_likelihood(times, full[0], full[1], full[2])
        starts = [(float(np.mean(times)) - 0.1, 0.05, 0.1), (float(np.min(times)), 0.02, 0.25),
                  (float(np.median(times)), 0.1, 0.05)]
        interior = -min(optimize.minimize(negative, [start[i] for i in free], method="Powell",
                                          options={"xtol": 1e-9, "ftol": 1e-12}).fun for start in starts)
        return max(interior, edges(times, fixed))
    return 2 * (best({}) - best({index: value}))


@pytest.mark.parametrize("seed", [0, 3, 6, 11, 27])
def test_profile_intervals_end_where_the_likelihood_ratio_reaches_its_chi_square_quantile(seed):
    """Seeds 0, 6 and 27 have their maximum at sigma's edge or a profile with two branches."""
    rng = np.random.default_rng(seed)
    times = rng.normal(0.6, 0.07, 40) + rng.exponential(0.2, 40)
    fitted = fit_ex_gaussian(times, ("mu", "sigma", "tau"))
    assert all(math.isclose(e.se, (e.upper - e.lower) / (2 * stats.norm.ppf(0.975))) for e in fitted)
    for index, e in enumerate(fitted):
        assert "profile-likelihood" in e.method and e.lower <= e.estimate < e.upper
        assert profile_drop(times, index, e.estimate) == pytest.approx(0, abs=1e-4)
        for end in (e.lower, e.upper):
            if end == 0:  # the likelihood does not fall far enough before the edge: all of [0, upper] is inside
                assert index > 0 and profile_drop(times, index, 0.0) < stats.chi2.ppf(0.95, 1)
            else:
                assert profile_drop(times, index, end) == pytest.approx(stats.chi2.ppf(0.95, 1), abs=0.02)


def test_the_maximum_is_the_best_of_the_inside_and_the_edges():
    """At 40 trials the shifted exponential (sigma 0) often fits better than any interior point (seed 6 here)."""
    for seed in range(12):
        rng = np.random.default_rng(seed)
        times = rng.normal(0.6, 0.07, 40) + rng.exponential(0.2, 40)
        _, top, _ = _maximum(times)
        assert top >= edges(times, {}) - 1e-9 and top >= -optimize.minimize(
            lambda p, t=times: -log_likelihood(t, p[0], *np.exp(p[1:])), [0.6, math.log(0.07), math.log(0.2)],
            method="Powell").fun - 1e-6
    rng = np.random.default_rng(6)
    times = rng.normal(0.6, 0.07, 40) + rng.exponential(0.2, 40)
    mu, sigma, tau = fit_ex_gaussian(times, ("mu", "sigma", "tau"))
    assert (mu.estimate, sigma.estimate, tau.estimate) == (times.min(), 0.0, pytest.approx(times.mean() - times.min()))


def test_a_fit_at_the_edge_gets_a_profile_interval_from_zero_where_wald_has_none():
    """Times with no Gaussian spread at all (a shifted exponential): sigma's maximum is at its edge, 0."""
    times = 0.5 + np.random.default_rng(4).exponential(0.2, 40)
    mu, sigma, tau = fit_ex_gaussian(times, ("mu", "sigma", "tau"))
    assert sigma.estimate == 0.0 and sigma.lower == 0.0 and 0 < sigma.upper < 0.1
    assert profile_drop(times, 1, sigma.upper) == pytest.approx(stats.chi2.ppf(0.95, 1), abs=0.02)
    assert mu.lower < mu.estimate < mu.upper and tau.lower < tau.estimate < tau.upper
    wald = fit_ex_gaussian(times, ("mu", "sigma", "tau"), intervals="wald")
    assert all(math.isnan(e.lower) and "at an edge" in e.method for e in wald)


def test_intervals_move_with_the_times_and_do_not_depend_on_where_zero_is():
    rng = np.random.default_rng(2024)
    times = rng.normal(0.6, 0.07, 30) + rng.exponential(0.2, 30)
    here, there = fit_ex_gaussian(times, "abc"), fit_ex_gaussian(times + 1000.0, "abc")
    assert there[0].lower - 1000 == pytest.approx(here[0].lower, abs=1e-4)
    assert there[0].upper - 1000 == pytest.approx(here[0].upper, abs=1e-4)
    for a, b in zip(here[1:], there[1:], strict=True):
        assert (b.lower, b.upper) == (pytest.approx(a.lower, abs=1e-4), pytest.approx(a.upper, abs=1e-4))


@pytest.mark.parametrize("times", [np.zeros(15), np.full(20, 0.5), np.array([0.4] * 10 + [0.7] * 10)])
def test_times_of_fewer_than_three_values_are_not_fitted(times):
    assert all(not e.fitted and "distinct values (an ex-Gaussian needs at least 3)" in e.note
               for e in fit_ex_gaussian(times, "abc"))


def test_ex_gaussian_log_likelihood_is_scipys_and_its_limits_and_small_samples_carry_a_note():
    rng = np.random.default_rng(5)
    times = rng.normal(0.4, 0.05, 69) + rng.exponential(0.1, 69)
    for mu, sigma, tau in ((0.4, 0.05, 0.1), (0.3, 0.01, 0.3), (0.5, 0.2, 0.02)):
        assert log_likelihood(times, mu, sigma, tau) == pytest.approx(
            stats.exponnorm.logpdf(times, tau / sigma, mu, sigma).sum(), rel=1e-9)
    # far from scipy's reach: tau → 0 is a normal, sigma → 0 a shifted exponential
    assert log_likelihood(times, 0.45, 0.07, 0.07e-8) == pytest.approx(stats.norm.logpdf(times, 0.45, 0.07).sum())
    assert log_likelihood(times, 0.2, 1e-9, 0.25) == pytest.approx(stats.expon.logpdf(times, 0.2, 0.25).sum())
    assert all(f"69 trials: below {WELL_COVERED}" in e.note for e in fit_ex_gaussian(times, "abc"))
    assert all(e.note == "" for e in fit_ex_gaussian(np.append(times, 0.5), "abc"))


def test_the_coverage_script_prints_a_row_a_size_and_refuses_bad_usage_in_one_line():
    script = Path(__file__).resolve().parents[1] / "scripts" / "ex_gaussian_coverage.py"
    done = subprocess.run([sys.executable, str(script), "--trials", "12", "--people", "2", "--intervals", "profile"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    row = done.stdout.strip().splitlines()[-1].split()
    assert row[0] == "12" and all(float(share) in (0.0, 0.5, 1.0) for share in row[1:]) and len(row) == 4
    bad = subprocess.run([sys.executable, str(script), "--trials", "5"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.strip().splitlines() == [
        "ex_gaussian_coverage.py: error: argument --trials: '5': must be a whole number >= 10 (see --help)"]


# --- (c) the trial builder ---------------------------------------------------------------------------------------


@pytest.fixture
def hand_made(tmp_path: Path) -> tuple[dict[str, pd.DataFrame], Session, Session]:
    """Two sessions with known answers: A at factor 2, B (another person, the same cards) at factor 1."""
    a, b = Session(tmp_path, factor=2.0), Session(tmp_path, factor=1.0)
    m1 = a.view(1.0, "10 11 12 13", 0)
    m2 = a.view(2.0, "10 11 12 20", 0)  # 20 arrives
    a.view(3.0, "10 11 12 20", 0)  # still there: the same stay
    a.view(4.0, "10 11 12 21", 0)  # 20 gone ...
    m5 = a.view(5.0, "10 11 12 20", 0)  # ... and back: a new arrival
    m6 = a.view(8.0, "30 31 32 33", 1)  # the next round
    b.view(2.3, "10 11 12 20", 0)  # B's 20 arrives between A's arrival and A's click: not A's stimulus
    a.swap("20", 2.6, 3.0, 0)  # -> m2: reaction (2.6 - 2.0) / 2, reach (3.0 - 2.6) / 2
    a.swap("20", 5.5, 5.9, 0)  # -> m5, the return
    a.swap("11", 1.4, 1.8, 0, status="refused")  # refused, still a reaction -> m1
    a.swap("30", 7.9, 8.4, 1)  # the hand card chosen before 30 was drawn: reaction < 0
    a.swap("33", 8.5, 8.8, 2)  # taken in round 2, drawn in round 1
    a.swap("31", 30.0, 30.5, 1)  # (30 - 8) / 2 = 11 s: over the cap, inattention
    a.swap("99", 9.0, 9.5, 1)  # never drawn
    a.swap("32", 8.4, 8.6, 1, status="invalid")  # not a played or refused swap: no trial at all
    b.swap("20", 2.5, 2.7, 0)  # B's: (2.5 - 2.3) / 1
    for person in (a, b):
        person.writer.close(None, "finished")
    a.expected = {"stimuli": {(1, 20): m2, (2, 20): m5, (3, 11): m1, (4, 30): m6}}
    return load_sessions(tmp_path), a, b


def test_each_taken_card_is_linked_to_its_arrival_in_that_persons_middle(hand_made):
    tables, a, b = hand_made
    trials = swap_trials(tables)
    mine = trials[trials["participant"] == a.participant].set_index("input")
    assert list(mine.index) == [1, 2, 3]
    assert list(mine["stimulus_message"]) == [a.expected["stimuli"][(i, c)] for i, c in ((1, 20), (2, 20), (3, 11))]
    assert list(mine["reaction"]) == pytest.approx([0.3, 0.25, 0.2])  # page seconds / factor 2
    assert list(mine["reach"]) == pytest.approx([0.2, 0.2, 0.2])
    theirs = trials[trials["participant"] == b.participant]
    assert list(theirs["reaction"]) == pytest.approx([0.2]) and list(theirs["reach"]) == pytest.approx([0.2])


def test_reactions_before_the_card_in_another_round_or_over_the_cap_are_left_out_with_the_reason(hand_made):
    tables, a, _ = hand_made
    every = swap_trials(tables, keep_excluded=True)
    mine = every[every["participant"] == a.participant].set_index("input")["excluded"]
    assert dict(mine) == {1: "", 2: "", 3: "", 4: "first click before the card was drawn",
                          5: "stimulus drawn in another round", 6: "reaction over the cap of 5 s",
                          7: "card never drawn in the middle before the click"}
    assert every.loc[(every["participant"] == a.participant) & (every["input"] == 6), "reaction"].item() == 11.0
    longer = swap_trials(tables, cap=12.0)
    assert 6 in set(longer.loc[longer["participant"] == a.participant, "input"])


def test_partner_gestures_become_detection_trials_answered_by_a_call_within_the_window(tmp_path):
    a = Session(tmp_path, factor=2.0)
    hit = a.gesture(10.0, True)
    a.call(10.8)  # 0.8 page s / 2 = 0.4 s after: a response
    a.gesture(20.0, False)  # no call: a correct rejection
    late = a.gesture(30.0, True)
    a.call(37.0, call="double_kemps")  # 3.5 s after: outside the 3 s window
    a.gesture(40.0, True, relation="opponent")  # not the partner's: no trial
    stop = a.gesture(50.0, False)
    a.call(50.5, call="stop_kemps")  # not an answer to a signal
    bad = a.gesture(60.0, False)
    a.call(60.4, status="invalid")  # not a well-formed message
    trials = detection_trials(load_sessions(tmp_path)).set_index("message")
    assert list(trials.index) == [hit, hit + 1, late, stop, bad]
    assert list(trials["signal"]) == [True, False, True, False, False]
    assert list(trials["response"]) == [True, False, False, False, False]
    assert trials.loc[hit, "latency"] == pytest.approx(0.4) and trials["latency"].isna().sum() == 4
    wider = detection_trials(load_sessions(tmp_path), window=4.0).set_index("message")
    assert wider.loc[late, "response"] and wider.loc[late, "latency"] == pytest.approx(3.5)


def test_a_call_answers_the_last_gesture_of_the_signals_form_drawn_at_least_a_moment_before_it(tmp_path):
    """Only the partner's gestures in the form of the pair's signal are trials; a call answers the last of them
    drawn MIN_CALL_LATENCY or more before it (one drawn later is too recent to be what it answers), and its
    latency is certain (``alone``) when no other could have been answered."""
    a = Session(tmp_path)
    first = a.gesture(10.0, True)
    a.gesture(10.3, False, own_signal=False)  # a decoy of another form: no trial, and it takes no call
    second = a.gesture(10.5, True)
    just_before = a.gesture(10.95, False)  # 0.05 s before the call: too recent to be answered by it
    a.call(11.0)
    lonely = a.gesture(20.0, True)
    a.call(20.7)
    trials = detection_trials(load_sessions(tmp_path)).set_index("message")
    assert list(trials.index) == [first, second, just_before, lonely]
    assert list(trials["response"]) == [False, True, False, True]
    assert trials.loc[second, "latency"] == pytest.approx(0.5) and trials.loc[lonely, "latency"] == pytest.approx(0.7)
    assert not trials.loc[second, "alone"] and trials.loc[lonely, "alone"]  # first was also in the call's reach


# --- (d) partial pooling -----------------------------------------------------------------------------------------


def test_partial_pooling_puts_each_person_between_their_own_estimate_and_the_group_mean():
    from statsmodels.stats.meta_analysis import combine_effects

    own = {"p-a": (0.30, 0.01), "p-b": (0.42, 0.02), "p-c": (0.36, 0.05), "p-d": (0.50, 0.03), "p-e": (0.33, 0.01)}
    estimates = {who: Estimate("reaction.mu", v, v - 2 * se, v + 2 * se, 100, "test", se)
                 for who, (v, se) in own.items()}
    pooled = pool(estimates)
    reference = combine_effects(np.array([v for v, _ in own.values()]), np.array([se**2 for _, se in own.values()]),
                                method_re="dl")
    assert pooled.tau2 == pytest.approx(reference.tau2) and pooled.tau2 > 0
    assert pooled.group.estimate == pytest.approx(reference.mean_effect_re) and pooled.group.n == 500
    mean = pooled.group.estimate
    for who, (value, se) in own.items():
        shrunk = pooled.shrunken[who].estimate
        assert min(value, mean) <= shrunk <= max(value, mean), (who, value, shrunk, mean)
        weight = pooled.tau2 / (pooled.tau2 + se**2)
        assert shrunk == pytest.approx(weight * value + (1 - weight) * mean)
    # The less a person's data say (a larger se), the nearer the group they are put.
    assert abs(pooled.shrunken["p-c"].estimate - own["p-c"][0]) > abs(pooled.shrunken["p-a"].estimate - 0.30)


def test_people_alike_pool_completely_and_a_negative_tau2_is_taken_as_0():
    estimates = {who: Estimate("x", v, v - 0.1, v + 0.1, 50, "test", 0.05) for who, v in (("a", 1.0), ("b", 1.01))}
    pooled = pool(estimates)
    assert pooled.tau2 == 0.0 and pooled.group.estimate == pytest.approx(1.005)
    assert all(e.estimate == pytest.approx(1.005) for e in pooled.shrunken.values())


def test_a_group_fit_lists_each_persons_own_and_pooled_rows_and_the_groups(study):
    first = sorted(study["sessions"]["participant"])[:3]
    subset = {**study, "sessions": study["sessions"][study["sessions"]["participant"].isin(first)]}
    fit = fit_study(subset, group=True)
    table = fit.table()
    assert list(table.columns) == ["participant", "parameter", "estimate", "lower", "upper", "n", "method"]
    assert set(table["participant"]) == {*first, "group"} and len(table) == len(PARAMETERS) * (2 * 3 + 1)
    for who in first:
        for name in PARAMETERS:
            own, shrunk, mean = fit.fits[who][name], fit.shrunken[who][name], fit.group[name]
            lo, hi = sorted((own.estimate, mean.estimate))
            assert lo - 1e-12 <= shrunk.estimate <= hi + 1e-12, (who, name)
    assert fit.profile(first[0]).reaction.mu == pytest.approx(fit.shrunken[first[0]]["reaction.mu"].estimate)
    assert fit.profile().reaction.mu == pytest.approx(fit.group["reaction.mu"].estimate)


# --- (e) the profile file and who reads it ---------------------------------------------------------------------


@pytest.fixture
def calibrated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, PlayerProfile, dict[str, Any]]:
    """A profile file fitted to one simulated person, the profile it holds and what ``calibrate --json`` printed."""
    data = tmp_path / "data"
    simulated_person(data, np.random.default_rng(3), swaps=60, meant=40, idle=40, close=True)
    out = tmp_path / "me.toml"
    assert main(["calibrate", str(data), "--out", str(out), "--json"]) == 0
    return out, load_profile_file(out), json.loads(capsys.readouterr().out)


def test_the_profile_file_round_trips_and_records_where_it_came_from(calibrated):
    out, profile, printed = calibrated
    assert printed["profile"] == str(out) and printed["defaults_kept"] == []
    document = tomllib.loads(out.read_text())
    assert PlayerProfile.from_mapping(document["profile"]) == profile
    record = document["calibration"]
    assert record["participants"] == printed["participants"] and record["n"]["reaction.mu"] == 60
    assert record["kemps_sim"] and record["intervals"] == "profile" and "seed" not in record and record["window"] == 3.0
    by_name = {row["parameter"]: row for row in printed["estimates"]}
    assert profile.reaction.mu == pytest.approx(by_name["reaction.mu"]["estimate"])
    assert profile.observer.criterion == pytest.approx(by_name["observer.criterion"]["estimate"])
    assert profile.speech.mu == pytest.approx(by_name["speech.mu"]["estimate"])
    assert profile.patience == PlayerProfile().patience  # not fitted: the default
    again = out.with_name("again.toml")
    write_profile_file(again, profile, record)
    assert load_profile_file(again) == profile and tomllib.loads(again.read_text())["calibration"] == record


def test_play_with_the_profile_plays_the_fitted_person(calibrated, capsys):
    out, profile, _ = calibrated
    assert main(["play", "--seed", "11", "--json", "--profile", str(out)]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played == json.loads(json.dumps(as_json(simulate_match("standard", "collector", profile, seed=11))))
    default = json.loads(json.dumps(as_json(simulate_match("standard", "collector", seed=11))))
    assert played["rounds"] != default["rounds"]
    from kemps_sim.krepet.cli import as_json as krepet_json
    from kemps_sim.krepet.realtime import play_krepet

    assert main(["play", "--game", "krepet", "--seed", "11", "--json", "--profile", str(out)]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played == json.loads(json.dumps(krepet_json(play_krepet(None, "greedy", profile, seed=11))))
    assert played != json.loads(json.dumps(krepet_json(play_krepet(None, "greedy", seed=11))))


def test_sweep_specs_and_tournaments_read_a_profile_file(calibrated, tmp_path):
    out, profile, _ = calibrated
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / "people").mkdir()
    (folder / "people" / "me.toml").write_text(out.read_text())
    spec_file = folder / "spec.toml"
    spec_file.write_text('[sweep]\nseed = 1\nmatches = 1\n[base]\nprofile = "people/me.toml"\n[axes]\n'
                         '"profile.reaction.tau" = [0.1, 0.2]\n')
    spec = read_spec(spec_file)  # taken from the spec's folder, not the working directory
    assert spec.base["profile"] == profile.as_dict()
    plan = plan_cell(spec, Cell((("profile.reaction.tau", 0.2),)))
    assert plan.profiles == (profile.replace(reaction__tau=0.2),) * 4
    spec_file.write_text('[sweep]\nseed = 1\nmatches = 1\n[base]\n'
                         'profiles = ["people/me.toml", { fidget_scale = 0.5 }]\n[axes]\nlineup = ["collector"]\n')
    plan = plan_cell(read_spec(spec_file), Cell((("lineup", "collector"),)))
    assert plan.profiles[0] == plan.profiles[2] == profile and plan.profiles[1].fidget_scale == 0.5
    spec_file.write_text('[sweep]\nseed = 1\nmatches = 1\n[base]\nprofile = "people/nobody.toml"\n'
                         '[axes]\nlineup = ["x"]\n')
    with pytest.raises(SpecError, match=r"base\.profile = 'people/nobody\.toml' \(the file '.*nobody\.toml'\): no "
                                        r"such file"):
        read_spec(spec_file)
    table = tournament_spec(["collector", "watcher"], 1, profile=str(out)).base["profile"]
    assert PlayerProfile.from_mapping(table) == profile


def test_a_bad_profile_file_is_one_line(tmp_path, capsys):
    cases = {"missing.toml": None, "bad.toml": "[profile\n", "typo.toml": "[profil]\nfidget_scale = 1.0\n",
             "value.toml": "[profile.reaction]\ntau = -1\n"}
    expected = {"missing.toml": "no such file", "bad.toml": "not valid TOML", "typo.toml": "did you mean profile?",
                "value.toml": "profile.reaction.tau = -1: must be a number > 0"}
    for name, text in cases.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text)
        with pytest.raises(ConfigError, match=expected[name]):
            load_profile_file(path)
        assert main(["play", "--seed", "1", "--quiet", "--profile", str(path)]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1 and expected[name] in captured.err
        assert captured.err.startswith(f"kemps-sim play: error: --profile {path}: ")
    assert main(["tournament", "collector", "watcher", "--serial", "--output", str(tmp_path / "t"),
                 "--profile", str(tmp_path / "missing.toml")]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "--profile" in captured.err and not (tmp_path / "t").exists()


# --- (f) the command line: too little data, bad input --------------------------------------------------------------


def test_a_parameter_without_enough_trials_keeps_the_default_and_is_listed(tmp_path, capsys):
    data = tmp_path / "data"
    simulated_person(data, np.random.default_rng(4), swaps=MIN_TRIALS + 2, meant=3, idle=30)
    out = tmp_path / "p.toml"
    assert main(["calibrate", str(data), "--out", str(out), "--intervals", "bootstrap", "--resamples", "19",
                 "--seed", "4"]) == 0
    printed = capsys.readouterr().out
    assert "19 bootstrap resamples (percentile)" in printed
    assert "not fitted: 3 meant and 30 idle gestures" in printed
    assert "kept the defaults of observer.d_fixated, observer.criterion, speech.mu, speech.sigma, speech.tau" in printed
    profile, default = load_profile_file(out), PlayerProfile()
    assert profile.observer == default.observer and profile.speech == default.speech
    assert profile.reaction != default.reaction
    record = tomllib.loads(out.read_text())["calibration"]
    assert record["defaults_kept"][0] == "observer.d_fixated" and (record["seed"], record["n_resamples"]) == (4, 19)


def test_several_participants_need_one_named_or_the_group(tmp_path, capsys):
    data = tmp_path / "data"
    people = [simulated_person(data, np.random.default_rng(i), swaps=12, meant=0, idle=0) for i in range(2)]
    assert main(["calibrate", str(data), "--out", str(tmp_path / "p.toml")]) == 2
    assert "holds 2 participants" in capsys.readouterr().err
    out = str(tmp_path / "p.toml")
    assert main(["calibrate", str(data), "--participant", people[1].participant, "--out", out]) == 0
    assert f"profile of {people[1].participant} written" in capsys.readouterr().out


@pytest.mark.parametrize("case", ["missing folder", "schema version", "unknown participant", "window 0",
                                  "window -1", "window nan", "out folder", "few resamples"])
def test_bad_input_is_one_line_and_exit_status_2(tmp_path, capsys, case):
    data = tmp_path / "data"
    person = simulated_person(data, np.random.default_rng(5), swaps=12, meant=0, idle=0)
    args = ["calibrate", str(data), "--out", str(tmp_path / "p.toml")]
    expected = {"missing folder": "no such folder",
                "schema version": "schema_version = 0; this kemps-sim reads version",
                "unknown participant": f"--participant p-nobody: not in {data}",
                "window 0": "--window 0: must be a number of seconds > 0",
                "window -1": "--window -1: must be a number of seconds > 0",
                "window nan": "--window nan: must be a number of seconds > 0",
                "out folder": "folder", "few resamples": "--resamples 5: must be a whole number >= 19"}[case]
    if case == "missing folder":
        args[1] = str(tmp_path / "nothing")
    elif case == "schema version":
        meta = person.writer.path / "session.json"
        meta.write_text(json.dumps({**json.loads(meta.read_text()), "schema_version": 0}))
    elif case == "unknown participant":
        args += ["--participant", "p-nobody"]
    elif case.startswith("window"):
        args += ["--window", case.split()[1]]
    elif case == "out folder":
        args[3] = str(tmp_path / "no" / "p.toml")
    else:
        args += ["--resamples", "5"]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith("kemps-sim calibrate: error: ") and expected in captured.err
    assert "Traceback" not in captured.err and not (tmp_path / "p.toml").exists()


def test_in_a_group_a_person_without_data_for_a_parameter_takes_the_groups(tmp_path):
    data = tmp_path / "data"
    rng = np.random.default_rng(6)
    quiet = simulated_person(data, rng, swaps=40, meant=2, idle=2)  # too few gestures for the observer and speech
    for _ in range(2):
        simulated_person(data, rng, swaps=40, meant=40, idle=40)
    fit = fit_study(data, quiet.participant, group=True)
    assert not fit.fits[quiet.participant]["observer.d_fixated"].fitted
    chosen = fit.estimates(quiet.participant)
    assert chosen["observer.d_fixated"] == fit.group["observer.d_fixated"]
    assert chosen["reaction.mu"] == fit.shrunken[quiet.participant]["reaction.mu"]
    assert fit.defaults_kept(quiet.participant) == ()
    assert fit.profile(quiet.participant).observer.d_fixated == pytest.approx(fit.group["observer.d_fixated"].estimate)
    alone = fit_study(data, quiet.participant)
    assert "observer.d_fixated" in alone.defaults_kept(quiet.participant)
    assert alone.profile().observer == PlayerProfile().observer
