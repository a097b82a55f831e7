"""Rules and presets: every knob, every preset, overrides, files, and every bad input named clearly."""

from __future__ import annotations

import dataclasses

import pytest

from kemps_sim import ConfigError, Rules, load_rules
from kemps_sim.presets import PRESETS, KnobSource, resolve, resolve_any
from kemps_sim.rules import knob_specs

EXPECTED_PRESETS = {
    # preset: swap, fresh_middle, pack_exhausted, dealer_rotation, signal_modality, stop_kemps_reveals,
    #         wrong_call_ends_round, scoring
    "standard": ("one_for_one", "stall_call", "reshuffle_discards", "left", "spoken_allowed", "accused_player",
                 True, "letters"),
    "german": ("multi", "nobody_wants", "void_round", "same", "silent", "accused_pair", True, "letters"),
    "party": ("multi", "nobody_wants", "void_round", "random", "silent", "accused_pair", True, "letters"),
    "kems": ("multi_drop_first", "nobody_wants", "reshuffle_discards", "left", "spoken_allowed", "accused_pair",
             False, "points"),
    "peanut_butter": ("multi", "nobody_wants", "void_round", "same", "spoken_allowed", "accused_pair", True,
                      "rounds_won"),
}
TABLE_KNOBS = ("swap", "fresh_middle", "pack_exhausted", "dealer_rotation", "signal_modality",
               "stop_kemps_reveals", "wrong_call_ends_round", "scoring")


@pytest.mark.parametrize("name", sorted(EXPECTED_PRESETS))
def test_preset_matches_the_rules_table(name):
    rules = load_rules(name)
    assert tuple(getattr(rules, k) for k in TABLE_KNOBS) == EXPECTED_PRESETS[name]


def test_preset_extras():
    assert load_rules("german").two_decks_from == 9
    assert load_rules("party").two_decks_from == 8
    kems = load_rules("kems")
    assert (kems.target_points, kems.redeal_on_deal, kems.double_kemps, kems.start, kems.players) == (
        10, True, True, "dealer_go", 4)
    assert kems.wrong_stop_penalty_003 is True
    assert kems.call_words == ("Kem's", "Contre Kem's")
    pb = load_rules("peanut_butter")
    assert pb.call_words == ("Peanut butter", "Jelly") and pb.rounds_to_play % 2 == 1
    assert load_rules("standard").right_kemps_penalises == "all_other_pairs"


def test_defaults_are_the_standard_preset():
    assert Rules() == load_rules("standard")


def test_every_preset_sets_only_real_knobs_and_documents_each():
    specs = knob_specs()
    for preset in PRESETS.values():
        for knob, entry in preset.knobs.items():
            assert knob in specs
            assert isinstance(entry, KnobSource)
            if entry.reading:
                assert entry.note.strip(), (preset.name, knob)  # a reading says what was read and why
            else:
                assert entry.quote.strip(), (preset.name, knob)  # a value from the source quotes its words
            if entry.quote and preset.language != "en":
                assert entry.gloss.strip(), (preset.name, knob)  # words not in English carry an English gloss


@pytest.mark.parametrize(("preset", "knobs"), [
    ("standard", {"sweeper": "dealer", "refill_opens": "each_card"}),
    ("german", {"refill_opens": "when_complete", "sweeper": "dealer"}),
    ("party", {"refill_opens": "when_complete", "sweeper": "dealer", "dealer_rotation": "random"}),
    ("peanut_butter", {"refill_opens": "when_complete", "sweeper": "dealer"}),
    ("kems", {"sweeper": "any_player", "redeal_until_clean": False, "stop_against_double": "play_on",
              "refill_opens": "each_card"}),
])
def test_new_knobs_take_each_presets_source(preset, knobs):
    rules = load_rules(preset)
    assert {knob: getattr(rules, knob) for knob in knobs} == knobs


