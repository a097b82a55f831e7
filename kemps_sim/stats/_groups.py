"""Grouping of sweep tables shared by every statistic: checking columns, listing groups, splitting rows.

Groups are the distinct values of the ``by`` columns. They are listed over every table a statistic reads, so a
group with rows in one table and none in another still gets a row (with NaN where it has nothing to count), and
they come out sorted by the ``by`` columns so that the output is the same however the input rows were ordered.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.suggest import did_you_mean

#: A group's key: one value per ``by`` column, with missing values (NaN, None) turned into None.
Key = tuple[Any, ...]


def as_by(by: str | Sequence[str]) -> tuple[str, ...]:
    """The grouping columns as a tuple; a single name is accepted as well as a sequence of names."""
    if isinstance(by, str):
        return (by,)
    columns = tuple(by)
    for column in columns:
        if not isinstance(column, str):
            raise ConfigError(f"by: grouping columns must be names (str), got {column!r}")
    return columns


def check_confidence(confidence: float) -> float:
    """The confidence level, refused unless strictly between 0 and 1."""
    if not 0.0 < float(confidence) < 1.0:
        raise ConfigError(f"confidence: {confidence!r} is not allowed; it must be strictly between 0 and 1")
    return float(confidence)


def is_blank(table: pd.DataFrame | None) -> bool:
    """Whether a table holds nothing at all: absent, or the column-less frame ``records.tables([])`` makes."""
    return table is None or len(table.columns) == 0


def require(table: pd.DataFrame | None, name: str, by: Sequence[str], columns: Iterable[str]) -> pd.DataFrame:
    """The table, after checking it has the grouping columns ``by`` and the data ``columns``.

    A missing column raises ``ConfigError`` with one line naming it, the table and the columns it does have. A
    blank table stands for no rows: an empty frame with the columns asked for comes back.
    """
    needed = [(column, "grouping column") for column in by] + [(column, "column") for column in columns]
    if is_blank(table):
        return pd.DataFrame(columns=list(dict.fromkeys(column for column, _ in needed)))
    assert table is not None
    for column, role in needed:
        if column not in table.columns:
            available = ", ".join(map(str, table.columns))
            hint = did_you_mean(column, table.columns)
            raise ConfigError(f"{role} {column!r} is not in the {name} table{hint}; columns: {available}")
    return table


def truthy(values: pd.Series) -> pd.Series:
    """A column of flags as booleans, with missing values read as False."""
    if values.dtype == bool:
        return values
    present = values.notna()
    return present & values.where(present, False).astype(bool)


def _missing(value: Any) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def key_of(values: Any) -> Key:
    """A hashable group key from a groupby key or a row of ``by`` values (missing values become None)."""
    if not isinstance(values, tuple):
        values = (values,)
    return tuple(None if _missing(v) else (v.item() if hasattr(v, "item") else v) for v in values)


def group_keys(by: tuple[str, ...], *tables: pd.DataFrame) -> list[Key]:
    """Every group present in any of the tables, sorted by the ``by`` columns (missing values last)."""
    frames = [t[list(by)] for t in tables if len(t)]
    if not frames:
        return []
    if not by:
        return [()]
    keys = pd.concat(frames, ignore_index=True).drop_duplicates()
    keys = keys.sort_values(list(by), na_position="last", kind="mergesort")
    seen: dict[Key, None] = {}
    for row in keys.itertuples(index=False, name=None):
        seen.setdefault(key_of(row), None)
    return list(seen)


def split(table: pd.DataFrame, by: tuple[str, ...]) -> dict[Key, pd.DataFrame]:
    """The table's rows by group key; groups without rows are simply absent."""
    if not len(table):
        return {}
    if not by:
        return {(): table}
    return {key_of(key): rows for key, rows in table.groupby(list(by), sort=False, dropna=False)}


def frame(rows: list[dict[str, Any]], columns: Sequence[str]) -> pd.DataFrame:
    """A DataFrame with exactly these columns in this order, also when there are no rows."""
    return pd.DataFrame(rows, columns=list(columns))


def group_fields(by: tuple[str, ...], key: Key) -> dict[str, Any]:
    """The ``by`` columns of one output row."""
    return dict(zip(by, key, strict=True))


def each_pair(pairs: pd.DataFrame, by: tuple[str, ...]) -> Iterator[tuple[dict[str, Any], pd.DataFrame]]:
    """Each (group, pair) of a pairs table in order: its leading fields (``by``, ``pair``, ``agents``) and rows."""
    by_pair = (*by, "pair")
    groups = split(pairs, by_pair)
    for key in group_keys(by_pair, pairs):
        played = groups[key]
        yield {**group_fields(by_pair, key), "agents": played["agents"].iloc[0]}, played
