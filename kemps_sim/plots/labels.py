"""Words for the codes found in tables and traces, so that every figure names things the same way."""

from __future__ import annotations

#: The call-accuracy metrics of ``kemps_sim.stats.call_accuracy``, in the order they are drawn.
METRICS: tuple[str, ...] = ("kemps_precision", "stop_precision", "conversion_kemps", "conversion_stolen",
                            "conversion_uncalled", "conversion_broken")
#: How each metric reads in a legend: precision is per call, conversion per four of a kind collected.
METRIC_LABELS: dict[str, str] = {
    "kemps_precision": "Kemps calls that were right",
    "stop_precision": "Stop Kemps calls that were right",
    "conversion_kemps": "fours called Kemps by the partner",
    "conversion_stolen": "fours stolen by a Stop Kemps",
    "conversion_uncalled": "fours left uncalled",
    "conversion_broken": "fours broken before any call",
}
#: The spoken call of each ``CallHeard.call`` code.
CALL_WORDS: dict[str, str] = {"kemps": "Kemps!", "stop_kemps": "Stop Kemps!", "double_kemps": "Double Kemps!"}


def outcome_text(outcome: str) -> str:
    """``kemps_right`` as ``kemps right``, ``void_pack_exhausted`` as ``void pack exhausted``."""
    return str(outcome).replace("_", " ")
