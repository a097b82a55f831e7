"""The named presets, one per rule source, and the resolution of a preset plus overrides into :class:`Rules`.

Each preset knob carries a note saying which source it comes from and why, so ``kemps-sim rules`` can show
where every value comes from. A knob a preset does not set takes the :class:`Rules` default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.rules import Rules, check_knob_names, knob_specs


@dataclass(frozen=True)
class Preset:
    """A named rule set taken from one source text, with a note per knob saying where it comes from."""

    name: str
    source: str
    title: str
    knobs: Mapping[str, tuple[Any, str]]


def _p(name: str, source: str, title: str, **knobs: tuple[Any, str]) -> Preset:
    return Preset(name, source, title, knobs)


PRESETS: dict[str, Preset] = {p.name: p for p in (
    _p("standard", "004", "English rules with the worked game; the default",
       swap=("one_for_one", "004: one hand card for one middle card, keeping four"),
       fresh_middle=("stall_call", "004: anyone says the middle has stalled; unless someone objects, the dealer "
                                   "sweeps and deals while play goes on"),
       pack_exhausted=("reshuffle_discards", "004: when the pack runs out the swept cards are shuffled"),
       dealer_rotation=("left", "004: the deal passes to the left"),
       signal_modality=("spoken_allowed", "004: a word slipped into chat is a classic signal"),
       stop_kemps_reveals=("accused_player", "004: the accused player alone turns the hand up"),
       wrong_call_ends_round=(True, "004: a call, right or wrong, ends the round"),
       scoring=("letters", "004: the pair that got it wrong takes a letter; five letters lose"),
       right_kemps_penalises=("all_other_pairs", "004 names no pair for a right Kemps at 3-4 pairs; the preset "
                                                 "reads it as 000 and 001 do (the knob keeps 'nobody')")),
    _p("german", "000", "German rules (Ausführliche Regeln)",
       swap=("multi", "000: several cards may be taken if as many go back"),
       fresh_middle=("nobody_wants", "000: the dealer sweeps once nobody wants a middle card"),
       pack_exhausted=("void_round", "000: an empty pack with an unwanted middle ends the round, no letter"),
       dealer_rotation=("same", "000: the same dealer gathers, shuffles and deals again"),
       signal_modality=("silent", "000: any movement or grimace, but no words"),
       stop_kemps_reveals=("accused_pair", "000: both players of the accused pair show their cards"),
       wrong_call_ends_round=(True, "000: a call ends the round at once"),
       scoring=("letters", "000: the losing pair takes the next letter of K-E-M-P-S"),
       right_kemps_penalises=("all_other_pairs", "000: with more than two pairs every other pair takes a letter"),
       two_decks_from=(9, "000: two decks for more than eight players")),
    _p("party", "001", "English party rules",
       swap=("multi", "001 does not say how many cards a swap moves; 000's reading, the closest source"),
       fresh_middle=("nobody_wants", "001: swap until nobody wants the middle, then it is discarded"),
       pack_exhausted=("void_round", "001: a 'real deal': no letter and the same dealer deals again"),
       dealer_rotation=("random", "001: choose a new dealer after each round"),
       signal_modality=("silent", "001: signals are nonverbal"),
       stop_kemps_reveals=("accused_pair", "001 does not say; 000's reading, the closest source"),
       wrong_call_ends_round=(True, "001: a call ends the round"),
       scoring=("letters", "001: losing teams take a letter of K-E-M-P-S"),
       right_kemps_penalises=("all_other_pairs", "001: after a right Kemps all other teams take a letter"),
       two_decks_from=(8, "001: two decks may be used from eight players")),
    _p("kems", "003", "French Kem's, scored in points",
       players=(4, "003 describes four players"),
       swap=("multi_drop_first", "003: put your cards down first, then pick up as many"),
       start=("dealer_go", "003: play starts when the dealer opens the hunt"),
       redeal_on_deal=(True, "003: a player dealt 3 or 4 of a kind shows them and draws as many again"),
       fresh_middle=("nobody_wants", "003: cards are swapped until the rest interest nobody"),
       pack_exhausted=("reshuffle_discards", "003: once the pack is used up the shuffled discards become it"),
       dealer_rotation=("left", "003 does not say who deals next; the default"),
       signal_modality=("spoken_allowed", "003: saying a certain word is a signal"),
       stop_kemps_reveals=("accused_pair", "the rules specification's reading of 003"),
       wrong_call_ends_round=(False, "003: after a wrong Kem's or Contre Kem's play goes on"),
       wrong_stop_penalty_003=(True, "003: the accused shows two different cards; the caller may not call "
                                     "Contre Kem's again this round"),
       double_kemps=(True, "003: a caller holding a Kem's who sees the partner's signal calls Double Kem's"),
       scoring=("points", "003: points, first pair to reach the target wins"),
       target_points=(10, "003: first pair to reach or pass 10 points"),
       wrong_kemps_points=("other_pairs", "003 is cut off at its 6th case; a point to the other side, as in "
                                          "004's points variant"),
       call_words=(("Kem's", "Contre Kem's"), "003: the French calls")),
    _p("peanut_butter", "000", "000's Peanut Butter variant: spoken calls, most rounds won",
       swap=("multi", "000: several cards may be taken if as many go back"),
       fresh_middle=("nobody_wants", "000: the dealer sweeps once nobody wants a middle card"),
       pack_exhausted=("void_round", "000: an empty pack with an unwanted middle ends the round, no letter"),
       dealer_rotation=("same", "000: the same dealer deals every round"),
       signal_modality=("spoken_allowed", "000 variant: spoken signals are allowed"),
       stop_kemps_reveals=("accused_pair", "000: both players of the accused pair show their cards"),
       wrong_call_ends_round=(True, "000: a call ends the round at once"),
       scoring=("rounds_won", "000 variant: an odd number of rounds; the pair that wins more wins"),
       rounds_to_play=(5, "000 names no number of rounds; kemps-sim's default"),
       call_words=(("Peanut butter", "Jelly"), "000 variant: the two calls")),
)}

DEFAULT_PRESET = "standard"


@dataclass(frozen=True)
class Resolved:
    """Rules resolved from a preset and overrides, with where each knob's value came from."""

    preset: str
    rules: Rules
    origins: Mapping[str, str]


