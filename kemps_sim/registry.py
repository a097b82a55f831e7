"""Agents found by name: the built-ins of the ``agents`` package, then third-party plugins.

A plugin is a Python distribution that declares an entry point in the group ``kemps_sim.agents``; the entry
point's name is the agent's name and it loads a :class:`~kemps_sim.agent.BaseAgent` subclass, another class
with a ``decide`` method, or a callable factory returning an agent. A plugin that fails to import (whatever it
raises, ``sys.exit()`` included; Ctrl-C still interrupts), loads something that is not an agent, or clashes with a
name already taken is reported by :func:`plugin_errors` and left out; it never stops the other agents from
working. Discovery runs once per process (:func:`clear_cache`
starts it again) and its order is deterministic: built-ins in their own order, then plugins sorted by name.

Plugins are imported only when needed: resolving a lineup name (:func:`agent_info`, :func:`agent_class`)
imports the built-ins and, for a name that is not built in, only the entry points registered under that name;
:func:`list_agents` and :func:`plugin_errors` (``kemps-sim agents``) import all of them.
"""

from __future__ import annotations

import functools
import importlib.metadata
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kemps_sim.agent import Agent, BaseAgent
from kemps_sim.errors import ConfigError
from kemps_sim.games import BUILT_IN as BUILT_IN_GAMES
from kemps_sim.games import DEFAULT_GAME, game_names
from kemps_sim.games import game as game_record
from kemps_sim.suggest import did_you_mean

GROUP = "kemps_sim.agents"
BUILT_IN = "built-in"
_NAME = re.compile(r"[A-Za-z_][\w\-]*")  # what a lineup entry can name (kemps_sim.lineup)


class FactoryAgent:
    """A plugin factory (or duck-typed agent class) seen through the class interface :mod:`kemps_sim.lineup`
    expects of a registered agent: ``param_names()`` and a call with keyword hyperparameters."""

    def __init__(self, name: str, factory: Callable[..., Agent], params: tuple[str, ...]) -> None:
        self.name = name
        self.factory = factory
        self._params = params

    def param_names(self) -> tuple[str, ...]:
        """The keyword hyperparameters the factory takes, in order."""
        return self._params

    def __call__(self, **params: Any) -> Agent:
        return self.factory(**params)

    def __repr__(self) -> str:
        return f"FactoryAgent({self.name!r}, {self.factory!r})"


AgentClass = type[BaseAgent] | FactoryAgent


@dataclass(frozen=True)
class AgentInfo:
    """One registered agent: what ``kemps-sim agents`` shows and what a lineup entry builds."""

    name: str
    description: str
    parameters: dict[str, Any]  # hyperparameter name -> default, in __init__ order
    origin: str  # "built-in", or the name of the distribution that registered the plugin
    target: str  # where it lives: "module:attribute"
    factory: AgentClass = field(repr=False, compare=False)
    reasoning: str = ""  # how the policy decides: its class docstring (a factory's own docstring)
    sources: tuple[str, ...] = ()  # the rule sources its heuristics come from ("000" to "004"), if it names them
    details: str = ""  # the longer account: the docstring of the module the policy lives in
    game: str = DEFAULT_GAME  # the game it plays (an agent's ``game`` attribute: kemps_sim.games)


@dataclass(frozen=True)
class PluginError:
    """A plugin entry point left out of the registry, and why (``problem`` reads "failed to load: ...",
    "not an agent: ..." or "clashes with ...")."""

    name: str
    distribution: str
    target: str
    problem: str

    def line(self) -> str:
        """One line for people: ``name: problem (entry point target of distribution)``."""
        return f"{self.name}: {self.problem} (entry point {self.target} of {self.distribution})"


@dataclass(frozen=True)
class _Registry:
    agents: dict[str, AgentInfo]
    errors: tuple[PluginError, ...]


def builtin_classes() -> tuple[type[BaseAgent], ...]:
    """The built-in policy classes in their stable order: the agents each built-in game's record names (its
    ``agents`` part: Kemps's ``kemps_sim_agents.KEMPS_BUILTINS``, from the repository's ``agents/`` folder installed
    under an import name of this project's own, then Krepet's ``KREPET_BUILTINS``). Asked of the records rather than
    imported here, so that the registry sits below the agents it finds."""
    classes: list[type[BaseAgent]] = []
    for name in BUILT_IN_GAMES:
        classes += game_record(name).hook("agents") or ()
    return tuple(classes)


def builtin_agents() -> dict[str, type[BaseAgent]]:
    """The built-in policies by name, in a stable order."""
    return {cls.name: cls for cls in builtin_classes()}


def list_agents() -> list[AgentInfo]:
    """Every usable agent: built-ins first in their order, then plugins sorted by name. This imports every
    installed plugin (it is what ``kemps-sim agents`` shows); a lineup lookup goes through :func:`agent_info`."""
    return list(_discover().agents.values())


def plugin_errors() -> list[PluginError]:
    """Plugin entry points that were left out (failed imports, non-agents, name clashes), sorted by name.
    Like :func:`list_agents` this imports every installed plugin."""
    return list(_discover().errors)


def agent_info(name: str) -> AgentInfo:
    """The registered agent of that name, or a one-line :class:`ConfigError` listing the agents that exist.

    Only what the name needs is imported: a built-in name imports no plugin, and a plugin name imports only
    the entry points registered under that name. The list of known agents in the error comes from the
    entry points' names, read from the installed metadata without importing them."""
    builtins = _builtins()
    if name in builtins:
        return builtins[name]
    info, errors = _named(name)
    if info is not None:
        return info
    if errors:
        raise ConfigError(f"lineup agent {name!r}: a plugin that could not be used: {errors[0].line()}")
    known = known_names()
    raise ConfigError(f"lineup agent {name!r}: unknown agent{did_you_mean(name, known)}; allowed agents are "
                      f"{', '.join(known)}")


def agent_class(name: str) -> AgentClass:
    """The class (or factory adapter) registered under ``name``, or a one-line error listing what exists."""
    return agent_info(name).factory


def builtin_names(game: str) -> list[str]:
    """The built-in agents that play ``game``, in their order."""
    return [name for name, info in _builtins().items() if info.game == game]


def known_names() -> list[str]:
    """The built-ins' names in their order, then every name a plugin entry point claims that a lineup can
    write, sorted; read from metadata only, so a listed plugin may still fail to load when it is used."""
    builtins = _builtins()
    plugins = sorted({ep.name for ep in _entry_points() if _NAME.fullmatch(ep.name) and ep.name not in builtins})
    return [*builtins, *plugins]


def clear_cache() -> None:
    """Forget what discovery found, so the next call looks at the installed distributions again."""
    for cached in (_discover, _builtins, _entry_points, _named):
        cached.cache_clear()


@functools.cache
def _builtins() -> dict[str, AgentInfo]:
    """The built-in agents described, in their order; importing no plugin."""
    agents: dict[str, AgentInfo] = {}
    for cls in builtin_classes():
        try:
            agents[cls.name] = _describe(cls.name, cls, BUILT_IN, f"{cls.__module__}:{cls.__qualname__}")
        except _NotAnAgent as exc:  # a bug in this package, not a user's plugin: fail loudly
            raise TypeError(f"built-in agent {cls.name!r}: {exc}") from None
    return agents


@functools.cache
def _named(name: str) -> tuple[AgentInfo | None, tuple[PluginError, ...]]:
    """The plugin registered under ``name`` (or None) and the entry points of that name left out, loading only
    the entry points of that name, one at a time in (distribution, target) order until one works."""
    builtins = _builtins()
    found: AgentInfo | None = None
    errors: list[PluginError] = []
    for ep in _entry_points():
        if ep.name != name:
            continue
        dist = _distribution(ep)
        if not _NAME.fullmatch(ep.name):
            errors.append(PluginError(ep.name, dist, ep.value, "not an agent name a lineup can write: use "
                                      "letters, digits, '_' and '-', starting with a letter or '_'"))
            continue
        if ep.name in builtins:
            errors.append(PluginError(ep.name, dist, ep.value,
                                      f"clashes with the built-in agent {ep.name!r}; the built-in wins"))
            continue
        if found is not None:
            errors.append(PluginError(ep.name, dist, ep.value, f"clashes with the plugin {ep.name!r} of "
                                      f"{found.origin}; that one wins (first by distribution name)"))
            continue
        try:
            obj = ep.load()
        except Exception as exc:
            errors.append(PluginError(ep.name, dist, ep.value, f"failed to load: {type(exc).__name__}: {exc}"))
            continue
        except SystemExit as exc:  # a module that ends the process at import must not end the command with it
            errors.append(PluginError(ep.name, dist, ep.value, f"failed to load: {_exit_text(exc)} when imported"))
            continue
        try:
            found = _describe(ep.name, obj, dist, ep.value)
        except _NotAnAgent as exc:
            errors.append(PluginError(ep.name, dist, ep.value, f"not an agent: {exc}"))
    return found, tuple(errors)


@functools.cache
def _discover() -> _Registry:
    """Built-ins, then every entry point of :data:`GROUP`, loaded and checked one at a time."""
    agents = dict(_builtins())
    errors: list[PluginError] = []
    for name in sorted({ep.name for ep in _entry_points()}):
        info, problems = _named(name)
        if info is not None:
            agents[name] = info
        errors.extend(problems)
    return _Registry(agents, tuple(sorted(errors, key=lambda e: (e.name, e.distribution, e.target))))


@functools.cache
def _entry_points() -> tuple[importlib.metadata.EntryPoint, ...]:
    """The group's entry points sorted by (name, distribution, target), so clashes resolve the same way.
    Reading them touches only the installed metadata; nothing is imported."""
    found = importlib.metadata.entry_points(group=GROUP)
    return tuple(sorted(found, key=lambda ep: (ep.name, _distribution(ep), ep.value)))


