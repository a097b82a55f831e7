"""Snap's rules as one frozen, validated configuration object: every point where tables play it differently is a
knob, declared with :func:`kemps_sim.knobs.knob` so that checks, "did you mean" and one-line errors come from the
library.

Fixed rather than knobs: the cards are dealt one at a time round the table from a shuffled pack (some players may
get one card more); a player turns the top card of its face-down pile onto its own face-up pile, and turns the
face-up pile over as its new face-down pile when the face-down pile runs out; two face-up piles *match* when their
top cards share a rank; a right call takes every face-up pile whose top shares a matched rank; a player left with
no card is out of the match (it turns nothing and calls nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from kemps_sim.knobs import KnobSpec, check_names, knob, specs_of, validate


@dataclass(frozen=True)
class SnapRules:
    """The resolved rules of one Snap match. Defaults are the ``classic`` preset."""

    players: int = knob(2, KnobSpec("int", "players at the table, each with a face-down and a face-up pile",
                                    minimum=2, maximum=4))
    decks: int = knob(1, KnobSpec("int", "52-card packs shuffled together and dealt out", minimum=1, maximum=2))
    false_call_penalty: int = knob(1, KnobSpec(
        "int", "cards a false caller gives each other player still in (from its face-down pile, then the bottom of "
        "its face-up pile)", minimum=0, maximum=5))
    late_calls_pay: bool = knob(False, KnobSpec(
        "bool", "a call on a match that was taken or covered before the call was heard pays the false-call penalty "
        "too (off: it costs nothing, the race was lost)"))
    max_seconds: int = knob(600, KnobSpec(
        "int", "simulated seconds after which the match stops; the player holding most cards wins (a tie for most "
        "is a draw)", minimum=1, maximum=36000))

    def __post_init__(self) -> None:
        validate(self)

    @property
    def cards(self) -> int:
        """How many cards are in play."""
        return 52 * self.decks

    def as_dict(self) -> dict[str, Any]:
        """Every knob with its value, in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def knob_specs() -> dict[str, KnobSpec]:
    """Every knob's specification, in declaration order."""
    return specs_of(SnapRules)


def check_knob_names(names: Mapping[str, Any]) -> None:
    """Refuse any name that is not a Snap knob, suggesting the closest one."""
    check_names(knob_specs(), names, "Snap rule knob")
