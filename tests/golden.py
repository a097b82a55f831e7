"""Fingerprints of what the games produce, kept in ``tests/golden.json`` so that a change meant to leave the model
alone (a refactor, a speed-up) is shown to leave it alone: the trace of every Kemps preset at 4, 6 and 8 players
(kems at 4) with the default lineup and with collecting against watching pairs, of Krepet's presets with its
default player and a lapsing mover against a lookout, and every table of two small sweeps (the quickstart's and
Krepet's specs at 2 matches a cell), each as the SHA-256 of a canonical text.

    python -m tests.golden          # print what differs from tests/golden.json
    python -m tests.golden --write  # store the fingerprints anew (after a change that is meant to change play)

Numbers enter the text at 12 significant digits, so that the last bit of a libm does not count while any change
of play does.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STORE = Path(__file__).resolve().parent / "golden.json"
SEEDS = (0, 1)
KEMPS_LINEUPS = ("collector", "collector,watcher")
KREPET_LINEUPS = ("greedy", "greedy(lapse=0.2),lookout")
SPECS = ("quickstart", "krepet")


def _plain(value: Any) -> Any:
    """A value as canonical JSON data: floats at 12 significant digits, tuples as lists, records as dicts."""
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return value
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if hasattr(value, "_asdict"):
        return {key: _plain(item) for key, item in value._asdict().items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: _plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if hasattr(value, "item"):  # a numpy scalar
        return _plain(value.item())
    return str(value)


def _digest(data: Any) -> str:
    text = json.dumps(_plain(data), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def trace_fingerprints() -> dict[str, str]:
    """One fingerprint per match: its events in order, each as its type and fields. Kemps also with every look a
    person makes (``EngineConfig.all_looks``, keys ``kemps-all-looks ...``): the engine as it was before it asked
    agents which changes concern them, whose fingerprints are those stored before that change."""
    from kemps_sim import load_rules, simulate_match
    from kemps_sim.engine.config import EngineConfig
    from kemps_sim.krepet.presets import PRESETS as KREPET_PRESETS
    from kemps_sim.krepet.realtime import play_krepet
    from kemps_sim.presets import PRESETS

    found = {}
    for prefix, config in (("kemps", EngineConfig()), ("kemps-all-looks", EngineConfig(all_looks=True))):
        for preset in PRESETS:
            for players in (4,) if preset == "kems" else (4, 6, 8):
                rules = load_rules(preset, players=players)
                for lineup in KEMPS_LINEUPS:
                    entries = lineup.split(",")
                    table = ",".join(entries[p % len(entries)] for p in range(rules.pairs))
                    for seed in SEEDS:
                        result = simulate_match(rules, table, seed=seed, config=config)
                        events = [[type(e).__name__, e] for r in result.rounds for e in r.trace]
                        found[f"{prefix} {preset} {players}p {lineup} seed {seed}"] = _digest(events)
    for preset in KREPET_PRESETS:
        for lineup in KREPET_LINEUPS:
            for seed in SEEDS:
                result = play_krepet(preset, lineup, seed=seed)
                found[f"krepet {preset} {lineup} seed {seed}"] = _digest([[type(e).__name__, e] for e in result.trace])
    return found


def table_fingerprints(folder: Path) -> dict[str, str]:
    """One fingerprint per table of each small sweep: its columns and its rows in key order."""
    from kemps_sim.sweep import load_results, run_sweep, spec_from_mapping

    found = {}
    for name in SPECS:
        data = tomllib.loads((ROOT / "experiments" / f"{name}.toml").read_text())
        data["sweep"].update(matches=2, output=str(folder / name))
        data["sweep"].pop("until_ci", None)
        run_sweep(spec_from_mapping(data), workers=1, progress=False)
        results = load_results(folder / name)
        for table_name, table in sorted(results.tables.items()):
            keys = [c for c in ("cell", "replicate", "seed") if c in table.columns]
            rows = table.sort_values(keys, kind="stable").reset_index(drop=True)
            found[f"table {name} {table_name}"] = _digest({"columns": list(rows.columns),
                                                           "rows": rows.to_dict(orient="split")["data"]})
    return found


def fingerprints() -> dict[str, str]:
    """Every fingerprint, traces then tables."""
    with tempfile.TemporaryDirectory() as folder:
        return {**trace_fingerprints(), **table_fingerprints(Path(folder))}


def differences(stored: dict[str, str], now: dict[str, str]) -> list[str]:
    """What differs, one line each: fingerprints changed, lost or new."""
    lines = [f"changed: {key}" for key in stored if key in now and stored[key] != now[key]]
    lines += [f"lost: {key}" for key in stored if key not in now]
    lines += [f"new: {key}" for key in now if key not in stored]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help=f"store the fingerprints in {STORE.name}")
    args = parser.parse_args(argv)
    now = fingerprints()
    if args.write:
        STORE.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"{len(now)} fingerprints written to {STORE}")
        return 0
    lines = differences(json.loads(STORE.read_text()), now)
    print("\n".join(lines) or f"all {len(now)} fingerprints as stored")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
