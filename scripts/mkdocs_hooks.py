"""MkDocs hooks: tables the documentation site builds from the code, so that they can never disagree with it.

A page holds a marker comment, and the hook puts the table in its place when the site is built:

- ``<!-- presets-table -->``: every Kemps rule knob (rows) against every preset (columns), with the default;
- ``<!-- preset-sources -->``: for each preset, the knobs its source sets, said outright or read;
- ``<!-- krepet-readings -->``: every Krepet knob with the preset's value and where it comes from.
"""

from __future__ import annotations

from typing import Any


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return " / ".join(map(str, value))
    return "–" if value is None else str(value)


def _presets_table() -> str:
    from kemps_sim.presets import PRESETS, load_rules
    from kemps_sim.rules import Rules

    rules = {name: load_rules(name).as_dict() for name in PRESETS}
    default = Rules().as_dict()
    head = "| knob | default | " + " | ".join(f"`{n}` ({p.source})" for n, p in PRESETS.items()) + " |"
    rows = [head, "|" + "---|" * (len(PRESETS) + 2)]
    for knob in default:
        cells = [f"**{_value(rules[n][knob])}**" if rules[n][knob] != default[knob] else _value(rules[n][knob])
                 for n in PRESETS]
        rows.append(f"| `{knob}` | {_value(default[knob])} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n\nA value in bold differs from the default."


def _preset_sources() -> str:
    from kemps_sim.presets import PRESETS

    parts = []
    for name, preset in PRESETS.items():
        said = [k for k, s in preset.knobs.items() if not s.reading]
        read = [k for k, s in preset.knobs.items() if s.reading]
        parts.append(f"- **`{name}`** (source {preset.source}, {preset.title}): states "
                     + (", ".join(f"`{k}`" for k in said) or "nothing beyond the defaults")
                     + ("; reads " + ", ".join(f"`{k}`" for k in read) if read else "") + ".")
    return "\n".join(parts)


def _krepet_readings() -> str:
    from kemps_sim.krepet.presets import get_preset

    preset = get_preset("wikibooks")
    rows = ["| knob | value | where it comes from |", "|---|---|---|"]
    for knob, source in preset.knobs.items():
        text = source.describe(preset.source).replace("|", "/")
        rows.append(f"| `{knob}` | {_value(source.value)} | {text} |")
    return "\n".join(rows)


_MARKERS = {"<!-- presets-table -->": _presets_table, "<!-- preset-sources -->": _preset_sources,
            "<!-- krepet-readings -->": _krepet_readings}


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Put the generated tables in place of their markers."""
    for marker, make in _MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown
