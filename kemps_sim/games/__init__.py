"""Games found by name: one :class:`Game` record per game, which every layer (sweeps, the command line, reports,
the replay page, conformance checks) asks instead of testing which game it is.

The built-in games are ``kemps`` (:mod:`kemps_sim.games.kemps`) and ``krepet`` (:mod:`kemps_sim.krepet.game`). A
third-party game is a Python distribution that declares an entry point in the group ``kemps_sim.games``, named as
the game, loading its :class:`Game`; its agents register in ``kemps_sim.agents`` with a ``game`` attribute naming
it. Like agents, games are imported only when asked for: :func:`game` loads one record, :func:`game_names` every
one. A record names the parts of its game as ``"module:attribute"`` references (:class:`Hooks`) that are imported
when first used, so that this module, and every layer that asks it, imports nothing of any game.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import re
from dataclasses import dataclass, field
from typing import Any

from kemps_sim.errors import ConfigError
from kemps_sim.suggest import did_you_mean

GROUP = "kemps_sim.games"
#: The game of an agent without a ``game`` attribute, of a sweep spec without ``game``, of ``--game`` left out.
DEFAULT_GAME = "kemps"
#: The built-in games, in their order; third-party games follow, sorted by name.
BUILT_IN = {"kemps": "kemps_sim.games.kemps:GAME", "krepet": "kemps_sim.krepet.game:GAME"}
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_REFERENCE = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


@dataclass(frozen=True)
class Hooks:
    """The parts of a game, as ``"module:attribute"`` references imported when first used (:meth:`Game.hook`).

    ``load_rules(source, **knobs)``: the rules from a preset name or a rules file, with knobs set;
    ``presets``: the mapping of preset names to presets (each with ``name``, ``source`` and ``title``);
    ``knob_specs()``: the rule knobs; ``config``: the engine settings (a frozen dataclass, its fields the
    ``engine.`` keys of a spec); ``play(rules, lineup, profiles, seed, config=..., errors=...)``: one match;
    ``tables``: a :class:`GameTables` (the rows a match writes); ``play_cli(args)``: ``kemps-sim play --game``;
    ``rules_cli(args)``: ``kemps-sim rules --game``; ``summary(results, by, confidence)``: the report's summary;
    ``legend(columns)``: its legend lines; ``figures(tables, folder, params)``: its standard figures;
    ``replay(result, seat)``: the replay page's data, legend file and title (``None``: the game has no page; its
    result's class names the game as ``game``);
    ``check_agent(agent, ...)``: the conformance check of an agent of the game; ``agents``: the game's own agent
    classes in their order (a built-in game's are the built-in agents, which the agent registry finds here rather
    than by importing them; a third-party game's agents register under ``kemps_sim.agents`` instead); ``metrics``:
    a third-party game's own metrics, a tuple of :class:`kemps_sim.metrics.Metric` (the built-in games' are in the
    metric catalogue); ``live_table``: the class of a live table with people at it (``kemps-sim serve --game``; a
    :class:`kemps_sim.serve.table_base.LiveTableBase`). The last eight are optional.
    """

    load_rules: str
    presets: str
    knob_specs: str
    config: str
    play: str
    tables: str
    play_cli: str
    rules_cli: str
    summary: str | None = None
    legend: str | None = None
    figures: str | None = None
    check_agent: str | None = None
    replay: str | None = None
    agents: str | None = None
    metrics: str | None = None
    live_table: str | None = None


@dataclass(frozen=True)
class GameTables:
    """The rows one match of a game writes: ``row(result)`` (its ``matches`` row), the other tables (name ->
    (rows of a match, fixed columns or None for the rows' own keys)) and the table ``events = true`` adds (or
    None). ``scored`` names the tables whose rows take the cell's scoring rule (``rules.scoring``)."""

    row: Any
    makers: dict[str, tuple[Any, list[str] | None]]
    events: tuple[str, Any, list[str] | None] | None = None
    scored: tuple[str, ...] = ()


@dataclass(frozen=True)
class Game:
    """One game, as every layer sees it.

    ``unit`` is a side of the game (``pair``: two seats; ``player``: one), the word of its sweep axes
    (``pair0.agent.caution``) and reports; ``players`` fixes the number of seats (None: the rules say, as
    ``rules.players``); ``seats_per_side`` how many seats a side holds. ``default_rules`` and ``default_lineup``
    stand in where a spec or a command gives none; ``example_entry`` (agent, parameter) shows a lineup entry in
    errors; ``agent_methods`` are what an agent of the game must have; ``count_word`` what the report counts
    (``matches``, ``games``); ``compare_metrics`` the metrics a ``[compare]`` or ``--until-ci`` of a game that no
    metric of :mod:`kemps_sim.metrics` names may name (None: every metric; the built-in games' metrics are the
    registry's); ``scored`` whether its rules have a scoring rule (``rules.scoring``); ``config_word`` what an
    engine setting is called in errors and ``config_prefix`` how the settings' own errors name them;
    ``streamed`` whether ``kemps-sim report`` streams its summary chunk by chunk (Kemps), else it loads
    ``summary_tables`` and calls the ``summary`` hook, printing the ``legend`` hook's text beside it."""

    name: str
    title: str
    description: str
    unit: str
    default_rules: str
    default_lineup: str
    example_entry: tuple[str, str]
    agent_methods: tuple[str, ...]
    hooks: Hooks = field(repr=False)
    players: int | None = None
    seats_per_side: int = 1
    count_word: str = "matches"
    compare_metrics: tuple[str, ...] | None = None
    scored: bool = False
    config_word: str = "engine setting"
    config_prefix: str = "engine."
    streamed: bool = False
    summary_tables: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ConfigError(f"game.name = {self.name!r}: must be lower-case letters, digits and _ (a-z first)")
        if self.unit not in ("pair", "player"):
            raise ConfigError(f"game {self.name}: unit = {self.unit!r}: must be 'pair' or 'player'")
        if self.players is not None and (not isinstance(self.players, int) or self.players < 2
                                         or self.players % self.seats_per_side):
            raise ConfigError(f"game {self.name}: players = {self.players!r}: must be a whole number >= 2 that "
                              f"the sides divide ({self.seats_per_side} seats a side), or None")
        for name, reference in vars(self.hooks).items():
            if reference is not None and not (isinstance(reference, str) and _REFERENCE.match(reference)):
                raise ConfigError(f"game {self.name}: hooks.{name} = {reference!r}: must be 'module:attribute'")

    # Parts ------------------------------------------------------------------------------------------------------
    def hook(self, name: str) -> Any:
        """The part ``name`` of :class:`Hooks`, imported now (None if the game has none)."""
        reference = getattr(self.hooks, name)
        return None if reference is None else _load(reference)

    def load_rules(self, source: Any = None, **knobs: Any) -> Any:
        """The game's rules: ``source`` (a preset name, a rules file, or None for :attr:`default_rules`) with
        ``knobs`` set."""
        return self.hook("load_rules")(self.default_rules if source is None else source, **knobs)

    def tables(self) -> GameTables:
        """The rows a match of the game writes (its :class:`GameTables`, whose ``scored`` tables record
        ``rules.scoring``)."""
        return self.hook("tables")

    # Seats and sides --------------------------------------------------------------------------------------------
    @property
    def takes_players(self) -> bool:
        """Whether the number of players is a rule knob (``players`` in a spec, ``--players``)."""
        return self.players is None

    def seats(self, rules: Any) -> int:
        """How many seats a match under ``rules`` has."""
        return self.players if self.players is not None else rules.players

    def sides(self, rules: Any) -> int:
        """How many sides (pairs, players) a match under ``rules`` has."""
        return self.seats(rules) // self.seats_per_side

    def side_seats(self, rules: Any, side: int) -> tuple[int, ...]:
        """The seats of ``side``: seat ``s`` belongs to side ``s mod sides`` (partners sit opposite)."""
        sides = self.sides(rules)
        return tuple(s for s in range(self.seats(rules)) if s % sides == side)

    def fixed_players_text(self) -> str:
        """"Krepet is a game for two": why ``players`` is refused for a game with a fixed number of seats."""
        words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
        return f"{self.title} is a game for {words.get(self.players, str(self.players))}"

    def scoring(self, rules: Any) -> str | None:
        """The scoring rule of ``rules`` (None for a game without one)."""
        return rules.scoring if self.scored else None

    def lineup_sizes_text(self, given: int, seats: int) -> str:
        """The error for a lineup of ``given`` entries at ``seats`` seats: the counts allowed, in the game's
        words."""
        sides = seats // self.seats_per_side
        if sides == seats:
            every = "both" if seats == 2 else "all"
            return (f"lineup has {given} entries for {self.title}'s {seats} players; give 1 (for {every} players) "
                    f"or {seats} (one per player)")
        return (f"lineup has {given} entries for {seats} players; give 1, {sides} (one per {self.unit}) or "
                f"{seats} (one per seat)")


def _load(reference: str) -> Any:
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


# The registry ---------------------------------------------------------------------------------------------------
@functools.cache
def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    found = {}
    for point in sorted(importlib.metadata.entry_points(group=GROUP), key=lambda p: p.name):
        if point.name not in BUILT_IN:
            found.setdefault(point.name, point)
    return found


def game_names() -> tuple[str, ...]:
    """Every game's name: the built-ins in their order, then third-party games by name."""
    return (*BUILT_IN, *_entry_points())


@functools.cache
def game(name: str | None = None) -> Game:
    """The game called ``name`` (None: :data:`DEFAULT_GAME`); an unknown name is a ConfigError listing the games."""
    name = DEFAULT_GAME if name is None else name
    if name in BUILT_IN:
        return _checked(name, _load(BUILT_IN[name]))
    point = _entry_points().get(name) if isinstance(name, str) else None
    if point is None:
        names = game_names()
        raise ConfigError(f"game = {name!r}: unknown game{did_you_mean(str(name), names)}; allowed: "
                          f"{', '.join(names)}")
    try:
        record = point.load()
    except Exception as exc:  # a broken plugin is named, not a traceback
        raise ConfigError(f"game {name!r}: its entry point {point.value!r} failed to load: "
                          f"{type(exc).__name__}: {exc}") from None
    return _checked(name, record)


def _checked(name: str, record: Any) -> Game:
    if not isinstance(record, Game):
        raise ConfigError(f"game {name!r}: its entry point loads {type(record).__name__}, not a kemps_sim.games.Game")
    if record.name != name:
        raise ConfigError(f"game {name!r}: its record is named {record.name!r}")
    return record


def clear_cache() -> None:
    """Forget the games found (after installing or removing one in a running process)."""
    _entry_points.cache_clear()
    game.cache_clear()
