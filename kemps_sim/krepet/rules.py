# ruff: noqa: RUF009  (knob specs live in dataclass field metadata, as in kemps_sim.rules)
"""Krepet's rules as one frozen, validated configuration object, with a knob wherever the source is ambiguous.

The source (a short German description, seed 002) leaves many things open; each open point is a knob here, and the
``wikibooks`` preset (:mod:`kemps_sim.krepet.presets`) says for every knob whether the source states it or which
reading was taken and why. A :class:`KrepetRules` holds no time and no randomness: it only says what is allowed.

Some points are fixed rather than knobs, because the other readings cannot be played: a draw takes what is left
when the talon holds fewer cards than the turn's draw; a start tie is cut again until the cut cards differ; a
game that both players end stuck is won by the player holding fewer cards, and a tie is a draw; drawing needs no
exhausted tableau first (tableau cards can always be moved back and forth, so "all moves made" never comes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from kemps_sim.knobs import KnobSpec, check_names, choices, knob, specs_of, validate

StartAce = Literal["low", "high"]
StackMoves = Literal["top_or_whole", "any_run", "top_only"]
DrawnLeftovers = Literal["to_discard", "keep_in_hand"]
HandAccess = Literal["top", "any"]
TalonTarget = Literal["discard", "talon_too"]
DiscardTopTo = Literal["foundations", "anywhere"]
LoadFrom = Literal["hand", "hand_and_side", "anywhere"]
TakeBack = Literal["loaded_run", "any_run", "none"]
GoAgain = Literal["hand_cards", "own_cards"]
MissCallable = Literal["until_made", "next_move", "until_turn_end"]
InterruptedMove = Literal["stands", "undone"]
WrongCall = Literal["nothing", "skip_turn"]
StuckRule = Literal["full_pass", "one_turn"]

MAX_DRAW_STEPS = 6
MAX_DRAW = 10


#: What a ``draw_counts`` value must be.
_DRAWS = (f"a list of 1 to {MAX_DRAW_STEPS} whole numbers from 1 to {MAX_DRAW} "
          "(cards drawn on the first pass, the second, ...; the last repeats)")


def _draw_counts_ok(value: tuple[Any, ...]) -> bool:
    return 1 <= len(value) <= MAX_DRAW_STEPS and all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_DRAW for v in value)


@dataclass(frozen=True)
class KrepetRules:
    """The resolved rules of one Krepet game. Defaults are the ``wikibooks`` preset (seed 002)."""

    tableau_per_player: int = knob(4, KnobSpec(
        "int", "cards each player lays in a row at the start; both rows together are the shared tableau",
        minimum=1, maximum=8))
    side_stack_size: int = knob(10, KnobSpec(
        "int", "cards each player counts onto the side stack at the start (only the top face up); with at most 8 "
        "in the row, at least 4 of the 52 stay in the talon", minimum=1, maximum=40))
    draw_counts: tuple[int, ...] = knob((3, 2, 1), KnobSpec(
        "list", "cards drawn from the talon per draw on the first pass, the second, ...; the last repeats",
        rule=_DRAWS, check=_draw_counts_ok))
    start_ace: StartAce = knob("low", KnobSpec(
        "choice", "whether an ace counts low or high when the side-stack tops decide who starts",
        choices=choices(StartAce)))
    stack_moves: StackMoves = knob("top_or_whole", KnobSpec(
        "choice", "what moves between tableau places: the top card or the whole stack, any built run from the "
        "top, or the top card only", choices=choices(StackMoves)))
    drawn_leftovers: DrawnLeftovers = knob("to_discard", KnobSpec(
        "choice", "drawn (or taken-back) cards not got rid of: laid face up on the Ablage before the next draw and "
        "at the end of the turn, or kept in the hand", choices=choices(DrawnLeftovers)))
    hand_access: HandAccess = knob("top", KnobSpec(
        "choice", "which hand cards may be played: only the top one (the drawn packet is played top first) or any",
        choices=choices(HandAccess)))
    talon_target: TalonTarget = knob("discard", KnobSpec(
        "choice", "a 'talon' named as a place to lay a card: the face-up Ablage beside it, or the talon itself too "
        "(built on its top card like the Ablage)", choices=choices(TalonTarget)))
    discard_top_to: DiscardTopTo = knob("foundations", KnobSpec(
        "choice", "where the top card of the player's own Ablage may go: only onto the ace piles, or onto the "
        "tableau too", choices=choices(DiscardTopTo)))
    load_from: LoadFrom = knob("hand", KnobSpec(
        "choice", "which cards may be laid on side stacks and Ablagen (own and the opponent's): hand cards only, "
        "also the own side-stack top, or also tableau tops", choices=choices(LoadFrom)))
    take_back: TakeBack = knob("loaded_run", KnobSpec(
        "choice", "which cards of the own side stack may be taken back into the hand: those laid on it in play, "
        "any face-up run, or none", choices=choices(TakeBack)))
    go_again_counts: GoAgain = knob("hand_cards", KnobSpec(
        "choice", "what counts as getting rid of a card, which allows another draw: a card leaving the hand, or "
        "also a card leaving the own side stack or Ablage for a place that is not the player's (a card laid on "
        "one of the player's own empty piles never counts: it does not fit anything)",
        choices=choices(GoAgain)))
    empty_piles_take_any: bool = knob(True, KnobSpec(
        "bool", "an empty side stack or Ablage takes any card (off: nothing can be laid on it)"))
    turn_needs_draw: bool = knob(True, KnobSpec(
        "bool", "a turn cannot end before the player has drawn once, unless nothing is left to draw"))
    miss_callable: MissCallable = knob("until_made", KnobSpec(
        "choice", "how long a missed ace-pile move can be called: while it is still possible and not made, only "
        "until the mover's next move, or until the end of the turn", choices=choices(MissCallable)))
    interrupted_move: InterruptedMove = knob("stands", KnobSpec(
        "choice", "after a right Krepet call, whether the moves made since the miss stand or are taken back",
        choices=choices(InterruptedMove)))
    wrong_call: WrongCall = knob("nothing", KnobSpec(
        "choice", "what a wrong Krepet call costs the caller: nothing, or the caller's next turn",
        choices=choices(WrongCall)))
    stuck_rule: StuckRule = knob("full_pass", KnobSpec(
        "choice", "when a player counts as stuck: after drawing through the whole talon at the last draw count "
        "with no progress by anyone, or after any turn without progress", choices=choices(StuckRule)))

    def __post_init__(self) -> None:
        validate(self)

    @property
    def tableau_places(self) -> int:
        """Number of tableau places: both players' rows."""
        return 2 * self.tableau_per_player

    def draw_count(self, passes: int) -> int:
        """Cards drawn per draw after the talon has been turned over ``passes`` times."""
        return self.draw_counts[min(passes, len(self.draw_counts) - 1)]

    def as_dict(self) -> dict[str, Any]:
        """Every knob with its value, in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def knob_specs() -> dict[str, KnobSpec]:
    """Every knob's specification, in declaration order."""
    return specs_of(KrepetRules)


def check_knob_names(names: Mapping[str, Any]) -> None:
    """Refuse any name that is not a Krepet knob, suggesting the closest one."""
    check_names(knob_specs(), names, "Krepet rule knob")
