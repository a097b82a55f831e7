"""Krepet's rules: the preset from seed 002 with its provenance, every knob's validation, and the deal."""

from __future__ import annotations

import numpy as np
import pytest

from kemps_sim.errors import ConfigError
from kemps_sim.krepet import (
    KrepetRules,
    deal,
    knob_specs,
    load_krepet_rules,
    position,
    starting_player,
)
from kemps_sim.krepet.cards import ALL_CARDS, is_red, value
from kemps_sim.krepet.presets import PRESETS, origins
from kemps_sim.krepet.rules import MAX_DRAW_STEPS

BAD_VALUES = {
    "bool": ["yes", 1, None],
    "int": [0, 41, 2.5, True, "4"],
    "choice": ["bogus", 3, None],
    "list": [(), (0,), (3, 2, 11), (1,) * (MAX_DRAW_STEPS + 1), (True,), "3,2,1"],
}


def test_preset_validates_and_is_the_default():
    assert load_krepet_rules() == KrepetRules()
    assert load_krepet_rules("wikibooks") == KrepetRules()
    rules = KrepetRules()
    assert (rules.tableau_per_player, rules.side_stack_size, rules.draw_counts) == (4, 10, (3, 2, 1))
    assert rules.tableau_places == 8
    assert [rules.draw_count(n) for n in range(5)] == [3, 2, 1, 1, 1]


def test_preset_gives_provenance_for_every_knob():
    preset = PRESETS["wikibooks"]
    assert set(preset.knobs) == set(knob_specs())
    assert preset.source == "002" and preset.language == "de"
    lines = origins()
    for knob, entry in preset.knobs.items():
        assert entry.quote or entry.reading, knob  # a knob the source states has its words
        if entry.quote:
            assert entry.gloss, f"{knob}: a German quote needs an English gloss"
        assert "\n" not in lines[knob]
    for knob in ("drawn_leftovers", "talon_target", "miss_callable", "interrupted_move", "wrong_call"):
        assert preset.knobs[knob].reading, knob
        assert lines[knob].startswith("preset wikibooks: reading: ")
    assert not preset.knobs["draw_counts"].reading


@pytest.mark.parametrize("knob", list(knob_specs()))
def test_every_knob_refuses_bad_values_in_one_line(knob):
    spec = knob_specs()[knob]
    for bad in BAD_VALUES[spec.kind]:
        if spec.kind == "int" and knob == "tableau_per_player" and bad == 41:
            bad = 9
        with pytest.raises(ConfigError) as err:
            KrepetRules(**{knob: bad})
        message = str(err.value)
        assert message.startswith(f"rules.{knob} = ") and "must be" in message and "\n" not in message


def test_knob_values_are_accepted_and_counts_come_as_lists():
    for knob, spec in knob_specs().items():
        for choice in spec.choices:
            assert getattr(KrepetRules(**{knob: choice}), knob) == choice
    assert KrepetRules(draw_counts=[1]).draw_counts == (1,)


def test_the_largest_layout_still_leaves_a_talon():
    s = deal(KrepetRules(tableau_per_player=8, side_stack_size=40), 3)
    s.check()
    assert [len(s.talon[p]) for p in (0, 1)] == [4, 4] and len(s.tableau) == 16


def test_unknown_knobs_and_presets_are_named():
    with pytest.raises(ConfigError, match=r"rules.draw_count = 1: unknown Krepet rule knob \(did you mean draw_counts"):
        load_krepet_rules(draw_count=1)
    with pytest.raises(ConfigError, match="unknown Krepet preset; allowed presets are wikibooks"):
        load_krepet_rules("standard")
    assert load_krepet_rules({"preset": "wikibooks", "wrong_call": "skip_turn"}).wrong_call == "skip_turn"
    assert load_krepet_rules(KrepetRules(), stuck_rule="one_turn").stuck_rule == "one_turn"
    with pytest.raises(ConfigError):
        load_krepet_rules(3)  # type: ignore[arg-type]


def test_card_values_are_ace_low_and_colours():
    from kemps_sim.cards import parse_card
    assert [value(parse_card(n)) for n in ("AS", "2S", "10H", "JD", "QC", "KS")] == [1, 2, 10, 11, 12, 13]
    assert is_red(parse_card("7H")) and is_red(parse_card("7D'")) and not is_red(parse_card("7C"))


@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_the_deal_has_the_right_counts(seed):
    s = deal(KrepetRules(), np.random.default_rng(seed))
    s.check()
    assert [len(t) for t in s.tableau] == [1] * 8
    assert all(c < 52 for t in s.tableau[:4] for c in t) and all(c >= 52 for t in s.tableau[4:] for c in t)
    for p in (0, 1):
        assert len(s.side[p]) == 10 and s.side_base[p] == 10 and s.side_hidden[p] == 9  # only the top face up
        assert len(s.talon[p]) == 52 - 4 - 10 and not s.discard[p] and not s.hand[p]
        assert all(c // 52 == p for c in s.side[p] + s.talon[p])
        assert s.cards_of(p) == 48
    total = sum(map(len, s.tableau)) + sum(len(s.side[p]) + len(s.talon[p]) for p in (0, 1))
    assert total == ALL_CARDS == 104 and not s.aside


def test_the_deal_is_deterministic_under_a_seed():
    a, b = deal(None, np.random.default_rng(5)), deal(None, np.random.default_rng(5))
    assert a.key() == b.key() and a.to_move == b.to_move
    assert deal(None, 5).key() == a.key()  # an int seed is the same generator
    assert deal(None, 6).key() != a.key()


def test_the_higher_side_top_starts_and_ties_are_cut():
    rng = np.random.default_rng(0)
    s = position(side=("5S", "9H'"), talon=("2C", "3C'"))
    assert starting_player(s, rng) == 1
    s = position(side=("AS", "KH'"), talon=("2C", "3C'"))
    assert starting_player(s, rng) == 1  # ace low (the preset)
    s = position(KrepetRules(start_ace="high"), side=("AS", "KH'"), talon=("2C", "3C'"))
    assert starting_player(s, rng) == 0
    s = position(side=("7S", "7H'"), talon=("2C 2D", "3C' 3D'"))
    assert starting_player(s, rng) == 1  # a tie: the cut talons decide, and every cut card of player 1 is higher
    starts = {deal(None, seed).to_move for seed in range(12)}
    assert starts == {0, 1}


def test_a_krepet_rules_file_is_read_as_every_games_and_names_a_krepet_preset(tmp_path):
    from kemps_sim.krepet.presets import rules_source

    empty, bad = tmp_path / "empty.toml", tmp_path / "bad.toml"
    empty.write_text("", encoding="utf-8")
    bad.write_text("interrupted_move = ", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"sets no knob and names no preset; give `preset = \"wikibooks\"` or knobs"):
        rules_source(str(empty))
    with pytest.raises(ConfigError, match=r"bad\.toml': not valid TOML"):
        rules_source(str(bad))
    with pytest.raises(ConfigError, match=r"missing\.toml': no such file"):
        rules_source(str(tmp_path / "missing.toml"))
