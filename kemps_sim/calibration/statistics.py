"""The statistics of a simulated table that the calibration targets constrain, with intervals clustered by match.

:func:`table_statistics` measures them on the tidy tables a sweep stores (``rounds`` and ``calls``, see
:mod:`kemps_sim.records`): one row per group and statistic with its estimate, interval, the rounds or calls it
counts and the matches they came from. Rounds and calls of one match are not independent (the same agents learn
over the same deals), so shares and rates get the intervals of :mod:`kemps_sim.stats._clusters` and the median
round a bootstrap over matches. :func:`parameter_statistics` gives the statistics that are inputs of the human
model (face touches, blinks, reaction time), computed from the profiles' parameters because the tables do not
record every fidget. :func:`compare_to_targets` sets each statistic beside its targets and says whether they agree.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from kemps_sim.gestures import DEFAULT_REPERTOIRE, Repertoire
from kemps_sim.profiles import PlayerProfile
from kemps_sim.stats._clusters import (
    MATCH,
    SHARE_BOUNDS,
    clustered_mean,
    clustered_share,
    paired_ratio_difference,
    with_matches,
)
from kemps_sim.stats._groups import as_by, check_confidence, frame, group_fields, group_keys, require, split

#: How a round can end, from the rounds table's ``outcome``: a right Kemps (or Double Kemps), a right Stop Kemps,
#: a wrong call of any kind; every other outcome (the pack exhausted, a timeout, a Stop Kemps against a Double
#: that ends the round) is ``other``.
ENDS = {"right_kemps": ("kemps_right", "double_right"), "right_stop": ("stop_right",),
        "wrong_call": ("kemps_wrong", "stop_wrong", "double_wrong")}
END_NAMES = (*ENDS, "other")
#: The call outcomes that are wrong calls. A Stop Kemps against a pair holding a Double (``stop_ineffective``) is
#: neither right nor wrong: the accused did hold four of a kind.
WRONG_CALLS = ENDS["wrong_call"]
#: The face touches of the repertoire (Kwok et al. 2015's regions: mouth, nose, eyes and the rest of the face).
FACE_TOUCHES = ("cheek", "chin", "ear", "eye_rub", "forehead", "hair", "mouth", "nose")
#: Resamples and seed of the bootstrap over matches of the median round (fixed, so the interval is reproducible).
BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED = 1999, 20261201


def _end_statistics() -> dict[str, str]:
    said = {"right_kemps": "a right Kemps or Double Kemps", "right_stop": "a right Stop Kemps",
            "wrong_call": "a wrong call", "other": "otherwise (void pack, timeout, a Stop Kemps against a Double)"}
    when = {"": "rounds", "_first": "first rounds of a match (round 0)", "_later": "later rounds (round 1 on)"}
    return {f"{end}_share{tail}": f"share of {whose} ending in {said[end]}"
            for tail, whose in when.items() for end in END_NAMES}


#: Every statistic, with what it is. ``basis`` says whether a row was measured on the tables or computed from the
#: model's parameters.
STATISTICS: dict[str, str] = {
    **_end_statistics(),
    "right_stop_first_minus_later": "right_stop_share_first minus right_stop_share_later, paired by match",
    "right_stop_first_minus_half_later": "right_stop_share_first minus half right_stop_share_later, paired by match "
                                         "(at most 0: first rounds end in a right Stop at most half as often)",
    "right_kemps_lead": "right_kemps_share minus the share of the commonest other end, paired by match",
    "wrong_calls_per_round": "wrong calls heard per round, whether or not they end it",
    "kemps_precision": "share of Kemps and Double Kemps calls that were right",
    "stop_precision": "share of Stop Kemps calls that were right",
    "median_round_seconds": "median round duration in seconds of simulated time",
    "kemps_precision_gain": "kemps_precision at the highest swept d' less at the lowest, paired by match (a sweep "
                            "over profile.observer.acuity: kemps_sim.calibration.contrast)",
    "face_touches_per_hour": "face touches per player-hour (from the profiles' parameters)",
    "blinks_per_minute": "blinks per player-minute (from the profiles' parameters)",
    "reaction_time_mean": "mean choice reaction time in seconds (from the profiles' parameters)",
}
#: The statistics computed from a profile's parameters rather than measured on the tables.
PARAMETER_STATISTICS = ("face_touches_per_hour", "blinks_per_minute", "reaction_time_mean")
#: The statistics that compare cells of a sweep (:mod:`kemps_sim.calibration.contrast`), not measured per group.
ACROSS_CELLS = ("kemps_precision_gain",)
#: The columns of a statistics table after the group columns.
COLUMNS = ("statistic", "estimate", "low", "high", "count", "n", "matches", "basis")
#: The columns of :func:`compare_to_targets` after the group columns.
COMPARISON_COLUMNS = ("target", "statistic", "kind", "basis", "estimate", "low", "high", "target_value",
                      "target_low", "target_high", "agrees", "inside")
NAN = math.nan


def end_of(outcomes: Iterable[str]) -> np.ndarray:
    """Each round outcome's end (one of :data:`END_NAMES`)."""
    lookup = {outcome: end for end, said in ENDS.items() for outcome in said}
    return np.array([lookup.get(str(o), "other") for o in outcomes], dtype=object)


