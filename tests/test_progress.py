"""Progress fits where it runs: plain lines, a few a minute, with no carriage returns when standard error is a file or
a log; tqdm's bar on a terminal; tqdm's widget in a notebook's kernel. No assertion here depends on how fast the
machine is: the periodic lines are counted on a simulated clock."""

from __future__ import annotations

import contextlib
import io
import sys
import types

import pytest
from tqdm import tqdm

from kemps_sim.cli import main
from kemps_sim.sweep import run_sweep
from kemps_sim.sweep.progress import LOG_INTERVAL, LineStream, progress_bar, progress_mode
from tests.sweeps import quick_data, quick_spec, toml_text


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_sweep_with_stderr_in_a_file_writes_a_first_and_a_last_plain_line(tmp_path):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        run = run_sweep(quick_spec(tmp_path / "out", matches=3), workers=1)
    text = err.getvalue()
    assert run.ran == 12
    assert "\r" not in text
    lines = text.splitlines()
    assert len(lines) <= 3  # the first line, maybe one periodic line, the last line
    assert lines[0].startswith("quick: 0/12 matches (0%)")
    assert lines[-1].startswith("quick: 12/12 matches (100%)")


def test_the_command_line_sweep_in_a_log_writes_plain_lines_and_no_progress_writes_none(tmp_path, capsys):
    spec = tmp_path / "quick.toml"
    spec.write_text(toml_text(quick_data(tmp_path / "out", matches=2)), encoding="utf-8")
    assert main(["sweep", str(spec), "--workers", "1"]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err
    assert sum("matches (" in line for line in err.splitlines()) <= 3
    assert main(["sweep", str(spec), "--workers", "1", "--output", str(tmp_path / "again"), "--no-progress"]) == 0
    assert "matches (" not in capsys.readouterr().err


def test_lines_mode_writes_at_most_one_line_per_interval_on_a_simulated_clock():
    out = io.StringIO()
    seconds, per_second = 600, 4  # ten simulated minutes, four matches a second
    bar = progress_bar(seconds * per_second, "big", stream=out)
    clock = [bar.start_t]
    bar._time = lambda: clock[0]  # tqdm's own clock hook: time passes only when the test says so
    for _ in range(seconds):
        clock[0] += 1.0
        bar.update(per_second)
    bar.close()
    text = out.getvalue()
    lines = text.splitlines()
    assert "\r" not in text
    assert len(lines) <= 2 + seconds / LOG_INTERVAL  # the first, one per interval at most, the last
    assert len(lines) >= seconds / LOG_INTERVAL / 2  # and it does report as it goes
    per_minute = (len(lines) - 2) / (seconds / 60)
    assert per_minute <= 60 / LOG_INTERVAL
    assert lines[-1].startswith("big: 2400/2400 matches (100%)")


def test_the_line_stream_turns_tqdm_redraws_into_lines():
    out = io.StringIO()
    stream = LineStream(out)
    stream.write("\rrun: 1/4 matches   ")
    stream.write("")
    stream.write("\n")
    stream.write("\rrun: 4/4 matches,  4.00match/s")
    stream.write("\rrun: 4/4 matches,  4.00match/s")  # drawn again on close: not a second line
    assert out.getvalue() == "run: 1/4 matches\nrun: 4/4 matches, 4.00match/s\n"


def test_the_mode_follows_the_stream_and_the_kernel(monkeypatch):
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    assert progress_mode(Terminal()) == "bar"
    assert progress_mode(io.StringIO()) == "lines"
    assert type(progress_bar(3, "t", enabled=False, stream=Terminal())) is tqdm

    shell = types.SimpleNamespace(kernel=object())
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *args: None if name == "ipywidgets" else object())
    assert progress_mode(io.StringIO()) == "bar"  # a kernel without ipywidgets: the text bar

    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: None))
    assert progress_mode(io.StringIO()) == "lines"  # IPython imported, but no kernel (a script, a terminal shell)


def test_a_kernel_with_ipywidgets_gets_the_notebook_widget(monkeypatch):
    pytest.importorskip("ipywidgets")
    from tqdm.notebook import tqdm as notebook_tqdm

    shell = types.SimpleNamespace(kernel=object())
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    assert progress_mode() == "widget"
    assert isinstance(progress_bar(3, "t", enabled=False), notebook_tqdm)
