"""The Game record: every layer asks it, and none outside a game's own package tests which game it is.

The records of the built-in games are checked against the rules they describe (seats, sides, the seats of a side,
scoring), every part they name must import, and a third-party game is found through its entry point, with a
one-line error for one that is broken. The source scan is the rule itself: no comparison with a game's name outside
``kemps_sim/games`` and ``kemps_sim/krepet``.
"""

from __future__ import annotations

import ast
import importlib.metadata
from dataclasses import fields, replace
from pathlib import Path

import pytest

import kemps_sim
from kemps_sim import games
from kemps_sim.errors import ConfigError
from kemps_sim.games import BUILT_IN, DEFAULT_GAME, GROUP, Game, GameTables, Hooks, game, game_names
from kemps_sim.metrics import Metric
from kemps_sim.metrics import every as every_metric
from kemps_sim.metrics import get as get_metric
from kemps_sim.presets import load_rules
from kemps_sim.seating import pair_seats

PACKAGE = Path(kemps_sim.__file__).parent
#: The packages that belong to one game: they may know its name.
GAME_PACKAGES = ("games", "krepet")
NAMES = ("kemps", "krepet")


def _mentions_game(node: ast.AST) -> bool:
    return any((isinstance(n, ast.Name) and "game" in n.id.lower())
               or (isinstance(n, ast.Attribute) and "game" in n.attr.lower()) for n in ast.walk(node))


def name_tests(source: str) -> list[str]:
    """Where ``source`` tests which game it is: a comparison of something named like a game with a game's name
    (alone or in a tuple), and any ``"krepet"`` constant at all (the word never names anything but the game)."""
    found, seen = [], set()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            named = [o for o in operands if isinstance(o, ast.Constant) and o.value in NAMES]
            named += [e for o in operands if isinstance(o, ast.Tuple | ast.List | ast.Set) for e in o.elts
                      if isinstance(e, ast.Constant) and e.value in NAMES]
            if named and any(_mentions_game(o) for o in operands):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
                seen.update(id(n) for n in named)
    found += [f"{node.lineno}: the constant 'krepet'" for node in ast.walk(tree)
              if isinstance(node, ast.Constant) and node.value == "krepet" and id(node) not in seen]
    return found


def test_the_scan_finds_what_it_looks_for():
    assert name_tests('if spec.game == "krepet":\n    pass\n') == ["1: spec.game == 'krepet'"]
    assert name_tests('x = game_of(m) != "kemps"\n') == ["1: game_of(m) != 'kemps'"]
    assert name_tests('ok = args.game in ("kemps", "other")\n') == ["1: args.game in ('kemps', 'other')"]
    assert name_tests('choices = ("kemps", "krepet")\n') == ["1: the constant 'krepet'"]
    assert name_tests('right = call.call == "kemps"\n') == []  # a call named Kemps, not the game


def test_no_module_outside_a_game_package_tests_a_games_name():
    found = {str(path.relative_to(PACKAGE)): hits for path in sorted(PACKAGE.rglob("*.py"))
             if path.relative_to(PACKAGE).parts[0] not in GAME_PACKAGES
             and (hits := name_tests(path.read_text(encoding="utf-8")))}
    assert found == {}


# The built-in records -------------------------------------------------------------------------------------------
def test_the_built_in_games_come_first_and_the_default_is_kemps():
    assert game_names()[:2] == ("kemps", "krepet") == tuple(BUILT_IN)
    assert DEFAULT_GAME == "kemps" and game() is game("kemps")
    assert [game(name).name for name in BUILT_IN] == list(BUILT_IN)


@pytest.mark.parametrize("name", list(BUILT_IN))
def test_every_part_a_built_in_record_names_imports(name):
    record = game(name)
    for part in fields(Hooks):
        reference = getattr(record.hooks, part.name)
        if reference is not None:
            assert record.hook(part.name) is not None, (name, part.name, reference)
    assert isinstance(record.tables(), GameTables)
    assert record.default_rules in record.hook("presets")
    rules = record.load_rules()
    assert type(rules) is type(record.load_rules(record.default_rules))


@pytest.mark.parametrize("players", [4, 6, 8])
def test_kemps_seats_and_sides_are_the_rules_pairs(players):
    kemps = game("kemps")
    rules = load_rules("standard", players=players)
    assert kemps.takes_players and kemps.seats(rules) == players and kemps.sides(rules) == rules.pairs
    assert [kemps.side_seats(rules, p) for p in range(rules.pairs)] == [pair_seats(players, p)
                                                                         for p in range(rules.pairs)]
    assert kemps.scoring(rules) == rules.scoring == "letters"


def test_krepet_is_two_players_each_a_side_without_a_scoring_rule():
    krepet = game("krepet")
    rules = krepet.load_rules()
    assert not krepet.takes_players and krepet.seats(rules) == krepet.sides(rules) == 2
    assert [krepet.side_seats(rules, p) for p in (0, 1)] == [(0,), (1,)]
    assert krepet.scoring(rules) is None and krepet.fixed_players_text() == "Krepet is a game for two"
    assert krepet.lineup_sizes_text(3, 2) == ("lineup has 3 entries for Krepet's 2 players; give 1 (for both "
                                              "players) or 2 (one per player)")


