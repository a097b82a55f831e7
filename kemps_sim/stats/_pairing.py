"""Which matches of two groups are twins: the pairs of matches (or the replicates) a paired comparison is made on.

Under common random numbers replicate r of every cell plays the same seed. A match of group A is paired with the
match of group B that has its seed and the same values of the other swept parameters; where the groups cannot be
matched match by match, every match of one seed in each group makes one unit (the replicate).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.stats._clusters import unit_columns
from kemps_sim.stats._groups import Key, is_blank, key_of, split
from kemps_sim.stats._scoring import SCORING_COLUMN


class Pairing(NamedTuple):
    """How two groups are paired: the columns that name a unit, the units (sorted), whether a unit is one match of
    each group (``"match"``) or every match of a seed (``"replicate"``), and the columns matched besides the seed."""

    columns: tuple[str, ...]
    units: list[Key]
    kind: str
    matched_on: tuple[str, ...]


def paired_fields(pairing: Pairing | None) -> dict[str, Any]:
    if pairing is None:
        return {"paired": False, "n_pairs": 0}
    return {"paired": True, "n_pairs": len(pairing.units), "pairing": pairing.kind,
            "matched_on": pairing.matched_on}


def _cell_parameters(source: pd.DataFrame, exclude: Sequence[str]) -> tuple[str, ...]:
    """The cell's parameters, as a sweep's tables lay them out: the columns between ``cell`` and ``replicate``
    whose value is the same throughout each cell, other than ``exclude``."""
    columns = list(source.columns)
    if "cell" not in columns or "replicate" not in columns or not len(source):
        return ()
    lead = [c for c in columns[columns.index("cell") + 1:columns.index("replicate")] if c not in exclude]
    spread = source.groupby("cell", sort=False)[lead].nunique(dropna=False)
    return tuple(c for c in lead if (spread[c] <= 1).all())


def _same_values(rows: list[pd.DataFrame | None], column: str) -> bool:
    """Whether both groups' rows hold the same set of values in ``column``."""
    if any(r is None for r in rows):
        return False
    found = [{key_of(v) for v in r[column].drop_duplicates()} for r in rows if r is not None]
    return found[0] == found[1]


def _unit_sets(rows: pd.DataFrame | None, columns: tuple[str, ...]) -> tuple[set[Key], bool]:
    """The units the rows hold, and whether each unit is a single match (one cell)."""
    if rows is None or not len(rows):
        return set(), True
    units = rows[list(columns)].drop_duplicates()
    single = "cell" not in rows.columns or len(rows[[*columns, "cell"]].drop_duplicates()) == len(units)
    return {key_of(u) for u in units.itertuples(index=False, name=None)}, single


def pairing(tables: Mapping[str, pd.DataFrame], metric_table: str, by: tuple[str, ...],
             first: tuple[Any, Key], second: tuple[Any, Key], wanted: bool | None,
             within: Sequence[str] | None = None) -> Pairing | None:
    """How the two groups pair, or None when they do not hold the same ``(replicate, seed)`` set.

    The sets are read from the ``matches`` table when there is one (it lists every match, also one that left no
    row in the metric's table), else the ``pairs`` table, else the metric's own table; the metric's table must
    have the same unit columns, or its rows could not be matched to the units. The finest pairing is tried first:
    the seed together with every ``within`` column (default: the cell's parameters) whose values are
    the same set in both groups, so a match meets the match of the other group that differs from it only in
    ``by``; failing that, the replicate.
    """
    if wanted is False:
        return None
    own = tables[metric_table]
    source = next((tables[n] for n in ("matches", "pairs", metric_table) if n in tables
                   and not is_blank(tables[n]) and all(c in tables[n].columns for c in by)
                   and unit_columns(tables[n]) and set(unit_columns(tables[n])) <= set(unit_columns(own))), None)
    sets: list[set[Key]] = [set(), set()]
    if source is not None:
        base = unit_columns(source)
        groups = split(source, by)
        rows = [groups.get(key) for _, key in (first, second)]
        if within is None:
            within = _cell_parameters(source, (*by, SCORING_COLUMN))
        shared = tuple(c for c in within if c not in by and c not in base and c in source.columns
                       and c in own.columns and _same_values(rows, c))
        for columns in dict.fromkeys(((*base, *shared), base)):
            (set_a, single_a), (set_b, single_b) = (_unit_sets(r, columns) for r in rows)
            if set_a and set_a == set_b:
                kind = "match" if single_a and single_b else "replicate"
                return Pairing(columns, sorted(set_a, key=lambda u: tuple(str(v) for v in u)), kind,
                                columns[len(base):])
            sets = [set_a, set_b] if columns == base else sets
    if wanted:
        why = ("the tables have no seed column" if source is None
               else f"they do not hold the same replicates with the same seeds ({len(sets[0])} and {len(sets[1])} "
                    "matches; common random numbers give every cell replicate r's seed)")
        raise ConfigError(f"paired: groups {first[0]!r} and {second[0]!r} of {', '.join(by)} cannot be paired: {why}")
    return None
