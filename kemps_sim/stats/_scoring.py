"""Which scoring rule each group of a sweep plays under, and so which score it has.

Under every rule the pairs table records letters, points and rounds won, but only one of them is the score: the
other two stay at zero (letters, points) or merely count along (rounds won, kept as a statistic under every rule).
A summary column or a comparison of letters under rounds-won scoring would report a zero that means nothing, so
the statistics ask each group's rule first.

The rule comes, in this order, from the ``scoring`` argument of a statistic; from a ``rules.scoring`` column
(written on every row of a Kemps sweep's tables by the sweep itself, from each cell's rules; in a folder written
before rows recorded it, there when it is a swept axis, and added by ``kemps-sim report`` from the sweep's spec
otherwise); or, failing both, from the pairs table itself: letters handed out mean letters scoring, points mean
points scoring, rounds won with neither mean rounds-won scoring, and a group in which nothing was scored at all
stays unknown (None). That inference is kept only for folders whose rows do not say their rule (written before
they did, and whose spec can no longer be planned): it misreads a group whose real score stayed 0 throughout.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence

import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.metrics import score_metrics
from kemps_sim.rules import Scoring
from kemps_sim.stats._groups import Key, group_keys, is_blank, split

#: The column that names a row's scoring rule.
SCORING_COLUMN = "rules.scoring"
#: The scoring rules, as the rules spell them.
SCORING_RULES: tuple[str, ...] = typing.get_args(Scoring)
#: A group whose rows play under more than one scoring rule.
MIXED = "mixed"
#: The pairs table's column holding the score of each rule (the metric that is the rule's score, in the registry).
SCORE_OF = {rule: metric.name for rule, metric in score_metrics().items()}


def check_scoring(scoring: str | None) -> str | None:
    """The ``scoring`` argument, refused unless None or one of the rules' scorings."""
    if scoring is not None and scoring not in SCORING_RULES:
        raise ConfigError(f"scoring: {scoring!r} is not a scoring rule; allowed: {', '.join(SCORING_RULES)}")
    return scoring


def group_scorings(tables: Mapping[str, pd.DataFrame], by: Sequence[str],
                   scoring: str | None = None) -> dict[Key, str | None]:
    """Each group's scoring rule (``None`` when unknown, :data:`MIXED` when its rows disagree), for every group of
    every table that has the ``by`` columns."""
    by = tuple(by)
    usable = [t for t in tables.values() if not is_blank(t) and all(c in t.columns for c in by)]
    keys = group_keys(by, *usable)
    if check_scoring(scoring) is not None:
        return dict.fromkeys(keys, scoring)
    found: dict[Key, str | None] = dict.fromkeys(keys)
    labelled = [t for t in usable if SCORING_COLUMN in t.columns]
    if labelled:
        for table in labelled:
            for key, rows in split(table, by).items():
                rules = sorted(set(rows[SCORING_COLUMN].dropna().astype(str)))
                if rules:
                    seen = found.get(key)
                    merged = sorted(set(rules) | ({seen} if seen and seen != MIXED else set()))
                    found[key] = MIXED if seen == MIXED or len(merged) > 1 else merged[0]
        return found
    pairs = tables.get("pairs")
    if pairs is None or is_blank(pairs) or not all(c in pairs.columns for c in by):
        return found
    for key, rows in split(pairs, by).items():
        found[key] = _inferred(rows)
    return found


def _inferred(rows: pd.DataFrame) -> str | None:
    """The rule a group's scores tell, for old folders whose rows do not record it (see the module text)."""
    for rule, column in SCORE_OF.items():
        if column in rows.columns and (pd.to_numeric(rows[column], errors="coerce").fillna(0) > 0).any():
            return rule
    return None
