"""The named presets, one per rule source, and the resolution of a preset plus overrides into :class:`Rules`.

Each preset knob carries where it comes from (:class:`KnobSource`): the source's own words, glossed in English when
the source is not English, or, where the source is silent or ambiguous, a reading that says so. ``kemps-sim rules``
prints it for every knob. A knob a preset does not set takes the :class:`Rules` default.

This module is built on :mod:`kemps_sim.rules`, never the other way round: rules from a preset, a mapping naming a
``preset`` or a TOML file come from :func:`load_rules` (or :func:`resolve_any`, which also says where each value
came from).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.rules import Rules, check_knob_names, knob_specs, read_rules_toml
from kemps_sim.suggest import did_you_mean

#: What :func:`load_rules` accepts: a preset name, a TOML file, a mapping of knobs (maybe naming a ``preset``), a
#: :class:`Rules`, or nothing (the default preset).
RulesLike = str | os.PathLike[str] | Mapping[str, Any] | Rules | None


@dataclass(frozen=True)
class KnobSource:
    """A preset knob's value and where it comes from.

    When the source says it, ``quote`` holds the source's own words (short; `` ... `` marks a cut) in the source's
    language, with an English ``gloss`` when that is not English, and ``note`` may add context. When the source is
    silent or ambiguous the value is a ``reading``: ``note`` says what was read and why, and ``quote`` may hold the
    words the reading rests on.
    """

    value: Any
    quote: str = ""
    gloss: str = ""
    note: str = ""
    reading: bool = False

    def describe(self, source: str) -> str:
        """One line: ``003: "words" (gloss); note``, or ``reading: note; 003: "words" (gloss)``."""
        words = f'{source}: "{self.quote}"' + (f" ({self.gloss})" if self.gloss else "") if self.quote else ""
        if self.reading:
            return "reading: " + "; ".join(part for part in (self.note, words) if part)
        return "; ".join(part for part in (words or source, self.note) if part)


def said(value: Any, quote: str, gloss: str = "", note: str = "") -> KnobSource:
    """A value the source states, in its own words."""
    return KnobSource(value, quote, gloss, note)


def reading(value: Any, note: str, quote: str = "", gloss: str = "") -> KnobSource:
    """A value read where the source is silent or ambiguous; ``note`` says how."""
    return KnobSource(value, quote, gloss, note, reading=True)


@dataclass(frozen=True)
class Preset:
    """A named rule set taken from one source text, each knob with the words it comes from (:class:`KnobSource`)."""

    name: str
    source: str
    language: str  # the source's language: "en", "de" or "fr"; quotes in another language than "en" carry a gloss
    title: str
    knobs: Mapping[str, KnobSource]

    def values(self) -> dict[str, Any]:
        """The knobs this preset sets, with their values."""
        return {knob: entry.value for knob, entry in self.knobs.items()}

    def origin(self, knob: str) -> str:
        """Where this preset's value of ``knob`` comes from, as ``kemps-sim rules`` prints it."""
        return f"preset {self.name}: {self.knobs[knob].describe(self.source)}"


def _p(name: str, source: str, language: str, title: str, **knobs: KnobSource) -> Preset:
    return Preset(name, source, language, title, knobs)


# 000's main text, which its Peanut Butter variant keeps.
_GERMAN = dict(
    start=said("immediate", "Sobald die vierte Karte offen liegt, spielen alle gleichzeitig",
               "as soon as the fourth card lies face up, everyone plays at once"),
    swap=said("multi", "Du darfst auch mehrere Karten auf einmal nehmen, wenn du gleich viele zurücklegst",
              "you may also take several cards at once if you put back as many"),
    fresh_middle=said("nobody_wants", "Will niemand mehr eine der vier Karten in der Mitte, räumt der Geber sie weg",
                      "once nobody wants any of the four middle cards, the dealer clears them away"),
    sweeper=said("dealer", "räumt der Geber sie weg und legt 4 neue Karten vom Ziehstapel offen hin",
                 "the dealer clears them away and lays 4 new cards from the pack face up"),
    refill_opens=said("when_complete", "legt 4 neue Karten vom Ziehstapel offen hin. Dann wird wieder getauscht",
                      "lays 4 new cards from the pack face up. Then swapping starts again"),
    pack_exhausted=said("void_round", "endet die Runde ohne Sieger, und niemand bekommt einen Buchstaben",
                        "the round ends without a winner and nobody gets a letter",
                        "when the pack is empty and nobody wants a middle card"),
    dealer_rotation=said("same", "Derselbe Geber sammelt alle Karten ein, mischt und gibt auch die nächste Runde",
                         "the same dealer gathers all the cards, shuffles and deals the next round too"),
    stop_kemps_reveals=said("accused_pair", "Beide Spieler dieses Teams zeigen ihre Karten",
                            "both players of that team show their cards"),
    wrong_call_ends_round=said(True, "Die Runde endet sofort, wenn jemand ruft",
                               "the round ends at once when someone calls"),
    two_decks_from=said(9, "bei mehr als 8 Spielern zwei Spiele", "two decks with more than 8 players"),
)

