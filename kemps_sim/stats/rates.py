"""Shares with Wilson intervals: how often each pair wins, how rounds end, and how accurate calls are.

Every function returns a long table: the ``by`` columns, the function's key columns, a count of successes, then
``n`` (trials), ``value`` (the share), ``ci_low`` and ``ci_high``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from kemps_sim.results import FATES as FATE_NAMES
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
from kemps_sim.stats._intervals import wilson

#: The calls that claim the caller's own pair holds four of a kind.
KEMPS_CALLS = ("kemps", "double_kemps")
#: The fates of a four of a kind, in the order ``call_accuracy`` reports them.
FATES = FATE_NAMES
#: The metrics of ``call_accuracy``, in their output order.
ACCURACY_METRICS = ("kemps_precision", "stop_precision", *(f"conversion_{fate}" for fate in FATES))


def win_rates(pairs: pd.DataFrame, by: Sequence[str] = ("cell",), confidence: float = 0.95) -> pd.DataFrame:
    """Each pair's share of matches won per group, with a Wilson interval.

    ``n`` is the number of matches the pair played in the group and ``wins`` the number it won. A match that ends
    with co-winners (pairs tied for first) counts as a win for each of them, so the win rates of a group can add
    up to more than one; use the pairs table's ``win_share`` for a split credit instead. ``agents`` is the pair's
    first lineup entry seen in the group.

    Columns: ``by``..., ``pair``, ``agents``, ``wins``, ``n``, ``value``, ``ci_low``, ``ci_high``.
    """
    by, confidence = as_by(by), check_confidence(confidence)
    pairs = require(pairs, "pairs", by, ("pair", "agents", "won"))
    rows = []
    for fields, played in each_pair(pairs, by):
        wins = int(truthy(played["won"]).sum())
        rows.append({**fields, "wins": wins, **wilson(wins, len(played), confidence)._asdict()})
    return frame(rows, [*by, "pair", "agents", "wins", "n", "value", "ci_low", "ci_high"])


def outcome_shares(rounds: pd.DataFrame, by: Sequence[str] = ("cell",), confidence: float = 0.95) -> pd.DataFrame:
    """The share of a group's rounds that ended with each outcome, with a Wilson interval.

    Every outcome seen anywhere in the table gets a row in every group, so an outcome a group never had shows as a
    share of zero (with its interval) rather than going missing. Outcomes are in alphabetical order.

    Columns: ``by``..., ``outcome``, ``count``, ``n``, ``value``, ``ci_low``, ``ci_high``.
    """
    by, confidence = as_by(by), check_confidence(confidence)
    rounds = require(rounds, "rounds", by, ("outcome",))
    outcomes = sorted(rounds["outcome"].dropna().astype(str).unique())
    groups = split(rounds, by)
    rows = []
    for key in group_keys(by, rounds):
        counts = groups[key]["outcome"].astype(str).value_counts()
        total = len(groups[key])
        for outcome in outcomes:
            count = int(counts.get(outcome, 0))
            rows.append({**group_fields(by, key), "outcome": outcome, "count": count,
                         **wilson(count, total, confidence)._asdict()})
    return frame(rows, [*by, "outcome", "count", "n", "value", "ci_low", "ci_high"])


def call_accuracy(calls: pd.DataFrame, fours: pd.DataFrame, by: Sequence[str] = ("cell",),
                  confidence: float = 0.95) -> pd.DataFrame:
    """How often calls are right, and what becomes of the fours of a kind that players collect.

    ``kemps_precision`` is the share of Kemps and Double Kemps calls that were right and ``stop_precision`` the
    share of Stop Kemps calls that were right. ``conversion_<fate>`` is the share of fours of a kind whose fate was
    ``kemps`` (called by the partner), ``stolen`` (caught by an opponent), ``uncalled`` (the round ended otherwise)
    or ``broken`` (swapped apart before any call); the four conversion shares of a group add up to one. A group with
    fours but no calls (or the reverse) still gets all six rows, with NaN where it had nothing to count.

    Columns: ``by``..., ``metric``, ``successes``, ``n``, ``value``, ``ci_low``, ``ci_high``.
    """
    by, confidence = as_by(by), check_confidence(confidence)
    calls = require(calls, "calls", by, ("call", "right"))
    fours = require(fours, "fours", by, ("fate",))
    call_groups, four_groups = split(calls, by), split(fours, by)
    empty_calls, empty_fours = calls.iloc[:0], fours.iloc[:0]
    rows = []
    for key in group_keys(by, calls, fours):
        made = call_groups.get(key, empty_calls)
        right = truthy(made["right"])
        kemps = made["call"].isin(KEMPS_CALLS)
        stop = made["call"] == "stop_kemps"
        counted = {
            "kemps_precision": (int((right & kemps).sum()), int(kemps.sum())),
            "stop_precision": (int((right & stop).sum()), int(stop.sum())),
        }
        fates = four_groups.get(key, empty_fours)["fate"]
        for fate in FATES:
            counted[f"conversion_{fate}"] = (int((fates == fate).sum()), len(fates))
        for metric in ACCURACY_METRICS:
            successes, trials = counted[metric]
            rows.append({**group_fields(by, key), "metric": metric, "successes": successes,
                         **wilson(successes, trials, confidence)._asdict()})
    return frame(rows, [*by, "metric", "successes", "n", "value", "ci_low", "ci_high"])
