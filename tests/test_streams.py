"""A match's random streams (kemps_sim.streams): each draws exactly as numpy's SeedSequence child at its key, and a
stream handed out as its maker is built only when drawn from."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kemps_sim.agent import Agent
from kemps_sim.engine.seat import STREAM_KEYS, SeatKit
from kemps_sim.errors import ConfigError
from kemps_sim.gestures import DEFAULT_REPERTOIRE
from kemps_sim.intents import Wait
from kemps_sim.profiles import DEFAULT_PROFILE
from kemps_sim.streams import Streams, built, uint32_words
from kemps_sim.timing import BlockSampler, ExGaussian

#: Whole numbers of one word, of several words, and at the words' edges.
WHOLE = st.one_of(st.integers(0, 2**32 - 1), st.integers(0, 2**130),
                  st.sampled_from([0, 1, 2**32 - 1, 2**32, 2**64 - 1, 2**64, 2**96, 2**128 - 1]))


def numpy_stream(seed: int, key: tuple[int, ...]) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


@settings(max_examples=400, deadline=None)
@given(seed=WHOLE, prefix=st.lists(WHOLE, max_size=3), key=st.lists(WHOLE, max_size=3))
def test_a_stream_is_numpys_child_at_its_key(seed: int, prefix: list[int], key: list[int]) -> None:
    ours = Streams(seed, tuple(prefix)).generator(*key)
    assert ours.bit_generator.state == numpy_stream(seed, (*prefix, *key)).bit_generator.state


def test_the_words_of_a_whole_number_are_numpys() -> None:
    from numpy.random.bit_generator import _coerce_to_uint32_array  # numpy's own reading, private: checked here only

    for value in (0, 1, 2**32 - 1, 2**32, 12345678901234567890, 2**200 + 5):
        assert uint32_words(value) == _coerce_to_uint32_array(value).tolist()


def test_child_sequence_and_under_address_the_same_streams() -> None:
    streams = Streams(77)
    seat = streams.child(4, 2)
    assert seat.generator(5).bit_generator.state == numpy_stream(77, (4, 2, 5)).bit_generator.state
    assert Streams.under(np.random.SeedSequence(77, spawn_key=(4, 2))).generator(5).random() == \
        numpy_stream(77, (4, 2, 5)).random()
    true = streams.sequence(3, 1)  # an agent's: a real SeedSequence it may spawn from
    assert isinstance(true, np.random.SeedSequence) and true.spawn_key == (3, 1)
    assert np.random.default_rng(true.spawn(1)[0]).random() == numpy_stream(77, (3, 1, 0)).random()


def test_a_stream_without_a_key_is_the_seeds_own() -> None:
    assert Streams(9).generator().random() == np.random.default_rng(np.random.SeedSequence(9)).random()


@pytest.mark.parametrize("seed", [-1, 1.5, True, "3"])
def test_a_bad_seed_is_refused_by_name(seed: object) -> None:
    with pytest.raises(ConfigError, match=r"^Streams\.seed = "):
        Streams(seed)  # type: ignore[arg-type]


def test_a_sequence_of_many_words_has_no_streams_of_its_own() -> None:
    with pytest.raises(ConfigError, match=r"Streams.under: the sequence's entropy is \[1, 2\]; must be a whole"):
        Streams.under(np.random.SeedSequence([1, 2]))


def test_a_maker_builds_its_stream_only_when_drawn_from() -> None:
    built_count = 0

    def maker() -> np.random.Generator:
        nonlocal built_count
        built_count += 1
        return numpy_stream(5, (1,))

    sampler = BlockSampler(ExGaussian(0.3, 0.02, 0.05), maker, block=4)
    assert built_count == 0
    draws = [sampler.next() for _ in range(9)]  # three blocks, one generator
    assert built_count == 1
    eager = BlockSampler(ExGaussian(0.3, 0.02, 0.05), numpy_stream(5, (1,)), block=4)
    assert draws == [eager.next() for _ in range(9)]
    rng = numpy_stream(6, ())
    assert built(rng) is rng


class Idle(Agent):
    def decide(self, obs: object) -> Wait:
        return Wait()


def test_a_seats_streams_are_its_seeds_children_whichever_way_given() -> None:
    """SeatKit.build takes the seat's SeedSequence (or its Streams); every timing it draws is that of the seed's
    child at the quantity's key, whether or not the stream was built before."""
    sequence = np.random.SeedSequence(31, spawn_key=(4, 0))
    for given_seed in (sequence, Streams.under(sequence)):
        kit = SeatKit.build(0, Idle(), "idle", DEFAULT_PROFILE, 4, DEFAULT_REPERTOIRE, False, given_seed)
        for name in ("reaction", "reach", "card_read"):
            expected = DEFAULT_PROFILE.sampler(name, numpy_stream(31, (4, 0, STREAM_KEYS[name])))
            assert [kit.samplers[name].next() for _ in range(300)] == [expected.next() for _ in range(300)]
        assert not isinstance(kit.slip_rng, np.random.Generator)  # not built until a slip is weighed
        kit.slips(0.5)
        assert kit.slip_rng.bit_generator.state == _advanced(numpy_stream(31, (4, 0, STREAM_KEYS["slips"])))


def _advanced(rng: np.random.Generator) -> dict:
    rng.random()
    return rng.bit_generator.state