PRESETS: dict[str, Preset] = {p.name: p for p in (
    _p("standard", "004", "en", "English rules with the worked game; the default",
       swap=said("one_for_one", "swap a card from their hand for a card in the middle at any moment, one for one, "
                                "keeping four in hand"),
       fresh_middle=said("stall_call", "Any player may say the middle has stalled; if nobody objects, the dealer "
                                       "sweeps the four away and deals four fresh ones"),
       sweeper=said("dealer", "the dealer sweeps the four away and deals four fresh ones"),
       refill_opens=reading("each_card", "004 does not say when a fresh card may be taken; read from its play "
                                         "going on while the dealer deals", "Nothing else pauses while that happens"),
       pack_exhausted=said("reshuffle_discards", "When the pack runs out, shuffle the swept cards and deal from "
                                                 "those"),
       dealer_rotation=said("left", "The deal passes to the left"),
       signal_modality=said("spoken_allowed", "a spoken signal is one of the classic kinds: a word slipped into "
                                              "ordinary chat"),
       stop_kemps_reveals=said("accused_player", "The player who was signalling, or the player accused, turns "
                                                 "their hand face up"),
       wrong_call_ends_round=said(True, "A call ends the round"),
       scoring=said("letters", "Exactly one letter is given out each round, and it always goes to the pair that "
                               "got it wrong"),
       right_kemps_penalises=reading("all_other_pairs", "004 names no pair for a right Kemps at 3-4 pairs; read as "
                                                        "000 and 001 say (the knob keeps 'nobody')",
                                     "the letter goes to the pair that was caught or to the pair that called "
                                     "wrongly; the others are untouched that round")),
    _p("german", "000", "de", "German rules (Ausführliche Regeln)",
       **_GERMAN,
       signal_modality=said("silent", "Das kann jede Bewegung, Geste oder Grimasse sein ... aber keine Worte",
                            "it can be any movement, gesture or grimace ... but no words"),
       scoring=said("letters", "Das Team, das eine Runde verliert, bekommt den nächsten Buchstaben von K-E-M-P-S",
                    "the team that loses a round gets the next letter of K-E-M-P-S"),
       right_kemps_penalises=said("all_other_pairs", "Bei mehr als zwei Teams bekommen nach einem richtigen "
                                                     "„Kemps!“ alle anderen Teams einen Buchstaben",
                                  "with more than two teams, every other team gets a letter after a right "
                                  "\"Kemps!\"")),
    _p("party", "001", "en", "English party rules",
       start=said("immediate", "As soon as the fourth card is placed face-up, players may reach to swap cards"),
       swap=reading("multi", "001 does not say how many cards a swap moves; 000's reading, the closest source",
                    "players may reach to swap cards between the table and their own hand"),
       fresh_middle=said("nobody_wants", "Continue swapping until no one wants the 4 cards remaining face up on the "
                                         "table"),
       sweeper=reading("dealer", "001 names nobody for the sweep; the dealer, who plays the fresh cards",
                       "before the dealer runs out of sets of 4 cards to play to the center"),
       refill_opens=reading("when_complete", "001 says the fresh deal repeats its steps 3-4, and step 3 (counting "
                                             "the list in order) opens swapping once the fourth card is face up; "
                                             "read by that analogy", "Deal 4 more cards and repeat steps 3-4"),
       pack_exhausted=said("void_round", "No one is penalized with a letter for that round, and the same dealer "
                                         "deals again"),
       dealer_rotation=said("random", "If not, choose a new dealer to start a new round",
                            note="read as a new dealer drawn among the other seats"),
       signal_modality=said("silent", "how to NONVERBALLY tell their partner that they have 4 of a kind"),
       stop_kemps_reveals=reading("accused_pair", "001 does not say who shows; 000's reading, the closest source, "
                                                  "which fits 001's words", "If the other team does indeed have 4 "
                                                                            "of a kind"),
       wrong_call_ends_round=said(True, "The round is over when one of these conditions is met"),
       scoring=said("letters", "The losing teams in each round receive a penalty letter from the word KEMPS"),
       right_kemps_penalises=said("all_other_pairs", "If their partner does indeed have 4 of a kind, then all other "
                                                     "teams receive a letter"),
       two_decks_from=said(8, "you may choose to use 2 decks with 8+ players")),
    _p("kems", "003", "fr", "French Kem's, scored in points",
       players=said(4, "Nombre de joueurs : À 4 joueurs (en équipe)", "number of players: 4, in teams"),
       swap=said("multi_drop_first", "ils doivent d’abord poser leur(s) carte(s) avant d’en ramasser le nombre "
                                     "correspondant sur la table",
                 "they must first put their card(s) down before picking up as many from the table"),
       start=said("dealer_go", "Au signal « La chasse est ouverte ! », les joueurs peuvent se saisir des cartes",
                  "at the signal \"the hunt is open!\" the players may take the cards",
                  "003 does not name who gives the signal: the engine has the dealer give it, as in 000's "
                  "\"Los!\" variant"),
       redeal_on_deal=said(True, "un joueur reçoit 3 ou 4 cartes identiques, celui-ci doit les montrer, les remettre "
                                 "dans le paquet", "a player dealt 3 or 4 identical cards must show them and put "
                                                   "them back in the pack"),
       redeal_until_clean=reading(False, "003 describes one redraw and is silent on a second three of a kind: "
                                         "the new hand stands", "puis en piocher respectivement 3 ou 4 autres",
                                  "then draw 3 or 4 others respectively"),
       fresh_middle=said("nobody_wants", "Les cartes sont ainsi échangées jusqu’à ce que celles qui restent "
                                         "n’intéressent plus personne",
                         "the cards are swapped until those left interest nobody"),
       sweeper=reading("any_player", "003 says \"a player\" sweeps, not \"the dealer\" (though it also says \"a "
                                     "player deals\"); read as whoever acts first: the shortest patience with a "
                                     "dead middle", "Un joueur les « balaye » alors du jeu ... puis en étale 4 "
                                                    "nouvelles",
                       "a player then \"sweeps\" them out of play ... then lays out 4 new ones"),
       pack_exhausted=said("reshuffle_discards", "Une fois toutes les cartes jouées, la poubelle devient, après "
                                                 "mélange, le nouveau paquet",
                           "once every card has been played, the discard pile, shuffled, becomes the new pack"),
       dealer_rotation=reading("left", "003 does not say who deals next; the default"),
       refill_opens=reading("each_card", "003 does not say when a fresh card may be taken; the default"),
       dealer_busy=reading(True, "003 does not say; the sweeper's hands are taken while it sweeps and deals"),
       signal_modality=said("spoken_allowed", "faire un clin d’œil ou énoncer un certain mot",
                            "give a wink or say a certain word"),
       stop_kemps_reveals=reading("accused_pair", "003 speaks of the accused team, not a player: both of it show",
                                  "Un joueur croit que l’équipe adverse a un Kem’s",
                                  "a player believes the opposing team has a Kem's"),
       wrong_call_ends_round=said(False, "La partie continue", "play goes on",
                                  "after a wrong Contre Kem's (case 4) and a wrong Kem's (case 6)"),
       wrong_stop_penalty_003=said(True, "Le joueur accusé doit montrer deux cartes différentes à l’accuseur ... "
                                         "ni même de dire une nouvelle fois Contre Kem’s en cours de jeu",
                                   "the accused must show two different cards to the accuser, who may not ... "
                                   "even say Contre Kem's again during play"),
       double_kemps=said(True, "Un joueur voit le signe de son coéquipier et possède également un Kem’s. Il annonce "
                               "un « Double Kem’s ! »",
                         "a player who sees the partner's sign and holds a Kem's too calls \"Double Kem's!\""),
       stop_against_double=reading("play_on", "003's case 5 only scores it (+1 to the accused pair); it says "
                                              "nothing of the round ending or of a bar, as case 4 does. Read as a "
                                              "call without effect: play goes on, nobody is barred, nothing shown",
                                   "« Contre Kem’s ! », inefficient face à un Double Kem’s",
                                   "a \"Contre Kem's!\", ineffective against a Double Kem's"),
       scoring=said("points", "la première équipe à égaler ou dépasser 10 points gagne la partie",
                    "the first team to reach or pass 10 points wins the game"),
       target_points=said(10, "la première équipe à égaler ou dépasser 10 points gagne la partie",
                          "the first team to reach or pass 10 points wins the game"),
       wrong_kemps_points=reading("other_pairs", "003 is cut off after its 6th case, which has no points; a point "
                                                 "to the other side, as in 004's points variant",
                                  "Un joueur annonce un « Kem’s ! » alors que son coéquipier n’en a pas. La partie "
                                  "continue.", "a player calls \"Kem's!\" when the partner has none. Play goes on."),
       call_words=said(("Kem's", "Contre Kem's"), "« Kem’s ! » ... « Contre Kem’s ! »", "the two calls")),
    _p("peanut_butter", "000", "de", "000's Peanut Butter variant: spoken calls, most rounds won",
       **_GERMAN,
       signal_modality=said("spoken_allowed", "Gesprochene Zeichen sind erlaubt", "spoken signals are allowed"),
       scoring=said("rounds_won", "Vereinbart vorher eine ungerade Zahl von Runden; das Team, das mehr Runden "
                                  "gewinnt, gewinnt",
                    "agree an odd number of rounds beforehand; the team that wins more rounds wins"),
       rounds_to_play=reading(5, "000 names no number of rounds; kemps-sim's default", "eine ungerade Zahl von "
                                                                                       "Runden",
                              "an odd number of rounds"),
       call_words=said(("Peanut butter", "Jelly"), "Ruf „Erdnussbutter!“, wenn du glaubst, dein Partner hat vier "
                                                   "Gleiche, und „Marmelade!“",
                       "call \"Peanut butter!\" when you think your partner has four of a kind, and \"Jelly!\"",
                       "the variant's English names")),
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
        raise ConfigError(f"rules.preset = {name!r}: unknown preset{did_you_mean(name, PRESETS)}; allowed presets "
                          "are " + ", ".join(PRESETS))
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
    values = _merge(preset.values(), overrides)
    rules = Rules(**values)
    origins: dict[str, str] = {}
    for knob, spec in specs.items():
        if knob in overrides:
            origins[knob] = origin
        elif knob in values:
            origins[knob] = preset.origin(knob)
        elif spec.applies_when is not None and getattr(rules, knob) is not None:
            origins[knob] = f"default under {spec.applies_when[0]} = {spec.applies_when[1]}"
        elif spec.applies_when is not None:
            origins[knob] = f"not used (only with {spec.applies_when[0]} = {spec.applies_when[1]})"
        else:
            origins[knob] = "default"
    return Resolved(preset.name, rules, origins)


def load_rules(spec: RulesLike = None, **overrides: Any) -> Rules:
    """Rules from a preset name, a TOML file path, a mapping or a :class:`Rules`, with overrides.

    A mapping or a TOML file holds knobs (in a file, at the top level or under ``[rules]``) and may name a base
    ``preset`` whose knobs it overrides. This is the one entry point the engine, the CLI and sweep specs use.
    """
    return resolve_any(spec, overrides).rules


def resolve_any(spec: RulesLike, overrides: Mapping[str, Any] | None = None) -> Resolved:
    """Like :func:`load_rules`, but also returns the origin of every knob."""
    overrides = dict(overrides or {})
    if spec is None:
        return resolve(DEFAULT_PRESET, overrides)
    if isinstance(spec, Rules):
        check_knob_names(overrides)
        return resolve(DEFAULT_PRESET, _merge(_explicit(spec), overrides))
    origin = "override"
    if isinstance(spec, Mapping):
        data = dict(spec)
    elif isinstance(spec, os.PathLike) or (isinstance(spec, str) and (
            spec.endswith(".toml") or Path(spec).is_file()
            or ((os.sep in spec or "/" in spec) and Path(spec).exists()))):  # a folder: read_rules_toml says so
        data = read_rules_toml(spec)
        origin = f"file {os.fspath(spec)}"
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
