"""Snap's named rule sets, and rules from a preset name, a mapping of knobs or a TOML file.

Snap has no one source text: the presets are the two house rules met most often, each knob with a note on why it
has its value (``kemps-sim rules --game snap`` prints them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.rules import read_rules_toml
from kemps_sim.suggest import did_you_mean
from kemps_snap.rules import SnapRules, check_knob_names


@dataclass(frozen=True)
class SnapPreset:
    """A named rule set: its knobs' values and a note on each (``source`` names where it comes from, as the
    library's presets do: here the house rules of the game)."""

    name: str
    title: str
    knobs: Mapping[str, tuple[Any, str]]
    source: str = "house"

    def values(self) -> dict[str, Any]:
        """The knobs this preset sets, with their values."""
        return {knob: value for knob, (value, _) in self.knobs.items()}

    def origin(self, knob: str) -> str:
        """Why this preset's ``knob`` has its value, as ``kemps-sim rules`` prints it."""
        return f"preset {self.name}: {self.knobs[knob][1]}"


_COMMON = {
    "players": (2, "the game is most often played by two"),
    "decks": (1, "one pack is enough for two to four players"),
    "late_calls_pay": (False, "a call that lost the race costs nothing"),
    "max_seconds": (600, "ten minutes: a long enough session to see who wins"),
}
CLASSIC = SnapPreset("classic", "Snap with a one-card penalty for a false call", {
    **_COMMON, "false_call_penalty": (1, "a false call gives one card to each other player, so calls are not free")})
PENALTY_FREE = SnapPreset("penalty_free", "Snap where a false call costs nothing (a children's table)", {
    **_COMMON, "false_call_penalty": (0, "no penalty: calling at everything is a strategy")})

PRESETS: dict[str, SnapPreset] = {p.name: p for p in (CLASSIC, PENALTY_FREE)}
DEFAULT_PRESET = "classic"


def get_preset(name: Any) -> SnapPreset:
    """The preset of that name, or a one-line error listing the presets."""
    if not isinstance(name, str) or name not in PRESETS:
        raise ConfigError(f"rules.preset = {name!r}: unknown Snap preset{did_you_mean(str(name), PRESETS)}; allowed "
                          "presets are " + ", ".join(PRESETS))
    return PRESETS[name]


def load_snap_rules(spec: str | Mapping[str, Any] | SnapRules | None = None, **overrides: Any) -> SnapRules:
    """Rules from a preset name, a TOML file, a mapping of knobs (maybe naming a base ``preset``) or rules, with
    ``overrides`` set."""
    if isinstance(spec, SnapRules):
        check_knob_names(overrides)
        return SnapRules(**{**spec.as_dict(), **overrides})
    spec = rules_source(spec) if isinstance(spec, str) else spec
    if spec is None or isinstance(spec, str):
        base, knobs = spec or DEFAULT_PRESET, dict(overrides)
    elif isinstance(spec, Mapping):
        data = dict(spec)
        base, knobs = data.pop("preset", DEFAULT_PRESET), {**data, **overrides}
    else:
        raise ConfigError(f"rules = {spec!r}: must be a Snap preset name, a TOML file, a mapping or SnapRules")
    preset = get_preset(base)
    check_knob_names(knobs)
    return SnapRules(**{**preset.values(), **knobs})


def rules_source(text: str | None) -> str | dict[str, Any] | None:
    """A preset name as it is, or the knobs of a TOML file (which may name a ``preset``), read as every game's rules
    files are (:func:`kemps_sim.rules.read_rules_toml`)."""
    if text is None or not text.lower().endswith(".toml"):
        return text
    return read_rules_toml(text, example=DEFAULT_PRESET)
