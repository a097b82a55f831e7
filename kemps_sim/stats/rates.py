"""Shares with Wilson intervals: how often each pair wins, how rounds end, and how accurate calls are.

Every function returns a long table: the ``by`` columns, the function's key columns, a count of successes, then
``n`` (trials), ``value`` (the share), ``ci_low``, ``ci_high`` and ``ci_level`` (the confidence level).

A win rate counts matches, one row per match for each pair, so its trials are independent and its interval is
scipy's Wilson interval. Rounds, calls and fours of a kind are not: several come from one match, where the same
agents play the same deals and learn as they go, so their shares get intervals clustered by match (see
:mod:`kemps_sim.stats._clusters`): a Wilson interval on the effective number of trials, which is the number of
trials divided by the design effect (how many times the binomial variance the variance between matches is). Those
outputs also have ``matches`` (how many matches the trials came from) and ``design_effect``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from kemps_sim.metrics import estimator
from kemps_sim.results import ACCURACY_METRICS
from kemps_sim.results import FATES as FATE_NAMES
from kemps_sim.stats._clusters import CLUSTERED_COLUMNS, MATCH, clustered_share, with_matches
from kemps_sim.stats._groups import (
    as_by,
    check_confidence,
    each_pair,
    frame,
    group_fields,
    group_keys,
    require,
    split,
    truthy,
)

#: The calls that claim the caller's own pair holds four of a kind.
KEMPS_CALLS = ("kemps", "double_kemps")
#: The fates of a four of a kind, in the order ``call_accuracy`` reports them.
FATES = FATE_NAMES


#: The estimators the registry names for the win rate and for each share of :func:`call_accuracy`.
_WIN_RATE = estimator("win_rate")
_ACCURACY = {metric: estimator(metric) for metric in ACCURACY_METRICS}


def win_rates(pairs: pd.DataFrame, by: Sequence[str] = ("cell",), confidence: float = 0.95) -> pd.DataFrame:
    """Each pair's share of matches won per group, with a Wilson interval.

    ``n`` is the number of matches the pair played in the group and ``wins`` the number it won. A match that ends
    with co-winners (pairs tied for first) counts as a win for each of them, so the win rates of a group can add
    up to more than one; use the pairs table's ``win_share`` for a split credit instead. ``agents`` is the pair's
    first lineup entry seen in the group.

    Columns: ``by``..., ``pair``, ``agents``, ``wins``, ``n``, ``value``, ``ci_low``, ``ci_high``, ``ci_level``.
    """
    by, confidence = as_by(by), check_confidence(confidence)
    pairs = require(pairs, "pairs", by, ("pair", "agents", "won"))
    rows = []
    for fields, played in each_pair(pairs, by):
        wins = int(truthy(played["won"]).sum())
        rows.append({**fields, "wins": wins, **_WIN_RATE(wins, len(played), confidence)._asdict(),
                     "ci_level": confidence})
    return frame(rows, [*by, "pair", "agents", "wins", "n", "value", "ci_low", "ci_high", "ci_level"])


def outcome_shares(rounds: pd.DataFrame, by: Sequence[str] = ("cell",), confidence: float = 0.95) -> pd.DataFrame:
    """The share of a group's rounds that ended with each outcome, with a Wilson interval clustered by match.

    Every outcome seen anywhere in the table gets a row in every group, so an outcome a group never had shows as a
    share of zero (with its interval) rather than going missing. Outcomes are in alphabetical order.

    Columns: ``by``..., ``outcome``, ``count``, ``n``, ``value``, ``ci_low``, ``ci_high``, ``ci_level``,
    ``matches``, ``design_effect``.
    """
    by, confidence = as_by(by), check_confidence(confidence)
    rounds = with_matches(require(rounds, "rounds", by, ("outcome",)))
    outcomes = sorted(rounds["outcome"].dropna().astype(str).unique())
    groups = split(rounds, by)
    rows = []
    for key in group_keys(by, rounds):
        played = groups[key]
        said = played["outcome"].astype(str).to_numpy()
        for outcome in outcomes:
            hits = said == outcome
            estimate = clustered_share(hits, played[MATCH].to_numpy(), confidence)
            rows.append({**group_fields(by, key), "outcome": outcome, "count": int(hits.sum()),
                         **estimate.fields(confidence)})
    return frame(rows, [*by, "outcome", "count", *CLUSTERED_COLUMNS])


def call_accuracy(calls: pd.DataFrame, fours: pd.DataFrame, by: Sequence[str] = ("cell",),
                  confidence: float = 0.95) -> pd.DataFrame:
    """How often calls are right, and what becomes of the fours of a kind that players collect.

    ``kemps_precision`` is the share of Kemps and Double Kemps calls that were right and ``stop_precision`` the
    share of Stop Kemps calls that were right. ``conversion_<fate>`` is the share of fours of a kind whose fate was
    ``kemps`` (called by the partner), ``stolen`` (caught by an opponent), ``uncalled`` (the round ended otherwise)
    or ``broken`` (swapped apart before any call); the four conversion shares of a group add up to one. A group with
    fours but no calls (or the reverse) still gets all six rows, with NaN where it had nothing to count.

    The calls and fours of one match are not independent (the watcher learns across rounds), so each share's
    interval is clustered by match: ``matches`` counts the matches behind ``n`` and ``design_effect`` says how
    much wider than the naive (every call independent) variance the between-match variance is; the Wilson
    interval is taken on ``n / design_effect`` trials (see :mod:`kemps_sim.stats._clusters`). Tables without a
    ``seed`` column give the naive interval, since they cannot say which rows came from one match.

    Columns: ``by``..., ``metric``, ``successes``, ``n``, ``value``, ``ci_low``, ``ci_high``, ``ci_level``,
    ``matches``, ``design_effect``.
    """
    by, confidence = as_by(by), check_confidence(confidence)
    calls = with_matches(require(calls, "calls", by, ("call", "right")))
    fours = with_matches(require(fours, "fours", by, ("fate",)))
    call_groups, four_groups = split(calls, by), split(fours, by)
    empty_calls, empty_fours = calls.iloc[:0], fours.iloc[:0]
    rows = []
    for key in group_keys(by, calls, fours):
        made = call_groups.get(key, empty_calls)
        right = truthy(made["right"]).to_numpy()
        kinds = {"kemps_precision": made["call"].isin(KEMPS_CALLS).to_numpy(),
                 "stop_precision": (made["call"] == "stop_kemps").to_numpy()}
        samples = {metric: (right[chosen], made[MATCH].to_numpy()[chosen]) for metric, chosen in kinds.items()}
        held = four_groups.get(key, empty_fours)
        fates = held["fate"].astype(str).to_numpy()
        for fate in FATES:
            samples[f"conversion_{fate}"] = (fates == fate, held[MATCH].to_numpy())
        for metric in ACCURACY_METRICS:
            successes, matches = samples[metric]
            estimate = _ACCURACY[metric](successes, matches, confidence)
            rows.append({**group_fields(by, key), "metric": metric, "successes": int(successes.sum()),
                         **estimate.fields(confidence)})
    return frame(rows, [*by, "metric", "successes", *CLUSTERED_COLUMNS])

