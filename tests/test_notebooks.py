"""Every notebook runs top to bottom at its small size, so the worked analyses cannot rot.

The notebooks are kept without outputs; here each is executed in a fresh kernel with its working folder in a
temporary directory (its sweeps write there), and any error in any cell fails the test.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_the_ten_stories_are_there():
    assert [p.stem for p in NOTEBOOKS] == ["01_quickstart", "02_signal_choice", "03_strategy_tournament",
                                           "04_rule_variants", "05_tempo_and_calls", "06_sensitivity", "07_krepet",
                                           "08_calibration", "09_learning", "10_metagame"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path, tmp_path, monkeypatch):
    notebook = nbformat.read(path, as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), \
        f"{path.name} is stored with outputs; clear them"
    assert notebook.cells[0].cell_type == "markdown" and "**Question.**" in notebook.cells[0].source
    # The kernel must be this interpreter (the one with kemps-sim installed), whatever "python" is on the PATH.
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.setenv("KEMPS_NOTEBOOK_SIZE", "small")
    client = nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    printed = [out.get("text", "") for cell in notebook.cells for out in cell.get("outputs", [])
               if out.get("output_type") == "stream"]
    assert any(text.startswith("In this run") for text in printed), "the notebook never says what its run showed"
    if path.stem == "06_sensitivity":  # at the small size every index is noise, and the notebook says so
        said = next(text for text in printed if text.startswith("In this run"))
        assert said.count("indices are noise") == 3, said
        intro = notebook.cells[0].source
        assert "its indices are noise" in intro and "1,000 matches" in intro
    images = [out for cell in notebook.cells for out in cell.get("outputs", [])
              if "image/png" in out.get("data", {})]
    assert images, "the notebook drew no figure"
