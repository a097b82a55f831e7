"""Is it the same game? Every statistic of play compared between two versions of the model on the same seeds.

A speed-up that changes traces on purpose (the engine skipping looks that cannot change a decision, say) must
leave the model as it was in distribution. :func:`same_game` takes a sweep's tables with a column that tells the
two versions apart (an axis such as ``engine.all_looks``), pairs every match of one version with the match of the
other that played the same seed in the same cell (common random numbers), and sets the two side by side for every
statistic the project validates play with, per group of the other axes (each preset and lineup):

- how rounds end: the shares of rounds ending in a right Kemps, a right Stop Kemps, a wrong call, or otherwise;
- the mean round duration, and per round: swaps, stalls said and calls heard;
- races: the share of reaches for middle cards that lost the race;
- signal detection: percepts per gesture seen made (deliberate signals and simulated fidgets);
- call accuracy: Kemps (and Double Kemps) precision and Stop Kemps precision;
- fours of a kind: the share of each fate (called, stolen, never called, broken);
- win rates: the share of matches each pair won.

Each statistic is a ratio of per-match sums, and each difference gets the paired linearisation t-test over matches
and the interval that inverts it (:func:`kemps_sim.stats._clusters.paired_ratio_difference`): test and interval
come from the same unit, the match. With many statistics the level is Bonferroni's: each interval has confidence
``1 - (1 - confidence) / k`` for ``k`` differences, so that all of them cover at ``confidence`` together, and the
game is the same when every interval holds 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from kemps_sim.calibration.statistics import END_NAMES, end_of
from kemps_sim.errors import ConfigError
from kemps_sim.stats._clusters import paired_ratio_difference
from kemps_sim.stats._groups import check_confidence

#: The columns of :func:`same_game`'s table after the group's own columns.
COLUMNS = ("statistic", "a", "b", "difference", "ci_low", "ci_high", "p_value", "matches", "same")
#: Call kinds counted by each precision.
PRECISIONS = {"kemps_precision": ("kemps", "double_kemps"), "stop_precision": ("stop_kemps",)}

#: (sum, count) per match of one statistic, from one version's tables of one group.
PerMatch = Callable[[Mapping[str, pd.DataFrame], pd.Index], tuple[np.ndarray, np.ndarray]]


def _sums(table: pd.DataFrame, seeds: pd.Index, values: pd.Series, counts: pd.Series) -> tuple[np.ndarray,
                                                                                                  np.ndarray]:
    """Per-match sums of ``values`` and ``counts`` (rows of ``table``), aligned on ``seeds`` (0 where none)."""
    frame = pd.DataFrame({"seed": table["seed"].to_numpy(), "y": values.to_numpy(float),
                          "t": counts.to_numpy(float)})
    summed = frame.groupby("seed")[["y", "t"]].sum().reindex(seeds, fill_value=0.0)
    return summed["y"].to_numpy(), summed["t"].to_numpy()


def _per_round(column: str) -> PerMatch:
    return lambda tables, seeds: _sums(tables["rounds"], seeds, tables["rounds"][column],
                                       pd.Series(1.0, index=tables["rounds"].index))


def _end_share(end: str) -> PerMatch:
    def per_match(tables: Mapping[str, pd.DataFrame], seeds: pd.Index) -> tuple[np.ndarray, np.ndarray]:
        rounds = tables["rounds"]
        hit = pd.Series(end_of(rounds["outcome"]) == end, index=rounds.index)
        return _sums(rounds, seeds, hit, pd.Series(1.0, index=rounds.index))
    return per_match


def _races_lost(tables: Mapping[str, pd.DataFrame], seeds: pd.Index) -> tuple[np.ndarray, np.ndarray]:
    rounds = tables["rounds"]
    return _sums(rounds, seeds, rounds["races_lost"], rounds["races_lost"] + rounds["swaps"])


def _percepts_per_gesture(tables: Mapping[str, pd.DataFrame], seeds: pd.Index) -> tuple[np.ndarray, np.ndarray]:
    rounds = tables["rounds"]
    return _sums(rounds, seeds, rounds["percepts"], rounds["signals"] + rounds["fidgets"])


def _precision(kinds: tuple[str, ...]) -> PerMatch:
    def per_match(tables: Mapping[str, pd.DataFrame], seeds: pd.Index) -> tuple[np.ndarray, np.ndarray]:
        calls = tables["calls"]
        made = calls[calls["call"].isin(kinds)]
        return _sums(made, seeds, made["right"].astype(float), pd.Series(1.0, index=made.index))
    return per_match


def _fate(fate: str) -> PerMatch:
    def per_match(tables: Mapping[str, pd.DataFrame], seeds: pd.Index) -> tuple[np.ndarray, np.ndarray]:
        fours = tables["fours"]
        return _sums(fours, seeds, fours["fate"] == fate, pd.Series(1.0, index=fours.index))
    return per_match


def _won(pair: int) -> PerMatch:
    def per_match(tables: Mapping[str, pd.DataFrame], seeds: pd.Index) -> tuple[np.ndarray, np.ndarray]:
        pairs = tables["pairs"]
        own = pairs[pairs["pair"] == pair]
        return _sums(own, seeds, own["won"].astype(float), pd.Series(1.0, index=own.index))
    return per_match


def statistics_of(tables: Mapping[str, pd.DataFrame]) -> dict[str, PerMatch]:
    """Every statistic :func:`same_game` compares, by name, for tables with these fates and pairs."""
    found: dict[str, PerMatch] = {f"{end}_share": _end_share(end) for end in END_NAMES}
    found["round_seconds"] = _per_round("duration")
    for column in ("swaps", "stalls", "calls"):
        found[f"{column}_per_round"] = _per_round(column)
    found["races_lost_share"] = _races_lost
    found["percepts_per_gesture"] = _percepts_per_gesture
    for name, kinds in PRECISIONS.items():
        found[name] = _precision(kinds)
    for fate in sorted(tables["fours"]["fate"].dropna().unique()):
        found[f"fours_{fate}_share"] = _fate(str(fate))
    for pair in sorted(int(p) for p in tables["pairs"]["pair"].unique()):
        found[f"pair{pair}_win_rate"] = _won(pair)
    return found


def same_game(tables: Mapping[str, pd.DataFrame] | Any, by: str, a: Any, b: Any,
              within: Sequence[str] = (), confidence: float = 0.95) -> pd.DataFrame:
    """Every statistic of play under ``by == a`` against ``by == b``, paired by seed, per group of ``within``.

    ``tables`` is a sweep's tables (:func:`kemps_sim.sweep.load_results`, or its ``tables``) with ``rounds``,
    ``calls``, ``fours`` and ``pairs``. Returns one row per group and statistic: the two estimates, their
    difference with its Bonferroni-adjusted interval (see the module doc) and p-value, the matches paired, and
    ``same`` (the interval holds 0). A statistic with nothing to count in a group (no Stop Kemps called, say) is
    left out of that group.
    """
    tables = getattr(tables, "tables", tables)
    confidence = check_confidence(confidence)
    within = tuple(within)
    for name in ("rounds", "calls", "fours", "pairs"):
        if name not in tables:
            raise ConfigError(f"tables: no {name!r} table; same_game needs rounds, calls, fours and pairs")
        missing = [c for c in (by, *within) if c not in tables[name].columns]
        if missing:
            raise ConfigError(f"{name} table: no column {missing[0]!r}; columns are "
                              + ", ".join(map(str, tables[name].columns)))
    statistics = statistics_of(tables)
    found: list[dict[str, Any]] = []
    groups = (tables["pairs"][list(within)].drop_duplicates().itertuples(index=False, name=None)
              if within else [()])
    for key in groups:
        versions = []
        for value in (a, b):
            chosen = {name: _select(table, (*within, by), (*key, value)) for name, table in tables.items()
                      if name in ("rounds", "calls", "fours", "pairs")}
            versions.append(chosen)
        seeds = pd.Index(sorted(set(versions[0]["pairs"]["seed"]) & set(versions[1]["pairs"]["seed"])))
        if len(seeds) < 2:
            raise ConfigError(f"{by} = {a!r} and {b!r}{_where(within, key)}: fewer than 2 seeds played by both; "
                              "the comparison pairs matches by seed")
        for name, per_match in statistics.items():
            sa, sb = per_match(versions[0], seeds), per_match(versions[1], seeds)
            if sa[1].sum() == 0 or sb[1].sum() == 0:
                continue
            found.append({**dict(zip(within, key, strict=True)), "statistic": name, "_a": sa, "_b": sb})
    level = 1.0 - (1.0 - confidence) / max(len(found), 1)
    rows = []
    for row in found:
        d = paired_ratio_difference(row.pop("_a"), row.pop("_b"), level)
        rows.append({**row, "a": d.value_a, "b": d.value_b, "difference": d.difference, "ci_low": d.ci_low,
                     "ci_high": d.ci_high, "p_value": d.p_value, "matches": len(seeds),
                     "same": bool(d.ci_low <= 0.0 <= d.ci_high) if np.isfinite(d.ci_low) else True})
    return pd.DataFrame(rows, columns=[*within, *COLUMNS])


def _select(table: pd.DataFrame, columns: tuple[str, ...], values: tuple[Any, ...]) -> pd.DataFrame:
    mask = np.ones(len(table), dtype=bool)
    for column, value in zip(columns, values, strict=True):
        mask &= (table[column] == value).to_numpy()
    return table[mask]


def _where(within: tuple[str, ...], key: tuple[Any, ...]) -> str:
    return "".join(f", {c} = {v!r}" for c, v in zip(within, key, strict=True))
