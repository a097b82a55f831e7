"""The README's Python examples run as written, so the docs cannot rot."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples_run(tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    assert blocks
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_table.toml").write_text('preset = "german"\nplayers = 6\n')
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})


def test_readme_opens_with_the_two_setup_commands():
    text = README.read_text()
    first = re.search(r"```sh\n(.*?)```", text, flags=re.DOTALL).group(1).strip().splitlines()
    assert len(first) == 2
    assert "kemps-sim" in first[0] and "pytest" in first[1]
