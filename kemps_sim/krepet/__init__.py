"""Krepet: a two-player racing patience (seed 002) with its own call, "Krepet!", on a missed ace-pile move.

This package holds the game's rules as validated configuration (:class:`KrepetRules`, the ``wikibooks`` preset),
its state with invariants, the legal and compulsory moves, the deal, turns and calls, a play-out helper, and the game
on the SimPy clock (:func:`play_krepet`): moves that take human time, an opponent who watches with the
signal-detection model of Kemps, and the race to say "Krepet!". Agents implement :class:`KrepetAgent`
(built-ins: ``greedy``, ``careful``, ``loader``, ``lookout``).
"""

from kemps_sim.krepet.agent import BaseKrepetAgent, Habits, KrepetAgent, KrepetView
from kemps_sim.krepet.deal import deal, starting_player
from kemps_sim.krepet.legal import compulsory_moves, legal_moves, why_illegal
from kemps_sim.krepet.moves import Draw, EndTurn, Lay, Move, Pile, TakeBack
from kemps_sim.krepet.playout import Outcome, play_randomly, play_to_end
from kemps_sim.krepet.position import position
from kemps_sim.krepet.presets import PRESETS, load_krepet_rules
from kemps_sim.krepet.realtime import KrepetConfig, play_krepet
from kemps_sim.krepet.result import KrepetResult
from kemps_sim.krepet.rules import KrepetRules, knob_specs
from kemps_sim.krepet.state import BrokenInvariant, Call, Miss, Result, State
from kemps_sim.krepet.turns import apply_move, call_krepet

__all__ = [
    "PRESETS", "BaseKrepetAgent", "BrokenInvariant", "Call", "Draw", "EndTurn", "Habits", "KrepetAgent",
    "KrepetConfig", "KrepetResult", "KrepetRules", "KrepetView", "Lay", "Miss", "Move", "Outcome", "Pile", "Result",
    "State", "TakeBack", "apply_move", "call_krepet", "compulsory_moves", "deal", "knob_specs", "legal_moves",
    "load_krepet_rules", "play_krepet", "play_randomly", "play_to_end", "position", "starting_player", "why_illegal",
]
