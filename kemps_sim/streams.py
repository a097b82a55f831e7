"""The random streams of a match, each numpy's child of ``SeedSequence(seed)`` at a fixed key, built cheaply and only
when drawn from.

A match has about 65 streams (eleven a seat, two a round, the dealer's and the pairs' candidate signals). Built as
``np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))`` each cost about 10 µs, 7 % of a compiled
match, most of it numpy turning the seed and the key into 32-bit words one Python integer at a time. numpy mixes
the seed's words, padded with zeros to its pool size, followed by the key's words; a ``SeedSequence`` given that
same array of words as its entropy mixes the same pool and so draws the same numbers (a test compares the
generators' states for thousands of seeds and keys), for about half the cost. A stream a match may never draw from
(the round's tie-breaks, a fixed gesture time, slips) is handed out as its maker and built at its first draw.

Only the engine's own streams are built this way: an agent gets a true ``SeedSequence``'s generator, which it may
``spawn`` from.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kemps_sim.errors import ConfigError

#: Words in numpy's ``SeedSequence`` pool (``DEFAULT_POOL_SIZE``): the seed's words are padded to it before a key's.
POOL_SIZE = 4
_WORD = 0xFFFFFFFF

#: A generator, or a function that builds it when it is first needed.
GeneratorOrMaker = np.random.Generator | Callable[[], np.random.Generator]


def uint32_words(value: int) -> list[int]:
    """``value`` (a whole number >= 0) as numpy reads an integer into a seed: 32-bit words, least significant first
    (0 is one word)."""
    words = [value & _WORD]
    value >>= 32
    while value:
        words.append(value & _WORD)
        value >>= 32
    return words


class Streams:
    """The streams under ``SeedSequence(seed, spawn_key=prefix)``: :meth:`generator` draws exactly as
    ``np.random.default_rng(np.random.SeedSequence(seed, spawn_key=prefix + key))``."""

    __slots__ = ("_words", "prefix", "seed")

    def __init__(self, seed: int, prefix: tuple[int, ...] = ()) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ConfigError(f"Streams.seed = {seed!r}: must be a whole number >= 0")
        self.seed = seed
        self.prefix = prefix
        run = uint32_words(seed)
        self._words = run + [0] * (POOL_SIZE - len(run)) + [w for k in prefix for w in uint32_words(k)]

    @classmethod
    def under(cls, sequence: np.random.SeedSequence) -> Streams:
        """The streams under ``sequence`` (one built from a whole-number seed and a spawn key)."""
        entropy = sequence.entropy
        if not isinstance(entropy, int | np.integer):
            raise ConfigError(f"Streams.under: the sequence's entropy is {entropy!r}; must be a whole number (a "
                              "SeedSequence built from one seed)")
        return cls(int(entropy), tuple(int(k) for k in sequence.spawn_key))

    def child(self, *key: int) -> Streams:
        """The streams under this prefix followed by ``key``."""
        return Streams(self.seed, self.prefix + key)

    def sequence(self, *key: int) -> np.random.SeedSequence:
        """The true ``SeedSequence`` of the stream at ``key`` (for code that may spawn from it, such as an agent)."""
        return np.random.SeedSequence(self.seed, spawn_key=self.prefix + key)

    def generator(self, *key: int) -> np.random.Generator:
        """The generator of the stream at ``key`` under the prefix."""
        if not self.prefix and not key:  # no key: numpy pads nothing
            return np.random.default_rng(np.random.SeedSequence(self.seed))
        words = self._words + [w for k in key for w in uint32_words(k)]
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(np.array(words, dtype=np.uint32))))

    def later(self, *key: int) -> Callable[[], np.random.Generator]:
        """A maker of the stream at ``key``, for a stream that may never be drawn from."""
        return lambda: self.generator(*key)


def built(rng: GeneratorOrMaker) -> np.random.Generator:
    """``rng`` itself, or the generator its maker builds."""
    return rng if isinstance(rng, np.random.Generator) else rng()
