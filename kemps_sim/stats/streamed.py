"""The summary table added up chunk by chunk: the same numbers as :func:`kemps_sim.stats.summary_table` on the whole
tables, from counts, sums and a few values per group, so that summarising a sweep needs memory for one chunk at a
time rather than for all its rows.

Every number of the summary is a count, a ratio of counts, a mean of whole numbers (rounds, letters, points and
rounds won per match: their sums are exact in any order, so the mean is the one of the whole column), or a median
(of the known seconds from four of a kind to a right Kemps call, kept per group: a few numbers per match). The
groups are listed and sorted as the whole tables would list them, from the distinct ``by`` values of each chunk.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from kemps_sim.frames import settle_dtypes
from kemps_sim.metrics import estimator, every
from kemps_sim.results import FATES
from kemps_sim.stats._groups import Key, as_by, check_confidence, group_keys, key_of, split, truthy
from kemps_sim.stats._scoring import MIXED, SCORE_OF, SCORING_COLUMN
from kemps_sim.stats.rates import KEMPS_CALLS
from kemps_sim.stats.standings import SCORE_MEASURES
from kemps_sim.stats.summary import _CALL_COUNTS, FAILURES, SummaryParts, assemble

#: How many chunks' distinct groups are kept before they are merged into one frame.
_COMPACT = 64
#: What the streamed summary reads besides its metrics' columns: each match's cell (for its scoring rule) and each
#: pair's agents (printed under the table).
_EXTRA = {"matches": ("cell",), "pairs": ("agents",)}
#: The columns each table must give :meth:`StreamedSummary.add`, besides the ``by`` columns: those the registry's
#: summary metrics read (:mod:`kemps_sim.metrics`), and :data:`_EXTRA`.
def _columns() -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = {}
    for metric in every("kemps", "summary"):
        table = metric.tables[0]
        found[table] = tuple(dict.fromkeys((*_EXTRA.get(table, ()), *found.get(table, ()), *metric.columns)))
    return found


COLUMNS = _columns()
#: The estimator of the win rates (a Wilson interval on matches won of matches played).
_WINS = estimator("win_rate")


class StreamedSummary:
    """Feed it each chunk's tables (:meth:`add`), then ask for the summary (:meth:`table`).

    ``scorings``: each cell's scoring rule (what ``kemps-sim report`` adds as the ``rules.scoring`` column); rows
    with a ``rules.scoring`` column of their own (a swept axis) use it instead. Without either, each group's rule is
    told from its scores, as :mod:`kemps_sim.stats._scoring` does. Every row of every table has a row in the
    matches table with the same cell and parameters, so the matches table alone tells each group's rules.
    """

    def __init__(self, by: Sequence[str], scorings: Mapping[str, str] | None = None) -> None:
        self.by = as_by(by)
        self.scorings = dict(scorings or {})
        self._keys: dict[str, list[pd.DataFrame]] = defaultdict(list)
        self._finished: dict[Key, list[int]] = defaultdict(lambda: [0, 0])
        self._rounds: dict[Key, list[int]] = defaultdict(lambda: [0, 0])
        self._wins: dict[tuple[Key, int], list[int]] = defaultdict(lambda: [0, 0])
        self._scores: dict[tuple[Key, str], list[float]] = defaultdict(lambda: [0.0, 0])
        self._scored: dict[Key, set[str]] = defaultdict(set)  # rules seen when told from the scores
        self._rules: dict[Key, set[str]] = defaultdict(set)
        self._labelled = False
        self._pairs: set[int] = set()
        self._calls: dict[Key, np.ndarray] = {}
        self._fours: dict[Key, np.ndarray] = {}
        self._delays: dict[Key, list[np.ndarray]] = defaultdict(list)
        #: Each pair's lineup entries, in the order first seen.
        self.agents: dict[int, dict[str, None]] = defaultdict(dict)
        self.matches = 0
        self.failures = 0

    def add(self, tables: Mapping[str, pd.DataFrame]) -> None:
        """Count one chunk's rows (tables it lacks, such as the pairs of a chunk whose matches all crashed, have
        no rows)."""
        by = self.by
        for name, table in tables.items():
            if name in COLUMNS and len(table):
                kept = self._keys[name]
                kept.append(table[list(by)].drop_duplicates())
                if len(kept) >= _COMPACT:  # a few groups over many chunks: keep them once, not once per chunk
                    kept[:] = [pd.concat(kept, ignore_index=True).drop_duplicates(ignore_index=True)]
        if len(matches := tables.get("matches", pd.DataFrame())):
            self._add_matches(matches)
        if len(pairs := tables.get("pairs", pd.DataFrame())):
            self._add_pairs(pairs)
        if len(calls := tables.get("calls", pd.DataFrame())):
            for key, rows in split(calls, by).items():
                kemps, stop = rows["call"].isin(KEMPS_CALLS).to_numpy(), (rows["call"] == "stop_kemps").to_numpy()
                right, flag = truthy(rows["right"]).to_numpy(), rows["right"].astype(bool).to_numpy()
                counts = np.array([kemps.sum(), (kemps & right).sum(), stop.sum(), (stop & right).sum(),
                                   (kemps & flag).sum(), (kemps & ~flag).sum(), (stop & flag).sum(),
                                   (stop & ~flag).sum()], dtype=np.int64)
                self._calls[key] = self._calls.get(key, 0) + counts
                delays = rows["four_to_call"].to_numpy(dtype=float)[kemps & right]
                self._delays[key].append(delays[~np.isnan(delays)])
        if len(fours := tables.get("fours", pd.DataFrame())):
            for key, rows in split(fours, by).items():
                fates = rows["fate"].astype(str).to_numpy()
                counts = np.array([len(fates), *((fates == fate).sum() for fate in FATES)], dtype=np.int64)
                self._fours[key] = self._fours.get(key, 0) + counts

    def _add_matches(self, matches: pd.DataFrame) -> None:
        self.matches += len(matches)
        labelled = SCORING_COLUMN in matches.columns
        self._labelled |= labelled
        for key, rows in split(matches, self.by).items():
            failed = int(rows["end_reason"].isin(FAILURES).sum())
            self._finished[key][0] += len(rows)
            self._finished[key][1] += failed
            self.failures += failed
            said = rows[SCORING_COLUMN] if labelled else rows["cell"].map(self.scorings)
            self._rules[key].update(said.dropna().astype(str))

    def _add_pairs(self, pairs: pd.DataFrame) -> None:
        by = self.by
        for pair, agents in pairs[["pair", "agents"]].drop_duplicates().itertuples(index=False, name=None):
            self.agents[int(pair)].setdefault(agents, None)
        self._pairs.update(int(p) for p in pairs["pair"].unique())
        for (*key, pair), rows in split(pairs, (*by, "pair")).items():
            tally = self._wins[(tuple(key), int(pair))]
            tally[0] += int(truthy(rows["won"]).sum())
            tally[1] += len(rows)
        for key, rows in split(pairs, by).items():
            for rule, column in SCORE_OF.items():
                if (pd.to_numeric(rows[column], errors="coerce").fillna(0) > 0).any():
                    self._scored[key].add(rule)
        for key, games in split(pairs[pairs["pair"] == 0], by).items():
            self._rounds[key][0] += int(games["rounds"].sum())
            self._rounds[key][1] += len(games)
            for measure in SCORE_MEASURES:
                values = games[measure].to_numpy(dtype=float)
                values = values[~np.isnan(values)]
                tally = self._scores[(key, measure)]
                tally[0] += float(values.sum())
                tally[1] += len(values)

    def table(self, confidence: float = 0.95) -> pd.DataFrame:
        """The summary table of every chunk added (as :func:`kemps_sim.stats.summary_table` gives it)."""
        confidence = check_confidence(confidence)
        by = self.by
        # Listed from every chunk's distinct values; a group's counts are found under any equal spelling (1, 1.0).
        keys = group_keys(by, *(_settled(frames) for frames in self._keys.values() if frames))
        wins = {}
        for (key, pair), (won, played) in self._wins.items():
            estimate = _WINS(won, played, confidence)
            wins[(key_of(key), pair)] = {"value": estimate.value, "ci_low": estimate.ci_low,
                                         "ci_high": estimate.ci_high}
        accuracy: dict[tuple[Key, Any], float] = {}
        counted = {}
        for key, c in self._calls.items():
            accuracy[(key, "kemps_precision")] = _share(c[1], c[0])
            accuracy[(key, "stop_precision")] = _share(c[3], c[2])
            counted[key] = dict(zip(_CALL_COUNTS, (int(v) for v in c[4:]), strict=True))
        for key, f in self._fours.items():
            for fate, count in zip(FATES, f[1:], strict=True):
                accuracy[(key, f"conversion_{fate}")] = _share(count, f[0])
        medians = {}
        for key, parts in self._delays.items():
            known = np.concatenate(parts)
            medians[key] = float(np.median(known)) if len(known) else np.nan
        parts = SummaryParts(
            keys=keys, finished={key: tuple(self._finished.get(key, (0, 0))) for key in keys},
            played={key: (n, total / n) for key, (total, n) in self._rounds.items()},
            pair_ids=sorted(self._pairs), wins=wins, accuracy=accuracy, counted=counted, medians=medians,
            rules={key: self._rule(key) for key in keys},
            standings={index: (total / n if n else math.nan) for index, (total, n) in self._scores.items()})
        return assemble(parts, by, confidence)

    def _rule(self, key: Key) -> str | None:
        """The group's scoring rule: as the rows label it (every row of a folder written since rows record it), else
        as the cells' rules say, else, in an older folder, as its scores tell (see ``group_scorings``)."""
        if self._labelled or self.scorings:
            rules = sorted(self._rules.get(key, ()))
            return None if not rules else rules[0] if len(rules) == 1 else MIXED
        scored = self._scored.get(key, set())
        return next((rule for rule in SCORE_OF if rule in scored), None)


def _share(successes: int, trials: int) -> float:
    """The share as ``clustered_share`` gives its value: the ratio of the two sums, NaN with no trials."""
    return float(successes) / float(trials) if trials else math.nan


def _settled(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """One table's distinct group values from all chunks, with the dtypes the whole stacked table would have."""
    return settle_dtypes(pd.concat(frames, ignore_index=True))
