"""MkDocs hooks: tables the documentation site builds from the code, and a build that says what it is doing.

A page holds a marker comment, and the hook puts the table in its place when the site is built:

- ``<!-- presets-table -->``: every Kemps rule knob (rows) against every preset (columns), with the default;
- ``<!-- preset-sources -->``: for each preset, the knobs its source sets, said outright or read;
- ``<!-- krepet-readings -->``: every Krepet knob with the preset's value and where it comes from.

The notebooks' pages are rendered by mkdocs-jupyter, which runs each notebook first (unless
``KEMPS_DOCS_EXECUTE=false``): that is nearly all of a build's time (minutes, where the rest takes seconds). The build
says so when it starts, and says how long each notebook took. A run notebook's page is kept (mkdocs-jupyter's cache)
under the size it ran at (``KEMPS_NOTEBOOK_SIZE``) and a fingerprint of the code, so that the next build reuses it
until a notebook or the code changes, and a build that does not run them (the test suite's) leaves it alone.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import time
from pathlib import Path
from typing import Any

log = logging.getLogger("mkdocs.hooks.kemps_sim")
ROOT = Path(__file__).resolve().parent.parent
#: What a run notebook's output depends on besides the notebook itself: the library, the agents, the dependencies.
CODE = ("kemps_sim", "agents", "pyproject.toml")


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




def code_fingerprint() -> str:
    """A short hash of every file the notebooks' outputs depend on (:data:`CODE`), by path and content."""
    digest = hashlib.sha256()
    for name in CODE:
        path = ROOT / name
        files = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
            if path.is_dir() else [path] if path.is_file() else []
        for file in files:
            digest.update(str(file.relative_to(ROOT)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:12]


def on_config(config: Any, **_: Any) -> Any:
    """Say whether the notebooks will run, and keep run notebooks apart by size and code (see the module)."""
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is None:
        return config
    notebooks = [name for _, _, names in os.walk(config["docs_dir"], followlinks=True) for name in names
                 if name.endswith(".ipynb")]
    base = Path(jupyter.config["cache_dir"])
    if not jupyter.config["execute"]:
        jupyter.config["cache_dir"] = str(base / "unrun")
        log.info("notebooks: %d rendered without running them (KEMPS_DOCS_EXECUTE=false)", len(notebooks))
        return config
    size = os.environ.get("KEMPS_NOTEBOOK_SIZE", "small")
    prefix = f"run-{size}-"
    cache = base / f"{prefix}{code_fingerprint()}"
    for stale in base.glob(f"{prefix}*"):  # pages run by code that has changed since
        if stale != cache and stale.is_dir():
            shutil.rmtree(stale)
    jupyter.config["cache_dir"] = str(cache)
    kept = len(list(cache.glob("*.json"))) if cache.is_dir() else 0
    log.info("notebooks: running each of the %d notebooks at size %r as its page is built, unless this code "
             "ran it before (%d kept in %s); this takes minutes, KEMPS_DOCS_EXECUTE=false renders them without "
             "running", len(notebooks), size, kept, cache)
    return config


_started: dict[str, float] = {}


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Put the generated tables in place of their markers; start a notebook's clock."""
    if page.file.src_path.endswith(".ipynb"):
        _started[page.file.src_path] = time.perf_counter()
    for marker, make in _MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown


def on_page_content(html: str, page: Any, **_: Any) -> str:
    """Say how long a notebook's page took (running it, or taking it from the cache)."""
    started = _started.pop(page.file.src_path, None)
    if started is not None:
        log.info("notebooks: %s done in %.1f s", page.file.src_path, time.perf_counter() - started)
    return html
