"""Fitting a person's (or a group's) human parameters to what they did at a live table: the trials of
:mod:`kemps_sim.study.trials` fitted by :mod:`kemps_sim.study.estimators` and :mod:`kemps_sim.study.ex_gaussian`,
into a :class:`HumanFit` that prints as a tidy table and gives a :class:`~kemps_sim.profiles.PlayerProfile`
(``kemps-sim calibrate`` writes it as a profile file, :mod:`kemps_sim.profile_file`).

What is fitted, and where it goes in the profile:

* ``reaction`` (mu, sigma, tau): the ex-Gaussian of the times from a card's arrival in the middle to the first
  click of the swap that took it;
* ``reach`` (median, sigma): the log-normal of the times from that click to the last one;
* ``observer.d_fixated`` and ``observer.criterion``: d' and c of the partner's gestures as drawn on the screen,
  meant (signal) or idle, answered by a call or not. A gesture on the page is looked at (the page shows little
  else), so they are the d' and criterion of a gesture looked at; d' goes in as ``d_fixated = d' / acuity``, so
  that the profile's d' of a fixated gesture (``d_fixated · acuity``) is the one measured. A person who missed a
  gesture by looking elsewhere lowers d', which is then a lower bound of the d' of a gesture looked at;
* ``speech`` (mu, sigma, tau): the ex-Gaussian of the latency from a meant gesture's drawing to the call that answered
  it (only calls that could have answered no other gesture: ``alone`` in the trials), with mu less the profile's mean
  ``perception_latency`` (the model adds perceiving the gesture separately), kept at or above the profile's lower bound
  for speech.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.profiles import TIME_LOWER_BOUNDS, PlayerProfile
from kemps_sim.study.estimators import CONFIDENCE, Estimate, fit_lognormal, fit_observer, pool
from kemps_sim.study.ex_gaussian import INTERVALS, N_RESAMPLES, fit_ex_gaussian
from kemps_sim.study.trials import CALL_WINDOW, REACTION_CAP, detection_trials, swap_trials
from kemps_sim.suggest import did_you_mean

#: The parameters fitted, in the order the table lists them.
PARAMETERS = ("reaction.mu", "reaction.sigma", "reaction.tau", "reach.median", "reach.sigma",
              "observer.d_fixated", "observer.criterion", "speech.mu", "speech.sigma", "speech.tau")
#: The name of the group's rows.
GROUP = "group"
#: The columns of :meth:`HumanFit.table`.
TABLE_COLUMNS = ("participant", "parameter", "estimate", "lower", "upper", "n", "method")
_FAMILIES = {"reaction": ("ex_gaussian", ("mu", "sigma", "tau")), "speech": ("ex_gaussian", ("mu", "sigma", "tau")),
             "reach": ("lognormal", ("median", "sigma"))}


@dataclass(frozen=True)
class HumanFit:
    """The fitted parameters: each participant's own (``fits``), and with a group fit the group's (``group``) and
    each participant's partially pooled ones (``shrunken``), every one an :class:`Estimate` by parameter name
    (:data:`PARAMETERS`). ``base`` is the profile the fitted values replace parameters of; ``settings`` the
    options of the fit (window, cap, intervals, seed and resamples of a bootstrap, confidence); ``data`` where the
    sessions came from."""

    fits: Mapping[str, Mapping[str, Estimate]]
    base: PlayerProfile = field(default_factory=PlayerProfile)
    group: Mapping[str, Estimate] | None = None
    shrunken: Mapping[str, Mapping[str, Estimate]] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)
    data: str = ""

    def __post_init__(self) -> None:
        if not self.fits:
            raise ConfigError("HumanFit.fits = {}: must hold at least one participant's estimates")
        if not isinstance(self.base, PlayerProfile):
            raise ConfigError(f"HumanFit.base = {self.base!r}: must be a PlayerProfile")
        for name in ("fits", "shrunken"):
            frozen = {who: MappingProxyType(dict(e)) for who, e in getattr(self, name).items()}
            object.__setattr__(self, name, MappingProxyType(frozen))
        if self.group is not None:
            object.__setattr__(self, "group", MappingProxyType(dict(self.group)))
        object.__setattr__(self, "settings", MappingProxyType(dict(self.settings)))

    @property
    def participants(self) -> tuple[str, ...]:
        """The participants fitted, in order."""
        return tuple(self.fits)

    def table(self) -> pd.DataFrame:
        """A tidy frame, one row per participant (or ``"group"``) and parameter: participant, parameter, estimate,
        lower, upper, n, method. A participant's partially pooled rows follow its own, their method saying so."""
        rows = []
        for who in self.participants:
            rows += [(who, e) for e in self.fits[who].values()]
            rows += [(who, e) for e in self.shrunken.get(who, {}).values()]
        if self.group is not None:
            rows += [(GROUP, e) for e in self.group.values()]
        return pd.DataFrame([(who, e.parameter, e.estimate, e.lower, e.upper, e.n, e.method) for who, e in rows],
                            columns=list(TABLE_COLUMNS)).astype({"n": "int64"})

    def estimates(self, participant: str | None = None) -> Mapping[str, Estimate]:
        """The estimates a profile is made of: with None the group's (or the only participant's); else
        ``participant``'s own, or with a group fit their partially pooled ones, and the group's for a parameter
        they have no estimate of (their data say nothing of it, so the group's is the best guess)."""
        if participant is None:
            if self.group is not None:
                return self.group
            if len(self.fits) == 1:
                return next(iter(self.fits.values()))
            raise ConfigError(f"participant = None: the fit has {len(self.fits)} participants and no group; name "
                              f"one of {', '.join(self.participants)}")
        if participant == GROUP and self.group is not None:
            return self.group
        if participant not in self.fits:
            raise ConfigError(f"participant = {participant!r}: not fitted{did_you_mean(participant, self.fits)}; "
                              f"fitted: {', '.join(self.participants)}")
        pooled, chosen = self.shrunken.get(participant, {}), {}
        for name, own in self.fits[participant].items():
            stand_in = (self.group or {}).get(name) if len(self.fits) > 1 else None
            if name in pooled:
                chosen[name] = pooled[name]
            elif not own.fitted and stand_in is not None and stand_in.fitted:
                chosen[name] = stand_in
            else:
                chosen[name] = own
        return chosen

    def profile(self, participant: str | None = None) -> PlayerProfile:
        """``base`` with the fitted parameters of :meth:`estimates` put in; a parameter without an estimate keeps
        the base's value (:meth:`defaults_kept` lists them) and a location below the profile's human lower bound
        (or a d' below 0) is raised to it (:meth:`adjusted` says which)."""
        return self._profile(participant)[0]

    def defaults_kept(self, participant: str | None = None) -> tuple[str, ...]:
        """The parameters without an estimate, which keep the base profile's values."""
        return tuple(name for name, e in self.estimates(participant).items() if not e.fitted)

    def adjusted(self, participant: str | None = None) -> tuple[str, ...]:
        """The fitted values the profile could not take as they are, and what was put in instead."""
        return self._profile(participant)[1]

    def record(self, participant: str | None = None) -> dict[str, Any]:
        """Where a profile of ``participant`` came from, as the ``[calibration]`` table of its profile file."""
        from kemps_sim import __version__

        chosen = self.estimates(participant)
        if participant is None:
            source = GROUP if self.group is not None else self.participants[0]
        else:
            source = participant + (" (partially pooled with the group)" if participant in self.shrunken else "")
        fitted = [name for name, e in chosen.items() if e.fitted]
        return {"kemps_sim": __version__, "data": self.data, "participants": list(self.participants),
                "source": source, **{key: value for key, value in self.settings.items() if value is not None},
                "fitted": fitted, "defaults_kept": list(self.defaults_kept(participant)),
                "adjusted": list(self.adjusted(participant)), "n": {name: e.n for name, e in chosen.items()},
                "estimates": {name: [chosen[name].estimate, chosen[name].lower, chosen[name].upper]
                              for name in fitted}}

    def _profile(self, participant: str | None) -> tuple[PlayerProfile, tuple[str, ...]]:
        chosen = self.estimates(participant)
        base, changes, notes = self.base, {}, []
        for head, (family, names) in _FAMILIES.items():
            found = [chosen.get(f"{head}.{name}") for name in names]
            if not all(e is not None and e.fitted for e in found):
                continue
            values = {name: e.estimate for name, e in zip(names, found, strict=True)}
            location = "median" if family == "lognormal" else "mu"
            bound = TIME_LOWER_BOUNDS[head][0]
            if values[location] < bound:
                notes.append(f"{head}.{location} {values[location]:.4g} raised to {bound:g} s (the profile's lower "
                             "bound)")
                values[location] = bound
            if values["sigma"] < 0:
                notes.append(f"{head}.sigma {values['sigma']:.4g} raised to 0")
                values["sigma"] = 0.0
            changes[head] = {"family": family, **values}
        observer = {}
        d_prime, criterion = chosen.get("observer.d_fixated"), chosen.get("observer.criterion")
        if d_prime is not None and d_prime.fitted:
            value = d_prime.estimate
            if value < 0:
                notes.append(f"observer.d_fixated {value:.4g} raised to 0 (the person answered idle gestures more "
                             "often than meant ones)")
                value = 0.0
            acuity = base.observer.acuity
            observer["d_fixated"] = value / acuity if acuity > 0 else value
        if criterion is not None and criterion.fitted:
            observer["criterion"] = criterion.estimate
        if observer:
            changes["observer"] = observer
        return PlayerProfile.from_mapping(changes, "calibrated profile", base=base), tuple(notes)


