""""Did you mean ...?" for every name a user can mistype: presets, agents, agent parameters, sweep axes and spec
keys, table names, metric names and rule knobs.

One helper, so that every one-line error offers its suggestion the same way: the closest allowed name by
:func:`difflib.get_close_matches` (compared without regard to case, so ``Collector`` finds ``collector``), or
nothing when no allowed name is close enough to be a likely slip.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: How alike (difflib's ratio, 0 to 1) a name must be to an allowed one to be suggested; difflib's own default.
CUTOFF = 0.6


def closest(name: object, choices: Iterable[object]) -> str | None:
    """The allowed name closest to ``name`` (as text), or None when none is close enough or ``name`` is allowed."""
    options = [str(choice) for choice in choices]
    text = str(name)
    if text in options:
        return None
    lowered: dict[str, str] = {}
    for option in options:
        lowered.setdefault(option.lower(), option)
    found = difflib.get_close_matches(text.lower(), list(lowered), n=1, cutoff=CUTOFF)
    return lowered[found[0]] if found else None


def did_you_mean(name: object, choices: Iterable[object]) -> str:
    """``" (did you mean X?)"`` for the allowed name X closest to ``name``, or ``""`` when there is none: ready to
    append to the part of an error message that names the mistyped value."""
    found = closest(name, choices)
    return f" (did you mean {found}?)" if found is not None else ""
