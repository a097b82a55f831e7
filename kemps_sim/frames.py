"""Tables stacked from many files with one dtype per column, below both the statistics (which add chunks up) and
the sweeps (which store and read them), so that neither needs the other for it."""

from __future__ import annotations

import pandas as pd


def settle_dtypes(table: pd.DataFrame) -> pd.DataFrame:
    """One dtype per column whatever the chunking: a file in which a column happened to be empty stores it as
    null, which would otherwise turn the stacked column into ``object``. Text columns become ``str`` and number
    columns ``float64`` (missing values as NaN); mixed columns stay ``object`` with None for missing values."""
    for column in table.columns:
        values = table[column]
        if values.dtype != object:
            continue
        present = values.dropna()
        if len(present) and all(isinstance(v, str) for v in present):
            table[column] = values.astype("str")
        elif len(present) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in present):
            table[column] = values.astype("float64")
        else:
            table[column] = values.astype(object).where(values.notna(), None)
    return table
