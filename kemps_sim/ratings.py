"""Ratings and head-to-head tables for round-robin tournaments between strategies.

A tournament seats every pair of strategies against each other in 4-player (2-pair) matches, in both seatings,
and stacks the pairs tables of :mod:`kemps_sim.records`. This module turns that stack into

- one outcome per match (:func:`match_outcomes`): who sat first, who sat second, and the first pair's score;
- who beats whom (:func:`head_to_head`, :func:`head_to_head_long`), with Wilson intervals;
- how often each two met (:func:`head_to_head_counts`);
- one strength per strategy (:func:`bradley_terry`): a Bradley-Terry model fitted by maximum likelihood, with an
  optional first-seat advantage, profile-likelihood intervals that stay valid when a strategy won or lost every
  match (one-sided, said so in a ``bound`` column) and an Elo-scaled copy of the ratings;
- the difference of two ratings with its interval (:func:`rating_difference`);
- a plain-text report (:func:`tournament_summary`).

Every function that takes ``pairs`` also accepts the frame :func:`match_outcomes` returns, so a caller who
already reduced a large table (or built outcomes by other means) need not repeat the work.

The head-to-head matrix answers "does A beat B?" pair by pair; the Bradley-Terry fit pools every match into one
scale, so strategies that never met can still be compared and the seat advantage is not mistaken for skill.
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pandas as pd
from scipy import stats

from kemps_sim.errors import ConfigError
from kemps_sim.ratings_fit import LOWER_ONLY, REFERENCE, UNBOUNDED, UPPER_ONLY, BradleyTerryFit

#: Points of Elo per unit of log-strength: a 400-point gap is odds of 10 to 1.
ELO_PER_LOG = 400.0 / math.log(10.0)
_OUTCOME_COLUMNS = ("first", "second", "score")


def number_sides(table: pd.DataFrame, key: list[str], needs: str) -> list[str]:
    """Number the rows of each side of a match by occurrence (in place: column ``occurrence``, the k-th row of a
    side under one id belongs to the k-th match with that id) and return the columns that identify a match; a match
    without exactly sides 0 and 1 is a one-line ConfigError ending in ``needs``."""
    table["occurrence"] = table.groupby([*key, "pair"], sort=False, dropna=False).cumcount()
    ids = [*key, "occurrence"]
    shape = table.groupby(ids, sort=False, dropna=False)["pair"].agg(["size", "min", "max"])
    bad = shape[(shape["size"] != 2) | (shape["min"] != 0) | (shape["max"] != 1)]
    if len(bad):
        where = ", ".join(f"{k}={v!r}" for k, v in zip(ids, bad.index[0], strict=True))
        raise ConfigError(f"match ({where}) has {int(bad['size'].iloc[0])} sides; {needs}")
    return ids


def match_outcomes(pairs: pd.DataFrame) -> pd.DataFrame:
    """One row per 2-pair match: ``first`` and ``second`` (the strategies of pair 0 and pair 1) and ``score``.

    ``score`` is pair 0's ``win_share``: 1 for a win, 0 for a loss, 0.5 when both pairs won together. Matches
    that nobody won (``end_reason`` ``round_cap`` or ``agent_error``) carry no comparison; they are dropped and
    their number is kept in ``attrs["dropped"]``.

    A match is identified by (``cell``, ``replicate``) when the table has both, else by ``seed``. Tables stacked
    from separate runs may reuse a seed (say, the same seeds under lineups ``"A,B"`` and ``"B,A"``), so the k-th
    row of a pair under one id is taken to belong to the k-th match with that id; the output's ``occurrence``
    column numbers them (0 when ids are unique). The id columns come first in the output.
    """
    key = ["cell", "replicate"] if {"cell", "replicate"} <= set(pairs.columns) else ["seed"]
    needed = [*key, "pair", "agents", "win_share"]
    missing = [c for c in needed if c not in pairs.columns]
    if missing:
        raise ConfigError(f"pairs table lacks columns {missing}: give the stacked records pairs table")
    table = pairs[[*needed, *(["won"] if "won" in pairs.columns else [])]].copy()
    ids = number_sides(table, key, "ratings need two-sided matches (pairs 0 and 1 in Kemps, two players in Krepet)")
    first = table[table["pair"] == 0].set_index(ids)
    second = table[table["pair"] == 1].set_index(ids).reindex(first.index)
    won = first["won"] | second["won"] if "won" in table else (first["win_share"] + second["win_share"]) > 0
    out = pd.DataFrame({"first": first["agents"].astype(str), "second": second["agents"].astype(str),
                        "score": first["win_share"].astype(float)}, index=first.index)
    out = out[won.to_numpy(dtype=bool)].reset_index()
    out.attrs["dropped"] = int((~won.to_numpy(dtype=bool)).sum())
    out.attrs["strategies"] = _names(first["agents"].astype(str), second["agents"].astype(str))
    return out


def _outcomes(data: pd.DataFrame) -> pd.DataFrame:
    """Accept either a stacked pairs table or an outcomes frame already made by :func:`match_outcomes`."""
    if set(_OUTCOME_COLUMNS) <= set(data.columns) and not {"pair", "agents"} <= set(data.columns):
        out = data.copy(deep=False)
        out.attrs.setdefault("dropped", 0)
        out.attrs.setdefault("strategies", _names(data["first"], data["second"]))
        return out
    return match_outcomes(data)


def _names(*columns: pd.Series) -> list[str]:
    """Every strategy named in the columns, sorted: the one order all tables here share."""
    return sorted({str(name) for column in columns for name in column.unique()})


def _both_ways(outcomes: pd.DataFrame) -> pd.DataFrame:
    """Each match between different strategies seen from both sides: ``strategy``, ``opponent``, ``score``."""
    cross = outcomes[outcomes["first"] != outcomes["second"]]
    return pd.concat([
        pd.DataFrame({"strategy": cross["first"], "opponent": cross["second"], "score": cross["score"]}),
        pd.DataFrame({"strategy": cross["second"], "opponent": cross["first"], "score": 1.0 - cross["score"]}),
    ], ignore_index=True)


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ConfigError(f"confidence = {confidence!r}: must be between 0 and 1 (exclusive), e.g. 0.95")


def head_to_head(pairs: pd.DataFrame) -> pd.DataFrame:
    """Square matrix of the row strategy's mean score against the column strategy, both seatings pooled.

    Rows and columns list every strategy in the table, sorted by name; the diagonal, and any pair of strategies
    that never met, is NaN. Without shared wins ``M[a, b] + M[b, a] == 1``. Matches a strategy played against
    itself say nothing about who is better and are left out.
    """
    outcomes = _outcomes(pairs)
    names = outcomes.attrs["strategies"]
    means = _both_ways(outcomes).groupby(["strategy", "opponent"])["score"].mean()
    matrix = means.unstack("opponent").reindex(index=names, columns=names).astype(float)
    for name in names:
        matrix.loc[name, name] = np.nan
    matrix.index.name, matrix.columns.name = "strategy", "opponent"
    return matrix


def head_to_head_long(pairs: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Long head-to-head: ``strategy``, ``opponent``, ``n`` matches, ``wins`` (score sum), ``value``, CI.

    ``value = wins / n``. The interval is Wilson's, from :func:`scipy.stats.binomtest`, which needs a whole
    number of successes; a shared win is worth half a point, so ``wins`` can end in .5. Rather than pick a
    rounding direction, the interval is the union of the Wilson intervals at ``floor(wins)`` and ``ceil(wins)``:
    slightly wider when there are half points, identical otherwise, and the (a, b) and (b, a) intervals stay
    mirror images of each other (``low(a, b) == 1 - high(b, a)``). Rows are sorted by strategy then opponent.
    """
    _check_confidence(confidence)
    grouped = _both_ways(_outcomes(pairs)).groupby(["strategy", "opponent"])["score"].agg(["size", "sum"])
    rows = []
    for (strategy, opponent), (n, wins) in grouped.iterrows():
        n = int(n)
        low = stats.binomtest(math.floor(wins + 1e-9), n).proportion_ci(confidence, method="wilson").low
        high = stats.binomtest(math.ceil(wins - 1e-9), n).proportion_ci(confidence, method="wilson").high
        rows.append({"strategy": strategy, "opponent": opponent, "n": n, "wins": float(wins), "value": wins / n,
                     "ci_low": float(low), "ci_high": float(high)})
    columns = ["strategy", "opponent", "n", "wins", "value", "ci_low", "ci_high"]
    return pd.DataFrame(rows, columns=columns).sort_values(["strategy", "opponent"], ignore_index=True)


