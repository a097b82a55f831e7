"""Words for the codes found in tables and traces, and for parameters and numbers, so that every figure names things
the same way."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from kemps_sim.metrics import every
from kemps_sim.metrics import names as metric_names

#: The call-accuracy metrics of ``kemps_sim.stats.call_accuracy``, in the order they are drawn (the metric
#: registry's ``accuracy`` role).
METRICS: tuple[str, ...] = metric_names(role="accuracy")
#: How each metric reads in a legend: precision is per call, conversion per four of a kind collected (each
#: metric's caption in the registry).
METRIC_LABELS: dict[str, str] = {metric.name: metric.figure_caption for metric in every(role="accuracy")}
#: The spoken call of each ``CallHeard.call`` code.
CALL_WORDS: dict[str, str] = {"kemps": "Kemps!", "stop_kemps": "Stop Kemps!", "double_kemps": "Double Kemps!"}


def outcome_text(outcome: str) -> str:
    """``kemps_right`` as ``kemps right``, ``void_pack_exhausted`` as ``void pack exhausted``."""
    return str(outcome).replace("_", " ")


#: A parameter of one pair's or one player's seats: ``pair1.agent.caution``, ``player0.profile.reach.median``.
_OWNED = re.compile(r"^(pair|player|seat)(\d+)\.(.+)$")
#: What a sweep's key starts with whatever it sets, left out of labels: the rules, every seat's profile, its agent.
_SCOPES = ("rules.", "profile.", "agent.")


def param_label(column: str) -> str:
    """How a swept parameter reads on a figure: short, but never so short that two parameters read alike.

    The scope every key of its kind shares is left out and the rest kept, so that the field tells like parameters
    apart: ``rules.double_kemps`` reads ``double_kemps``, ``profile.reaction.mu`` reads ``reaction.mu``; whose
    parameter it is stays in words: ``pair1.agent.caution`` reads ``pair 1 caution``,
    ``player0.profile.reach.median`` reads ``player 0 reach.median``. Any other column is left as it is.
    """
    text, owner = str(column), ""
    owned = _OWNED.match(text)
    if owned:
        owner, text = f"{owned[1]} {owned[2]} ", owned[3]
    for scope in _SCOPES:
        if text.startswith(scope) and len(text) > len(scope):
            text = text[len(scope):]
            break
    return owner + text


def param_labels(columns: Sequence[str]) -> list[str]:
    """:func:`param_label` of each column, with the full column name wherever two would read the same."""
    labels = [param_label(c) for c in columns]
    return [str(c) if labels.count(label) > 1 else label for c, label in zip(columns, labels, strict=True)]


def value_text(value: Any) -> str:
    """A value as a label shows it: floats as :func:`number` writes them, anything else as text."""
    if isinstance(value, float | np.floating):
        return number(float(value))
    return str(value)


def number(value: float, digits: int = 3) -> str:
    """A number as a label shows it: ``digits`` significant digits, no trailing zeros, no exponent below 10**6.

    ``0.478879`` reads ``0.479``, ``2.0`` reads ``2``, ``12345.6`` reads ``12300``; whole numbers given as ``int``
    are written out in full (they are counts or identifiers, not measurements).
    """
    if isinstance(value, bool | np.bool_):
        return str(value)
    if isinstance(value, int | np.integer):
        return str(int(value))
    value = float(value)
    if not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    if magnitude >= 6 or magnitude < -4:
        return f"{value:.{digits}g}"
    rounded = round(value, digits - 1 - magnitude)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.{max(digits - 1 - magnitude, 0)}f}".rstrip("0").rstrip(".")


def numbers(values: Sequence[Any], digits: int = 3) -> list[str]:
    """Labels for several values: :func:`number`, with more digits when three would make two distinct values alike."""
    labels = [value_text(v) for v in values]
    while len(set(labels)) < len(set(values)) and digits < 10:
        digits += 1
        labels = [number(v, digits) if isinstance(v, float | np.floating) else value_text(v) for v in values]
    return labels