@pytest.mark.parametrize(("preset", "knob", "fragments"), [
    ("german", "refill_opens", ['000: "legt 4 neue Karten vom Ziehstapel offen hin. Dann wird wieder getauscht"',
                                "(lays 4 new cards from the pack face up. Then swapping starts again)"]),
    ("peanut_butter", "refill_opens", ["000: \"legt 4 neue Karten vom Ziehstapel offen hin. Dann wird wieder "
                                       "getauscht\""]),
    ("party", "refill_opens", ["reading: ", '001: "Deal 4 more cards and repeat steps 3-4"',
                               "by that analogy"]),
    ("party", "dealer_rotation", ['001: "If not, choose a new dealer to start a new round"']),
    ("kems", "sweeper", ["reading: ", "003: \"Un joueur les « balaye » alors du jeu",
                         "(a player then \"sweeps\" them"]),
    ("kems", "redeal_until_clean", ["reading: ", '003: "puis en piocher respectivement 3 ou 4 autres"',
                                    "(then draw 3 or 4 others respectively)"]),
    ("kems", "stop_against_double", ["reading: ", "003: \"« Contre Kem’s ! », inefficient face à un Double Kem’s\"",
                                      "(a \"Contre Kem's!\", ineffective against a Double Kem's)"]),
])
def test_origins_quote_the_source_for_the_new_knobs(preset, knob, fragments):
    origin = resolve(preset).origins[knob]
    assert origin.startswith(f"preset {preset}: ")
    for fragment in fragments:
        assert fragment in origin
    said = not origin.startswith(f"preset {preset}: reading:")
    assert said == ("reading: " not in fragments)


def test_only_readings_are_marked_as_readings():
    marked = {(name, knob) for name, preset in PRESETS.items() for knob in preset.knobs
              if resolve(name).origins[knob].startswith(f"preset {name}: reading: ")}
    assert marked == {(name, knob) for name, preset in PRESETS.items()
                      for knob, entry in preset.knobs.items() if entry.reading}
    assert ("kems", "stop_against_double") in marked and ("kems", "dealer_rotation") in marked
    assert ("kems", "sweeper") in marked and ("german", "refill_opens") not in marked


def test_presets_are_defaults_not_cages():
    rules = load_rules("kems", players=6)
    assert rules.players == 6 and rules.scoring == "points" and rules.pairs == 3


def test_override_adds_a_knob_to_a_preset():
    assert load_rules("standard", double_kemps=True).double_kemps is True


def test_preset_dependent_knob_is_dropped_when_an_override_makes_it_meaningless():
    rules = load_rules("kems", scoring="letters")
    assert rules.target_points is None and rules.right_kemps_penalises == "all_other_pairs"
    rules = load_rules("kems", wrong_call_ends_round=True)
    assert rules.wrong_stop_penalty_003 is None


def test_dependent_knobs_take_defaults_when_they_apply():
    assert load_rules("standard", scoring="points").target_points == 10
    assert load_rules("standard", scoring="rounds_won").rounds_to_play == 5
    assert load_rules("standard", wrong_call_ends_round=False).wrong_stop_penalty_003 is True


@pytest.mark.parametrize(("players", "two_decks_from", "decks"), [
    (4, 9, 1), (8, 9, 1), (10, 9, 2), (8, 8, 2), (6, 8, 1), (12, 9, 2)])
def test_decks_follow_two_decks_from(players, two_decks_from, decks):
    assert load_rules("standard", players=players, two_decks_from=two_decks_from).decks == decks


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().players = 6  # type: ignore[misc]


def test_load_rules_from_mapping_and_toml(tmp_path):
    assert load_rules({"preset": "german", "players": 6}) == load_rules("german", players=6)
    path = tmp_path / "t.toml"
    path.write_text('preset = "party"\nplayers = 8\ndouble_kemps = true\n')
    assert load_rules(path) == load_rules(str(path)) == load_rules("party", players=8, double_kemps=True)
    nested = tmp_path / "n.toml"
    nested.write_text('[rules]\npreset = "kems"\ncall_words = ["Kent", "Stop Kent"]\n')
    assert load_rules(nested).call_words == ("Kent", "Stop Kent")
    assert resolve_any(nested).origins["call_words"] == f"file {nested}"


