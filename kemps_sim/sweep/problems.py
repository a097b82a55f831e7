"""The problems found in a sweep spec, each filed under the part of the spec it is about, so that one run lists
every problem where the user will look for it: ``[sweep]``, ``[base]``, ``[axes] "NAME"`` (one section per axis),
``[axes]`` (what only the cells together show), ``[compare]``, and keys outside any table.

Each problem is one line naming the field (in full, e.g. ``base.lineup``), the value and what is allowed; the
section heads only group them.
"""

from __future__ import annotations

#: The sections of a spec, in the order problems are listed (each axis's own section sits with ``[axes]``).
TOP, SWEEP, BASE, AXES, COMPARE = "(outside any table)", "[sweep]", "[base]", "[axes]", "[compare]"
_ORDER = {TOP: 0, SWEEP: 2, BASE: 3, AXES: 4, COMPARE: 6}
#: The end of the head line of a problem list (the command line turns a list of one into a single line).
NOTHING_DONE = "(nothing was run or written)"


def axis_section(name: str) -> str:
    """The section of one axis, as it reads in the spec: ``[axes] "rules.double_kemps"``."""
    return f'[axes] "{name}"'


def table_section(name: str) -> str:
    """The section of a table the spec names, known or not: ``[extra]``."""
    return f"[{name}]"


class Problems:
    """The problems of one spec, by section, each listed once in the order found within its section."""

    def __init__(self) -> None:
        self._by_section: dict[str, dict[str, None]] = {}

    def add(self, section: str, text: str) -> None:
        """File ``text`` (one line naming the field, its value and what is allowed) under ``section``."""
        self._by_section.setdefault(section, {}).setdefault(text)

    def __len__(self) -> int:
        return sum(len(texts) for texts in self._by_section.values())

    def __bool__(self) -> bool:
        return bool(len(self))

    def in_section(self, section: str) -> list[str]:
        """The problems filed under ``section``."""
        return list(self._by_section.get(section, {}))

    def lines(self) -> list[str]:
        """Every problem, section by section (without the section heads)."""
        return [text for section in self._sections() for text in self._by_section[section]]

    def text(self, source: str) -> str:
        """The whole list: a head naming ``source`` and the count, then each section and its problems."""
        count = len(self)
        lines = [f"{source}: {count} problem{'s' if count != 1 else ''} {NOTHING_DONE}"]
        for section in self._sections():
            lines.append(f"  {section}")
            lines += [f"    {text}" for text in self._by_section[section]]
        return "\n".join(lines)

    def _sections(self) -> list[str]:
        filed = [section for section, texts in self._by_section.items() if texts]
        return sorted(filed, key=lambda section: _rank(section))  # stable: axes keep the order they were filed


def _rank(section: str) -> int:
    if section in _ORDER:
        return _ORDER[section]
    if section.startswith(AXES):
        return 5
    return 1  # a table the spec should not have
