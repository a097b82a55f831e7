"""What each pair ends a match with: letters, points and rounds won, averaged over matches with a t interval."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from kemps_sim.stats._groups import as_by, check_confidence, each_pair, frame, require
from kemps_sim.stats._intervals import mean_t

#: The per-match standings of ``scores``, in their output order.
SCORE_MEASURES = ("letters", "points", "rounds_won")


def scores(pairs: pd.DataFrame, by: Sequence[str] = ("cell",), confidence: float = 0.95) -> pd.DataFrame:
    """Each pair's mean letters, points and rounds won per match in each group, with a Student t interval.

    Only one of the three is the score of a given rule set (the others stay at zero or count along), so a column
    that is constant in a group gets a zero-width interval at its value rather than NaN. ``agents`` is the pair's
    first lineup entry seen in the group, as in ``win_rates``.

    Columns: ``by``..., ``pair``, ``agents``, ``measure``, ``n``, ``value``, ``ci_low``, ``ci_high``, ``ci_level``.
    """
    by, confidence = as_by(by), check_confidence(confidence)
    pairs = require(pairs, "pairs", by, ("pair", "agents", *SCORE_MEASURES))
    rows = []
    for fields, played in each_pair(pairs, by):
        for measure in SCORE_MEASURES:
            estimate = mean_t(played[measure].to_numpy(dtype=float), confidence)
            rows.append({**fields, "measure": measure, **estimate._asdict(), "ci_level": confidence})
    return frame(rows, [*by, "pair", "agents", "measure", "n", "value", "ci_low", "ci_high", "ci_level"])