def test_rules_module_knows_nothing_of_presets():
    assert not any(hasattr(Rules, name) for name in ("from_preset", "from_mapping", "from_toml"))


def test_origins_name_preset_override_and_default():
    origins = resolve("kems", {"players": 6}).origins
    assert origins["players"] == "override"
    assert origins["swap"].startswith("preset kems: 003")
    assert origins["dealer_busy"].startswith("preset kems: reading: 003 does not say")
    assert resolve("standard").origins["dealer_busy"] == "default"
    assert origins["rounds_to_play"].startswith("not used")


def test_rebuild_from_rules_object_with_override():
    base = load_rules("kems")
    assert resolve_any(base, {"players": 6}).rules == load_rules("kems", players=6)


@pytest.mark.parametrize(("kwargs", "fragments"), [
    ({"players": 5}, ["rules.players = 5", "even whole number from 4 to 12"]),
    ({"players": 2}, ["rules.players = 2", "from 4"]),
    ({"players": 14}, ["rules.players = 14", "to 12"]),
    ({"players": "4"}, ["rules.players = '4'", "whole number"]),
    ({"players": 4.0}, ["rules.players = 4.0"]),
    ({"double_kemps": 1}, ["rules.double_kemps = 1", "true or false"]),
    ({"swap": "two_for_two"}, ["rules.swap = 'two_for_two'", "one_for_one, multi, multi_drop_first"]),
    ({"target_points": 12}, ["rules.target_points = 12", "scoring = 'points'", "scoring = 'letters'"]),
    ({"rounds_to_play": 5}, ["rules.rounds_to_play = 5", "rounds_won"]),
    ({"scoring": "rounds_won", "rounds_to_play": 4}, ["rules.rounds_to_play = 4", "odd"]),
    ({"scoring": "points", "target_points": 0}, ["rules.target_points = 0", "from 1"]),
    ({"scoring": "points", "right_kemps_penalises": "nobody"}, ["rules.right_kemps_penalises", "letters"]),
    ({"wrong_stop_penalty_003": True}, ["rules.wrong_stop_penalty_003", "wrong_call_ends_round = false"]),
    ({"doble_kemps": True}, ["rules.doble_kemps = true", "unknown rule knob", "double_kemps"]),
    ({"call_words": ("Kemps",)}, ["rules.call_words", "two non-empty strings"]),
    ({"call_words": ("Kemps", " ")}, ["rules.call_words"]),
    ({"scoring": "rounds_won", "wrong_call_ends_round": False}, ["rules.wrong_call_ends_round = false"]),
    ({"players": 12, "two_decks_from": 13}, ["rules.players = 12", "two_decks_from"]),
])
def test_bad_knob_gets_one_clear_line(kwargs, fragments):
    with pytest.raises(ConfigError) as info:
        load_rules("standard", **kwargs)
    message = str(info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message


def test_unknown_preset_lists_the_presets():
    with pytest.raises(ConfigError, match="allowed presets are standard, german, party, kems, peanut_butter"):
        load_rules("nonsense")


def test_direct_construction_is_validated_too():
    with pytest.raises(ConfigError, match="rules.fresh_middle = 'whenever'"):
        Rules(fresh_middle="whenever")  # type: ignore[arg-type]


def test_bad_toml_files(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load_rules(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("players = = 4\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_rules(broken)
    beside = tmp_path / "beside.toml"
    beside.write_text("players = 6\n[rules]\nswap = 'multi'\n")
    with pytest.raises(ConfigError, match="beside"):
        load_rules(beside)
    bad_preset = tmp_path / "bad_preset.toml"
    bad_preset.write_text("preset = 3\n")
    with pytest.raises(ConfigError, match="rules.preset = 3"):
        load_rules(bad_preset)
