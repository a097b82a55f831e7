"""A match (or a Krepet game) as one self-contained HTML page: the table drawn and played in real time in any
browser, offline.

The page holds its data (:func:`kemps_sim.replay.data.replay_data`), its style and its script inline: no server, no
network, no external scripts or fonts. The script reads the data once and takes it out of the document, so what the
document holds is what the view shown draws; a page written for one seat holds that seat's view alone. The script
exposes ``window.kempsReplay`` (the page's own state, the calls it has shown, the standings it shows, and
``playAll(speed)``) for scripts and tests.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME, game
from kemps_sim.replay.data import replay_data
from kemps_sim.results import MatchResult


def _asset(name: str) -> str:
    return resources.files("kemps_sim.replay").joinpath("assets", name).read_text(encoding="utf-8")


def kemps_page(result: MatchResult, seat: int | None = None) -> tuple[dict[str, Any], str, str]:
    """What the replay page of a Kemps match shows (the Kemps record's ``replay``): its data (every hand, or
    ``seat``'s view alone), its legend and its title."""
    rules = result.rules
    rounds = len(result.rounds)
    title = (f"kemps-sim replay: seed {result.seed}, {rules.players} players, {rounds} "
             f"round{'s' if rounds != 1 else ''}, {rules.scoring} scoring")
    if seat is not None:
        title += f", as seat {seat} sees it"
    return replay_data(result, seat), "legend_kemps.html", title


def page_html(result: Any, seat: int | None = None) -> str:
    """The replay page of ``result`` (a Kemps match, a Krepet game, or a result of another game whose record has
    a ``replay``; its class names the game as ``game``) as one HTML document: every hand, with a switch to each
    seat's view, or (``seat``) that seat's view alone, holding nothing the seat does not know."""
    name = getattr(result, "game", DEFAULT_GAME if isinstance(result, MatchResult) else None)
    parts = game(name).hook("replay") if isinstance(name, str) else None
    if parts is None:
        raise ConfigError(f"replay: {type(result).__name__} is not a match result; give what simulate_match or "
                          "play_krepet returns")
    data, legend, title = parts(result, seat)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    text = text.replace("</", "<\\/")  # nothing in the data can close the script element that holds it
    page = _asset("page.html")
    for key, value in (("{{CSS}}", _asset("replay.css")), ("{{JS}}", _asset("krepet_view.js") + _asset("replay.js")),
                       ("{{LEGEND}}", _asset(legend)), ("{{TITLE}}", html.escape(title))):
        page = page.replace(key, value)
    return page.replace("{{DATA}}", text)  # last: the data may hold any text


def write_html(result: Any, path: str | Path, seat: int | None = None) -> Path:
    """Write the replay page of ``result`` (a Kemps match or a Krepet game) to ``path`` (a folder that exists):
    every hand, or (``seat``) only what that seat knows (see :func:`page_html`); return the path written."""
    target = Path(path)
    if not target.parent.is_dir():
        raise ConfigError(f"replay page {str(target)!r}: folder {str(target.parent)!r} does not exist")
    target.write_text(page_html(result, seat), encoding="utf-8")
    return target
