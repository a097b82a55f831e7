"""Pickling and copying a frozen dataclass through its constructor.

Compiled by mypyc (the optional compiled build, ``setup.py``), a frozen dataclass keeps its fields in C slots: pickle
and ``copy`` find no ``__dict__`` to fill and are refused the attribute writes they fall back on. Rebuilt from its
init fields instead, it pickles, copies and deep-copies alike in both builds (a sweep's workers, the learning
environments' copies of a table).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def by_fields(obj: Any) -> tuple[type, tuple[Any, ...]]:
    """``obj.__reduce__()`` for a frozen dataclass: its class and the values of its init fields, in order."""
    return type(obj), tuple(getattr(obj, field.name) for field in fields(obj) if field.init)