def preset_names() -> tuple[str, ...]:
    """The names of every preset, the default first."""
    return tuple(PRESETS)


def get_preset(name: str) -> Preset:
    """The preset of that name, or a one-line error listing the presets."""
    if not isinstance(name, str) or name not in PRESETS:
        raise ConfigError(f"rules.preset = {name!r}: unknown preset; allowed presets are "
                          + ", ".join(PRESETS))
    return PRESETS[name]


def resolve(name: str, overrides: Mapping[str, Any] | None = None, origin: str = "override") -> Resolved:
    """Resolve a preset plus overrides into validated rules and the origin of every knob.

    A preset's own dependent knob (``target_points`` of ``kems``, say) is dropped when an override makes it
    meaningless (``scoring = "letters"``); the same knob given as an override is an error instead.
    """
    preset = get_preset(name)
    overrides = dict(overrides or {})
    check_knob_names(overrides)
    specs = knob_specs()
    values = _merge({k: v for k, (v, _) in preset.knobs.items()}, overrides)
    rules = Rules(**values)
    origins: dict[str, str] = {}
    for knob, spec in specs.items():
        if knob in overrides:
            origins[knob] = origin
        elif knob in values:
            origins[knob] = f"preset {preset.name}: {preset.knobs[knob][1]}"
        elif spec.applies_when is not None and getattr(rules, knob) is not None:
            origins[knob] = f"default under {spec.applies_when[0]} = {spec.applies_when[1]}"
        elif spec.applies_when is not None:
            origins[knob] = f"not used (only with {spec.applies_when[0]} = {spec.applies_when[1]})"
        else:
            origins[knob] = "default"
    return Resolved(preset.name, rules, origins)


def load_rules(spec: str | Mapping[str, Any] | Rules | None = None, **overrides: Any) -> Rules:
    """Rules from a preset name, a TOML file path, a mapping or a :class:`Rules`, with overrides.

    This is the one entry point the engine, the CLI and sweep specs use.
    """
    return resolve_any(spec, overrides).rules


def resolve_any(spec: str | Mapping[str, Any] | Rules | None,
                overrides: Mapping[str, Any] | None = None) -> Resolved:
    """Like :func:`load_rules`, but also returns the origin of every knob."""
    from pathlib import Path

    from kemps_sim.rules import read_rules_toml

    overrides = dict(overrides or {})
    if spec is None:
        return resolve(DEFAULT_PRESET, overrides)
    if isinstance(spec, Rules):
        check_knob_names(overrides)
        return resolve(DEFAULT_PRESET, _merge(_explicit(spec), overrides))
    origin = "override"
    if isinstance(spec, Mapping):
        data = dict(spec)
    elif isinstance(spec, str) and (spec.endswith(".toml") or Path(spec).is_file()):
        data = read_rules_toml(spec)
        origin = f"file {spec}"
    elif isinstance(spec, str):
        return resolve(spec, overrides)
    else:
        raise ConfigError(f"rules = {spec!r}: must be a preset name, a .toml file, a mapping or a Rules")
    base = data.pop("preset", DEFAULT_PRESET)
    resolved = resolve(base, {**data, **overrides}, origin)
    if overrides:
        resolved = Resolved(resolved.preset, resolved.rules,
                            {k: "override" if k in overrides else v for k, v in resolved.origins.items()})
    return resolved


def _merge(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Base knobs updated by overrides, dropping base knobs that the overrides made meaningless."""
    specs = knob_specs()
    values = {**base, **overrides}
    for knob in list(values):
        condition = specs[knob].applies_when if knob in specs else None
        if knob not in overrides and condition is not None:
            other, wanted = condition
            if values.get(other, getattr(Rules, other)) != wanted:
                del values[knob]
    return values


def _explicit(rules: Rules) -> dict[str, Any]:
    """The knobs of an existing Rules, as overrides that rebuild it exactly."""
    return {k: v for k, v in rules.as_dict().items() if v is not None}