def table_statistics(tables: Mapping[str, pd.DataFrame] | Any, by: Sequence[str] = ("cell",),
                     confidence: float = 0.95) -> pd.DataFrame:
    """Every table statistic of :data:`STATISTICS` per group of the ``rounds`` and ``calls`` tables.

    ``tables`` is what :func:`kemps_sim.sweep.load_results` returns (or its ``tables``, or those of
    :func:`kemps_sim.records.tables`); both tables need a ``seed`` column, the match a row came from. ``n`` counts
    the rounds (calls, for the precisions) behind a row, ``count`` those that were hits (NaN where nothing is
    counted) and ``matches`` the matches they came from. Shares have the clustered Wilson interval, the rate of
    wrong calls the clustered t interval of a mean per round (cut at 0), the paired differences the paired
    linearisation interval over matches (:mod:`kemps_sim.stats._clusters`) and the median round the percentile
    interval of a bootstrap over matches (``scipy.stats.bootstrap``, fixed seed). A group with no calls of a kind
    has NaN for its precision.

    Columns: ``by``..., then :data:`COLUMNS`.
    """
    tables = getattr(tables, "tables", tables)
    by, confidence = as_by(by), check_confidence(confidence)
    rounds = require(tables.get("rounds"), "rounds", by, ("seed", "round", "outcome", "duration"))
    calls = require(tables.get("calls"), "calls", by, ("seed", "round", "call", "outcome", "right"))
    rounds = with_matches(rounds.assign(_wrong=_wrong_calls_per_round(rounds, calls, by)))
    calls = with_matches(calls)
    round_groups, call_groups = split(rounds, by), split(calls, by)
    rows: list[dict[str, Any]] = []
    for key in group_keys(by, rounds, calls):
        fields = group_fields(by, key)
        played = round_groups.get(key, rounds.iloc[:0])
        made = call_groups.get(key, calls.iloc[:0])
        for found in (*_round_rows(played, confidence), *_call_rows(made, confidence)):
            rows.append({**fields, **found, "basis": "tables"})
    return frame(rows, [*by, *COLUMNS])


def _wrong_calls_per_round(rounds: pd.DataFrame, calls: pd.DataFrame, by: tuple[str, ...]) -> np.ndarray:
    """How many wrong calls each round of ``rounds`` heard, from the calls table (matched on the match and round)."""
    key = list(dict.fromkeys([*by, *(c for c in ("cell", "replicate") if c in rounds.columns and c in calls.columns),
                              "seed", "round"]))
    wrong = calls[calls["outcome"].astype(str).isin(WRONG_CALLS)]
    if not len(rounds):
        return np.zeros(0)
    if not len(wrong):
        return np.zeros(len(rounds))
    counted = wrong.groupby(key, dropna=False, observed=True).size().rename("_n").reset_index()
    joined = rounds[key].reset_index(drop=True).merge(counted, on=key, how="left")
    return joined["_n"].fillna(0).to_numpy(dtype=float)


def _row(statistic: str, estimate: float, low: float, high: float, count: float, n: int, matches: float) -> dict:
    return {"statistic": statistic, "estimate": estimate, "low": low, "high": high, "count": count, "n": n,
            "matches": matches}


