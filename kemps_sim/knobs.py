"""Rule knobs: how a game's rules declare what each knob accepts, and one way to check and show values.

Both games' rules (:class:`kemps_sim.rules.Rules` and :class:`kemps_sim.krepet.rules.KrepetRules`) are frozen
dataclasses whose fields carry a :class:`KnobSpec` in their metadata (:func:`knob`); their validation, the
"did you mean" for a mistyped knob and every one-line error come from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from kemps_sim.errors import ConfigError
from kemps_sim.suggest import did_you_mean


@dataclass(frozen=True)
class KnobSpec:
    """What one knob accepts: its kind, its choices or range, and when it means anything.

    Kinds: ``bool``, ``int`` (within ``minimum``..``maximum``, and ``check`` if given), ``choice`` (one of
    ``choices``) and ``list`` (a list whose every constraint is ``check``, described in words by ``rule``).
    """

    kind: Literal["bool", "int", "choice", "list"]
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    rule: str = ""  # an int's extra constraint ("even") or, for a list, what it must hold, in words
    check: Callable[[Any], bool] | None = None
    applies_when: tuple[str, str] | None = None  # (other knob, value) under which this knob means something
    default_when_applies: Any = None

    def allowed(self) -> str:
        """What is allowed, in words, for error messages and the ``rules`` command."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "list":
            return self.rule
        article = f"an {self.rule}" if self.rule else "a"
        upper = f" to {self.maximum}" if self.maximum is not None else " up"
        return f"{article} whole number from {self.minimum}{upper}"

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is allowed (a list knob's value as a tuple)."""
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "int":
            return (isinstance(value, int) and not isinstance(value, bool)
                    and (self.minimum is None or value >= self.minimum)
                    and (self.maximum is None or value <= self.maximum)
                    and (self.check is None or self.check(value)))
        if self.kind == "choice":
            return isinstance(value, str) and value in self.choices
        return isinstance(value, tuple) and self.check is not None and self.check(value)


def knob(default: Any, spec: KnobSpec) -> Any:
    """A dataclass field that is a rule knob."""
    return field(default=default, metadata={"knob": spec})


def choices(alias: Any) -> tuple[str, ...]:
    """The values of a ``Literal[...]`` alias, for a choice knob."""
    return tuple(alias.__args__)


def specs_of(rules_class: type) -> dict[str, KnobSpec]:
    """Every knob's specification of a rules dataclass, in declaration order."""
    return {f.name: f.metadata["knob"] for f in fields(rules_class)}


def validate(rules: Any) -> None:
    """Check every knob of a rules object (lists given as lists become tuples); one line for the first bad one."""
    for f in fields(rules):
        spec: KnobSpec = f.metadata["knob"]
        value = getattr(rules, f.name)
        if spec.kind == "list" and isinstance(value, list):
            value = tuple(value)
            object.__setattr__(rules, f.name, value)
        check_value(f.name, value, spec)


def check_value(name: str, value: Any, spec: KnobSpec) -> None:
    """A :class:`ConfigError` naming the knob, the value and what is allowed, unless ``value`` is allowed."""
    if not spec.accepts(value):
        raise ConfigError(f"rules.{name} = {show(value)}: must be {spec.allowed()}")


def check_names(specs: Mapping[str, KnobSpec], names: Mapping[str, Any], what: str = "rule knob") -> None:
    """Refuse any name that is not a knob, suggesting the closest one."""
    for name in names:
        if name not in specs:
            raise ConfigError(f"rules.{name} = {show(names[name])}: unknown {what}{did_you_mean(name, specs)}; "
                              "allowed knobs are " + ", ".join(specs))


def show(value: Any) -> str:
    """A value as a user would write it in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return repr(value)
