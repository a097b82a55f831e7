"""What a report metric is: one immutable :class:`Metric` record per metric, checked when it is made, and the
:class:`Estimator` that turns its rows into a value with an interval.

A record holds everything that every layer used to spell out for itself: the tables and columns the metric
reads, the games it applies to, the scoring rule it exists under, its unit and which way is better, its printed
label, its words for the docs, the summary's legend and the figures, and the roles it plays (a summary column, a
``--compare`` metric, an ``--until-ci`` target, a call-accuracy share). Standard library only, so that ``--help``
and the checks of a sweep spec read it without loading pandas.
"""

from __future__ import annotations

import importlib
import re
import typing
from dataclasses import dataclass
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.rules import Scoring

#: What a metric can be used for: a column of the summary table (``summary``), a metric ``report --compare`` and a
#: spec's ``[compare]`` test (``compare``), a metric ``--until-ci`` narrows (``target``), a share of
#: :func:`kemps_sim.stats.call_accuracy` and of the call-accuracy figures (``accuracy``).
ROLES = ("summary", "compare", "target", "accuracy")
#: Which way is better: a higher value, a lower one, or neither (a count, a share that is not a goal).
DIRECTIONS = ("higher", "lower", "none")
#: The scoring rules a metric may be tied to (the rules' ``scoring`` values); None on a metric: every rule.
SCORING_RULES: tuple[str, ...] = typing.get_args(Scoring)
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_REFERENCE = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


@dataclass(frozen=True)
class Estimator:
    """How a metric's rows make one estimate: ``function`` (a ``"module:attribute"`` reference, imported when
    first used, so that naming an estimator loads neither numpy nor SciPy), the ``interval`` it gives (as the docs
    name it, ``"-"`` for none), ``inputs`` (what the function takes) and ``compared_as``: how
    :func:`kemps_sim.stats.compare` tests a difference of two groups' values (``match_share``: one 0/1 per match;
    ``share``: 0/1 rows clustered in matches; ``mean``; ``median``; None: not compared)."""

    name: str
    function: str
    interval: str
    inputs: str
    compared_as: str | None = None

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ConfigError(f"estimator {self.name!r}: name must be lower-case letters, digits and _")
        if not _REFERENCE.match(self.function):
            raise ConfigError(f"estimator {self.name}: function = {self.function!r}: must be 'module:attribute'")
        if self.compared_as not in (None, "match_share", "share", "mean", "median"):
            raise ConfigError(f"estimator {self.name}: compared_as = {self.compared_as!r}: must be match_share, "
                              "share, mean, median or None")

    def load(self) -> Any:
        """The estimator's function, imported now."""
        module, _, attribute = self.function.partition(":")
        return getattr(importlib.import_module(module), attribute)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The estimate of the given rows (see ``inputs``)."""
        return self.load()(*args, **kwargs)


@dataclass(frozen=True)
class Metric:
    """One report metric, defined once.

    ``name`` is its one name (``kemps_precision``); ``tables`` the result tables it reads and ``columns`` the
    columns of the first of them it needs; ``games`` the games it applies to (game names, see
    :mod:`kemps_sim.games`); ``scoring`` the scoring rule it exists under (None: every rule); ``unit`` what its
    value is measured in and ``direction`` which way is better; ``label`` its short printed label in the summary
    (its ``column`` when that fits) and ``description`` what it measures (the docs' words); ``caption`` how a
    figure's legend names it (empty: its description); ``estimator`` the name of its :class:`Estimator`;
    ``roles`` what it is used for (:data:`ROLES`); ``score_of`` the scoring rule whose score it is (its
    summary column shows only for groups under that rule); ``column`` its summary.csv column, where ``N`` in ``pairN_``
    stands for every side (``pairN_win_rate``: one column per pair); ``per_side`` whether it is about one side
    (pair or player: ``--pair N``) rather than everyone's calls; ``counts`` what its number of rows counts
    (``matches``, ``Kemps calls``); ``legend`` its words in the summary's legend, and ``group`` the name of the
    legend entry it shares with others (:data:`kemps_sim.metrics.catalogue.LEGEND_GROUPS`)."""

    name: str
    tables: tuple[str, ...]
    columns: tuple[str, ...]
    games: tuple[str, ...]
    unit: str
    direction: str
    label: str
    description: str
    estimator: str
    roles: tuple[str, ...]
    column: str | None = None
    scoring: str | None = None
    score_of: str | None = None
    per_side: bool = False
    counts: str = "matches"
    caption: str = ""
    summary_ci: bool = False
    legend: str = ""
    group: str | None = None

    def __post_init__(self) -> None:
        where = f"metric {self.name!r}"
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ConfigError(f"{where}: name must be lower-case letters, digits and _ (a-z first)")
        for field_name in ("tables", "columns", "games", "roles"):
            value = getattr(self, field_name)
            if not isinstance(value, tuple) or not all(isinstance(v, str) and v for v in value):
                raise ConfigError(f"{where}: {field_name} = {value!r}: must be a tuple of names")
        if not self.tables or not self.games:
            raise ConfigError(f"{where}: needs at least one table and one game")
        unknown = [role for role in self.roles if role not in ROLES]
        if unknown:
            raise ConfigError(f"{where}: role {unknown[0]!r} unknown; roles are {', '.join(ROLES)}")
        if self.direction not in DIRECTIONS:
            raise ConfigError(f"{where}: direction = {self.direction!r}: must be one of {', '.join(DIRECTIONS)}")
        if self.scoring is not None and self.scoring not in SCORING_RULES:
            raise ConfigError(f"{where}: scoring = {self.scoring!r}: must be None or one of "
                              f"{', '.join(SCORING_RULES)}")
        if self.score_of is not None and self.score_of not in SCORING_RULES:
            raise ConfigError(f"{where}: score_of = {self.score_of!r}: must be None or one of "
                              f"{', '.join(SCORING_RULES)}")
        if "summary" in self.roles and not self.column:
            raise ConfigError(f"{where}: a summary metric needs its column")
        if not self.label or not self.description or not self.unit:
            raise ConfigError(f"{where}: needs a label, a description and a unit")

    def applies_to(self, game: str) -> bool:
        """Whether the metric exists in a sweep of ``game``."""
        return game in self.games

    def exists_under(self, scoring: str | None) -> bool:
        """Whether the metric exists under the scoring rule ``scoring`` (None: unknown, so it may)."""
        return scoring is None or self.scoring is None or self.scoring == scoring

    def columns_for(self, sides: typing.Iterable[int], unit: str = "pair") -> tuple[str, ...]:
        """Its summary columns for the sides ``sides`` (one per side for a ``pairN_`` column, else its column), a
        side named by the game's ``unit`` (``player0_win_rate`` in a game of players)."""
        if self.column is None:
            return ()
        if "N_" in self.column:
            stem = self.column.split("N_", 1)[1]
            return tuple(f"{unit}{side}_{stem}" for side in sides)
        return (self.column,)

    @property
    def figure_caption(self) -> str:
        """How a figure names it: its caption, else its description."""
        return self.caption or self.description
