"""The empirical payoff matrix of a round-robin tournament, with standard errors from its paired units.

A tournament (:mod:`kemps_sim.sweep.tournament`) plays every two strategies in both seatings, ``"A,B"`` and
``"B,A"``. Its design is a grid, under which common random numbers are on: replicate r of every cell plays the same
seed (:func:`kemps_sim.sweep.design.match_seed`), so replicate r of ``"A,B"`` and replicate r of ``"B,A"`` deal the
same cards and draw the same human timings with the seats swapped. The two matches are then not independent (a
deal that favours one seat helps A in one and B in the other), and the **unit** of the analysis is the pair of
them: :func:`payoff_table` averages the two matches of a deal into one unit payoff, and both the standard error and
the bootstrap (:mod:`kemps_sim.metagame.bootstrap`) work on these units, so the test and the interval come from
the same unit. Where no seed is shared between the seatings of two strategies (a sweep run with
``common_random_numbers = false``, or an outcomes frame without a ``seed`` column) the matches are independent,
each match is a unit of its own, and the two seatings are kept as separate strata. When several matches of one
seating share a seed (tables of several tournaments stacked), the k-th of one seating is paired with the k-th of
the other, in table order.

Either way both seatings weigh the same in ``M[i, j]`` (within each unit, or as the mean of the two seatings'
means), so the first-seat advantage cancels out of the matrix. ``M`` holds the payoff of the row strategy against
the column strategy: antisymmetric, 0 on the diagonal, and NaN for two strategies that never met in both seatings.
The solvers need every entry; :func:`require_complete` says which are missing.

Matches nobody won (a round cap, an agent error, a Krepet timeout: win shares summing to 0) carry no comparison and
are left out, as :func:`kemps_sim.ratings.match_outcomes` leaves them out; a Krepet draw (both players stuck with
equal cards, half a win each) is a result and stays in, with payoff 0 (``match_outcomes`` reads ``won``, false for
both players of a draw, and so drops draws as well; an outcomes frame has lost them). A match whose seat-swapped
partner on the same deal was left out (or never played) is set aside too, so that every unit keeps both seatings;
both counts are reported (``dropped``, ``unpaired``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.ratings import number_sides


@dataclass(frozen=True)
class Measure:
    """A payoff one side earns against the other in one match: ``column`` of the pairs table, its sign (+1 when
    more is better, -1 for penalties) and, for a Kemps score, the scoring rule under which the column is kept."""

    name: str
    column: str
    sign: int
    description: str
    scoring: str | None = None  # the Kemps scoring rule the column is the score of; None: any


#: The payoffs :func:`payoff_table` can build, by name. Every one is the row side's value minus the column side's
#: (the other way round for penalties), so the matrix is antisymmetric.
MEASURES: dict[str, Measure] = {m.name: m for m in (
    Measure("win", "win_share", 1, "win share minus 1/2: +1/2 a win, 0 a shared win or a draw, -1/2 a loss"),
    Measure("rounds_won", "rounds_won", 1, "rounds won minus the opponent's, per match (Kemps, any scoring)"),
    Measure("points", "points", 1, "points minus the opponent's, per match (Kemps under points scoring)",
            scoring="points"),
    Measure("letters", "letters", -1, "the opponent's letters minus one's own, per match (Kemps under letters "
            "scoring; letters are penalties)", scoring="letters"),
    Measure("cards_left", "cards_left", -1, "the opponent's cards left minus one's own, per game (Krepet)"),
)}

#: What ``stratum`` says in the units table: which seat(s) ``strategy`` sat in within the unit.
BOTH, FIRST, SECOND = "both", "first", "second"
UNIT_COLUMNS = ["strategy", "opponent", "i", "j", "stratum", "seed", "as_first", "as_second", "payoff"]


@dataclass(frozen=True, eq=False)
class PayoffTable:
    """A tournament's payoff matrix with its standard errors, the units they come from and what was left out.

    ``strategies`` are sorted by name (the order of :mod:`kemps_sim.ratings`' tables). ``matrix[i, j]`` is the
    mean payoff of strategy i against j, antisymmetric with a 0 diagonal, NaN where the two never met in both
    seatings; ``standard_errors[i, j]`` its standard error from the units (symmetric; NaN when a stratum has
    fewer than 2 units); ``counts[i, j]`` the units behind it. ``units`` is the long table, one row per unit of
    every pairing (``i < j``): ``strategy`` and ``opponent`` (names of i and j), ``stratum`` (``"both"``: the two
    seat-swapped matches of one deal; ``"first"``/``"second"``: a lone match in which ``strategy`` sat first or
    second), ``seed`` (missing when unknown), ``as_first`` and ``as_second`` (strategy's payoff in the match where it
    sat first or second, NaN if the unit has none) and ``payoff`` (their mean). ``dropped`` counts matches nobody
    won, ``unpaired`` matches set aside because their other seating was missing, ``self_play`` matches of a
    strategy against itself (which say nothing about who is better).
    """

    measure: str
    strategies: tuple[str, ...]
    matrix: np.ndarray
    standard_errors: np.ndarray
    counts: np.ndarray
    units: pd.DataFrame
    dropped: int = 0
    unpaired: int = 0
    self_play: int = 0

    def pairings(self) -> pd.DataFrame:
        """One row per pairing (``i < j``): ``strategy``, ``opponent``, ``unit`` ("deal", "match", or empty for a
        pairing without units), ``units``, ``value`` (``M[i, j]``) and ``se``, for reports and for finding the
        pairings that never met."""
        k = len(self.strategies)
        kinds = self.units.groupby(["i", "j"])["stratum"].first()
        rows = [{"strategy": self.strategies[i], "opponent": self.strategies[j],
                 "unit": ("deal" if kinds.get((i, j)) == BOTH else "match") if (i, j) in kinds.index else "",
                 "units": int(self.counts[i, j]), "value": float(self.matrix[i, j]),
                 "se": float(self.standard_errors[i, j])}
                for i in range(k) for j in range(i + 1, k)]
        return pd.DataFrame(rows, columns=["strategy", "opponent", "unit", "units", "value", "se"])

    def frame(self) -> pd.DataFrame:
        """The matrix as a DataFrame labelled by strategy (rows: the strategy, columns: its opponent)."""
        out = pd.DataFrame(self.matrix, index=list(self.strategies), columns=list(self.strategies))
        out.index.name, out.columns.name = "strategy", "opponent"
        return out


@dataclass(frozen=True, eq=False)
class UnitGroups:
    """The strata of a table's units: the groups the matrix averages and the bootstrap resamples within.

    Group g holds the units of one pairing (``i[g] < j[g]``) in one stratum; ``weight[g]`` is its share of
    ``M[i, j]`` (1 for a pairing of deals, 1/2 for each seating of a pairing of lone matches); ``members[g]`` the
    positions of its units in ``table.units``.
    """

    k: int
    i: np.ndarray
    j: np.ndarray
    weight: np.ndarray
    members: tuple[np.ndarray, ...]

    def matrices(self, means: np.ndarray) -> np.ndarray:
        """The payoff matrices of group means shaped ``(..., groups)``: ``(..., k, k)``, NaN where never met."""
        means = np.asarray(means, dtype=float)
        combine = np.zeros((len(self.i), self.k * self.k))
        rows = np.arange(len(self.i))
        combine[rows, self.i * self.k + self.j] = self.weight
        combine[rows, self.j * self.k + self.i] = -self.weight
        out = (means @ combine).reshape(*means.shape[:-1], self.k, self.k)
        met = np.eye(self.k, dtype=bool)
        met[self.i, self.j] = met[self.j, self.i] = True
        out[..., ~met] = np.nan
        return out


def unit_groups(table: PayoffTable) -> UnitGroups:
    """The strata of ``table``'s units (see :class:`UnitGroups`), in the order of their first unit."""
    return _groups(table.units, len(table.strategies))


def _groups(units: pd.DataFrame, k: int) -> UnitGroups:
    """The strata of a units table: one group per (pairing, stratum), weighted 1 / (strata of the pairing)."""
    keys = zip(units["i"].to_numpy(int), units["j"].to_numpy(int), units["stratum"].to_numpy(), strict=True)
    members: dict[tuple[int, int, str], list[int]] = {}
    for position, key in enumerate(keys):
        members.setdefault(key, []).append(position)
    strata: dict[tuple[int, int], int] = {}
    for i, j, _ in members:
        strata[(i, j)] = strata.get((i, j), 0) + 1
    groups = list(members)
    return UnitGroups(k=k, i=np.array([g[0] for g in groups], dtype=int),
                      j=np.array([g[1] for g in groups], dtype=int),
                      weight=np.array([1.0 / strata[(g[0], g[1])] for g in groups]),
                      members=tuple(np.array(members[g], dtype=int) for g in groups))


def payoff_table(pairs_or_outcomes: pd.DataFrame, *, measure: str = "win") -> PayoffTable:
    """The payoff matrix of a tournament from its stacked pairs table (Kemps or Krepet), with paired standard errors.

    ``measure`` names the payoff (:data:`MEASURES`): ``"win"`` (win share minus 1/2, so ``M`` lies in
    [-1/2, 1/2]), ``"rounds_won"``, ``"points"`` or ``"letters"`` (Kemps) or ``"cards_left"`` (Krepet), each the
    difference between the two sides per match. An outcomes frame made by
    :func:`kemps_sim.ratings.match_outcomes` works too, for ``"win"`` only; without a ``seed`` column its matches
    are taken as independent units. See the module text for the unit, the weighting of the seatings and what is
    left out.
    """
    if not isinstance(pairs_or_outcomes, pd.DataFrame):
        raise ConfigError(f"pairs_or_outcomes = {type(pairs_or_outcomes).__name__}: must be a pandas DataFrame, "
                          "the stacked pairs table of a tournament or its match_outcomes")
    if measure not in MEASURES:
        raise ConfigError(f"measure = {measure!r}: must be one of {', '.join(MEASURES)}")
    matches, dropped = _matches(pairs_or_outcomes, MEASURES[measure])
    names = sorted({str(n) for n in pd.concat([matches["first"], matches["second"]]).unique()})
    index = {name: position for position, name in enumerate(names)}
    decided = matches[matches["decided"]]
    self_play = int((decided["first"] == decided["second"]).sum())
    cross = decided[decided["first"] != decided["second"]]
    units, unpaired = _units(cross, index)
    units.insert(0, "opponent", [names[j] for j in units["j"]])
    units.insert(0, "strategy", [names[i] for i in units["i"]])
    units = units[UNIT_COLUMNS].reset_index(drop=True)
    k = len(names)
    groups = _groups(units, k)
    payoffs = units["payoff"].to_numpy(dtype=float)
    sizes = np.array([len(m) for m in groups.members], dtype=int)
    means = np.array([payoffs[m].mean() for m in groups.members])
    variances = np.array([payoffs[m].var(ddof=1) if len(m) > 1 else np.nan for m in groups.members])
    matrix = groups.matrices(means)
    variance, counts = np.zeros((k, k)), np.zeros((k, k), dtype=int)
    np.add.at(variance, (groups.i, groups.j), groups.weight ** 2 * variances / np.maximum(sizes, 1))
    np.add.at(counts, (groups.i, groups.j), sizes)
    errors = np.sqrt(variance + variance.T)
    errors[np.isnan(matrix)] = np.nan
    counts = counts + counts.T
    for array in (matrix, errors, counts):
        array.setflags(write=False)
    return PayoffTable(measure, tuple(names), matrix, errors, counts, units, dropped=dropped, unpaired=unpaired,
                       self_play=self_play)


def require_complete(table: PayoffTable) -> np.ndarray:
    """``table.matrix`` if every two strategies met in both seatings, else a ConfigError naming the pairings that
    did not: the solvers (Nash averaging, alpha-rank) need every entry of the matrix."""
    k = len(table.strategies)
    missing = [(table.strategies[i], table.strategies[j]) for i in range(k) for j in range(i + 1, k)
               if np.isnan(table.matrix[i, j])]
    if k < 2:
        raise ConfigError(f"strategies = {list(table.strategies)!r}: a payoff matrix needs at least 2 strategies")
    if missing:
        shown = ", ".join(f"{a} vs {b}" for a, b in missing[:5]) + (f" and {len(missing) - 5} more"
                                                                   if len(missing) > 5 else "")
        raise ConfigError(f"payoff matrix: {len(missing)} of {k * (k - 1) // 2} pairings have no decided matches "
                          f"in both seatings ({shown}); play them (kemps-sim tournament --extend) or leave those "
                          "strategies out")
    return table.matrix


def _matches(data: pd.DataFrame, measure: Measure) -> tuple[pd.DataFrame, int]:
    """One row per match: ``first``, ``second``, ``seed`` (missing if unknown), ``decided`` and ``payoff`` (of the
    first side), with the number of matches nobody won (an outcomes frame has left them out already)."""
    if {"first", "second", "score"} <= set(data.columns) and not {"pair", "agents"} <= set(data.columns):
        if measure.name != "win":
            raise ConfigError(f"measure = {measure.name!r}: an outcomes frame holds only who won; give the stacked "
                              "pairs table for a score measure")
        seed = data["seed"] if "seed" in data.columns else pd.Series(pd.NA, index=data.index)
        out = pd.DataFrame({"first": data["first"].astype(str), "second": data["second"].astype(str),
                            "seed": seed.astype("Int64"), "decided": True,
                            "payoff": data["score"].astype(float) - 0.5})
        return out.reset_index(drop=True), int(data.attrs.get("dropped", 0))
    key = ["cell", "replicate"] if {"cell", "replicate"} <= set(data.columns) else ["seed"]
    missing = [c for c in (*key, "pair", "agents", "win_share") if c not in data.columns]
    if missing:
        raise ConfigError(f"pairs table lacks columns {missing}: give the stacked records pairs table of a "
                          "tournament (or its match_outcomes)")
    if measure.column not in data.columns:
        supported = [m.name for m in MEASURES.values() if m.column in data.columns]
        raise ConfigError(f"measure = {measure.name!r}: the pairs table has no {measure.column!r} column; this "
                          f"table supports {', '.join(supported)}")
    if measure.scoring and "rules.scoring" in data.columns:
        other = sorted(set(data["rules.scoring"].astype(str)) - {measure.scoring})
        if other:
            raise ConfigError(f"measure = {measure.name!r}: needs {measure.scoring} scoring, but matches here were "
                              f"scored in {', '.join(other)}; use win or rounds_won")
    columns = list(dict.fromkeys([*key, "seed", "pair", "agents", "win_share", measure.column]))
    table = data[[c for c in columns if c in data.columns]].copy()
    ids = number_sides(table, key, "a payoff matrix needs two-sided matches (sides 0 and 1: two pairs in Kemps, "
                                    "two players in Krepet)")
    first = table[table["pair"] == 0].set_index(ids, drop=False)
    second = table[table["pair"] == 1].set_index(ids, drop=False).reindex(first.index)
    shares = first["win_share"].to_numpy(float), second["win_share"].to_numpy(float)
    if measure.name == "win":
        payoff = (shares[0] - shares[1]) / 2
    else:
        payoff = measure.sign * (first[measure.column].to_numpy(float) - second[measure.column].to_numpy(float))
    seed = first["seed"] if "seed" in first.columns else pd.Series(pd.NA, index=first.index)
    out = pd.DataFrame({"first": first["agents"].astype(str).to_numpy(),
                        "second": second["agents"].astype(str).to_numpy(),
                        "seed": pd.array(seed.to_numpy(), dtype="Int64"), "decided": shares[0] + shares[1] > 0,
                        "payoff": payoff})
    return out, int((~out["decided"]).sum())


def _units(cross: pd.DataFrame, index: dict[str, int]) -> tuple[pd.DataFrame, int]:
    """The units of every pairing from its decided matches between different strategies, and how many matches
    were set aside for want of their other seating."""
    a = cross["first"].map(index).to_numpy(int)
    b = cross["second"].map(index).to_numpy(int)
    m = pd.DataFrame({"i": np.minimum(a, b), "j": np.maximum(a, b), "lead": a < b, "seed": cross["seed"].to_numpy(),
                      "payoff": np.where(a < b, 1.0, -1.0) * cross["payoff"].to_numpy(float)})
    m["k"] = m.groupby(["i", "j", "seed", "lead"], sort=False, dropna=False).cumcount()
    known = m.dropna(subset=["seed"])
    both = known.groupby(["i", "j", "seed"], sort=False)["lead"].nunique()
    deals = set(both[both == 2].index.droplevel("seed"))
    by_deal = np.array([(i, j) in deals for i, j in zip(m["i"], m["j"], strict=True)], dtype=bool)
    pieces = []
    if by_deal.any():
        keys = ["i", "j", "seed", "k"]
        lead, follow = m[by_deal & m["lead"].to_numpy()], m[by_deal & ~m["lead"].to_numpy()]
        paired = lead[[*keys, "payoff"]].merge(follow[[*keys, "payoff"]], on=keys, suffixes=("_a", "_b"))
        pieces.append(pd.DataFrame({"i": paired["i"], "j": paired["j"], "stratum": BOTH, "seed": paired["seed"],
                                    "as_first": paired["payoff_a"], "as_second": paired["payoff_b"],
                                    "payoff": (paired["payoff_a"] + paired["payoff_b"]) / 2}))
    alone = m[~by_deal]
    seatings = alone.groupby(["i", "j"])["lead"].nunique()
    keep = np.array([seatings.get((i, j)) == 2 for i, j in zip(alone["i"], alone["j"], strict=True)], dtype=bool)
    alone = alone.loc[keep]
    lead = alone["lead"].to_numpy(bool)
    pieces.append(pd.DataFrame({"i": alone["i"], "j": alone["j"], "stratum": np.where(lead, FIRST, SECOND),
                                "seed": alone["seed"], "as_first": np.where(lead, alone["payoff"], np.nan),
                                "as_second": np.where(lead, np.nan, alone["payoff"]), "payoff": alone["payoff"]}))
    units = pd.concat(pieces, ignore_index=True) if len(pieces) > 1 else pieces[0].reset_index(drop=True)
    units = units.astype({"i": int, "j": int, "seed": "Int64", "as_first": float, "as_second": float,
                          "payoff": float})
    rank = units["stratum"].map({BOTH: 0, FIRST: 1, SECOND: 2})
    units = units.assign(_rank=rank).sort_values(["i", "j", "_rank"], kind="stable").drop(columns="_rank")
    return units.reset_index(drop=True), len(m) - (2 * int((units["stratum"] == BOTH).sum())
                                                   + int((units["stratum"] != BOTH).sum()))
