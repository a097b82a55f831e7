"""Ratings and head-to-head tables for round-robin tournaments between strategies.

A tournament seats every pair of strategies against each other in 4-player (2-pair) matches, in both seatings,
and stacks the pairs tables of :mod:`kemps_sim.records`. This module turns that stack into

- one outcome per match (:func:`match_outcomes`): who sat first, who sat second, and the first pair's score;
- who beats whom (:func:`head_to_head`, :func:`head_to_head_long`), with Wilson intervals;
- one strength per strategy (:func:`bradley_terry`): a Bradley-Terry model fitted by maximum likelihood, with an
  optional first-seat advantage, standard errors and an Elo-scaled copy of the ratings;
- a plain-text report (:func:`tournament_summary`).

Every function that takes ``pairs`` also accepts the frame :func:`match_outcomes` returns, so a caller who
already reduced a large table (or built outcomes by other means) need not repeat the work.

The head-to-head matrix answers "does A beat B?" pair by pair; the Bradley-Terry fit pools every match into one
scale, so strategies that never met can still be compared and the seat advantage is not mistaken for skill.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import linalg, optimize, special, stats

from kemps_sim.errors import ConfigError
from kemps_sim.lineup import entry_text, parse_entry, split_lineup

#: Points of Elo per unit of log-strength: a 400-point gap is odds of 10 to 1.
ELO_PER_LOG = 400.0 / math.log(10.0)
#: Default standard deviation of the Gaussian prior on each log-strength (and on the seat advantage).
PRIOR_SD = 10.0
_OUTCOME_COLUMNS = ("first", "second", "score")


def pairings(strategies: Sequence[str]) -> list[str]:
    """The lineups of a round robin: every unordered pair of distinct strategies, in both seatings.

    The order follows the input: for ``i < j`` the lineup ``"S_i,S_j"`` comes right before ``"S_j,S_i"``, so
    three strategies give six lineups and each ordered pair appears once. Playing both seatings cancels the
    first-seat advantage out of the head-to-head means.
    """
    if isinstance(strategies, str):
        raise ConfigError(f"strategies = {strategies!r}: must be a sequence of strategy names, not one string")
    names = []
    for entry in strategies:
        if not isinstance(entry, str) or not entry.strip():
            raise ConfigError(f"strategy {entry!r}: must be a non-empty agent spec such as 'collector'")
        if len(split_lineup(entry)) != 1:
            raise ConfigError(f"strategy {entry!r}: must be one agent spec; commas only inside its parentheses")
        names.append(_canonical(entry))
    if len(names) < 2:
        raise ConfigError(f"strategies = {list(strategies)!r}: a round robin needs at least 2 strategies")
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ConfigError(f"strategies = {names!r}: each strategy must appear once; repeated: {duplicates}")
    lineups = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            lineups += [f"{first},{second}", f"{second},{first}"]
    return lineups


def _canonical(entry: str) -> str:
    """The agent spec as a lineup labels it (``watcher()`` and ``watcher`` alike), so equal specs compare equal."""
    return entry_text(*parse_entry(entry))


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
    ids = [*key, "occurrence"]
    table = pairs[[*needed, *(["won"] if "won" in pairs.columns else [])]].copy()
    table["occurrence"] = table.groupby([*key, "pair"], sort=False, dropna=False).cumcount()
    shape = table.groupby(ids, sort=False, dropna=False)["pair"].agg(["size", "min", "max"])
    bad = shape[(shape["size"] != 2) | (shape["min"] != 0) | (shape["max"] != 1)]
    if len(bad):
        where = ", ".join(f"{k}={v!r}" for k, v in zip(ids, bad.index[0], strict=True))
        raise ConfigError(f"match ({where}) has {int(bad['size'].iloc[0])} pairs; ratings need 2-pair (4-player) "
                          "matches with pairs 0 and 1")
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


def bradley_terry(pairs: pd.DataFrame, confidence: float = 0.95, seat_advantage: bool = True,
                  prior_sd: float = PRIOR_SD) -> pd.DataFrame:
    """Bradley-Terry strengths of the strategies, fitted by (penalised) maximum likelihood.

    The model: pair 0 scores against pair 1 with probability ``1 / (1 + exp(-(r_first - r_second + h)))``,
    where ``r`` is a strategy's log-strength and ``h`` the first-seat advantage (fixed at 0 when
    ``seat_advantage`` is false). A shared win counts as half a win and half a loss. Only differences of ``r``
    are identified, so the ratings are constrained to mean 0: the fit runs over ``k - 1`` coordinates of an
    orthonormal basis of the sum-zero subspace and maps back.

    A strategy that won (or lost) every match has no finite maximum-likelihood strength. To keep every answer
    finite, each log-strength and the seat advantage get an independent Gaussian prior with mean 0 and
    standard deviation ``prior_sd`` (default 10, i.e. about 1,700 Elo): negligible whenever the data say
    anything, decisive only where they say "infinitely better". Such a strategy ends up rated first with a
    large rating and a large standard error, which is the honest summary of "never lost".

    Standard errors come from the observed information (the Hessian of the penalised negative log-likelihood,
    exact for this logistic model), projected back onto the ratings; intervals are ``estimate ± z·se`` with
    ``z`` the normal quantile for ``confidence``.

    Returns one row per strategy: ``strategy``, ``rating`` (log-strength, mean 0), ``se``, ``ci_low``,
    ``ci_high``, ``matches`` and ``score`` (its count and mean score against other strategies), ``elo``,
    ``elo_low``, ``elo_high`` (the same on the Elo scale, ``rating × 400 / ln 10``, relative to the field
    average), sorted by rating (highest first) then name. ``attrs`` holds ``seat_advantage`` as (estimate,
    ci_low, ci_high) in log-odds, or None when not fitted; ``seat_advantage_se``; ``covariance`` (DataFrame of
    the ratings' covariance, for rating differences, see :func:`rating_difference`); ``confidence``;
    ``matches`` used and ``dropped`` (without a winner).
    """
    _check_confidence(confidence)
    if not prior_sd > 0:
        raise ConfigError(f"prior_sd = {prior_sd!r}: must be a positive standard deviation, e.g. 10")
    outcomes = _outcomes(pairs)
    names = outcomes.attrs["strategies"]
    k = len(names)
    if k < 2:
        raise ConfigError(f"strategies = {names!r}: ratings need at least 2 strategies")
    index = {name: i for i, name in enumerate(names)}
    grouped = outcomes.groupby(["first", "second"])["score"].agg(["size", "sum"]).reset_index()
    n = grouped["size"].to_numpy(dtype=float)
    w = grouped["sum"].to_numpy(dtype=float)
    first, second = grouped["first"].map(index).to_numpy(), grouped["second"].map(index).to_numpy()
    design = np.zeros((len(grouped), k))
    np.add.at(design, (np.arange(len(grouped)), first), 1.0)
    np.add.at(design, (np.arange(len(grouped)), second), -1.0)  # a match against itself: a row of zeros
    basis = linalg.null_space(np.ones((1, k)))  # k x (k-1), orthonormal, columns sum to 0
    a = design @ basis
    if seat_advantage:
        a = np.column_stack([a, np.ones(len(grouped))])
    precision = 1.0 / prior_sd**2  # orthonormal basis: |r|^2 == |theta|^2, so the prior stays isotropic
    scale = 1.0 / max(float(n.sum()), 1.0)  # the optimiser works per match, so its tolerances mean the same always

    def nll(beta: np.ndarray) -> tuple[float, np.ndarray]:
        eta = a @ beta
        value = np.sum(w * np.logaddexp(0.0, -eta) + (n - w) * np.logaddexp(0.0, eta))
        p = special.expit(eta)
        return scale * (value + 0.5 * precision * beta @ beta), scale * (a.T @ (n * p - w) + precision * beta)

    def hessian(beta: np.ndarray) -> np.ndarray:
        p = special.expit(a @ beta)
        return (a.T * (n * p * (1.0 - p))) @ a + precision * np.eye(a.shape[1])

    fit = optimize.minimize(nll, np.zeros(a.shape[1]), jac=True, hess=lambda beta: scale * hessian(beta),
                            method="trust-exact", options={"gtol": 1e-10})
    # Near the optimum the per-step gain drops below rounding and trust-exact may stop with a "bad
    # approximation" message although the gradient is already negligible; only a real gap is worth a warning.
    if not fit.success and np.abs(fit.jac).max() > 1e-7:
        warnings.warn(f"bradley_terry: the optimiser did not converge ({fit.message})", RuntimeWarning,
                      stacklevel=2)
    cov_beta = np.linalg.inv(hessian(fit.x))
    ratings = basis @ fit.x[: k - 1]
    cov = basis @ cov_beta[: k - 1, : k - 1] @ basis.T
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    z = float(stats.norm.ppf(0.5 + confidence / 2.0))

    cross = first != second  # matches against itself count for the seat term only
    played, scored = np.zeros(k), np.zeros(k)
    np.add.at(played, first[cross], n[cross])
    np.add.at(played, second[cross], n[cross])
    np.add.at(scored, first[cross], w[cross])
    np.add.at(scored, second[cross], n[cross] - w[cross])
    table = pd.DataFrame({
        "strategy": names, "rating": ratings, "se": se, "ci_low": ratings - z * se, "ci_high": ratings + z * se,
        "matches": played.astype(int), "score": np.divide(scored, played, out=np.full(k, np.nan), where=played > 0),
    })
    for column, source in (("elo", "rating"), ("elo_low", "ci_low"), ("elo_high", "ci_high")):
        table[column] = table[source] * ELO_PER_LOG
    table = table.sort_values(["rating", "strategy"], ascending=[False, True], ignore_index=True)
    if seat_advantage:
        h, h_se = float(fit.x[-1]), float(math.sqrt(cov_beta[-1, -1]))
        table.attrs["seat_advantage"] = (h, h - z * h_se, h + z * h_se)
        table.attrs["seat_advantage_se"] = h_se
    else:
        table.attrs["seat_advantage"] = None
        table.attrs["seat_advantage_se"] = None
    table.attrs["covariance"] = pd.DataFrame(cov, index=names, columns=names)
    table.attrs["confidence"] = confidence
    table.attrs["prior_sd"] = prior_sd
    table.attrs["matches"] = len(outcomes)
    table.attrs["dropped"] = outcomes.attrs["dropped"]
    return table


def rating_difference(ratings: pd.DataFrame, a: str, b: str,
                      confidence: float | None = None) -> tuple[float, float, float]:
    """``rating(a) - rating(b)`` from a :func:`bradley_terry` table, with its interval (log-odds of a beating b).

    The interval uses the fitted covariance, so it is narrower than combining the two ratings' own intervals
    would suggest when both share opponents. ``confidence`` defaults to the one the table was fitted with.
    """
    confidence = ratings.attrs["confidence"] if confidence is None else confidence
    _check_confidence(confidence)
    cov = ratings.attrs["covariance"]
    for name in (a, b):
        if name not in cov.index:
            raise ConfigError(f"strategy {name!r}: not in the ratings; rated: {list(cov.index)}")
    rating = ratings.set_index("strategy")["rating"]
    diff = float(rating[a] - rating[b])
    se = math.sqrt(max(cov.loc[a, a] + cov.loc[b, b] - 2.0 * cov.loc[a, b], 0.0))
    z = float(stats.norm.ppf(0.5 + confidence / 2.0))
    return diff, diff - z * se, diff + z * se


def tournament_summary(pairs: pd.DataFrame, confidence: float = 0.95, seat_advantage: bool = True) -> str:
    """A readable report: Bradley-Terry ratings with intervals, the seat advantage and the head-to-head matrix."""
    outcomes = _outcomes(pairs)
    ratings = bradley_terry(outcomes, confidence=confidence, seat_advantage=seat_advantage)
    level = f"{confidence:.0%}"
    shown = pd.DataFrame({
        "strategy": ratings["strategy"],
        "rating": ratings["rating"].map("{:+.3f}".format),
        f"{level} CI": [f"[{lo:+.3f}, {hi:+.3f}]" for lo, hi in zip(ratings["ci_low"], ratings["ci_high"],
                                                                      strict=True)],
        "elo": ratings["elo"].map("{:+.0f}".format),
        "matches": ratings["matches"],
        "score": ratings["score"].map("{:.3f}".format),
    })
    lines = [f"Bradley-Terry ratings: {ratings.attrs['matches']} matches"
             + (f" ({ratings.attrs['dropped']} without a winner left out)" if ratings.attrs["dropped"] else ""),
             shown.to_string(index=False)]
    seat = ratings.attrs["seat_advantage"]
    if seat is not None:
        low, est, high = (round(v, 3) + 0.0 for v in (seat[1], seat[0], seat[2]))  # + 0.0: no "-0.000"
        lines.append(f"First-seat advantage (log-odds): {est:+.3f}, {level} CI [{low:+.3f}, {high:+.3f}]")
    matrix = head_to_head(outcomes)
    lines += ["", "Head-to-head: mean score of the row strategy against the column strategy",
              matrix.to_string(float_format="{:.3f}".format, na_rep="-")]
    return "\n".join(lines)
