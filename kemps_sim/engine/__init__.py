"""The real-time match engine: SimPy processes for players, gestures, percepts, calls and the dealer."""

from kemps_sim.engine.config import EngineConfig
from kemps_sim.engine.live import Live
from kemps_sim.engine.match import simulate_match, simulate_round
from kemps_sim.results import MatchResult, RoundResult

__all__ = ["EngineConfig", "Live", "MatchResult", "RoundResult", "simulate_match", "simulate_round"]
