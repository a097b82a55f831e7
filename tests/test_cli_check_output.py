"""``sweep --check`` names the spec file exactly as it was given (no case changed), however the path is written."""

from __future__ import annotations

import pytest

from kemps_sim.cli import main
from tests.sweeps import quick_data, toml_text


@pytest.mark.parametrize("name", ["quickstart.toml", "eyes-v2.toml", "mixedCase.toml", "with space.toml"])
def test_check_echoes_the_spec_path_as_given(tmp_path, monkeypatch, capsys, name):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / name).write_text(toml_text(quick_data(tmp_path / "out", matches=2)))
    for given in (f"sub/{name}", f"./sub/{name}", str(tmp_path / "sub" / name)):
        assert main(["sweep", given, "--check"]) == 0
        first = capsys.readouterr().out.splitlines()[0]
        assert first.startswith(f"{given}: 4 cells x 2 matches = 8 matches, design grid")
