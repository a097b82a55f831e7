"""Every rule knob of Kemps as one frozen, validated configuration object.

The sources disagree on purpose; each disagreement is a knob here and each source is a named preset
(see :mod:`kemps_sim.presets`). A :class:`Rules` holds no time and no randomness: it only says what is allowed.

This module knows nothing of presets: :mod:`kemps_sim.presets` is built on it, and rules from a preset name, a
mapping naming a ``preset`` or a TOML file come from :func:`kemps_sim.presets.load_rules`.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

from kemps_sim.cards import CARDS_PER_DECK, HAND_SIZE, MIDDLE_SIZE
from kemps_sim.errors import ConfigError

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
class KnobSpec:
    """What one knob accepts: its kind, its choices or range, and when it means anything."""

    kind: Literal["bool", "int", "choice", "words"]
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    rule: str = ""  # extra constraint, in words, checked by ``check``
    check: Callable[[int], bool] | None = None
    applies_when: tuple[str, str] | None = None  # (other knob, value) under which this knob means something
    default_when_applies: Any = None

    def allowed(self) -> str:
        """What is allowed, in words, for error messages and the ``rules`` command."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "words":
            return "two non-empty strings (the Kemps call and the Stop Kemps call)"
        article = f"an {self.rule}" if self.rule else "a"
        upper = f" to {self.maximum}" if self.maximum is not None else " up"
        return f"{article} whole number from {self.minimum}{upper}"


def _knob(default: Any, spec: KnobSpec) -> Any:
    return field(default=default, metadata={"knob": spec})


def _choices(alias: Any) -> tuple[str, ...]:
    return tuple(alias.__args__)


@dataclass(frozen=True)
class Rules:
    """The resolved rules of one match. Defaults are the ``standard`` preset (seed 004).

    Knobs that only mean something under another knob's value (``target_points`` under points scoring, say)
    default to ``None`` and are filled in when they apply; giving one where it means nothing is an error.
    """

    players: int = _knob(4, KnobSpec(
        "int", "number of players, in pairs; partners sit across (seat i and i + players/2)",
        minimum=MIN_PLAYERS, maximum=MAX_PLAYERS, rule="even", check=lambda v: v % 2 == 0))
    two_decks_from: int = _knob(9, KnobSpec(
        "int", "tables of at least this many players use two 52-card decks", minimum=MIN_PLAYERS))
    swap: Swap = _knob("one_for_one", KnobSpec(
        "choice", "how cards change hands with the middle", choices=_choices(Swap)))
    start: Start = _knob("immediate", KnobSpec(
        "choice", "when play starts: as the 4th middle card lands, or on the dealer's word",
        choices=_choices(Start)))
    redeal_on_deal: bool = _knob(False, KnobSpec(
        "bool", "a player dealt 3 or 4 of a kind shows them, returns them and draws as many again"))
    redeal_until_clean: bool | None = _knob(None, KnobSpec(
        "bool", "a player who draws three or four of a kind again shows and redraws again (off: one redraw)",
        applies_when=("redeal_on_deal", True), default_when_applies=False))
    fresh_middle: FreshMiddle = _knob("stall_call", KnobSpec(
        "choice", "what makes the dealer sweep the middle and deal four fresh cards",
        choices=_choices(FreshMiddle)))
    pack_exhausted: PackExhausted = _knob("reshuffle_discards", KnobSpec(
        "choice", "what happens when the pack runs out", choices=_choices(PackExhausted)))
    dealer_rotation: DealerRotation = _knob("left", KnobSpec(
        "choice", "who deals the next round: the same dealer, the player on the dealer's left, or a new dealer "
        "drawn at random among the other seats", choices=_choices(DealerRotation)))
    sweeper: Sweeper = _knob("dealer", KnobSpec(
        "choice", "who sweeps the middle and lays the fresh cards: the dealer, or any player (the first to act)",
        choices=_choices(Sweeper)))
    refill_opens: RefillOpens = _knob("each_card", KnobSpec(
        "choice", "when fresh middle cards may be taken: each as it lands, or once the fourth is face up",
        choices=_choices(RefillOpens)))
    dealer_busy: bool = _knob(True, KnobSpec(
        "bool", "sweeping and dealing occupy the dealer's hands, who cannot swap meanwhile"))
    signal_modality: SignalModality = _knob("spoken_allowed", KnobSpec(
        "choice", "what a signal may be: no word (silent: any gesture or sound but speech), only something seen "
        "(seen_only: no word and no sound either), or anything (spoken_allowed)", choices=_choices(SignalModality)))
    stop_kemps_reveals: StopKempsReveals = _knob("accused_player", KnobSpec(
        "choice", "who shows their hand after Stop Kemps: the named player or both of the named pair",
        choices=_choices(StopKempsReveals)))
    stop_kemps_targets: StopKempsTargets = _knob("any_pair", KnobSpec(
        "choice", "which pairs a Stop Kemps may name (adjacent: pairs of the caller's neighbours)",
        choices=_choices(StopKempsTargets)))
    wrong_call_ends_round: bool = _knob(True, KnobSpec(
        "bool", "a wrong call ends the round (off: it is scored and play goes on)"))
    wrong_stop_penalty_003: bool | None = _knob(None, KnobSpec(
        "bool", "after a wrong Stop Kemps the accused shows two different cards and the caller is barred "
        "from Stop Kemps for the rest of the round", applies_when=("wrong_call_ends_round", False),
        default_when_applies=True))
    double_kemps: bool = _knob(False, KnobSpec(
        "bool", "a player holding four of a kind whose partner also holds it may call Double Kemps (worth 2)"))
    stop_against_double: StopAgainstDouble | None = _knob(None, KnobSpec(
        "choice", "a Stop Kemps against a pair holding a Double: scored and handled as a wrong Stop Kemps, or "
        "scored while play goes on with nobody barred, or scored and ending the round",
        choices=_choices(StopAgainstDouble), applies_when=("double_kemps", True),
        default_when_applies="like_wrong_stop"))
    scoring: Scoring = _knob("letters", KnobSpec(
        "choice", "letters K-E-M-P-S (5 lose), points to a target, or most rounds won",
        choices=_choices(Scoring)))
    right_kemps_penalises: RightKempsPenalises | None = _knob(None, KnobSpec(
        "choice", "with 3-4 pairs under letters, who takes a letter after a right Kemps",
        choices=_choices(RightKempsPenalises), applies_when=("scoring", "letters"),
        default_when_applies="all_other_pairs"))
    target_points: int | None = _knob(None, KnobSpec(
        "int", "under points scoring, the first pair to reach this wins", minimum=1,
        applies_when=("scoring", "points"), default_when_applies=10))
    wrong_kemps_points: WrongKempsPoints | None = _knob(None, KnobSpec(
        "choice", "under points scoring, who gains after a wrong Kemps (003 is cut off here)",
        choices=_choices(WrongKempsPoints), applies_when=("scoring", "points"),
        default_when_applies="other_pairs"))
    rounds_to_play: int | None = _knob(None, KnobSpec(
        "int", "under rounds_won scoring, how many decided rounds the match lasts", minimum=1, rule="odd",
        check=lambda v: v % 2 == 1, applies_when=("scoring", "rounds_won"), default_when_applies=5))
    call_words: tuple[str, str] = _knob(("Kemps", "Stop Kemps"), KnobSpec(
        "words", "the words spoken for the two calls; only the words differ"))

    def __post_init__(self) -> None:
        for f in fields(self):
            spec: KnobSpec = f.metadata["knob"]
            value = getattr(self, f.name)
            if spec.applies_when is not None:
                other, wanted = spec.applies_when
                if getattr(self, other) != wanted:
                    if value is not None:
                        raise ConfigError(
                            f"rules.{f.name} = {_show(value)}: means nothing unless {other} = {_show(wanted)} "
                            f"(here {other} = {_show(getattr(self, other))}); remove it or set {other}")
                    continue
                if value is None:
                    value = spec.default_when_applies
                    object.__setattr__(self, f.name, value)
            if spec.kind == "words" and isinstance(value, list):
                value = tuple(value)
                object.__setattr__(self, f.name, value)
            _check_value(f.name, value, spec)
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
    return {f.name: f.metadata["knob"] for f in fields(Rules)}


