"""Start-up stays light: ``import kemps_sim``, ``kemps-sim --version``, ``--help`` and parsing the light commands
never import pandas, SciPy or matplotlib (each costs a large part of a second and tens of MB per process).

Each check runs a fresh interpreter, since this test process has long imported them all. Nothing here times
anything (machines are noisy); benchmarks/bench_startup.py prints the timings.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

import pytest

from kemps_sim.cli import COMMANDS, build_parser

HEAVY = ("pandas", "scipy", "matplotlib")


def heavy_after(code: str, libraries: tuple[str, ...] = HEAVY) -> list[str]:
    """The heavy libraries in ``sys.modules`` once a fresh interpreter has run ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps([m for m in {libraries!r} if m in sys.modules]))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def cli_code(*argv: str) -> str:
    """Source that runs the command line with ``argv`` as far as it exits (``--version`` and ``--help`` do)."""
    return f"from kemps_sim.cli import main\ntry:\n    main({list(argv)!r})\nexcept SystemExit:\n    pass"


def test_import_kemps_sim_loads_no_heavy_library() -> None:
    assert heavy_after("import kemps_sim\nassert callable(kemps_sim.simulate_match)") == []


def test_playing_a_match_loads_no_heavy_library() -> None:
    """A match (what every sweep worker plays) needs neither pandas, SciPy nor matplotlib: Φ comes from math.erfc."""
    code = ("from kemps_sim import simulate_match\n"
            "result = simulate_match('standard', 'collector,watcher', seed=3)\nassert result.rounds")
    assert heavy_after(code) == []


@pytest.mark.parametrize("argv", [("--version",), ("--help",), ("rules", "--help"), ("play", "--help"),
                                  ("agents", "--help")], ids=" ".join)
def test_the_command_line_parses_without_heavy_libraries(argv: tuple[str, ...]) -> None:
    assert heavy_after(cli_code(*argv)) == []


@pytest.mark.parametrize("argv", [("sweep", "--help"), ("report", "--help"), ("tournament", "--help")], ids=" ".join)
def test_the_sweep_commands_help_without_pandas_pyarrow_or_scipy(argv: tuple[str, ...]) -> None:
    """The sweep package loads its parts on first use, and these commands import the store, the designs and the
    statistics only where they run."""
    assert heavy_after(cli_code(*argv), (*HEAVY, "pyarrow")) == []


def test_importing_the_sweep_package_loads_no_heavy_library() -> None:
    code = "import kemps_sim.sweep as sweep\nassert 'run_sweep' in dir(sweep)"
    assert heavy_after(code, (*HEAVY, "pyarrow")) == []


def test_building_and_using_the_parser_loads_no_heavy_library() -> None:
    code = ("from kemps_sim.cli import build_parser\n"
            "args = build_parser().parse_args(['play', '--quiet', '--seed', '3'])\n"
            "assert (args.command, args.quiet, args.seed) == ('play', True, 3), args")
    assert heavy_after(code) == []


def test_the_command_table_repeats_each_modules_own_help() -> None:
    """``kemps-sim --help`` lists the table's one-line helps: each must be what its module registers."""
    for name, summary in COMMANDS.items():
        scratch = argparse.ArgumentParser(prog="kemps-sim").add_subparsers()
        importlib.import_module(f"kemps_sim.cli.{name}").register(scratch)
        assert [(choice.dest, choice.help) for choice in scratch._choices_actions] == [(name, summary)]


def test_a_named_command_gets_its_full_parser() -> None:
    """The placeholder of a command is replaced by its module's parser when the command is named."""
    from kemps_sim.cli import rules as rules_cmd

    args = build_parser().parse_args(["rules", "--list", "--set", "double_kemps=true"])
    assert (args.command, args.list, args.overrides, args.run) == ("rules", True, ["double_kemps=true"], rules_cmd.run)
    help_text = build_parser().format_help()
    assert all(name in help_text for name in COMMANDS)


def test_every_export_of_the_sweep_package_loads_on_first_access() -> None:
    import kemps_sim.sweep as sweep

    assert set(sweep.__all__) == set(sweep._HOME)
    for name in sweep.__all__:
        assert getattr(sweep, name).__name__ == name
    with pytest.raises(AttributeError, match="no attribute 'nosuch'"):
        sweep.nosuch  # noqa: B018