def head_to_head_counts(pairs: pd.DataFrame) -> pd.DataFrame:
    """Square matrix of the number of matches between the row and the column strategy, both seatings pooled.

    Same rows and columns as :func:`head_to_head` (sorted by name); the diagonal and pairs that never met are 0.
    """
    outcomes = _outcomes(pairs)
    names = outcomes.attrs["strategies"]
    counts = _both_ways(outcomes).groupby(["strategy", "opponent"])["score"].size()
    matrix = counts.unstack("opponent").reindex(index=names, columns=names).fillna(0).astype(int)
    matrix.index.name, matrix.columns.name = "strategy", "opponent"
    return matrix


def bradley_terry(pairs: pd.DataFrame, confidence: float = 0.95, seat_advantage: bool = True) -> pd.DataFrame:
    """Bradley-Terry strengths of the strategies by maximum likelihood, with profile-likelihood intervals.

    The model: pair 0 scores against pair 1 with probability ``1 / (1 + exp(-(r_first - r_second + h)))``,
    where ``r`` is a strategy's log-strength and ``h`` the first-seat advantage (fixed at 0 when
    ``seat_advantage`` is false). A shared win counts as half a win and half a loss. Only differences of ``r``
    are identified, so the ratings are given relative to the mean of a *reference group*: every strategy when
    no group of strategies won (or lost) every match against the rest, which is the usual case.

    **Clean sweeps.** A strategy that lost every match has no finite maximum-likelihood strength: the likelihood
    keeps growing as its rating goes to minus infinity. More generally, the strategies split into groups within
    which each could have gone either way (the strongly connected components of "scored at least once
    against"), and between two groups one side won every match. The maximum then puts the groups infinitely far
    apart. The reference group is the largest such group (ties: the one nearest the middle of the order, then
    the one with more matches, then by name); the ratings of the strategies above it are ``+inf``, below it
    ``-inf`` (``NaN`` if the results never relate them to it), and the seat advantage and the ratings inside
    the reference group come from the matches that could have gone either way.

    **Intervals** invert the likelihood-ratio test: the ``confidence`` interval of a rating holds every value
    ``t`` whose profile deviance ``2 [max log L - max log L given rating = t]`` is at most the ``confidence``
    quantile of chi-square with 1 degree of freedom (3.84 for 95 %). Unlike ``estimate ± z·se`` it needs no
    finite estimate: for a strategy rated ``-inf`` the deviance falls to 0 as ``t`` goes down, so its interval
    is ``(-inf, high]`` (``bound`` "upper only"); for ``+inf``, ``[low, +inf)`` ("lower only"); "two-sided"
    for a finite rating, "unbounded" for ``NaN``, and "reference" for the one strategy of a reference group of
    one (rating 0 by definition, interval [0, 0]). If the results cannot pin the seat advantage down (say, the
    first seat won every match the ratings leave open), the ratings are fitted without it and
    ``attrs["seat_advantage_note"]`` says so.

    Returns one row per strategy: ``strategy``, ``rating`` (log-strength relative to the reference group's
    mean), ``se`` (from the observed information; NaN for infinite ratings, and only a rough guide: the
    intervals do not use it), ``ci_low``, ``ci_high``, ``bound``, ``matches`` and ``score`` (its count and mean
    score against other strategies), ``elo``, ``elo_low``, ``elo_high`` (the same on the Elo scale, ``rating ×
    400 / ln 10``), sorted by rating (highest first; equal infinite ratings by their finite bound) then name.
    ``attrs`` holds ``seat_advantage`` as (estimate, ci_low, ci_high) in log-odds, or None when not fitted;
    ``seat_advantage_se``; ``seat_advantage_note`` (None, or why it was not fitted); ``reference`` (the
    reference group's strategies); ``covariance`` (DataFrame of the ratings' covariance, NaN outside the
    reference group); ``confidence``; ``interval_method``; ``matches`` used and ``dropped`` (without a winner);
    and ``model``, which :func:`rating_difference` uses.
    """
    _check_confidence(confidence)
    outcomes = _outcomes(pairs)
    names = outcomes.attrs["strategies"]
    k = len(names)
    if k < 2:
        raise ConfigError(f"strategies = {names!r}: ratings need at least 2 strategies")
    index = {name: i for i, name in enumerate(names)}
    grouped = outcomes.groupby(["first", "second"])["score"].agg(["size", "sum"]).reset_index()
    first, second = grouped["first"].map(index).to_numpy(), grouped["second"].map(index).to_numpy()
    model = BradleyTerryFit(names, first, second, grouped["size"].to_numpy(dtype=float),
                   grouped["sum"].to_numpy(dtype=float), seat_advantage)
    q = float(stats.chi2.ppf(confidence, 1))

    rows = [model.rating(j, q) for j in range(k)]
    n, w = model.n, model.w
    cross = first != second  # matches against itself count for the seat term only
    played, scored = np.zeros(k), np.zeros(k)
    np.add.at(played, first[cross], n[cross])
    np.add.at(played, second[cross], n[cross])
    np.add.at(scored, first[cross], w[cross])
    np.add.at(scored, second[cross], n[cross] - w[cross])
    table = pd.DataFrame({
        "strategy": names,
        "rating": [r[0] for r in rows], "se": [r[1] for r in rows],
        "ci_low": [r[2] for r in rows], "ci_high": [r[3] for r in rows], "bound": [r[4] for r in rows],
        "matches": played.astype(int), "score": np.divide(scored, played, out=np.full(k, np.nan), where=played > 0),
    })
    for column, source in (("elo", "rating"), ("elo_low", "ci_low"), ("elo_high", "ci_high")):
        table[column] = table[source] * ELO_PER_LOG
    table = table.iloc[sorted(range(k), key=lambda i: _order_key(table.iloc[i]))].reset_index(drop=True)
    if model.seat:
        h, h_se, h_low, h_high = model.seat_advantage(q)
        table.attrs["seat_advantage"] = (h, h_low, h_high)
        table.attrs["seat_advantage_se"] = h_se
    else:
        table.attrs["seat_advantage"] = None
        table.attrs["seat_advantage_se"] = None
    table.attrs["seat_advantage_note"] = model.seat_note
    table.attrs["reference"] = [names[j] for j in model.reference_members]
    table.attrs["covariance"] = pd.DataFrame(model.rating_covariance(), index=names, columns=names)
    table.attrs["confidence"] = confidence
    table.attrs["interval_method"] = "profile likelihood"
    table.attrs["matches"] = len(outcomes)
    table.attrs["dropped"] = outcomes.attrs["dropped"]
    table.attrs["model"] = model
    return table


