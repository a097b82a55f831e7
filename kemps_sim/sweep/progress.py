"""Progress of a sweep that fits where it runs: a bar on a terminal, a widget in a notebook, a few plain lines in a
log.

A bar redrawn with carriage returns is right for a terminal but floods a file or a CI log with thousands of
updates, and shows as text rather than a widget in Jupyter. :func:`progress_mode` decides once per sweep:

- ``widget``: an IPython kernel is running (Jupyter, VS Code notebooks) and ipywidgets is installed: tqdm's
  notebook widget (:mod:`tqdm.notebook`);
- ``bar``: standard error is a terminal, or a kernel without ipywidgets: tqdm's text bar, as always;
- ``lines``: anything else (output redirected to a file, a CI log, a pipe): plain lines with no carriage return,
  at most one every :data:`LOG_INTERVAL` seconds plus the first and the last, such as
  ``grid: 120/480 matches (25%), 00:31 elapsed, 01:33 left, 3.87match/s``.

Every mode is tqdm's own: the widget is :class:`tqdm.notebook.tqdm`, and the lines are :class:`tqdm.tqdm` with
``mininterval``/``maxinterval`` at :data:`LOG_INTERVAL`, a bar format without the bar, and a stream adapter that
ends each status tqdm draws with a newline instead of starting it with a carriage return.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import IO, Any, Literal

from tqdm import tqdm

#: In ``lines`` mode, the fewest seconds between two progress lines (the first and the last line aside).
LOG_INTERVAL = 30.0
#: What one progress line in ``lines`` mode says (tqdm's format fields; ``postfix`` holds ", failures=N" if any).
LINE_FORMAT = ("{desc}: {n_fmt}/{total_fmt} matches ({percentage:.0f}%), {elapsed} elapsed, {remaining} left, "
               "{rate_fmt}{postfix}")

Mode = Literal["widget", "bar", "lines"]


def in_kernel() -> bool:
    """Whether this process is an IPython kernel (a notebook's), found without importing IPython."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except Exception:  # a half-imported or unusual IPython: no kernel to draw a widget in
        return False
    return shell is not None and getattr(shell, "kernel", None) is not None


def progress_mode(stream: IO[str] | None = None) -> Mode:
    """How progress is shown on ``stream`` (default: standard error): see the module text."""
    if in_kernel():
        return "widget" if importlib.util.find_spec("ipywidgets") is not None else "bar"
    stream = stream if stream is not None else sys.stderr
    isatty = getattr(stream, "isatty", None)
    try:
        return "bar" if callable(isatty) and isatty() else "lines"
    except (ValueError, OSError):  # a closed or detached stream
        return "lines"


class LineStream:
    """A stream for tqdm in ``lines`` mode: each status tqdm draws (``"\\r" + status + padding``) becomes one line
    of the status alone, with runs of spaces made one; tqdm's closing newline and a status just like the line
    before (the last update drawn again on close) add nothing."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self._last = ""

    def write(self, text: str) -> int:
        """Write ``text`` as a line, without carriage returns and padding; nothing for blank or repeated text."""
        line = " ".join(text.replace("\r", " ").split())
        if line and line != self._last:
            self.stream.write(line + "\n")
            self._last = line
        return len(text)

    def flush(self) -> None:
        """Flush the underlying stream, so each line reaches a log as it is written."""
        flush = getattr(self.stream, "flush", None)
        if callable(flush):
            flush()


def progress_bar(total: int, desc: str, enabled: bool = True, stream: IO[str] | None = None,
                 mode: Mode | None = None) -> Any:
    """A tqdm progress bar of ``total`` matches for the place it shows in (``mode``, default
    :func:`progress_mode` of ``stream``); a disabled one when not ``enabled``. Use it as any tqdm bar
    (``update``, ``set_postfix``, ``total``, ``refresh``, ``close``)."""
    mode = mode or progress_mode(stream)
    common: dict[str, Any] = {"total": total, "unit": "match", "desc": desc, "disable": not enabled,
                              "smoothing": 0.1}
    if mode == "widget":
        from tqdm.notebook import tqdm as notebook_tqdm

        return notebook_tqdm(**common)
    if mode == "bar":
        return tqdm(**common, file=stream)
    return tqdm(**common, file=LineStream(stream if stream is not None else sys.stderr), mininterval=LOG_INTERVAL,
                maxinterval=LOG_INTERVAL, bar_format=LINE_FORMAT)
