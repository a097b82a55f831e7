"""The Krepet preset from its source (seed 002, German), each knob with the words it rests on or the reading taken.

Quotes are the source's own short words with an English gloss (:func:`kemps_sim.presets.said`); where the source is
silent or ambiguous the value is a :func:`kemps_sim.presets.reading` whose note says what was read and why. Rules
come from :func:`load_krepet_rules` (a preset name, a mapping of knobs maybe naming a ``preset``, or rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.krepet.rules import KrepetRules, check_knob_names
from kemps_sim.presets import Preset, reading, said
from kemps_sim.rules import read_rules_toml
from kemps_sim.suggest import did_you_mean

WIKIBOOKS = Preset("wikibooks", "002", "de", "Krepet, a two-player Kampfpatience (Wikibooks card games page)", {
    "tableau_per_player": said(4, "eine zu sich senkrecht liegende Reihe aus vier Karten",
                               "a row of four cards lying at right angles to oneself"),
    "side_stack_size": said(10, "zählt jeder Spieler 10 Karten auf einen Stapel an seiner linken Seite",
                            "each player counts 10 cards onto a stack at the left"),
    "draw_counts": said((3, 2, 1), "in der zweiten Runde zwei, in allen weiteren Runden eine Karte",
                        "two cards in the second round, one in every later round", "three in the first"),
    "start_ace": reading("low", "the source does not say how an ace ranks for the start; low, as the ace piles "
                                "count it (A-2-3-4)", "der Spieler mit der höchsten Karte beginnt",
                         "the player with the highest card starts"),
    "stack_moves": reading("top_or_whole", "the source allows whole stacks and is silent on part of one; read "
                                           "literally: the top card or the whole stack",
                           "Es dürfen ganze Stapel verschoben werden", "whole stacks may be moved"),
    "drawn_leftovers": reading("to_discard", "the source says the drawn cards are 'distributed' but not where the "
                                             "rest go; read as laid on the Ablage beside the talon, since the talon "
                                             "is said to be 'laid over' and then turned over unshuffled",
                               "der Talon komplett umgelegt, wird er ungemischt umgedreht",
                               "the talon laid over completely, it is turned over unshuffled"),
    "hand_access": reading("top", "the source names 'the top card' of the drawn ones; read as a packet played "
                                  "from the top", "so muß die oberste Karte dort abgelegt werden",
                           "the top card must be laid there"),
    "talon_target": reading("discard", "the source names the player's 'Ablage beside the talon' as a place to "
                                       "lay cards and, later, the own and the opponent's 'talon'; read as one "
                                       "pile, the face-up Ablage, as in the related Crapette",
                            "auf den Talon oder den Seitenstapel seines Gegners",
                            "on the opponent's talon or side stack"),
    "discard_top_to": reading("foundations", "the source names the own talon only as a source for the ace piles",
                              "eigener Talon, eigener Seitenstapel, eigene Handkarten",
                              "own talon, own side stack, own hand cards"),
    "load_from": reading("hand", "the places that name the side stacks and the opponent's piles are listed for "
                                 "the drawn cards only", "hat der Spieler andere Möglichkeiten, die Karten "
                                                         "loszuwerden",
                         "the player has other ways to get rid of the cards"),
    "take_back": reading("loaded_run", "the source allows taking cards back to reach the ones beneath; read as "
                                       "the cards laid on the side stack in play, a same-suit run up or down",
                         "in auf-oder absteigender Reihenfolge und in der selben Farbe",
                         "in ascending or descending order and in the same suit"),
    "go_again_counts": reading("hand_cards", "the source counts laying a card on the own talon as getting rid of "
                                             "it, so 'getting rid' means a card leaving the hand",
                               "Dazu zählt auch, wenn er eine Karte passend auf seinen eigenen Talon legen konnte",
                               "this includes fitting a card onto his own talon"),
    "empty_piles_take_any": reading(True, "the source says it of the tableau places only; read as true of empty "
                                          "side stacks and Ablagen too",
                                    "Leere Felder dürfen mit jeder Karte belegt werden",
                                    "empty places may take any card"),
    "turn_needs_draw": reading(True, "the source has every turn end with a draw; a player may not pass before "
                                     "drawing unless nothing is left to draw",
                               "Sind alle möglichen Züge getan, so darf der Spieler", "once all moves are made, "
                                                                                     "the player may"),
    "miss_callable": reading("until_made", "the source does not say how long a miss can be called; read as while "
                                           "the missed card can still go and has not", "so ruft der Gegenspieler "
                                                                                       "\"Krepet\"",
                             "the opponent calls \"Krepet\""),
    "interrupted_move": reading("stands", "the source interrupts the turn and takes nothing back",
                                "Damit ist der Zug des Spielers sofort unterbrochen",
                                "with that the player's turn is interrupted at once"),
    "wrong_call": reading("nothing", "the source names no cost for a wrong call"),
    "stuck_rule": reading("full_pass", "the source ends the game when both cannot move; read as each having "
                                       "drawn through the whole talon one card at a time with no progress",
                          "wenn beide Spieler nicht mehr ziehen können", "when both players can move no more"),
})

PRESETS: dict[str, Preset] = {WIKIBOOKS.name: WIKIBOOKS}
DEFAULT_PRESET = "wikibooks"


def get_preset(name: str) -> Preset:
    """The Krepet preset of that name, or a one-line error listing the presets."""
    if not isinstance(name, str) or name not in PRESETS:
        raise ConfigError(f"rules.preset = {name!r}: unknown Krepet preset{did_you_mean(name, PRESETS)}; allowed "
                          "presets are " + ", ".join(PRESETS))
    return PRESETS[name]


def load_krepet_rules(spec: str | Mapping[str, Any] | KrepetRules | None = None, **overrides: Any) -> KrepetRules:
    """Rules from a preset name, a mapping of knobs (maybe naming a base ``preset``) or rules, with overrides."""
    if isinstance(spec, KrepetRules):
        check_knob_names(overrides)
        return KrepetRules(**{**spec.as_dict(), **overrides})
    if spec is None or isinstance(spec, str):
        base, knobs = spec or DEFAULT_PRESET, dict(overrides)
    elif isinstance(spec, Mapping):
        data = dict(spec)
        base, knobs = data.pop("preset", DEFAULT_PRESET), {**data, **overrides}
    else:
        raise ConfigError(f"rules = {spec!r}: must be a Krepet preset name, a mapping or KrepetRules")
    preset = get_preset(base)
    check_knob_names(knobs)
    return KrepetRules(**{**preset.values(), **knobs})


def origins(name: str = DEFAULT_PRESET) -> dict[str, str]:
    """Where each knob's value in a preset comes from, one line per knob (as ``kemps-sim rules`` prints Kemps')."""
    preset = get_preset(name)
    return {knob: preset.origin(knob) for knob in preset.knobs}


def rules_source(text: str | None) -> str | dict[str, Any] | None:
    """A preset name as it is, or the knobs of a TOML file (which may name a ``preset``), read as every game's rules
    files are (:func:`kemps_sim.rules.read_rules_toml`)."""
    if text is None or not text.lower().endswith(".toml"):
        return text
    return read_rules_toml(text, example=DEFAULT_PRESET)