def _order_key(row: pd.Series) -> tuple[int, float, float, str]:
    """Best first: finite and infinite ratings by value, equal infinite ones by their finite bound, NaN last."""
    rating = row["rating"]
    if math.isnan(rating):
        return (1, 0.0, 0.0, row["strategy"])
    tie = row["ci_low"] if rating == math.inf else row["ci_high"] if rating == -math.inf else 0.0
    return (0, -rating, -tie, row["strategy"])


def rating_difference(ratings: pd.DataFrame, a: str, b: str,
                      confidence: float | None = None) -> tuple[float, float, float]:
    """``rating(a) - rating(b)`` from a :func:`bradley_terry` table, with its interval (log-odds of a beating b).

    The interval is a profile-likelihood one, like the ratings': it accounts for the opponents both share, so
    it is narrower than combining the two ratings' own intervals would suggest, and it stays valid when one of
    them won or lost everything (then the difference is ``±inf`` and the interval one-sided, e.g.
    ``(inf, 2.1, inf)``). ``confidence`` defaults to the one the table was fitted with. Needs the table's
    ``attrs["model"]``, which a table read back from CSV no longer has.
    """
    confidence = ratings.attrs.get("confidence", 0.95) if confidence is None else confidence
    _check_confidence(confidence)
    model = ratings.attrs.get("model")
    if not isinstance(model, BradleyTerryFit):
        raise ConfigError("rating_difference: the table has no fitted model in attrs['model']; pass the table "
                          "bradley_terry returned (a table read from CSV has lost it)")
    for name in (a, b):
        if name not in model.names:
            raise ConfigError(f"strategy {name!r}: not in the ratings; rated: {model.names}")
    return model.difference(model.names.index(a), model.names.index(b), float(stats.chi2.ppf(confidence, 1)))


