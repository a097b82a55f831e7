"""Hints to the optional compiled build (``setup.py``, ``KEMPS_SIM_COMPILE=1``) that change nothing in pure Python.

mypyc reads :func:`mypyc_attr` from the source while it compiles and never calls it; pure Python, which calls it,
gets a decorator that returns the class unchanged, so the reference build needs no mypy installed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

T = TypeVar("T")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:
    def mypyc_attr(*_flags: str, **_settings: Any) -> Callable[[T], T]:
        """A class's settings for mypyc (``allow_interpreted_subclasses=True``: Python classes may derive from the
        compiled one); in pure Python the class as it is."""
        return _unchanged


def _unchanged(cls: T) -> T:
    return cls


__all__ = ["mypyc_attr"]