def test_a_kemps_lineup_of_the_wrong_size_names_the_sizes_allowed():
    from kemps_sim.lineup import resolve_lineup

    with pytest.raises(ConfigError, match=r"^lineup has 4 entries for 6 players; give 1, 3 \(one per pair\) or 6"):
        resolve_lineup("collector," * 3 + "collector", 6)
    assert [label for label, _ in resolve_lineup("collector,watcher,random", 6)] == [
        "collector", "watcher", "random", "collector", "watcher", "random"]


def test_a_record_is_validated_field_by_field():
    base = game("krepet")
    with pytest.raises(ConfigError, match=r"^game.name = 'Snap!': must be lower-case"):
        replace(base, name="Snap!")
    with pytest.raises(ConfigError, match=r"^game krepet: unit = 'team'"):
        replace(base, unit="team")
    with pytest.raises(ConfigError, match=r"^game krepet: players = 3: must be a whole number >= 2 that the sides"):
        replace(base, players=3, seats_per_side=2)
    with pytest.raises(ConfigError, match=r"^game krepet: hooks.play = 'play_it': must be 'module:attribute'"):
        replace(base, hooks=replace(base.hooks, play="play_it"))


# Third-party games --------------------------------------------------------------------------------------------
#: A game a plugin might register: Krepet's parts under another name (what a test can install without a package).
RELABELLED = replace(game("krepet"), name="relabelled", title="Relabelled")


@pytest.fixture
def plugin(monkeypatch):
    """Install entry points in the group for the test's duration: name -> "module:attribute"."""
    def install(**points: str) -> None:
        found = {name: importlib.metadata.EntryPoint(name, value, GROUP) for name, value in sorted(points.items())}
        monkeypatch.setattr(games, "_entry_points", lambda: found)
        game.cache_clear()

    yield install
    game.cache_clear()


def test_a_plugin_game_is_found_by_its_entry_point_after_the_built_ins(plugin):
    plugin(relabelled=f"{__name__}:RELABELLED")
    assert game_names() == ("kemps", "krepet", "relabelled")
    assert game("relabelled") is RELABELLED


@pytest.mark.parametrize(("value", "problem"), [
    (f"{__name__}:NOT_THERE", r"^game 'broken': its entry point '.*NOT_THERE' failed to load: AttributeError"),
    (f"{__name__}:NAMES", r"^game 'broken': its entry point loads tuple, not a kemps_sim.games.Game$"),
    (f"{__name__}:RELABELLED", r"^game 'broken': its record is named 'relabelled'$"),
])
def test_a_broken_plugin_game_is_one_line_naming_it(plugin, value, problem):
    plugin(broken=value)
    with pytest.raises(ConfigError, match=problem):
        game("broken")


def test_an_unknown_game_lists_the_games(plugin):
    plugin()
    with pytest.raises(ConfigError, match=r"^game = 'krepit': unknown game \(did you mean krepet\?\); allowed: "
                                          r"kemps, krepet$"):
        game("krepit")


def test_every_record_is_a_game():
    assert all(isinstance(game(name), Game) for name in game_names())


# A game's own metrics -----------------------------------------------------------------------------------------
#: A plugin game with metrics of its own: one it defines, and the catalogue's win rate placed before it.
OWN_METRICS = (get_metric("win_rate"), Metric("calls_per_game", ("calls",), ("verdict",), ("counted",), "calls",
                                              "none", "calls", "calls per game", "mean", ("summary",),
                                              column="calls"))
COUNTED = replace(RELABELLED, name="counted", hooks=replace(RELABELLED.hooks, metrics=f"{__name__}:OWN_METRICS"))
#: Records whose metrics are not what the registry takes.
NOT_A_TUPLE = replace(COUNTED, name="untupled", hooks=replace(COUNTED.hooks, metrics=f"{__name__}:NAMES"))
ELSEWHERE = replace(COUNTED, name="elsewhere")


def test_a_games_own_metrics_join_the_registry_in_their_order(plugin):
    plugin(counted=f"{__name__}:COUNTED")
    assert [m.name for m in every_metric("counted", "summary")] == ["win_rate", "calls_per_game"]
    assert get_metric("calls_per_game", "counted") is OWN_METRICS[1]
    assert [m.name for m in every_metric("krepet", "summary")][:2] == ["games", "win_rate"]  # Krepet's own, too


@pytest.mark.parametrize(("name", "problem"), [
    ("untupled", r"^game 'untupled': its metrics must be a tuple of kemps_sim.metrics.Metric$"),
    ("elsewhere", r"^metric 'calls_per_game' of game 'elsewhere': its games \('counted',\) must name 'elsewhere'$"),
])
def test_a_games_metrics_are_checked_in_one_line(plugin, name, problem):
    plugin(untupled=f"{__name__}:NOT_A_TUPLE", elsewhere=f"{__name__}:ELSEWHERE")
    with pytest.raises(ConfigError, match=problem):
        every_metric(name)