def _interval_text(low: float, high: float) -> str:
    """``[-0.512, +0.833]``; an open side reads ``(-inf`` or ``+inf)``."""
    left = "(-inf" if low == -math.inf else f"[{low + 0.0:+.3f}"
    right = "+inf)" if high == math.inf else f"{high + 0.0:+.3f}]"
    return f"{left}, {right}"


def _number_text(value: float, digits: int) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value, digits) + 0.0:+.{digits}f}"  # + 0.0: no "-0.000"


def tournament_summary(pairs: pd.DataFrame, confidence: float = 0.95, seat_advantage: bool = True,
                       ratings: pd.DataFrame | None = None) -> str:
    """A readable report: Bradley-Terry ratings with intervals, the seat advantage and the head-to-head matrix.

    ``ratings`` may be the :func:`bradley_terry` table of the same results, to save fitting it again (its own
    confidence level is then the one stated). The head-to-head matrix lists the strategies in the order of the
    ratings.
    """
    outcomes = _outcomes(pairs)
    if ratings is None:
        ratings = bradley_terry(outcomes, confidence=confidence, seat_advantage=seat_advantage)
    confidence = ratings.attrs["confidence"]
    level = f"{confidence:.0%}"
    shown = pd.DataFrame({
        "strategy": ratings["strategy"],
        "rating": [_number_text(v, 3) for v in ratings["rating"]],
        f"{level} interval": [_interval_text(lo, hi) for lo, hi in zip(ratings["ci_low"], ratings["ci_high"],
                                                                       strict=True)],
        "bound": ratings["bound"],
        "elo": [_number_text(v, 0) for v in ratings["elo"]],
        "matches": ratings["matches"],
        "score": ratings["score"].map("{:.3f}".format),
    })
    reference = ratings.attrs["reference"]
    everyone = len(reference) == len(ratings)
    lines = [f"Bradley-Terry ratings: {ratings.attrs['matches']} matches"
             + (f" ({ratings.attrs['dropped']} without a winner left out)" if ratings.attrs["dropped"] else ""),
             f"log-strengths with mean 0 over {'all strategies' if everyone else 'the reference group'}; "
             f"{level} profile-likelihood intervals",
             shown.to_string(index=False)]
    if not everyone:
        lines.append(textwrap.fill("reference group (the largest group with no clean sweep inside it): "
                                   + ", ".join(reference), width=116, subsequent_indent="  "))
    notes = {
        UPPER_ONLY: "-inf, 'upper only': lost every match that links it to the reference group, so the results "
                    "set no lower limit on its rating",
        LOWER_ONLY: "+inf, 'lower only': won every match that links it to the reference group, so the results "
                    "set no upper limit on its rating",
        UNBOUNDED: "'unbounded': the results never link it to the reference group",
        REFERENCE: "'reference': the reference group's only strategy, 0 by definition",
    }
    for bound in (LOWER_ONLY, UPPER_ONLY, UNBOUNDED, REFERENCE):
        if (ratings["bound"] == bound).any():
            lines.append(textwrap.fill(notes[bound], width=116, subsequent_indent="  "))
    seat = ratings.attrs["seat_advantage"]
    if seat is not None:
        lines.append(f"First-seat advantage (log-odds): {_number_text(seat[0], 3)}, {level} interval "
                     f"{_interval_text(seat[1], seat[2])}")
    elif ratings.attrs.get("seat_advantage_note"):
        lines.append(f"First-seat advantage: {ratings.attrs['seat_advantage_note']}")
    order = list(ratings["strategy"])
    matrix = head_to_head(outcomes).reindex(index=order, columns=order)
    lines += ["", "Head-to-head: mean score of the row strategy against the column strategy (ordered by rating)",
              matrix.to_string(float_format="{:.3f}".format, na_rep="-")]
    return "\n".join(lines)


def __getattr__(name: str) -> object:
    if name == "pairings":  # an error, not a forward: ratings take outcomes and know nothing of lineups
        raise AttributeError("kemps_sim.ratings.pairings has moved: use kemps_sim.sweep.tournament.pairings (also "
                             "kemps_sim.sweep.pairings), which plans the round robin's lineups")
    raise AttributeError(f"module 'kemps_sim.ratings' has no attribute {name!r}")
