"""The documentation's gallery: every figure it shows is one scripts/make_gallery.py makes with the commands the page
shows, and the published sensitivity figure comes from a run big enough for its indices to mean something.

The sensitivity indices behind the figure are published beside it (docs/gallery/sensitivity.csv), so that their
stability is checked here rather than trusted.
"""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
GALLERY = ROOT / "docs" / "gallery"
PAGE = (ROOT / "docs" / "gallery.md").read_text()


def make_gallery():
    spec = importlib.util.spec_from_file_location("make_gallery", ROOT / "scripts" / "make_gallery.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def section(title: str) -> str:
    """A section of the page, its lines joined as they read."""
    return " ".join(PAGE.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0].split())


def test_every_figure_the_page_shows_is_in_the_gallery_folder():
    shown = re.findall(r"!\[[^\]]*\]\(gallery/([^)]+)\)", PAGE)
    assert shown and [name for name in shown if not (GALLERY / name).is_file()] == []


def test_the_sensitivity_figure_comes_from_the_commands_and_spec_the_page_shows():
    text = section("Sensitivity")
    spec = tomllib.loads((GALLERY / "sensitivity.toml").read_text())["sweep"]
    metric = make_gallery().SENSITIVITY_METRIC
    assert "kemps-sim sweep docs/gallery/sensitivity.toml" in text
    assert f"kemps-sim report {spec['output']} --sensitivity {metric} --plots" in text
    points = spec["samples"] * (4 + 2)
    assert f"{spec['samples']} base samples" in text and f"{spec['matches']} matches" in text
    assert f"{points * spec['matches']:,} matches" in text


def test_the_published_sensitivity_indices_are_stable():
    """S1 never above ST beyond their intervals, no index past 1, the total-order indices adding up to little more
    than 1 (luck counted into every one of them would push the sum far past it), and every index that matters
    (ST of at least 0.1) known to within half its size."""
    table = pd.read_csv(GALLERY / "sensitivity.csv")
    assert set(table["parameter"]) == set(tomllib.loads((GALLERY / "sensitivity.toml").read_text())["axes"])
    assert (table["S1"] - table["S1_conf"] <= table["ST"] + table["ST_conf"]).all()
    assert (table["S1"] <= table["ST"] + table["ST_conf"]).all()
    assert (table["ST"] - table["ST_conf"] <= 1).all() and table["ST"].sum() <= 1.5
    matters = table[table["ST"] >= 0.1]
    assert len(matters) >= 1 and (matters["ST_conf"] <= matters["ST"] / 2).all()
