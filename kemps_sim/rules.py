"""Every rule knob of Kemps as one frozen, validated configuration object.

The sources disagree on purpose; each disagreement is a knob here and each source is a named preset
(see :mod:`kemps_sim.presets`). A :class:`Rules` holds no time and no randomness: it only says what is allowed.

This module knows nothing of presets: :mod:`kemps_sim.presets` is built on it, and rules from a preset name, a
mapping naming a ``preset`` or a TOML file come from :func:`kemps_sim.presets.load_rules`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal

from kemps_sim.cards import CARDS_PER_DECK, HAND_SIZE, MIDDLE_SIZE
from kemps_sim.errors import ConfigError
from kemps_sim.knobs import KnobSpec, check_names, check_value, choices, knob, show, specs_of

Swap = Literal["one_for_one", "multi", "multi_drop_first"]
Start = Literal["immediate", "dealer_go"]
FreshMiddle = Literal["nobody_wants", "stall_call", "all_agree", "dealer_decides"]
PackExhausted = Literal["void_round", "reshuffle_discards"]
DealerRotation = Literal["same", "left", "random"]
SignalModality = Literal["silent", "seen_only", "spoken_allowed"]
StopKempsReveals = Literal["accused_player", "accused_pair"]
StopKempsTargets = Literal["any_pair", "adjacent_pairs"]
Scoring = Literal["letters", "points", "rounds_won"]
RightKempsPenalises = Literal["all_other_pairs", "nobody"]
WrongKempsPoints = Literal["other_pairs", "nobody"]
RefillOpens = Literal["each_card", "when_complete"]
Sweeper = Literal["dealer", "any_player"]
StopAgainstDouble = Literal["like_wrong_stop", "play_on", "ends_round"]

MIN_PLAYERS = 4
MAX_PLAYERS = 12


@dataclass(frozen=True)
class Rules:
    """The resolved rules of one match. Defaults are the ``standard`` preset (seed 004).

    Knobs that only mean something under another knob's value (``target_points`` under points scoring, say)
    default to ``None`` and are filled in when they apply; giving one where it means nothing is an error.
    """

    players: int = knob(4, KnobSpec(
        "int", "number of players, in pairs; partners sit across (seat i and i + players/2)",
        minimum=MIN_PLAYERS, maximum=MAX_PLAYERS, rule="even", check=lambda v: v % 2 == 0))
    two_decks_from: int = knob(9, KnobSpec(
        "int", "tables of at least this many players use two 52-card decks", minimum=MIN_PLAYERS))
    swap: Swap = knob("one_for_one", KnobSpec(
        "choice", "how cards change hands with the middle", choices=choices(Swap)))
    start: Start = knob("immediate", KnobSpec(
        "choice", "when play starts: as the 4th middle card lands, or on the dealer's word",
        choices=choices(Start)))
    redeal_on_deal: bool = knob(False, KnobSpec(
        "bool", "a player dealt 3 or 4 of a kind shows them, returns them and draws as many again"))
    redeal_until_clean: bool | None = knob(None, KnobSpec(
        "bool", "a player who draws three or four of a kind again shows and redraws again (off: one redraw)",
        applies_when=("redeal_on_deal", True), default_when_applies=False))
    fresh_middle: FreshMiddle = knob("stall_call", KnobSpec(
        "choice", "what makes the dealer sweep the middle and deal four fresh cards",
        choices=choices(FreshMiddle)))
    pack_exhausted: PackExhausted = knob("reshuffle_discards", KnobSpec(
        "choice", "what happens when the pack runs out", choices=choices(PackExhausted)))
    dealer_rotation: DealerRotation = knob("left", KnobSpec(
        "choice", "who deals the next round: the same dealer, the player on the dealer's left, or a new dealer "
        "drawn at random among the other seats", choices=choices(DealerRotation)))
    sweeper: Sweeper = knob("dealer", KnobSpec(
        "choice", "who sweeps the middle and lays the fresh cards: the dealer, or any player (the first to act)",
        choices=choices(Sweeper)))
    refill_opens: RefillOpens = knob("each_card", KnobSpec(
        "choice", "when fresh middle cards may be taken: each as it lands, or once the fourth is face up",
        choices=choices(RefillOpens)))
    dealer_busy: bool = knob(True, KnobSpec(
        "bool", "sweeping and dealing occupy the dealer's hands, who cannot swap meanwhile"))
    signal_modality: SignalModality = knob("spoken_allowed", KnobSpec(
        "choice", "what a signal may be: no word (silent: any gesture or sound but speech), only something seen "
        "(seen_only: no word and no sound either), or anything (spoken_allowed)", choices=choices(SignalModality)))
    stop_kemps_reveals: StopKempsReveals = knob("accused_player", KnobSpec(
        "choice", "who shows their hand after Stop Kemps: the named player or both of the named pair",
        choices=choices(StopKempsReveals)))
    stop_kemps_targets: StopKempsTargets = knob("any_pair", KnobSpec(
        "choice", "which pairs a Stop Kemps may name (adjacent: pairs of the caller's neighbours)",
        choices=choices(StopKempsTargets)))
    wrong_call_ends_round: bool = knob(True, KnobSpec(
        "bool", "a wrong call ends the round (off: it is scored and play goes on)"))
    wrong_stop_penalty_003: bool | None = knob(None, KnobSpec(
        "bool", "after a wrong Stop Kemps the accused shows two different cards and the caller is barred "
        "from Stop Kemps for the rest of the round", applies_when=("wrong_call_ends_round", False),
        default_when_applies=True))
    double_kemps: bool = knob(False, KnobSpec(
        "bool", "a player holding four of a kind whose partner also holds it may call Double Kemps (worth 2)"))
    stop_against_double: StopAgainstDouble | None = knob(None, KnobSpec(
        "choice", "a Stop Kemps against a pair holding a Double: scored and handled as a wrong Stop Kemps, or "
        "scored while play goes on with nobody barred, or scored and ending the round",
        choices=choices(StopAgainstDouble), applies_when=("double_kemps", True),
        default_when_applies="like_wrong_stop"))
    scoring: Scoring = knob("letters", KnobSpec(
        "choice", "letters K-E-M-P-S (5 lose), points to a target, or most rounds won",
        choices=choices(Scoring)))
    right_kemps_penalises: RightKempsPenalises | None = knob(None, KnobSpec(
        "choice", "with 3-4 pairs under letters, who takes a letter after a right Kemps",
        choices=choices(RightKempsPenalises), applies_when=("scoring", "letters"),
        default_when_applies="all_other_pairs"))
    target_points: int | None = knob(None, KnobSpec(
        "int", "under points scoring, the first pair to reach this wins", minimum=1,
        applies_when=("scoring", "points"), default_when_applies=10))
    wrong_kemps_points: WrongKempsPoints | None = knob(None, KnobSpec(
        "choice", "under points scoring, who gains after a wrong Kemps (003 is cut off here)",
        choices=choices(WrongKempsPoints), applies_when=("scoring", "points"),
        default_when_applies="other_pairs"))
    rounds_to_play: int | None = knob(None, KnobSpec(
        "int", "under rounds_won scoring, how many decided rounds the match lasts", minimum=1, rule="odd",
        check=lambda v: v % 2 == 1, applies_when=("scoring", "rounds_won"), default_when_applies=5))
    call_words: tuple[str, str] = knob(("Kemps", "Stop Kemps"), KnobSpec(
        "list", "the words spoken for the two calls; only the words differ",
        rule="two non-empty strings (the Kemps call and the Stop Kemps call)",
        check=lambda v: len(v) == 2 and all(isinstance(w, str) and w.strip() for w in v)))

    def __post_init__(self) -> None:
        for f in fields(self):
            spec: KnobSpec = f.metadata["knob"]
            value = getattr(self, f.name)
            if spec.applies_when is not None:
                other, wanted = spec.applies_when
                if getattr(self, other) != wanted:
                    if value is not None:
                        raise ConfigError(
                            f"rules.{f.name} = {show(value)}: means nothing unless {other} = {show(wanted)} "
                            f"(here {other} = {show(getattr(self, other))}); remove it or set {other}")
                    continue
                if value is None:
                    value = spec.default_when_applies
                    object.__setattr__(self, f.name, value)
            if spec.kind == "list" and isinstance(value, list):
                value = tuple(value)
                object.__setattr__(self, f.name, value)
            check_value(f.name, value, spec)
        self._check_combination()

    def _check_combination(self) -> None:
        if self.scoring == "rounds_won" and not self.wrong_call_ends_round:
            raise ConfigError(
                "rules.wrong_call_ends_round = false: not allowed with scoring = rounds_won, where every "
                "round has exactly one deciding call; set it to true or choose letters or points")
        dealt = self.players * HAND_SIZE + MIDDLE_SIZE + MIDDLE_SIZE
        if dealt > self.decks * CARDS_PER_DECK:
            raise ConfigError(
                f"rules.players = {self.players}: {self.decks} deck(s) cannot deal {self.players} hands, "
                f"a middle and one refill ({dealt} cards); lower two_decks_from (now {self.two_decks_from}) "
                f"to at most {self.players} or play with fewer players")

    # Derived quantities -------------------------------------------------------------------------------------
    @property
    def decks(self) -> int:
        """Number of 52-card decks: two once the table reaches ``two_decks_from`` players."""
        return 2 if self.players >= self.two_decks_from else 1

    @property
    def pairs(self) -> int:
        """Number of partnerships at the table."""
        return self.players // 2

    def as_dict(self) -> dict[str, Any]:
        """Every knob with its resolved value, in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def knob_specs() -> dict[str, KnobSpec]:
    """Every knob's specification, in declaration order."""
    return specs_of(Rules)