def read_rules_toml(path: str | Path) -> dict[str, Any]:
    """The knob mapping of a rules TOML file (top level, or its ``[rules]`` table).

    Every problem reading the file (missing, a folder, unreadable, not UTF-8, not TOML) and a file that sets no knob
    and names no preset is a one-line :class:`ConfigError` naming the file.
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
        raise ConfigError(f'{where}: sets no knob and names no preset; give `preset = "standard"` or knobs')
    return data


def check_knob_names(names: Mapping[str, Any]) -> None:
    """Refuse any name that is not a knob, suggesting the closest one."""
    specs = knob_specs()
    for name in names:
        if name not in specs:
            close = difflib.get_close_matches(str(name), specs, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise ConfigError(
                f"rules.{name} = {_show(names[name])}: unknown rule knob{hint}; allowed knobs are "
                + ", ".join(specs))


def _check_value(name: str, value: Any, spec: KnobSpec) -> None:
    ok: bool
    if spec.kind == "bool":
        ok = isinstance(value, bool)
    elif spec.kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
        ok = ok and (spec.minimum is None or value >= spec.minimum)
        ok = ok and (spec.maximum is None or value <= spec.maximum)
        ok = ok and (spec.check is None or spec.check(value))
    elif spec.kind == "choice":
        ok = isinstance(value, str) and value in spec.choices
    else:
        ok = (isinstance(value, tuple) and len(value) == 2
              and all(isinstance(w, str) and w.strip() for w in value))
    if not ok:
        raise ConfigError(f"rules.{name} = {_show(value)}: must be {spec.allowed()}")


def _show(value: Any) -> str:
    """A value as a user would write it in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    return repr(value)
