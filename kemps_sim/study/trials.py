"""From a study's tables (:mod:`kemps_sim.study.schema`) to trials a human parameter can be fitted to: a reaction
and a reach per card a person took from the middle, and a detection trial per partner's gesture shown to them.

Every time is measured on the page's own clock (``client_time``, the clock a key press and the drawing it answered
share) and divided by the session's ``factor`` (wall seconds per simulated second; 1 in a real study), so trials
are in the model's seconds; the caps and windows below are in those seconds too. Pure pandas: nothing here fits.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from kemps_sim.errors import ConfigError

#: Reactions longer than this (model seconds) are taken for inattention, not a reaction to the card, and dropped.
REACTION_CAP = 5.0
#: A call this long (model seconds) or less after a partner's gesture was drawn counts as the person's response.
CALL_WINDOW = 3.0
#: No call comes sooner than this (model seconds) after the gesture it answers: a spoken response to something
#: seen takes a perception and a vocal reaction (about 0.2 s each at the fastest).
MIN_CALL_LATENCY = 0.2
#: The calls that answer a partner's signal.
RESPONSE_CALLS = ("kemps", "double_kemps")
#: The swaps a person made in answer to the middle: played ones, and refused ones (the card was gone when the
#: click arrived, but the person had still reacted to it).
SWAP_STATUSES = ("played", "refused")
_PERSON = ["session", "participant"]


def session_factors(sessions: pd.DataFrame) -> pd.Series:
    """Each session's ``factor`` (wall seconds per simulated second), indexed by session: a session that does not
    record one ran on the wall's clock (1); a factor that is not a number > 0 is a :class:`ConfigError`."""
    out = {}
    for session, factor in sessions.groupby("session", sort=True)["factor"].first().items():
        value = 1.0 if factor is None or (isinstance(factor, float) and math.isnan(factor)) else factor
        if isinstance(value, bool) or not isinstance(value, int | float | np.number) or not 0 < value < math.inf:
            raise ConfigError(f"session {session}: factor = {factor!r}: must be a number > 0 (wall seconds per "
                              "simulated second; 1 at a real table)")
        out[session] = float(value)
    return pd.Series(out, name="factor", dtype="float64")


def card_numbers(text: object) -> list[int]:
    """The card numbers of a space-separated text (a ``take`` or ``middle`` column); none for missing text."""
    if not isinstance(text, str):
        return []
    return [int(word) for word in text.split()]


def swap_trials(tables: Mapping[str, pd.DataFrame], cap: float = REACTION_CAP,
                keep_excluded: bool = False) -> pd.DataFrame:
    """One reaction-and-reach trial per card taken by a swap, in model seconds.

    A trial is each card of ``take`` of an ``inputs`` row with kind swap and status played or refused. Its stimulus
    is the card's arrival in the middle as that person's page drew it: of the person's ``draws`` rows with what
    view, those whose ``middle`` holds the card without a break (consecutive views, one round) up to the swap's
    last click, the first one (a card that left the middle and came back arrived again). Then
    ``reaction = (first_client_time - stimulus client_time) / factor`` (first click: the person had reacted) and
    ``reach = (client_time - first_client_time) / factor`` (from the first click to the last).

    A trial is kept when a stimulus was drawn in the round the swap was played or refused in, the reaction is
    above 0 (a person who chose the hand card before the card appeared did not react to it) and at most ``cap``
    seconds (longer is inattention). ``keep_excluded`` returns the other trials too, with the reason in
    ``excluded`` (empty for a kept trial). Columns: session, participant, seat, input, round, card,
    stimulus_message, stimulus_client_time, first_client_time, client_time, factor, reaction, reach, excluded.
    """
    cap = _positive("cap", cap)
    inputs, draws = _table(tables, "inputs"), _table(tables, "draws")
    factors = session_factors(_table(tables, "sessions"))
    swaps = inputs[(inputs["kind"] == "swap") & inputs["status"].isin(SWAP_STATUSES)]
    swaps = swaps.dropna(subset=["client_time", "first_client_time"])
    swaps = _explode_cards(swaps[[*_PERSON, "seat", "input", "round", "take", "first_client_time", "client_time"]],
                           "take")
    arrivals = _arrivals(draws)
    swaps = swaps.sort_values("client_time", kind="stable")
    trials = pd.merge_asof(swaps, arrivals, left_on="client_time", right_on="shown_client_time",
                           by=[*_PERSON, "card"], direction="backward")
    trials["factor"] = trials["session"].map(factors).astype("float64")
    trials["reaction"] = (trials["first_client_time"] - trials["stimulus_client_time"]) / trials["factor"]
    trials["reach"] = (trials["client_time"] - trials["first_client_time"]) / trials["factor"]
    reasons = np.select(
        [trials["stimulus_client_time"].isna(), trials["stimulus_round"] != trials["round"],
         ~(trials["reaction"] > 0), trials["reaction"] > cap],
        ["card never drawn in the middle before the click", "stimulus drawn in another round",
         "first click before the card was drawn", f"reaction over the cap of {cap:g} s"], default="")
    trials["excluded"] = pd.Series(reasons, index=trials.index, dtype="string")
    columns = [*_PERSON, "seat", "input", "round", "card", "stimulus_message", "stimulus_client_time",
               "first_client_time", "client_time", "factor", "reaction", "reach", "excluded"]
    trials = trials.sort_values([*_PERSON, "input", "card"], kind="stable")[columns].reset_index(drop=True)
    trials["stimulus_message"] = trials["stimulus_message"].astype("Int64")
    return trials if keep_excluded else trials[trials["excluded"] == ""].reset_index(drop=True)