def _round_rows(played: pd.DataFrame, confidence: float) -> list[dict[str, Any]]:
    """The statistics of one group's rounds."""
    ends = end_of(played["outcome"])
    ids = played[MATCH].to_numpy()
    first = played["round"].to_numpy() == 0
    rows = []
    for tail, chosen in (("", np.ones(len(played), dtype=bool)), ("_first", first), ("_later", ~first)):
        for end in END_NAMES:
            hits = ends[chosen] == end
            found = clustered_share(hits, ids[chosen], confidence)
            rows.append(_row(f"{end}_share{tail}", found.value, found.ci_low, found.ci_high, int(hits.sum()),
                             found.n, found.matches))
    _, units = np.unique(ids, return_inverse=True)
    groups = int(units.max()) + 1 if len(units) else 0

    def per_match(values: np.ndarray, where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (np.bincount(units[where], weights=values[where].astype(float), minlength=groups),
                np.bincount(units[where], minlength=groups).astype(float))

    stopped = ends == "right_stop"
    diff = paired_ratio_difference(per_match(stopped, first), per_match(stopped, ~first), confidence, SHARE_BOUNDS)
    rows.append(_row("right_stop_first_minus_later", diff.difference, diff.ci_low, diff.ci_high, NAN, len(played),
                     groups))
    stops_later, later = per_match(stopped, ~first)
    half = paired_ratio_difference(per_match(stopped, first), (0.5 * stops_later, later), confidence, SHARE_BOUNDS)
    rows.append(_row("right_stop_first_minus_half_later", half.difference, half.ci_low, half.ci_high, NAN,
                     len(played), groups))
    everywhere = np.ones(len(played), dtype=bool)
    others = [end for end in END_NAMES if end != "right_kemps"]
    commonest = max(others, key=lambda end: (ends == end).sum())  # the first listed among equals
    lead = paired_ratio_difference(per_match(ends == "right_kemps", everywhere),
                                   per_match(ends == commonest, everywhere), confidence, SHARE_BOUNDS)
    rows.append(_row("right_kemps_lead", lead.difference, lead.ci_low, lead.ci_high, NAN, len(played), groups))
    wrong = clustered_mean(played["_wrong"].to_numpy(dtype=float), ids, confidence)
    floor = wrong.ci_low if math.isnan(wrong.ci_low) else max(0.0, wrong.ci_low)  # a rate is never below 0
    rows.append(_row("wrong_calls_per_round", wrong.value, floor, wrong.ci_high, float(played["_wrong"].sum()),
                     wrong.n, wrong.matches))
    rows.append(_median_row(played["duration"].to_numpy(dtype=float), units, groups, confidence))
    return rows


def _median_row(durations: np.ndarray, units: np.ndarray, groups: int, confidence: float) -> dict[str, Any]:
    """The median round duration with the percentile interval of a bootstrap that resamples whole matches."""
    if not len(durations):
        return _row("median_round_seconds", NAN, NAN, NAN, NAN, 0, 0)
    median = float(np.median(durations))
    if groups < 2:
        return _row("median_round_seconds", median, NAN, NAN, NAN, len(durations), groups)
    order = np.argsort(units, kind="stable")
    matches = np.split(durations[order], np.cumsum(np.bincount(units, minlength=groups))[:-1])

    def pooled_median(chosen: np.ndarray) -> float:
        return float(np.median(np.concatenate([matches[i] for i in chosen])))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a sample without spread gives a degenerate (zero-width) interval
        found = stats.bootstrap((np.arange(groups),), pooled_median, vectorized=False, method="percentile",
                                n_resamples=BOOTSTRAP_RESAMPLES, confidence_level=confidence,
                                rng=np.random.default_rng(BOOTSTRAP_SEED))
    low, high = float(found.confidence_interval.low), float(found.confidence_interval.high)
    return _row("median_round_seconds", median, low, high, NAN, len(durations), groups)


def _call_rows(made: pd.DataFrame, confidence: float) -> list[dict[str, Any]]:
    """Kemps and Stop precision of one group's calls."""
    right = made["right"].fillna(False).astype(bool).to_numpy()
    ids = made[MATCH].to_numpy()
    rows = []
    for statistic, chosen in (("kemps_precision", made["call"].isin(("kemps", "double_kemps")).to_numpy()),
                              ("stop_precision", (made["call"] == "stop_kemps").to_numpy())):
        found = clustered_share(right[chosen], ids[chosen], confidence)
        rows.append(_row(statistic, found.value, found.ci_low, found.ci_high, int(right[chosen].sum()), found.n,
                         found.matches))
    return rows


def parameter_values(profile: PlayerProfile, repertoire: Repertoire = DEFAULT_REPERTOIRE) -> dict[str, float]:
    """One seat's :data:`PARAMETER_STATISTICS`: face touches an hour and blinks a minute are the repertoire's
    natural rates at the profile's ``fidget_scale`` (the rates the engine draws fidgets at); the reaction time
    is the closed-form mean of the profile's ``reaction`` distribution."""
    rates = {g.name: g.rate_for(profile.fidget_scale) * 3600.0 for g in repertoire}
    face = sum(rate for name, rate in rates.items() if name in FACE_TOUCHES)
    return {"face_touches_per_hour": face,
            "blinks_per_minute": rates.get("blink", 0.0) / 60.0,
            "reaction_time_mean": float(profile.reaction.mean)}


def parameter_statistics(profiles: Sequence[PlayerProfile], repertoire: Repertoire = DEFAULT_REPERTOIRE,
                         fields: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """The :data:`PARAMETER_STATISTICS` of a table of seats: the mean over the seats, with ``low`` and ``high``
    the smallest and largest seat's (a spread over seats, not a sampling interval: parameters are not sampled).
    ``n`` is the number of seats; ``fields`` are group columns put first on every row."""
    values = [parameter_values(profile, repertoire) for profile in profiles]
    rows = []
    for statistic in PARAMETER_STATISTICS:
        seats = np.array([v[statistic] for v in values], dtype=float)
        rows.append({**(fields or {}), **_row(statistic, float(seats.mean()) if len(seats) else NAN,
                                              float(seats.min()) if len(seats) else NAN,
                                              float(seats.max()) if len(seats) else NAN, NAN, len(seats), NAN),
                     "basis": "parameters"})
    return frame(rows, [*(fields or {}), *COLUMNS])


def sweep_statistics(results: Any, confidence: float = 0.95) -> pd.DataFrame:
    """Table and parameter statistics of a sweep folder's results (:func:`kemps_sim.sweep.load_results`), one group
    per cell, with the swept parameters as group columns; the parameters of a cell's seats come from its plan."""
    from kemps_sim.sweep.cells import plan_cells

    by = ("cell", *results.params)
    measured = table_statistics(results.tables, by, confidence)
    labels = measured.drop_duplicates("cell").set_index("cell")[list(results.params)]
    plans = [plan for plan in plan_cells(results.spec()) if plan.cell.id in labels.index]
    parts = [measured]
    for plan in plans:
        fields = {"cell": plan.cell.id, **labels.loc[plan.cell.id].to_dict()}
        parts.append(parameter_statistics(plan.profiles, fields=fields))
    joined = pd.concat(parts, ignore_index=True)
    if "players" not in by:  # the table size of every cell, for the targets that apply to some sizes only
        sizes = {plan.cell.id: plan.rules.players for plan in plans}
        joined.insert(len(by), "players", joined["cell"].map(sizes))
    return joined.sort_values(list(by), kind="mergesort", ignore_index=True)


def compare_to_targets(statistics: pd.DataFrame, targets: Iterable[Any]) -> pd.DataFrame:
    """Each group's statistics beside every target: estimate and interval, target value and interval, agreement.

    The group columns are those of ``statistics`` outside :data:`COLUMNS`. ``agrees`` is True when the simulated
    interval ``[low, high]`` and the target's interval ``[target_low, target_high]`` share at least one point; a
    bound's interval is its half-line (``at_most 0.25``: ``(-inf, 0.25]``), so a bound agrees unless the whole
    simulated interval lies beyond it. A statistic without an interval (one match) is taken as the point
    ``[estimate, estimate]``. A parameter statistic's ``[low, high]`` spans its seats' values, so it agrees when
    the seats' range meets the target's interval (at a table of equal seats: when their value lies in it).
    ``inside`` is stricter: the point estimate lies in the target's interval. Both are None where the group has no
    estimate (say, no Stop Kemps call for a Stop precision). A target that names the table sizes it applies to
    (``players``) is left out of a group with a ``players`` column of another size.

    Columns: the group columns, then :data:`COMPARISON_COLUMNS`.
    """
    by = [c for c in statistics.columns if c not in COLUMNS]
    groups = [((), statistics)] if not by else list(statistics.groupby(by, sort=False, dropna=False))
    rows = []
    for key, rows_of_group in groups:
        fields = dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True))
        measured = rows_of_group.drop_duplicates("statistic").set_index("statistic")
        players = int(fields["players"]) if "players" in fields and fields["players"] == fields["players"] else None
        for target in targets:
            if not target.applies_to(players):
                continue
            found = measured.loc[target.statistic] if target.statistic in measured.index else None
            estimate = float(found["estimate"]) if found is not None else NAN
            low = float(found["low"]) if found is not None else NAN
            high = float(found["high"]) if found is not None else NAN
            agrees, inside = agreement(estimate, low, high, target.low, target.high)
            basis = found["basis"] if found is not None and "basis" in found.index else None
            rows.append({**fields, "target": target.name, "statistic": target.statistic, "kind": target.kind,
                         "basis": basis, "estimate": estimate, "low": low, "high": high,
                         "target_value": NAN if target.value is None else target.value,
                         "target_low": target.low, "target_high": target.high, "agrees": agrees, "inside": inside})
    return frame(rows, [*by, *COMPARISON_COLUMNS])


def agreement(estimate: float, low: float, high: float, target_low: float,
              target_high: float) -> tuple[bool | None, bool | None]:
    """(agrees, inside) of :func:`compare_to_targets` for one estimate and target interval."""
    if math.isnan(estimate):
        return None, None
    if math.isnan(low) or math.isnan(high):
        low = high = estimate
    return bool(low <= target_high and high >= target_low), bool(target_low <= estimate <= target_high)