def _distribution(ep: importlib.metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None) if dist is not None else None
    return name or "an unknown distribution"


class _NotAnAgent(Exception):
    """What an entry point loaded cannot serve as an agent (the message says why)."""


def _describe(name: str, obj: Any, origin: str, target: str) -> AgentInfo:
    """Check that ``obj`` builds agents without arguments and read its description and hyperparameters."""
    if isinstance(obj, type) and issubclass(obj, BaseAgent):
        factory: AgentClass = obj
        params = obj.param_names()
        signature_of: Callable[..., Any] = obj.__init__
    elif callable(obj) and (not isinstance(obj, type) or callable(getattr(obj, "decide", None))):
        signature_of = obj
        params = _keyword_params(obj)
        factory = FactoryAgent(name, obj, params)
    else:
        kind = f"class {obj.__qualname__} without decide()" if isinstance(obj, type) else type(obj).__name__
        raise _NotAnAgent(f"loaded a {kind}; expected a BaseAgent subclass or a factory returning an agent")
    defaults = _defaults(signature_of, params)
    try:
        agent = factory()
    except Exception as exc:
        raise _NotAnAgent(f"building it without arguments raised {type(exc).__name__}: {exc}") from None
    except SystemExit as exc:
        raise _NotAnAgent(f"building it without arguments, {_exit_text(exc)}") from None
    game = getattr(agent, "game", DEFAULT_GAME)
    if not isinstance(game, str) or game not in game_names():
        raise _NotAnAgent(f"it built {type(agent).__name__!s} with game = {game!r}; allowed: "
                          f"{', '.join(game_names())}")
    try:
        methods = game_record(game).agent_methods
    except ConfigError as exc:
        raise _NotAnAgent(f"it plays {game}, whose record does not load: {exc}") from None
    missing = [m for m in methods if not callable(getattr(agent, m, None))]
    if missing:
        raise _NotAnAgent(f"it built {type(agent).__name__!s} without {', '.join(m + '()' for m in missing)}")
    return AgentInfo(name, _one_line(obj, agent), defaults, origin, target, factory, _reasoning(obj, agent),
                     _sources(obj, agent), _details(obj, agent), game)


def _exit_text(exc: SystemExit) -> str:
    """What a plugin that raised SystemExit did, as written: ``it called sys.exit(3)``. KeyboardInterrupt is never
    caught on a plugin's behalf: Ctrl-C still interrupts the command."""
    return f"it called sys.exit({'' if exc.code is None else repr(exc.code)})"


def _keyword_params(obj: Callable[..., Any]) -> tuple[str, ...]:
    """The parameters a factory takes by keyword, in order (``self`` excluded for a class)."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return ()
    plain = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(n for n, p in sig.parameters.items() if n != "self" and p.kind in plain)


def _defaults(obj: Callable[..., Any], params: tuple[str, ...]) -> dict[str, Any]:
    """Each hyperparameter's default; one without a default cannot be left out of a lineup entry."""
    try:
        sig = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return {}
    out: dict[str, Any] = {}
    for p in params:
        default = sig[p].default if p in sig else inspect.Parameter.empty
        if default is inspect.Parameter.empty:
            raise _NotAnAgent(f"hyperparameter {p!r} has no default; every hyperparameter needs one")
        out[p] = default
    return out


def _reasoning(obj: Any, agent: Any) -> str:
    """The entry point's own docstring (a factory describes its variant), else the agent class's."""
    for doc_of in (obj, type(agent)):
        doc = doc_of.__doc__
        if isinstance(doc, str) and doc.strip() and doc_of is not BaseAgent:
            return inspect.cleandoc(doc)
    return ""


def _sources(obj: Any, agent: Any) -> tuple[str, ...]:
    """The ``sources`` a policy names (a tuple of source ids), from the entry point or the agent it builds."""
    for holder in (obj, agent):
        sources = getattr(holder, "sources", None)
        if isinstance(sources, tuple | list) and all(isinstance(s, str) for s in sources):
            return tuple(sources)
    return ()


def _details(obj: Any, agent: Any) -> str:
    """The docstring of the module the policy's class lives in (where the built-ins explain their reasoning)."""
    module = inspect.getmodule(obj if isinstance(obj, type) else type(agent))
    doc = getattr(module, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) and doc.strip() else ""


def _one_line(obj: Any, agent: Any) -> str:
    """What the entry point itself says (its ``description``, else its own docstring's first line), else what the
    agent it built says: a factory's docstring describes its variant better than the class it builds."""
    for source, doc_of in ((obj, obj), (agent, type(agent))):
        text = getattr(source, "description", None)
        if isinstance(text, str) and text.strip():
            return text.strip().splitlines()[0]
        doc = doc_of.__doc__  # its own docstring only: BaseAgent's would describe no policy
        if isinstance(doc, str) and doc.strip():
            return inspect.cleandoc(doc).splitlines()[0]
    return ""