def detection_trials(tables: Mapping[str, pd.DataFrame], window: float = CALL_WINDOW) -> pd.DataFrame:
    """One detection trial per partner's gesture shown to a person, in model seconds.

    A trial is each ``gestures_shown`` row with relation partner and the form of the person's own pair's signal
    (``own_signal``: the gestures a person answers; a meant gesture of another form is the partner's decoy, not a
    signal) whose drawing (its ``draws`` row: same session, participant and message) has a page time. ``signal`` is
    whether the gesture was meant (``deliberate``); ``response`` whether the person called kemps or double_kemps (an
    ``inputs`` row of kind call, any status but invalid) at least :data:`MIN_CALL_LATENCY` and at most ``window``
    seconds after the drawing, with no other such gesture of the partner drawn in between: a call answers the partner's
    last gesture before it (a person does not say which gesture they answer; an idle gesture just after a meant one
    takes the call, so the fewer gestures fall within a call's latency, the truer the trials). ``latency`` is the time
    from the drawing to the call (NaN without a response); ``alone`` whether the trial was the only gesture the call
    could have answered (its latency is then certain). Columns: session, participant, seat, message, round, gesture,
    signal, draw_client_time, call_client_time, factor, response, latency, alone.
    """
    window = _positive("window", window)
    shown, draws = _table(tables, "gestures_shown"), _table(tables, "draws")
    inputs = _table(tables, "inputs")
    factors = session_factors(_table(tables, "sessions"))
    partner = shown[(shown["relation"] == "partner") & shown["deliberate"].notna()
                    & shown["own_signal"].fillna(False).astype(bool)]
    drawn = draws[[*_PERSON, "message", "client_time"]].rename(columns={"client_time": "draw_client_time"})
    trials = partner[[*_PERSON, "seat", "message", "round", "gesture", "deliberate"]].merge(
        drawn.drop_duplicates([*_PERSON, "message"]), on=[*_PERSON, "message"], how="inner")
    trials = trials.dropna(subset=["draw_client_time"]).sort_values("draw_client_time", kind="stable")
    trials = trials[trials["session"].isin(factors.index)]
    calls = inputs[(inputs["kind"] == "call") & inputs["call"].isin(RESPONSE_CALLS) & (inputs["status"] != "invalid")]
    calls = calls[[*_PERSON, "client_time"]].dropna().rename(columns={"client_time": "call_client_time"})
    calls = calls[calls["session"].isin(factors.index)]  # only the sessions the sessions table names
    calls = calls.sort_values("call_client_time", kind="stable")
    # the gesture a call answers is the last one drawn at least MIN_CALL_LATENCY before it (model seconds, here
    # turned into page seconds by each session's factor): nothing said sooner can answer what was seen
    scale = calls["session"].map(factors).astype("float64")
    calls["answerable_from"] = (calls["call_client_time"].astype("float64") - MIN_CALL_LATENCY * scale).astype(
        trials["draw_client_time"].dtype)
    trials = pd.merge_asof(trials, calls.sort_values("answerable_from", kind="stable"), left_on="draw_client_time",
                           right_on="answerable_from", by=_PERSON, direction="forward")
    trials["factor"] = trials["session"].map(factors).astype("float64")
    latency = (trials["call_client_time"] - trials["draw_client_time"]) / trials["factor"]
    trials = trials.drop(columns="answerable_from")
    answered = trials.groupby([*_PERSON, "call_client_time"])["draw_client_time"].transform("max")
    trials["response"] = ((latency <= window) & (trials["draw_client_time"] == answered)).astype(bool)
    trials["latency"] = latency.where(trials["response"])
    trials["call_client_time"] = trials["call_client_time"].where(trials["response"])
    trials["signal"] = trials["deliberate"].astype(bool)
    trials["alone"] = _alone(trials, window, factors)
    columns = [*_PERSON, "seat", "message", "round", "gesture", "signal", "draw_client_time", "call_client_time",
               "factor", "response", "latency", "alone"]
    return trials.sort_values([*_PERSON, "message"], kind="stable")[columns].reset_index(drop=True)


