"""Compare the traces two versions of kemps-sim produce for the same seeds: the check that a refactor changed no
behaviour except where a knob or a documented fix says so.

    python benchmarks/trace_compare.py dump OUT.pickle [--seeds 8] [--knobs-as-before] [--set KNOB=VALUE]
                                       [--engine SETTING=VALUE]
    python benchmarks/trace_compare.py compare BEFORE.pickle AFTER.pickle

``dump`` plays every preset at 4, 6 and 8 players (kems at 4 only, as the source describes it) with the default
lineup and with the quickstart's collecting and watching pairs (alternating at bigger tables), and stores each
match's trace as plain (event name, fields) records. ``compare`` matches them up by (preset, players, lineup,
seed) and prints, per group, how many matches have identical traces; for the first differing match it shows the
first differing event. Fields that were added later are ignored; renamed fields are compared under their new name.

``--knobs-as-before`` sets the knobs added since the first version to the behaviour that version had (refills
taken card by card, the dealer sweeps, redeals until clean, a Stop Kemps against a Double handled as a wrong one),
so that what remains are the fixes that have no knob. ``--engine all_looks=true`` plays with an engine setting
(here: every look a person makes, as before the engine asked agents which changes concern them), so that a speed-up
can be compared with a tree from before a lever that changed the traces on purpose.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import defaultdict
from collections.abc import Sequence

#: Fields renamed since the first version that this script compares (event, old name) -> new name.
RENAMED = {("Swept", "dealer"): "seat", ("Refilled", "dealer"): "seat"}
PRESETS = ("standard", "german", "party", "kems", "peanut_butter")
#: The knobs added since the first version, at the behaviour that version had.
KNOBS_AS_BEFORE = {"refill_opens": "each_card", "sweeper": "dealer", "redeal_until_clean": True,
                   "stop_against_double": "like_wrong_stop"}
LINEUPS = ("collector", "collector,watcher")


def dump(path: str, seeds: int, knobs_as_before: bool = False, overrides: dict | None = None,
         lineups: Sequence[str] = LINEUPS, engine: dict | None = None) -> None:
    """Play every group and store the traces (``overrides``: knobs set in every preset; ``engine``: settings of
    :class:`~kemps_sim.engine.config.EngineConfig`)."""
    from kemps_sim import load_rules, simulate_match
    from kemps_sim.engine.config import EngineConfig

    config = EngineConfig.from_mapping(engine or {})

    out = {}
    for preset in PRESETS:
        for players in (4,) if preset == "kems" else (4, 6, 8):
            rules = load_rules(preset, players=players, **(overrides or {}))
            if knobs_as_before:
                applies = {k: v for k, v in KNOBS_AS_BEFORE.items()
                           if getattr(rules, k) is not None}  # knobs that mean nothing here stay unset
                rules = load_rules(preset, players=players, **applies, **(overrides or {}))
            for lineup in lineups:
                entries = lineup.split(",")
                table = ",".join(entries[p % len(entries)] for p in range(rules.pairs))
                for seed in range(seeds):
                    result = simulate_match(rules, table, seed=seed, config=config)
                    out[(preset, players, lineup, seed)] = [
                        [(type(e).__name__, {RENAMED.get((type(e).__name__, k), k): v
                                             for k, v in e._asdict().items()}) for e in r.trace]
                        for r in result.rounds]
    with open(path, "wb") as fh:
        pickle.dump(out, fh)
    print(f"{len(out)} matches stored in {path}")


def _same_event(a: tuple[str, dict], b: tuple[str, dict]) -> bool:
    if a[0] != b[0]:
        return False
    common = a[1].keys() & b[1].keys()
    return all(a[1][k] == b[1][k] for k in common)


def first_difference(before: list, after: list) -> str | None:
    """Where two matches' traces first differ, in words (None if they agree)."""
    prefix = f"{len(before)} rounds before, {len(after)} after; " if len(before) != len(after) else ""
    for index, (r0, r1) in enumerate(zip(before, after, strict=False)):
        for i, (e0, e1) in enumerate(zip(r0, r1, strict=False)):
            if not _same_event(e0, e1):
                return f"{prefix}round {index} event {i}: {e0} became {e1}"
        if len(r0) != len(r1):
            return f"{prefix}round {index}: {len(r0)} events before, {len(r1)} after"
    return prefix or None


def compare(before_path: str, after_path: str) -> int:
    """Print the share of identical traces per group; exit 1 if any differ."""
    with open(before_path, "rb") as fh:
        before = pickle.load(fh)
    with open(after_path, "rb") as fh:
        after = pickle.load(fh)
    groups: dict[tuple, list] = defaultdict(list)
    for key in sorted(before.keys() & after.keys()):
        groups[key[:3]].append((key[3], first_difference(before[key], after[key])))
    differing = 0
    for group, rows in groups.items():
        same = sum(diff is None for _, diff in rows)
        differing += len(rows) - same
        print(f"{group[0]:<14} {group[1]}p  {group[2]:<18} {same}/{len(rows)} identical")
        for seed, diff in rows:
            if diff is not None:
                print(f"    first difference, seed {seed}: {diff[:300]}")
                break
    return 1 if differing else 0


def engine_value(text: str) -> bool | int | float | str:
    """An engine setting's value from the command line: true/false, a whole number, a number, else the text."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out")
    d.add_argument("--seeds", type=int, default=8)
    d.add_argument("--knobs-as-before", action="store_true")
    d.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE", help="a knob for every preset")
    d.add_argument("--engine", action="append", default=[], metavar="SETTING=VALUE",
                   help="an engine setting (true/false or a number), e.g. all_looks=true")
    d.add_argument("--lineups", nargs="+", default=list(LINEUPS), metavar="LINEUP",
                   help="lineups to play (default: %(default)s); 'builtins' plays each built-in agent at a full table")
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    args = parser.parse_args()
    if args.command == "dump":
        lineups = args.lineups
        if lineups == ["builtins"]:
            import kemps_sim_agents

            lineups = [cls.name for cls in kemps_sim_agents.BUILTINS]  # the Kemps policies that play by name
        engine = {key: engine_value(text) for key, text in (item.split("=", 1) for item in args.engine)}
        dump(args.out, args.seeds, args.knobs_as_before, dict(item.split("=", 1) for item in args.set), lineups,
             engine)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
