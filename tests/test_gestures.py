"""Tests of the gesture repertoire: default rates and their sources, validation, signal rules, fidget streams."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE, FidgetStream, Gesture, Repertoire

K = 5  # tolerance in standard errors


def test_default_repertoire_has_the_classic_signals_in_name_order() -> None:
    names = DEFAULT_REPERTOIRE.names
    for name in ("ear", "nose", "chin", "mouth", "eye_rub", "blink", "cough", "yawn", "word", "nod", "tap"):
        assert name in DEFAULT_REPERTOIRE
    assert list(names) == sorted(names)
    assert [g.name for g in DEFAULT_REPERTOIRE] == list(names) and len(DEFAULT_REPERTOIRE) == len(names)


def test_default_rates_follow_their_sources() -> None:
    rate = {g.name: g.fidget_rate_per_hour for g in DEFAULT_REPERTOIRE}
    mucosal = 23 * 0.44  # Kwok et al. 2015
    assert rate["nose"] == pytest.approx(mucosal * 0.31, abs=0.01)
    assert rate["mouth"] == pytest.approx(mucosal * 0.36, abs=0.01)
    assert rate["eye_rub"] == pytest.approx(mucosal * 0.27, abs=0.01)
    assert rate["ear"] + rate["chin"] < 23 * 0.56  # both inside the non-mucosal share
    assert rate["blink"] == 1200  # ≈20/min, Bentivoglio et al.
    assert rate["cough"] == 0.25 and rate["yawn"] == 0.6
    assert DEFAULT_REPERTOIRE.total_fidget_rate == pytest.approx(sum(rate.values()) / 3600)


def test_modalities_and_spoken_flag() -> None:
    word, cough, ear = (DEFAULT_REPERTOIRE[n] for n in ("word", "cough", "ear"))
    assert word.spoken and word.modality == "heard" and word.heard
    assert cough.modality == "heard" and not cough.spoken
    assert ear.modality == "seen" and not ear.heard
    assert ear.fidget_rate == pytest.approx(ear.fidget_rate_per_hour / 3600)


def test_allowed_signals_follow_the_modality_rule() -> None:
    silent = DEFAULT_REPERTOIRE.allowed_signals("silent")  # 000: no words (a knock on the table is fine)
    assert {g.name for g in DEFAULT_REPERTOIRE} - {g.name for g in silent} == {"word"}
    seen = DEFAULT_REPERTOIRE.allowed_signals("seen_only")  # 004's variant: something seen, not heard
    assert {g.name for g in DEFAULT_REPERTOIRE} - {g.name for g in seen} == {"word", "cough", "tap"}
    assert all(g.modality == "seen" for g in seen)
    assert DEFAULT_REPERTOIRE.allowed_signals("spoken_allowed") == DEFAULT_REPERTOIRE.gestures
    allowed = "silent, seen_only, spoken_allowed"
    with pytest.raises(ConfigError, match=rf"rules.signal_modality = 'loud': must be one of {allowed}"):
        DEFAULT_REPERTOIRE.allowed_signals("loud")


def test_unknown_gesture_lookup() -> None:
    with pytest.raises(ConfigError, match=r"gesture = 'wink': not in the repertoire; allowed: blink, cheek, chin"):
        DEFAULT_REPERTOIRE["wink"]


def _simulate(stream: FidgetStream, seconds: float) -> dict[str, int]:
    counts: dict[str, int] = {}
    t = stream.next_gap()
    while t < seconds:
        kind = stream.next_kind()
        counts[kind] = counts.get(kind, 0) + 1
        t += stream.next_gap()
    return counts


def test_fidget_stream_counts_match_poisson_rates() -> None:
    hours = 40.0
    counts = _simulate(DEFAULT_REPERTOIRE.fidget_stream(np.random.default_rng(21)), hours * 3600)
    for g in DEFAULT_REPERTOIRE:
        expected = g.fidget_rate_per_hour * hours
        assert abs(counts.get(g.name, 0) - expected) <= K * math.sqrt(expected) + 1, g.name


def test_fidget_stream_scale_and_exclude() -> None:
    hours = 400.0
    stream = FidgetStream(DEFAULT_REPERTOIRE, np.random.default_rng(22), scale=2.0, exclude=("blink", "nod"))
    assert stream.kinds == tuple(n for n in DEFAULT_REPERTOIRE.names if n not in ("blink", "nod"))
    counts = _simulate(stream, hours * 3600)
    assert "blink" not in counts and "nod" not in counts
    for name in stream.kinds:
        expected = 2.0 * DEFAULT_REPERTOIRE[name].fidget_rate_per_hour * hours
        assert abs(counts.get(name, 0) - expected) <= K * math.sqrt(expected) + 1, name


def test_fidget_stream_gaps_are_exponential_with_the_total_rate() -> None:
    stream = DEFAULT_REPERTOIRE.fidget_stream(np.random.default_rng(23), exclude=["blink"])
    gaps = np.array([stream.next_gap() for _ in range(20_000)])
    mean = 1 / stream.total_rate
    assert abs(gaps.mean() - mean) <= K * mean / math.sqrt(gaps.size)


def test_fidget_stream_is_deterministic_per_seed() -> None:
    a = DEFAULT_REPERTOIRE.fidget_stream(np.random.default_rng(24))
    b = DEFAULT_REPERTOIRE.fidget_stream(np.random.default_rng(24))
    assert [(a.next_gap(), a.next_kind()) for _ in range(600)] == [(b.next_gap(), b.next_kind()) for _ in range(600)]


def test_fidget_streams_share_their_table_and_draw_as_a_fresh_one() -> None:
    """A repertoire works out a stream's rates once per scale and exclusion: a later stream takes the kept table
    and draws exactly what a stream of a fresh repertoire draws; another scale or exclusion gets its own."""
    repertoire = Repertoire(DEFAULT_REPERTOIRE.gestures)
    first = repertoire.fidget_stream(np.random.default_rng(26), 1.5, ("blink",))
    again = repertoire.fidget_stream(np.random.default_rng(27), 1.5, ("blink",))
    fresh = Repertoire(DEFAULT_REPERTOIRE.gestures).fidget_stream(np.random.default_rng(27), 1.5, ("blink",))
    assert again._cum is first._cum and fresh._cum is not first._cum
    assert [(again.next_gap(), again.next_kind()) for _ in range(600)] == \
        [(fresh.next_gap(), fresh.next_kind()) for _ in range(600)]
    other = repertoire.fidget_stream(np.random.default_rng(26), 1.0, ("blink",))
    assert other.total_rate == pytest.approx(first.total_rate / 1.5)
    assert repertoire.fidget_stream(np.random.default_rng(26), 1.5, ()).kinds == repertoire.names
    with pytest.raises(ConfigError, match=r"fidget_stream.exclude = 'wink': not in the repertoire"):
        repertoire.fidget_stream(np.random.default_rng(26), 1.5, ("blink", "wink"))


def test_fidget_stream_with_no_rate_never_fires() -> None:
    stream = DEFAULT_REPERTOIRE.fidget_stream(np.random.default_rng(25), scale=0.0)
    assert stream.next_gap() == math.inf
    with pytest.raises(RuntimeError):
        stream.next_kind()


def test_fidget_stream_rejects_bad_arguments() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ConfigError, match=r"fidget_stream.scale = -1: must be a number >= 0"):
        FidgetStream(DEFAULT_REPERTOIRE, rng, scale=-1)
    with pytest.raises(ConfigError, match=r"fidget_stream.exclude = 'wink': not in the repertoire; allowed: blink"):
        FidgetStream(DEFAULT_REPERTOIRE, rng, exclude=["wink"])
    with pytest.raises(ConfigError, match=r"fidget_stream.block = 0: must be a whole number >= 1"):
        FidgetStream(DEFAULT_REPERTOIRE, rng, block=0)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"name": "ear", "modality": "felt"}, r"gesture.ear.modality = 'felt': must be one of seen, heard"),
    ({"name": "ear", "fidget_rate_per_hour": -1}, r"gesture.ear.fidget_rate_per_hour = -1: must be a number >= 0"),
    ({"name": "ear", "salience": 0}, r"gesture.ear.salience = 0: must be a number > 0"),
    ({"name": "ear", "spoken": 1}, r"gesture.ear.spoken = 1: must be true or false"),
    ({"name": "ear", "spoken": True}, r"gesture.ear.spoken = true: a spoken gesture must have modality = 'heard'"),
    ({"name": "left ear"}, r"gesture.left ear = 'left ear': a gesture name must be a non-empty word"),
    ({"name": ""}, r"gesture. = '': a gesture name must be a non-empty word"),
])
def test_gesture_validation(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Gesture(**kwargs)  # type: ignore[arg-type]


def test_repertoire_round_trips_and_extends() -> None:
    assert Repertoire.from_mapping(DEFAULT_REPERTOIRE.as_dict()) == DEFAULT_REPERTOIRE
    custom = Repertoire.from_mapping({"thumb": {"fidget_rate_per_hour": 1}, "hum": {
        "modality": "heard", "fidget_rate_per_hour": 0.5, "salience": 2, "spoken": False}})
    assert custom.names == ("hum", "thumb")
    assert custom["thumb"] == Gesture("thumb", "seen", 1.0, 1.0, False)
    bigger = DEFAULT_REPERTOIRE.extended(Gesture("thumb", "seen", 1.0), Gesture("ear", "seen", 9.0))
    assert bigger["ear"].fidget_rate_per_hour == 9.0 and "thumb" in bigger
    assert len(bigger) == len(DEFAULT_REPERTOIRE) + 1


@pytest.mark.parametrize(("data", "message"), [
    ({"thumb": {"modality": "seen"}}, r"repertoire.thumb.fidget_rate_per_hour = \(missing\): must be a number >= 0"),
    ({"thumb": {"fidget_rate_per_hour": 1, "salient": 2}},
     r"repertoire.thumb.salient = 2: not a gesture field \(did you mean salience\?\)"),
    ({"thumb": {"fidget_rate_per_hour": "often"}},
     r"repertoire.thumb.fidget_rate_per_hour = 'often': must be a number"),
    ({"thumb": {"fidget_rate_per_hour": 1, "modality": "smelt"}}, r"repertoire.thumb.modality = 'smelt': must be one"),
    ({"thumb": 3}, r"repertoire.thumb = 3: must be a table with modality"),
    ({}, r"repertoire = \{\}: must name at least one gesture"),
    ([1, 2], r"repertoire = \[1, 2\]: must be a table of gestures"),
])
def test_repertoire_from_mapping_errors_name_the_field(data: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Repertoire.from_mapping(data)


def test_repertoire_rejects_duplicates_and_non_gestures() -> None:
    with pytest.raises(ConfigError, match=r"repertoire.ear: named twice"):
        Repertoire((Gesture("ear", "seen", 1.0), Gesture("ear", "seen", 2.0)))
    with pytest.raises(ConfigError, match=r"repertoire = .*: must be a non-empty list of gestures"):
        Repertoire(("ear",))  # type: ignore[arg-type]
