"""Lineups: which agent, with which hyperparameters, sits in each seat.

A lineup is a string such as ``"collector,random(p_swap=0.3)"`` or a sequence of names, agent instances or
factories. One entry seats everyone; ``players / 2`` entries seat one per pair (entry ``i`` at seats ``i`` and
``i + players/2``, who are partners); ``players`` entries seat one per seat.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from typing import Any

from kemps_sim.agent import Agent, BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.games import DEFAULT_GAME, game_names
from kemps_sim.games import game as game_record
from kemps_sim.registry import agent_info, builtin_names, known_names
from kemps_sim.suggest import did_you_mean

LineupLike = str | Sequence[str | BaseAgent | Callable[[], Agent]]
AgentFactory = Callable[[], Agent]

_ENTRY = re.compile(r"^\s*([A-Za-z_][\w\-]*)\s*(?:\((.*)\))?\s*$", re.DOTALL)

#: The longest lineup (or lineup entry) accepted, in characters: far more than any real lineup needs, and short
#: enough that no string can exhaust memory or the parser's recursion.
MAX_LINEUP_CHARS = 2000
#: Lineup text longer than this is shortened in error messages.
_SHOWN_CHARS = 60


def _shown(text: str) -> str:
    """``text`` quoted for a one-line message, shortened in the middle if long."""
    if len(text) > _SHOWN_CHARS:
        text = f"{text[:_SHOWN_CHARS // 2]}...{text[-_SHOWN_CHARS // 2:]}"
    return repr(text)


def _check_text(what: str, text: Any) -> str:
    if not isinstance(text, str):
        raise ConfigError(f"{what} = {text!r}: must be text such as \"collector,random(p_swap=0.3)\"")
    if len(text) > MAX_LINEUP_CHARS:
        raise ConfigError(f"{what} {_shown(text)}: {len(text)} characters; allowed: at most {MAX_LINEUP_CHARS}")
    return text


def split_lineup(text: str) -> list[str]:
    """Split ``"a,b(x=1, y=2),c"`` on the commas outside parentheses."""
    text = _check_text("lineup", text)
    parts, depth, current, opened = [], 0, [], []
    for position, char in enumerate(text, 1):
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        if char == "(":
            depth += 1
            opened.append(position)
        elif char == ")":
            depth -= 1
            if depth < 0:
                raise ConfigError(f"lineup {_shown(text)}: a ')' without its '(' at character {position}")
            opened.pop()
        current.append(char)
    if depth:
        raise ConfigError(f"lineup {_shown(text)}: a '(' without its ')' at character {opened[-1]}")
    parts.append("".join(current))
    return [p.strip() for p in parts]


def parse_entry(text: str, game: str = DEFAULT_GAME) -> tuple[str, dict[str, Any]]:
    """``"watcher(threshold=0.9)"`` to ``("watcher", {"threshold": 0.9})``; values are Python literals.

    Any other string is a one-line :class:`ConfigError` naming the entry and, where it can, the character, with
    examples from ``game``'s agents.
    """
    text = _check_text("lineup entry", text)
    match = _ENTRY.match(text)
    example, param = _example_entry(game)
    if not match:
        raise ConfigError(f"lineup entry {_shown(text)}: must be NAME or NAME(param=value, ...), such as "
                          f"{example}({param})")
    name, args = match.group(1), match.group(2)
    params: dict[str, Any] = {}
    if args and args.strip():
        start = match.start(2)  # where the parameters begin in ``text``, from 0
        bad = (f"lineup entry {_shown(text)}: parameters must be name=value with literal values, such as "
               f"{name}({param})")
        try:
            call = ast.parse(f"f({args})", mode="eval").body
        except SyntaxError as exc:
            offset = exc.offset or 0
            where = f" (at character {start + offset - 2})" if 2 <= offset <= len(args) + 2 else ""
            raise ConfigError(bad + _bare_text_hint(args) + where) from None
        except (ValueError, RecursionError, MemoryError, OverflowError):
            raise ConfigError(bad) from None
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) or call.func.id != "f":
            ends = [node.end_col_offset for node in ast.walk(call) if isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name) and node.func.id == "f" and node.col_offset == 0]
            where = f" (at character {start + ends[0] - 1})" if ends and ends[0] is not None else ""
            raise ConfigError(f"lineup entry {_shown(text)}: the parameters must be one (...) after the name, "
                              f"such as {name}({param}), and nothing after it{where}")
        if call.args:
            raise ConfigError(f"lineup entry {_shown(text)}: parameters must be named, e.g. {name}({param}) "
                              f"(at character {start + call.args[0].col_offset - 1})")
        for keyword in call.keywords:
            column = f"at character {start + keyword.col_offset - 1}"
            if keyword.arg is None:
                raise ConfigError(f"lineup entry {_shown(text)}: parameters must be name=value, not **mapping "
                                  f"({column})")
            try:
                params[keyword.arg] = ast.literal_eval(keyword.value)
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError, OverflowError):
                hint = _literal_hint(keyword.arg, ast.get_source_segment(f"f({args})", keyword.value) or "")
                raise ConfigError(f"lineup entry {_shown(text)}: {keyword.arg} = ...: the value must be a literal"
                                  f"{hint} ({column})") from None
    return name, params


#: A value written as bare words (text someone forgot to quote), such as ``cough`` or ``cough drop``.
_BARE_WORDS = re.compile(r"[A-Za-z_][\w\-]*(?:\s+[\w\-]+)*")
_CONSTANTS = {"true": "True", "false": "False", "none": "None"}


def _literal_hint(name: str, value: str) -> str:
    """What to write instead of a value that is not a literal: ``True`` for ``true``, quotes around bare words
    (``signal='cough'`` for ``signal=cough``), else the kinds of literal there are."""
    value = value.strip()
    if value.lower() in _CONSTANTS:
        return f"; write {name}={_CONSTANTS[value.lower()]}"
    if _BARE_WORDS.fullmatch(value) and value not in _CONSTANTS.values():
        return f"; quote text: {name}={value!r}"
    return " (a number, text in quotes, true/false as True/False, a list)"


def _bare_text_hint(args: str) -> str:
    """The quoting hint for the first ``name=bare words`` among parameters that do not parse (``signal=cough drop``:
    several unquoted words are a syntax error rather than a name), or ``""``."""
    for part in args.split(","):
        name, equals, value = part.partition("=")
        if equals and name.strip().isidentifier() and " " in value.strip() and _BARE_WORDS.fullmatch(value.strip()):
            return _literal_hint(name.strip(), value)
    return ""


def entry_problem(message: str) -> str:
    """A lineup entry's problem on one line, without the head that names it as a lineup's (``lineup agent 'x': ``),
    for a command that names the value by its own option or argument."""
    problem = " ".join(message.split())
    named, colon, rest = problem.partition(": ")
    return rest if colon and named.startswith("lineup ") else problem


def entry_text(name: str, params: dict[str, Any]) -> str:
    """A lineup entry written back as text, ``watcher(threshold=0.9)``: the inverse of :func:`parse_entry`."""
    return name if not params else f"{name}({', '.join(f'{k}={v!r}' for k, v in params.items())})"


def _example_entry(game: str) -> tuple[str, str]:
    """An agent of ``game`` and a parameter, to show in errors (the default game's for a game not known)."""
    try:
        return game_record(game).example_entry
    except ConfigError:
        return game_record(DEFAULT_GAME).example_entry


def make_factory(name: str, params: dict[str, Any], game: str = DEFAULT_GAME) -> AgentFactory:
    """A factory for a registered agent of ``game`` with hyperparameters, checked now rather than at the first
    deal. An unknown name is answered with ``game``'s agents (and the installed plugins' names)."""
    known = known_names()
    builtins = {n for each in game_names() for n in builtin_names(each)}
    plugins = [n for n in known if n not in builtins]
    if name not in known:
        ours = builtin_names(game)
        raise ConfigError(f"lineup agent {name!r}: unknown agent{did_you_mean(name, ours + plugins)}; "
                          f"{_allowed_text(game, plugins)}")
    info = agent_info(name)
    if info.game != game:
        ours = builtin_names(game)
        allowed = f"built-in {game} agents are {', '.join(ours)}" if ours else _allowed_text(game, plugins)
        raise ConfigError(f"lineup agent {name!r}: plays {info.game}, not {game}; {allowed}")
    cls = info.factory
    parameters = info.parameters
    for key in params:
        if key not in parameters:
            listed = ", ".join(f"{p}={v!r}" for p, v in parameters.items()) or "none"
            raise ConfigError(f"lineup agent {name!r}: unknown parameter {key!r}{did_you_mean(key, parameters)}; "
                              f"parameters: {listed}")
    try:
        cls(**params)
    except ConfigError:
        raise
    except Exception as exc:  # an agent's own constructor: any failure there is a bad parameter value
        problem = " ".join(str(exc).split()) or type(exc).__name__
        raise ConfigError(f"lineup agent {name!r}: bad parameters {params}: {problem}") from None
    return lambda: cls(**params)


def _allowed_text(game: str, plugins: list[str]) -> str:
    """The agents a lineup of ``game`` may name, for an error: its built-ins (and the installed plugins, named from
    their metadata without importing them, so that a mistyped name imports nothing); a game with no built-in agent
    (a third-party game's agents are plugins) names the plugins alone."""
    ours = builtin_names(game)
    if not ours:
        return f"{game} has no built-in agents; plugins: {', '.join(plugins) or 'none installed'}"
    others = f"; plugins: {', '.join(plugins)}" if plugins else ""
    return f"allowed agents are {', '.join(ours)} (those that play {game}){others}"


def resolve_lineup(lineup: LineupLike, players: int, game: str = DEFAULT_GAME) -> list[tuple[str, AgentFactory]]:
    """One (display name, factory) per seat, every agent one that plays ``game``."""
    entries: list[Any] = split_lineup(lineup) if isinstance(lineup, str) else list(lineup)
    resolved: list[tuple[str, AgentFactory]] = []
    for entry in entries:
        if isinstance(entry, str):
            name, params = parse_entry(entry, game)
            label = entry_text(name, params)
            resolved.append((label, make_factory(name, params, game)))
        elif isinstance(entry, BaseAgent):
            if getattr(entry, "game", DEFAULT_GAME) != game:
                raise ConfigError(f"lineup entry {entry!r}: plays {getattr(entry, 'game', DEFAULT_GAME)}, not {game}")
            resolved.append((repr(entry), entry.clone))
        elif callable(entry):
            resolved.append((getattr(entry, "name", getattr(entry, "__name__", "agent")), entry))
        else:
            raise ConfigError(f"lineup entry {entry!r}: must be an agent name, an agent or a factory")
    if len(resolved) == players:
        return resolved
    if len(resolved) == 1:
        return resolved * players
    played = game_record(game)
    sides = players // played.seats_per_side
    if len(resolved) == sides:
        return [resolved[s % sides] for s in range(players)]
    raise ConfigError(played.lineup_sizes_text(len(resolved), players))