def read_rules_toml(path: str | Path, example: str = "standard") -> dict[str, Any]:
    """The knob mapping of a rules TOML file (top level, or its ``[rules]`` table), for any game's rules.

    Every problem reading the file (missing, a folder, unreadable, not UTF-8, not TOML) and a file that sets no knob
    and names no preset is a one-line :class:`ConfigError` naming the file (and, for the latter, a preset of the
    game as the ``example`` to give).
    """
    path = Path(path)
    where = f"rules file {str(path)!r}"
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such file") from None
    except IsADirectoryError:
        raise ConfigError(f"{where}: is a folder, not a TOML file") from None
    except PermissionError:
        raise ConfigError(f"{where}: cannot be read (permission denied)") from None
    except OSError as exc:
        raise ConfigError(f"{where}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{where}: not a text file (not UTF-8); give a TOML file of rule knobs") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML ({' '.join(str(exc).split())})") from None
    if "rules" in data:
        extra = sorted(set(data) - {"rules"})
        if extra:
            raise ConfigError(f"{where}: keys {extra} sit beside [rules]; put them inside it")
        data = data["rules"]
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: 'rules' must be a table")
    if not data:
        raise ConfigError(f'{where}: sets no knob and names no preset; give `preset = "{example}"` or knobs')
    return data


def check_knob_names(names: Mapping[str, Any]) -> None:
    """Refuse any name that is not a knob, suggesting the closest one."""
    check_names(knob_specs(), names)
