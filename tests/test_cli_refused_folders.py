"""A sweep that is refused leaves no folders behind: neither its output folder nor the parents it needed, while
folders that were there before stay."""

from __future__ import annotations

from kemps_sim.cli import main
from kemps_sim.sweep.lock import FolderLock
from tests.sweeps import quick_data, toml_text


def _spec(tmp_path, output, **base) -> str:
    data = quick_data(output, matches=1, axes={"rules.double_kemps": [False]})
    data["base"].update(base)
    path = tmp_path / "spec.toml"
    path.write_text(toml_text(data))
    return str(path)


def test_a_sweep_refused_before_its_first_chunk_removes_the_folders_it_made(tmp_path, capsys):
    output = tmp_path / "a" / "b" / "c" / "results"
    spec = _spec(tmp_path, output)
    assert main(["sweep", spec, "--scheduler", "nonsense", "--no-progress"]) == 2
    assert "--scheduler 'nonsense'" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()
    (tmp_path / "a").mkdir()  # a parent that was there before stays
    assert main(["sweep", spec, "--scheduler", "nonsense", "--no-progress"]) == 2
    assert (tmp_path / "a").is_dir() and list((tmp_path / "a").iterdir()) == []


def test_a_refused_spec_makes_no_folder(tmp_path, capsys):
    spec = _spec(tmp_path, tmp_path / "a" / "b" / "results", lineup="collecter")
    assert main(["sweep", spec, "--serial", "--no-progress"]) == 2
    assert "unknown agent (did you mean collector?)" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()


def test_a_parent_something_else_was_put_in_meanwhile_stays(tmp_path):
    lock = FolderLock(tmp_path / "x" / "y" / "results").acquire()
    (tmp_path / "x" / "other.txt").write_text("put there by someone else while the sweep ran\n")
    lock.release()
    assert not (tmp_path / "x" / "y").exists()
    assert (tmp_path / "x" / "other.txt").is_file()
