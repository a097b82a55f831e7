"""How pairs agree their signals: a pool of natural gestures, dealt so that no two pairs pick the same one.

Before the first deal each pair agrees a secret signal (004, 000). A good one is "small, natural and easy to
repeat"; "anything you would never do otherwise is spotted the first time you do it" (004). So the pool is the
gestures allowed under ``rules.signal_modality`` that a person makes by accident between
:data:`NATURAL_LOW_PER_HOUR` and :data:`NATURAL_HIGH_PER_HOUR` times an hour: often enough to hide among fidgets,
but not so often that a partner could never tell the signal from the fidgets (a blink, 1200 an hour). Of those, a
pair picks something seen: a sound (a tap, a code word) reaches every ear at the table at once, while a glance only
reaches the eyes that are on the signaller, so a heard signal is no secret; heard gestures join the pool only when
there are fewer seen ones than pairs. With the default repertoire the pool is the touches of the face (cheek,
chin, ear, nose, ...) and a nod; a cough (0.25 an hour) or a yawn (0.6) would be spotted the first time.

Pairs choose secretly, yet at a real table they rarely choose the same gesture, and a pair whose signal has been
seen called moves on to another (004: "once the other pair has seen a signal called, they know it"). The engine
models that with :func:`deal_candidates`: at the start of a match the pool is shuffled and dealt round robin, one
tuple of candidates per pair, the pair's own secret (only its seats' observations carry it). A pair signals with
its first candidate and, under the ``convention`` signal policy (:mod:`agents.signal_choice`), moves to the next
once its signal is blown.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from kemps_sim.errors import ConfigError
from kemps_sim.gestures import Repertoire

#: Fewer accidental occurrences an hour than this and a deliberate one stands out: "anything you would never do
#: otherwise is spotted the first time you do it" (004). A cough (0.25/h, Holt et al. 2016) and a yawn (0.6/h)
#: fall below it; a face touch of one region (about 2.6/h, Kwok et al. 2015) is above it. The threshold itself is
#: an estimate between those rates.
NATURAL_LOW_PER_HOUR = 1.0
#: More accidental occurrences an hour than this and the partner can never tell the signal from the fidgets (a
#: blink, about 1200/h, Bentivoglio et al. 1997): such a gesture is "hopeless" as a signal. Estimate: once a minute.
NATURAL_HIGH_PER_HOUR = 60.0


def _check_rate(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise ConfigError(f"{name} = {value!r}: must be a number of gestures per hour >= 0")
    return float(value)


def natural_among(repertoire: Repertoire, names: Sequence[str], low_per_hour: float = NATURAL_LOW_PER_HOUR,
                  high_per_hour: float = NATURAL_HIGH_PER_HOUR) -> tuple[str, ...]:
    """The gestures of ``names`` whose natural rate lies between ``low`` and ``high`` per hour (both included),
    in the order given. A name the repertoire does not know has no known rate and counts as natural."""
    low = _check_rate("low_per_hour", low_per_hour)
    high = _check_rate("high_per_hour", high_per_hour)
    if low > high:
        raise ConfigError(f"low_per_hour = {low_per_hour!r}: must not exceed high_per_hour = {high_per_hour!r}")
    return tuple(name for name in names
                 if name not in repertoire or low <= repertoire[name].fidget_rate_per_hour <= high)


def natural_signals(repertoire: Repertoire, modality_rule: str, low_per_hour: float = NATURAL_LOW_PER_HOUR,
                    high_per_hour: float = NATURAL_HIGH_PER_HOUR, pairs: int = 1) -> tuple[str, ...]:
    """The gestures a pair would choose as its signal under ``modality_rule``: allowed, seen rather than heard, and
    made by accident between ``low`` and ``high`` times an hour, in name order; the heard ones of that band too when
    fewer than ``pairs`` are seen.

    If none is (a repertoire of rare or frantic gestures only), the allowed gestures not above ``high`` (a blink
    stays hopeless), and if those are none either, every allowed gesture: a pair must signal with something.
    """
    allowed = tuple(g.name for g in repertoire.allowed_signals(modality_rule))
    pool = natural_among(repertoire, allowed, low_per_hour, high_per_hour)
    seen = tuple(name for name in pool if name in repertoire and not repertoire[name].heard)
    if len(seen) >= pairs:
        return seen
    if pool:
        return pool
    return natural_among(repertoire, allowed, 0.0, high_per_hour) or allowed


def deal_candidates(pool: Sequence[str], pairs: int, rng: np.random.Generator) -> tuple[tuple[str, ...], ...]:
    """One tuple of candidate signals per pair: ``pool`` shuffled by ``rng`` and dealt round robin, so that the
    pairs' candidates are disjoint (and their first ones distinct) whenever the pool holds at least one gesture per
    pair. Pair ``p`` gets the shuffled gestures ``p``, ``p + pairs``, ``p + 2·pairs``, ...

    With fewer gestures than pairs, no deal can keep them apart: each pair gets the whole shuffled pool, turned to
    start at gesture ``p`` modulo its size (a cycle), so that the first ``len(pool)`` pairs still start apart and
    every pair has somewhere to move to once its signal is seen.
    """
    names = tuple(pool)
    if isinstance(pairs, bool) or not isinstance(pairs, int) or pairs < 1:
        raise ConfigError(f"pairs = {pairs!r}: must be a whole number >= 1")
    if not names or len(set(names)) != len(names) or not all(isinstance(n, str) and n for n in names):
        raise ConfigError(f"pool = {names!r}: must be one or more distinct gesture names")
    shuffled = [names[i] for i in rng.permutation(len(names))]
    if len(shuffled) >= pairs:
        return tuple(tuple(shuffled[p::pairs]) for p in range(pairs))
    k = len(shuffled)
    return tuple(tuple(shuffled[p % k:] + shuffled[:p % k]) for p in range(pairs))