def _alone(trials: pd.DataFrame, window: float, factors: pd.Series) -> pd.Series:
    """For each answered trial, whether it was the only gesture the call could have answered (no other drawn from
    ``window`` to :data:`MIN_CALL_LATENCY` before the call): its latency is then the call's for sure. The span looked
    at has the same length whatever the latency, so keeping only these does not favour short or long latencies."""
    alone = pd.Series(False, index=trials.index)
    for _, person in trials.groupby(_PERSON, sort=False):
        draws = np.sort(person["draw_client_time"].to_numpy(dtype=float))
        answered = person[person["response"]]
        scale = answered["session"].map(factors).to_numpy(dtype=float)
        calls = answered["call_client_time"].to_numpy(dtype=float)
        first = np.searchsorted(draws, calls - window * scale, side="left")
        last = np.searchsorted(draws, calls - MIN_CALL_LATENCY * scale, side="right")
        alone.loc[answered.index] = (last - first) == 1
    return alone


def _arrivals(draws: pd.DataFrame) -> pd.DataFrame:
    """Every (view, card in its middle) with when that card's unbroken stay in the middle began: its arrival."""
    views = draws[(draws["what"] == "view") & draws["client_time"].notna()]
    views = views.sort_values([*_PERSON, "message"], kind="stable")
    views = views.assign(position=views.groupby(_PERSON, sort=False).cumcount())
    shown = _explode_cards(views[[*_PERSON, "message", "round", "position", "client_time", "middle"]], "middle")
    shown = shown.sort_values([*_PERSON, "card", "position"], kind="stable")
    same = shown.groupby([*_PERSON, "card"], sort=False)
    arrived = (same["position"].shift() != shown["position"] - 1) | (same["round"].shift() != shown["round"])
    stay = arrived.cumsum()
    shown = shown.assign(stimulus_message=shown.groupby(stay)["message"].transform("first"),
                         stimulus_client_time=shown.groupby(stay)["client_time"].transform("first"),
                         stimulus_round=shown.groupby(stay)["round"].transform("first"))
    shown = shown.rename(columns={"client_time": "shown_client_time"})
    columns = [*_PERSON, "card", "shown_client_time", "stimulus_message", "stimulus_client_time", "stimulus_round"]
    return shown[columns].sort_values("shown_client_time", kind="stable")


def _explode_cards(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """One row per card number of ``column`` (rows without any are dropped), the card in ``card``."""
    out = frame.assign(card=frame[column].map(card_numbers)).explode("card").drop(columns=[column])
    out = out[out["card"].notna()]
    return out.assign(card=out["card"].astype("int64"))


def _table(tables: Mapping[str, pd.DataFrame], name: str) -> pd.DataFrame:
    if name not in tables:
        raise ConfigError(f"tables[{name!r}]: missing; give what kemps_sim.study.load_sessions returns")
    return tables[name]


def _positive(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:
        raise ConfigError(f"{name} = {value!r}: must be a number of seconds > 0")
    return float(value)
