"""Krepet's legal and compulsory moves, turns, calls and endings on hand-built positions, and random play."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kemps_sim.cards import parse_card
from kemps_sim.errors import IllegalMove
from kemps_sim.krepet import (
    BrokenInvariant,
    Draw,
    EndTurn,
    KrepetRules,
    Lay,
    Pile,
    TakeBack,
    apply_move,
    call_krepet,
    compulsory_moves,
    deal,
    legal_moves,
    play_randomly,
    play_to_end,
    position,
)
from kemps_sim.krepet.moves import discard, foundation, hand, side, tableau

C = parse_card
# Both players keep a talon card, so no hand-built game ends at once for lack of cards.
TALONS = ("2C 3C", "2C' 3C'")


def lay(card: str, src, dst, count: int = 1) -> Lay:
    return Lay(C(card), src, dst, count)


def P(rules: KrepetRules | None = None, **kw):
    """A position built by card text, both players keeping a talon unless told otherwise."""
    kw.setdefault("talon", TALONS)
    return position(rules, **kw)


def test_tableau_builds_down_in_alternating_colour():
    s = P(tableau=["8H", "7S", "7D", "KC"])
    legal = legal_moves(s)
    assert lay("7S", tableau(1), tableau(0)) in legal
    assert lay("7D", tableau(2), tableau(0)) not in legal  # same colour
    assert lay("KC", tableau(3), tableau(0)) not in legal  # not one lower
    with pytest.raises(IllegalMove, match=r"^move 7♦ T2 -> T0 by player 0: .*alternating colour\)$"):
        apply_move(s, lay("7D", tableau(2), tableau(0)))
    apply_move(s, lay("7S", tableau(1), tableau(0)))
    assert s.tableau[0] == [C("8H"), C("7S")] and s.tableau[1] == []
    s.check()


def test_empty_places_take_any_card_and_whole_stacks_move():
    s = P(tableau=["10D", "9C 8H", "", "QS"])
    legal = legal_moves(s)
    assert lay("9C", tableau(1), tableau(0), 2) in legal  # the whole stack
    assert lay("8H", tableau(1), tableau(2)) in legal  # the top card to an empty place
    assert lay("QS", tableau(3), tableau(2)) not in legal  # a lone card to an empty place changes nothing
    assert lay("9C", tableau(1), tableau(2), 2) not in legal
    apply_move(s, lay("9C", tableau(1), tableau(0), 2))
    assert s.tableau[0] == [C("10D"), C("9C"), C("8H")]
    s.check()


def test_part_of_a_stack_moves_only_under_any_run():
    shape = {"tableau": ["JD 10C 9H", "10S"]}
    assert lay("9H", tableau(0), tableau(1)) in legal_moves(P(**shape))
    partial = lay("10C", tableau(0), tableau(1), 2)
    assert partial not in legal_moves(P(**{"tableau": ["JD 10C 9H", "JH"]}))
    with pytest.raises(IllegalMove, match="stack_moves = 'top_or_whole'"):
        apply_move(P(tableau=["JD 10C 9H", "JH"]), partial)
    assert partial in legal_moves(P(KrepetRules(stack_moves="any_run"), tableau=["JD 10C 9H", "JH"]))
    assert lay("JD", tableau(0), tableau(2), 3) not in legal_moves(P(KrepetRules(stack_moves="top_only"),
                                                      tableau=["JD 10C 9H", "QS"]))


@pytest.mark.parametrize("where", ["tableau", "side", "hand", "discard"])
def test_an_ace_on_top_anywhere_reachable_must_go(where):
    piles = {"tableau": {"tableau": ["2S AH"]}, "side": {"side": ("9C AH", "")},
             "hand": {"hand": ("AH", "")}, "discard": {"discard": ("AH", "")}}[where]
    s = P(**piles)
    src = {"tableau": tableau(0), "side": side(0), "hand": hand(0), "discard": discard(0)}[where]
    assert compulsory_moves(s) == [lay("AH", src, foundation(0))]
    assert legal_moves(s)[0] == lay("AH", src, foundation(0))


def test_a_card_that_fits_an_ace_pile_must_go_and_piles_build_in_suit():
    s = P(tableau=["3S", "3H"], foundations=["AS 2S", "AH"], hand=("2H", ""))
    assert set(compulsory_moves(s)) == {lay("3S", tableau(0), foundation(0)), lay("2H", hand(0), foundation(1))}
    assert lay("3H", tableau(1), foundation(0)) not in legal_moves(s)
    with pytest.raises(IllegalMove, match="does not fit on F0"):
        apply_move(s, lay("3H", tableau(1), foundation(0)))
    assert not compulsory_moves(P(side=("", "AH'")))  # the opponent's ace is not the mover's to play
    with pytest.raises(IllegalMove, match="is the opponent's"):
        apply_move(P(side=("", "AH'")), lay("AH'", side(1), foundation(0)))
    with pytest.raises(IllegalMove, match="first empty ace place"):
        apply_move(P(hand=("AD", "")), lay("AD", hand(0), foundation(3)))


def test_missing_a_compulsory_move_is_recorded_and_a_call_passes_the_turn():
    s = P(tableau=["AH", "8C", "7D"])
    apply_move(s, lay("7D", tableau(2), tableau(1)))
    assert len(s.misses) == 1 and s.misses[0].missed == (lay("AH", tableau(0), foundation(0)),)
    with pytest.raises(IllegalMove, match="only the opponent"):
        call_krepet(s, 0)
    assert call_krepet(s, 1) is True
    assert s.to_move == 1 and s.calls[-1].right
    assert s.tableau[1] == [C("8C"), C("7D")]  # interrupted_move = "stands"
    assert call_krepet(s, 0) is False  # nothing missed by player 1


def test_a_miss_stops_being_callable_once_made_or_per_the_knob():
    s = P(tableau=["AH", "8C", "7D"])
    apply_move(s, lay("7D", tableau(2), tableau(1)))
    apply_move(s, lay("AH", tableau(0), foundation(0)))
    assert call_krepet(s, 1) is False and s.to_move == 0  # too late: the ace went up
    s = P(KrepetRules(miss_callable="next_move"), tableau=["AH", "8C", "7D"])
    apply_move(s, lay("7D", tableau(2), tableau(1)))
    apply_move(s, Draw())  # a second miss keeps it callable
    apply_move(s, lay("AH", tableau(0), foundation(0)))
    assert call_krepet(s, 1) is False
    s = P(KrepetRules(miss_callable="until_turn_end"), tableau=["AH", "8C", "7D"])
    apply_move(s, lay("7D", tableau(2), tableau(1)))
    apply_move(s, lay("AH", tableau(0), foundation(0)))
    assert call_krepet(s, 1) is True


def test_an_undone_interruption_takes_the_moves_back_and_a_wrong_call_can_cost_a_turn():
    s = P(KrepetRules(interrupted_move="undone"), tableau=["AH", "8C", "7D"])
    apply_move(s, lay("7D", tableau(2), tableau(1)))
    assert call_krepet(s, 1) is True
    assert s.tableau[:3] == [[C("AH")], [C("8C")], [C("7D")]] and s.to_move == 1
    s.check()
    s = P(KrepetRules(wrong_call="skip_turn"), tableau=["8C"])
    assert call_krepet(s, 1) is False
    apply_move(s, Draw())
    apply_move(s, EndTurn())
    assert s.to_move == 0 and not s.skip_next[1]  # player 1's turn was skipped


def test_the_draw_takes_three_then_two_then_one_shown_and_turned_over_unshuffled():
    s = P(talon=("2C 3C 4C 5C 6C 7C 8C", TALONS[1]))
    apply_move(s, Draw())
    assert s.hand[0] == [C("8C"), C("7C"), C("6C")]  # the packet turned over: 6C on top
    assert set(s.last_drawn) == {C("6C"), C("7C"), C("8C")}
    with pytest.raises(IllegalMove, match="no card got rid of since the last draw"):
        apply_move(s, Draw())
    apply_move(s, EndTurn())
    assert s.discard[0] == [C("8C"), C("7C"), C("6C")] and not s.hand[0]  # leftovers on the Ablage
    s.to_move, s.drawn_this_turn = 0, False
    apply_move(s, Draw())
    apply_move(s, EndTurn())
    s.to_move, s.drawn_this_turn = 0, False
    apply_move(s, Draw())  # one card left in the talon: only it is drawn
    assert s.hand[0] == [C("2C")]
    apply_move(s, EndTurn())
    s.to_move, s.drawn_this_turn = 0, False
    apply_move(s, Draw())  # the talon is empty: the Ablage is turned over and two are drawn
    assert s.passes[0] == 1 and s.hand[0] == [C("8C"), C("7C")]
    assert s.talon[0] == [C("2C"), C("3C"), C("4C"), C("5C"), C("6C")]  # the first pass's order again
    s.check()


def test_getting_rid_of_a_card_allows_another_draw():
    s = P(tableau=["9S"], talon=("4D 2D 2C 5D 8H", TALONS[1]))
    apply_move(s, Draw())
    assert s.hand[0][-1] == C("2C")  # the deepest of three on top; 8H under it is not playable yet
    assert lay("8H", hand(0), tableau(0)) not in legal_moves(s)
    with pytest.raises(IllegalMove, match="not on top"):
        apply_move(s, lay("8H", hand(0), tableau(0)))
    apply_move(s, lay("2C", hand(0), discard(1)))  # the opponent's empty Ablage takes any card
    apply_move(s, lay("5D", hand(0), tableau(1)))
    apply_move(s, lay("8H", hand(0), tableau(0)))
    assert Draw() in legal_moves(s) and s.rid_this_cycle == 3
    assert lay("8H", hand(0), tableau(0)) in legal_moves(P(KrepetRules(hand_access="any"), tableau=["9S"],
                                                hand=("8H 4H", "")))


def test_loading_onto_side_stacks_and_ablagen_in_suit_up_or_down():
    s = P(side=("9C 4S", "KD 7H'"), discard=("5S", "6D'"), hand=("8H", ""), drawn=True)
    legal = legal_moves(s)
    assert lay("8H", hand(0), side(1)) in legal  # onto the opponent's side stack, one up in suit
    assert lay("8H", hand(0), side(0)) not in legal
    assert lay("8H", hand(0), discard(1)) not in legal
    with pytest.raises(IllegalMove, match=r"does not fit on discard1 \(one up or down in the same suit\)"):
        apply_move(s, lay("8H", hand(0), discard(1)))
    assert lay("4S", side(0), discard(0)) not in legal  # load_from = "hand": the side top loads nothing
    with pytest.raises(IllegalMove, match="load_from = 'hand'"):
        apply_move(s, lay("4S", side(0), discard(0)))
    sided = P(KrepetRules(load_from="hand_and_side"), side=("9C 4S", "KD 7H'"), discard=("5S", "6D'"))
    assert lay("4S", side(0), discard(0)) in legal_moves(sided)
    apply_move(s, lay("8H", hand(0), side(1)))
    assert s.side[1][-1] == C("8H") and s.side_base[1] == 2
    s.check()


def test_the_ablage_top_goes_only_onto_ace_piles_and_talons_take_cards_only_under_talon_too():
    s = P(tableau=["6C"], discard=("5H", ""), foundations=["AH 2H 3H 4H"])
    assert [m for m in legal_moves(s) if isinstance(m, Lay) and m.src == discard(0)] == [
        lay("5H", discard(0), foundation(0))]
    s = P(tableau=["6C"], discard=("5H", ""))
    with pytest.raises(IllegalMove, match="discard_top_to = 'foundations'"):
        apply_move(s, lay("5H", discard(0), tableau(0)))
    assert lay("5H", discard(0), tableau(0)) in legal_moves(P(KrepetRules(discard_top_to="anywhere"), tableau=["6C"],
                                                  discard=("5H", "")))
    from kemps_sim.krepet.moves import talon
    s = P(KrepetRules(talon_target="talon_too"), hand=("4C", ""))
    assert lay("4C", hand(0), talon(0)) in legal_moves(s)
    with pytest.raises(IllegalMove, match="talons take no cards"):
        apply_move(P(hand=("4C", "")), lay("4C", hand(0), talon(0)))


def test_cards_laid_on_a_side_stack_can_be_taken_back():
    s = P(side=("QD 9C 5S 6S 7S", ""), side_base=(3, 0))
    assert TakeBack(2) in legal_moves(s) and TakeBack(3) not in legal_moves(s)
    with pytest.raises(IllegalMove, match="only 2 card"):
        apply_move(s, TakeBack(3))
    apply_move(s, TakeBack(2))
    assert s.side[0] == [C("QD"), C("9C"), C("5S")] and s.hand[0] == [C("6S"), C("7S")]
    assert TakeBack(1) not in legal_moves(s)  # the dealt cards stay
    assert TakeBack(1) in legal_moves(P(KrepetRules(take_back="any_run"), side=("QD 9C", "")))
    with pytest.raises(IllegalMove, match="take_back = 'none'"):
        apply_move(P(KrepetRules(take_back="none"), side=("5S 6S", ""), side_base=(1, 0)), TakeBack(1))
    s.check()


def test_the_side_stack_top_plays_and_the_next_card_turns_up():
    s = P(tableau=["10H"], side=("KD QC 9S", ""))
    assert s.side_hidden[0] == 2
    apply_move(s, lay("9S", side(0), tableau(0)))
    assert s.side[0] == [C("KD"), C("QC")] and s.side_hidden[0] == 1 and s.side_base[0] == 2
    s.check()


def test_a_turn_needs_a_draw_and_ends_with_leftovers_on_the_ablage():
    s = P()
    with pytest.raises(IllegalMove, match="needs a draw first"):
        apply_move(s, EndTurn())
    assert EndTurn() in legal_moves(P(KrepetRules(turn_needs_draw=False)))
    apply_move(s, Draw())
    apply_move(s, EndTurn())
    assert s.to_move == 1 and s.turn == 1 and s.discard[0] == [C("3C"), C("2C")]


def test_a_player_out_of_cards_wins():
    s = P(foundations=["AS 2S 3S"], hand=("4S", ""), talon=("", "2C'"), drawn=True)
    apply_move(s, lay("4S", hand(0), foundation(0)))
    assert s.result is not None and (s.result.reason, s.result.winner) == ("out_of_cards", 0)
    assert legal_moves(s) == []
    with pytest.raises(IllegalMove, match="the game is over"):
        apply_move(s, Draw())


def test_both_stuck_ends_the_game_and_fewest_cards_win():
    s = P(KrepetRules(stuck_rule="one_turn"), talon=("2C 3C", "2C'"))
    apply_move(s, Draw())
    apply_move(s, EndTurn())
    apply_move(s, Draw())
    apply_move(s, EndTurn())
    assert s.result is not None and (s.result.reason, s.result.winner, s.result.cards_left) == (
        "both_stuck", 1, (2, 1))
    s = P(talon=("2C", "2C'"))  # full_pass: one card each, drawn through at the last draw count
    s.passes = [2, 2]
    for _ in range(2):
        apply_move(s, Draw())
        apply_move(s, EndTurn())
    assert s.result is not None and (s.result.reason, s.result.winner) == ("both_stuck", None)


def test_check_catches_broken_invariants():
    s = P(tableau=["8H", "7S"])
    s.tableau[0].append(C("7D"))
    with pytest.raises(BrokenInvariant, match="cards not conserved"):
        s.check()
    s = P(tableau=["8H 7S"])
    s.tableau[0][1], s.aside[0] = s.aside[0], s.tableau[0][1]
    with pytest.raises(BrokenInvariant, match="not descending in alternating colour"):
        s.check()
    s = P(foundations=["AS 2S"])
    s.foundations[0].reverse()
    with pytest.raises(BrokenInvariant, match="not an ace built up in one suit"):
        s.check()


def test_odd_moves_are_refused_in_one_line():
    s = P(tableau=["8H", "7S"])
    for move, why in [(lay("7S", tableau(9), tableau(0)), "no pile 'tableau' 9"),
                      (Lay(200, tableau(1), tableau(0)), "not a card id"),
                      (lay("6D", tableau(1), tableau(0)), "6♦ is not on top of T1"),
                      (lay("7S", tableau(1), Pile("hand", 0)), "only by drawing or taking back"),
                      (TakeBack(1), "only 0 card(s) can be taken back")]:
        with pytest.raises(IllegalMove) as err:
            apply_move(s, move)
        assert why in str(err.value) and "\n" not in str(err.value) and str(err.value).startswith("move ")
    s.check()


def test_moves_read_as_text():
    assert str(lay("7S", tableau(1), tableau(0))) == "7♠ T1 -> T0"
    assert str(lay("9C'", tableau(1), tableau(0), 2)) == "9♣' (+1 on it) T1 -> T0"
    assert str(lay("AH", hand(0), foundation(2))) == "A♥ hand0 -> F2"
    assert [str(m) for m in (Draw(), EndTurn(), TakeBack(2))] == ["draw", "end turn", "take back 2 from side"]


def _foundations_ordered(s) -> bool:
    from kemps_sim.krepet.cards import fits_foundation
    return all(fits_foundation(c, b) for f in s.foundations for b, c in zip([None, *f], f, strict=False))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), skip=st.sampled_from([0.0, 0.3]),
       knobs=st.sampled_from([{}, {"hand_access": "any", "stack_moves": "any_run", "take_back": "any_run"},
                              {"load_from": "anywhere", "talon_target": "talon_too", "drawn_leftovers":
                               "keep_in_hand", "interrupted_move": "undone"}]))
def test_random_play_conserves_cards_and_keeps_foundations_ordered(seed, skip, knobs):
    rng = np.random.default_rng(seed)
    s = deal(KrepetRules(**knobs), rng)
    for _ in range(300):
        if s.over:
            break
        compulsory = compulsory_moves(s)
        pool = compulsory if compulsory and rng.random() >= skip else legal_moves(s)
        apply_move(s, pool[int(rng.integers(len(pool)))])
        if s.pending and rng.random() < 0.3:
            assert call_krepet(s, 1 - s.to_move) is True
        s.check()  # 104 cards, ace piles in suit and order, tableau alternating and descending
        assert _foundations_ordered(s) and s.cards_of(0) + s.cards_of(1) + sum(map(len, s.tableau)) + sum(
            map(len, s.foundations)) == 104
    if skip == 0.0:
        assert not s.misses


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_every_play_to_the_end_game_ends(seed):
    out = play_to_end(deal(None, seed), cap=4000)
    assert out.reason in ("out_of_cards", "both_stuck") and out.moves < 4000  # the preset's games finish
    if out.reason == "out_of_cards":
        assert out.cards_left[out.winner] == 0
    capped = play_to_end(deal(None, seed), cap=25)
    assert (capped.reason, capped.moves, capped.winner) == ("cap", 25, None)
    assert play_to_end(deal(None, seed), cap=4000) == out  # deterministic


def test_loose_knobs_games_end_or_hit_the_cap():
    rules = KrepetRules(load_from="anywhere", talon_target="talon_too", drawn_leftovers="keep_in_hand",
                        discard_top_to="anywhere", empty_piles_take_any=False, stuck_rule="one_turn")
    for seed in range(3):
        out = play_to_end(deal(rules, seed), cap=1500, check=True)
        assert out.reason in ("out_of_cards", "both_stuck", "cap") and out.moves <= 1500
        if out.reason == "cap":
            assert out.moves == 1500 and out.winner is None


def test_random_play_to_the_end_is_deterministic_and_records_misses():
    a = play_randomly(deal(None, 9), np.random.default_rng(9), cap=1500, skip_compulsory=0.5)
    b = play_randomly(deal(None, 9), np.random.default_rng(9), cap=1500, skip_compulsory=0.5)
    assert a == b and a.misses > 0