def fit_study(data: str | Path | Mapping[str, pd.DataFrame], participant: str | None = None, group: bool = False,
              *, window: float = CALL_WINDOW, cap: float = REACTION_CAP, intervals: str = "profile", seed: int = 0,
              n_resamples: int = N_RESAMPLES, confidence: float = CONFIDENCE,
              base: PlayerProfile | None = None) -> HumanFit:
    """Fit the human parameters of the sessions in ``data`` (a data folder, a session folder, or the tables
    :func:`kemps_sim.study.load_sessions` returns).

    ``participant`` fits that person; ``group`` fits every participant and pools them (with ``participant`` too,
    that person's partially pooled estimates make the profile); neither needs data of exactly one participant.
    ``window`` and ``cap`` are those of :func:`~kemps_sim.study.trials.detection_trials` and
    :func:`~kemps_sim.study.trials.swap_trials`; ``intervals`` says how the reaction and speech intervals are found
    (:func:`~kemps_sim.study.ex_gaussian.fit_ex_gaussian`: ``"profile"``, ``"wald"`` or ``"bootstrap"``, whose
    ``n_resamples`` are drawn from ``seed``, each participant's own stream, so a person's intervals do not depend on
    who else is in the data).
    """
    if intervals not in INTERVALS:
        raise ConfigError(f"intervals = {intervals!r}: must be one of {', '.join(INTERVALS)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"seed = {seed!r}: must be a whole number >= 0")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 2:
        raise ConfigError(f"n_resamples = {n_resamples!r}: must be a whole number >= 2")
    if isinstance(confidence, bool) or not isinstance(confidence, float | int) or not 0 < confidence < 1:
        raise ConfigError(f"confidence = {confidence!r}: must be a number between 0 and 1 (exclusive), e.g. 0.95")
    base = PlayerProfile() if base is None else base
    if isinstance(data, Mapping):
        tables, where = data, "tables"
    else:
        from kemps_sim.study.load import load_sessions  # deferred: reading is only needed for a folder

        tables, where = load_sessions(data), str(Path(data).resolve())
    games = sorted(set(tables["sessions"].get("game", pd.Series(dtype=object)).dropna().astype(str)) - {"kemps"})
    if games:
        raise ConfigError(f"{where}: holds {', '.join(games)} sessions; calibrate fits a Kemps player's parameters "
                          "(from swaps and calls on gestures), and has no fit of another game's yet")
    known = sorted(set(tables["sessions"]["participant"].dropna().astype(str)))
    chosen = _chosen(known, participant, group, where)
    swaps, detections = swap_trials(tables, cap=cap), detection_trials(tables, window=window)
    fits = {}
    for who in chosen:
        rng = np.random.default_rng([seed, zlib.crc32(who.encode("utf-8"))])
        fits[who] = fit_person(swaps[swaps["participant"] == who], detections[detections["participant"] == who],
                               rng, base=base, intervals=intervals, n_resamples=n_resamples, confidence=confidence)
    pooled_group, shrunken = None, {}
    if group:
        pooled_group = {}
        for name in PARAMETERS:
            pooled = pool({who: fits[who][name] for who in chosen}, confidence)
            pooled_group[name] = pooled.group
            if len(chosen) > 1:
                for who, estimate in pooled.shrunken.items():
                    shrunken.setdefault(who, {})[name] = estimate
    settings = {"window": float(window), "reaction_cap": float(cap), "intervals": intervals,
                **({"seed": seed, "n_resamples": n_resamples} if intervals == "bootstrap" else {}),
                "confidence": float(confidence)}
    return HumanFit(fits, base, pooled_group, shrunken, settings, where)


def fit_person(swaps: pd.DataFrame, detections: pd.DataFrame, rng: np.random.Generator | None = None,
               base: PlayerProfile | None = None, intervals: str = "profile", n_resamples: int = N_RESAMPLES,
               confidence: float = CONFIDENCE) -> dict[str, Estimate]:
    """One person's estimates by parameter (:data:`PARAMETERS`) from their swap and detection trials (``rng``:
    the bootstrap's, with ``intervals="bootstrap"``). Speech is the call latency of hits less the mean of
    ``base.perception_latency`` (the model perceives the gesture before it speaks); :meth:`HumanFit.profile` keeps
    it at or above the profile's lower bound for speech."""
    base = PlayerProfile() if base is None else base
    options = {"intervals": intervals, "n_resamples": n_resamples, "confidence": confidence}
    found = fit_ex_gaussian(swaps["reaction"], ("reaction.mu", "reaction.sigma", "reaction.tau"), rng, **options,
                            what="reactions")
    reach = swaps.drop_duplicates(["session", "input"])["reach"]  # a swap taking two cards has one reach
    found += fit_lognormal(reach, ("reach.median", "reach.sigma"), confidence, what="reaches")
    found += fit_observer(detections["signal"], detections["response"], ("observer.d_fixated", "observer.criterion"),
                          confidence)
    hits = detections[detections["signal"] & detections["response"] & detections["alone"]]["latency"]
    speech = fit_ex_gaussian(hits, ("speech.mu", "speech.sigma", "speech.tau"), rng, **options,
                             what="calls answering a meant gesture")
    latency = base.perception_latency.mean
    speech[0] = speech[0].shifted(-latency, f"{speech[0].method}; call latency less perception_latency's mean "
                                            f"{latency:g} s") if speech[0].fitted else speech[0]
    return {e.parameter: e for e in [*found, *speech]}


def _chosen(known: list[str], participant: str | None, group: bool, where: str) -> list[str]:
    """The participants to fit."""
    if not known:
        raise ConfigError(f"{where}: no participant in any session")
    if participant is not None and participant not in known:
        listed = ", ".join(known[:10]) + (f" and {len(known) - 10} more" if len(known) > 10 else "")
        raise ConfigError(f"--participant {participant}: not in {where}{did_you_mean(participant, known)}; its "
                          f"participants: {listed}")
    if group:
        return known
    if participant is not None:
        return [participant]
    if len(known) > 1:
        listed = ", ".join(known[:10]) + (" ..." if len(known) > 10 else "")
        raise ConfigError(f"{where}: holds {len(known)} participants ({listed}); name one with --participant ID or "
                          "pool them with --group")
    return known
