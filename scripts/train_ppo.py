"""Train the learning baseline: sb3-contrib's MaskablePPO at one seat of a Kemps table, one run per seed.

Each seed's run goes to OUT/seed-S/: ``model.zip`` (the trained model, for ``ppo(path=...)``), ``initial.zip`` (the
same network untrained), ``curve.csv`` (per rollout: steps, episodes ended, their mean reward and length, wall
seconds) and ``meta.json`` (the arguments, settings, library versions, seed, sizes and speed). Seeds run in
``--workers`` processes at once, each with one PyTorch thread and its environments in-process (see
:mod:`kemps_sim.rl.training` for why, and for what is reproducible).

    .venv/bin/python scripts/train_ppo.py --seeds 0 1 2 3 4 --steps 1000000 --out runs/ppo
    .venv/bin/python scripts/train_ppo.py --seeds 0 --steps 50000 --lineup "collector,random" --out runs/try

``--lineup`` gives the table's agents as for ``kemps-sim play`` (the learner's entry is replaced): one lineup per
environment in turn, by default the learner's partner a collector and its opponents random, naive, collector and
watcher pairs.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from kemps_sim.cli.script_args import OneLineParser, whole_number
from kemps_sim.errors import ConfigError

POSITIVE = whole_number(1)  # a whole number >= 1 from the command line
WHOLE = whole_number(0)  # a whole number >= 0 from the command line

ROOT = Path(__file__).resolve().parent.parent


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; a usage error exits 2 with one line."""
    from kemps_sim.rl.training import DEFAULT_LINEUPS, VEC_KINDS, TrainSettings

    default = TrainSettings()
    parser = OneLineParser(prog="train_ppo.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", nargs="+", type=WHOLE, default=[0], metavar="S", help="training seeds (default 0)")
    parser.add_argument("--steps", type=POSITIVE, default=default.steps, metavar="N",
                        help=f"environment steps per seed (default {default.steps})")
    parser.add_argument("--lineup", nargs="+", default=list(DEFAULT_LINEUPS), metavar="LINEUP",
                        help="the table's agents, one lineup per environment in turn (default: %(default)s)")
    parser.add_argument("--rules", default="standard", metavar="PRESET|FILE.toml", help="the rules (default standard)")
    parser.add_argument("--players", type=POSITIVE, metavar="N", help="table size (default: the rules')")
    parser.add_argument("--seat", type=WHOLE, default=0, help="the learner's seat (default 0)")
    parser.add_argument("--reward", choices=("round", "match"), default="round", help="reward (default round)")
    parser.add_argument("--envs", type=POSITIVE, default=default.envs, help=f"environments per run "
                        f"(default {default.envs})")
    parser.add_argument("--vec", choices=VEC_KINDS, default="dummy", help="environments in this process (dummy, the "
                        "default) or one process each (subproc)")
    parser.add_argument("--n-steps", type=POSITIVE, default=default.n_steps,
                        help=f"steps per environment and rollout (default {default.n_steps})")
    parser.add_argument("--batch-size", type=POSITIVE, default=default.batch_size)
    parser.add_argument("--epochs", type=POSITIVE, default=default.epochs)
    parser.add_argument("--learning-rate", type=float, default=default.learning_rate)
    parser.add_argument("--ent-coef", type=float, default=default.ent_coef)
    parser.add_argument("--net", nargs="+", type=POSITIVE, default=list(default.net), metavar="UNITS",
                        help=f"hidden layer sizes (default {' '.join(map(str, default.net))})")
    parser.add_argument("--workers", type=POSITIVE, help="seeds trained at once (default: one per core, at most "
                        "one per seed)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="the output folder (one sub-folder "
                        "per seed)")
    args = parser.parse_args(argv)
    if len(set(args.seeds)) != len(args.seeds):
        parser.error(f"--seeds {' '.join(map(str, args.seeds))}: give each seed once")
    if args.out.exists() and not args.out.is_dir():
        parser.error(f"--out {str(args.out)!r}: exists and is not a folder")
    try:
        args.settings = TrainSettings(
            rules=args.rules, players=args.players, lineups=tuple(args.lineup), seat=args.seat, reward=args.reward,
            steps=args.steps, envs=args.envs, vec=args.vec, n_steps=args.n_steps, batch_size=args.batch_size,
            epochs=args.epochs, learning_rate=args.learning_rate, ent_coef=args.ent_coef, net=tuple(args.net))
        args.sizes = check_table(args.settings)
    except ConfigError as exc:
        parser.error(str(exc))
    args.parser = parser
    return args


def check_table(settings: Any) -> dict[str, Any]:
    """Build every lineup's environment once (a bad rule, lineup or seat is a usage error before any training);
    return the sizes and the learner's partner, for meta.json."""
    from kemps_sim.rl.seat import KempsSeatEnv
    from kemps_sim.seating import partner

    partners = []
    for index in range(min(settings.envs, len(settings.lineups))):
        env = KempsSeatEnv(**settings.env_arguments(index))
        session = env.session
        partners.append(session.seats[partner(session.rules.players, env.seat)][0])
        sizes = {"observations": session.encoder.size, "actions": session.actions.size,
                 "players": session.rules.players, "rules": session.rules.as_dict()}
        env.close()
    return {**sizes, "partners": partners}


def versions() -> dict[str, str]:
    """The versions a model depends on."""
    found = {"python": platform.python_version()}
    for name in ("kemps-sim", "torch", "stable-baselines3", "sb3-contrib", "gymnasium", "numpy"):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10)
        found["git"] = done.stdout.strip() + (" (uncommitted changes)" if _dirty() else "") if done.returncode == 0 \
            else "unknown"
    except (OSError, subprocess.SubprocessError):
        found["git"] = "unknown"
    return found


def _dirty() -> bool:
    done = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                          capture_output=True, text=True, timeout=10)
    return bool(done.stdout.strip())


def run_seed(settings: Any, seed: int, out: Path, record: dict[str, Any]) -> dict[str, Any]:
    """Train one seed into ``out/seed-S`` and write its meta.json; return a summary line's values."""
    from kemps_sim.rl.encoding import OBSERVATION_VERSION
    from kemps_sim.rl.training import settings_record, train
    from kemps_sim.rl.wrappers import first_match

    folder = out / f"seed-{seed}"
    result = train(settings, seed, folder)
    meta = {**record, "seed": seed, "observation_version": OBSERVATION_VERSION,
            "settings": settings_record(settings),
            "first_matches": [first_match(seed, i) for i in range(settings.envs)],
            "steps": result.steps, "wall_seconds": round(result.wall_seconds, 2),
            "steps_per_second": round(result.steps_per_second, 1), "torch_threads": 1}
    (folder / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    last = [row for row in result.curve if row["episodes"]][-1:] or [{"mean_reward": float("nan")}]
    return {"seed": seed, "steps": result.steps, "wall": result.wall_seconds, "rate": result.steps_per_second,
            "reward": last[0]["mean_reward"], "folder": str(folder)}


def main(argv: list[str] | None = None) -> int:
    """Train every seed and print one line per run."""
    args = parse_args(argv)
    record = {"arguments": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()
                            if k not in ("settings", "sizes", "parser")},
              "command": " ".join([Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])]),
              "versions": versions(), **args.sizes}
    args.out.mkdir(parents=True, exist_ok=True)
    workers = min(args.workers or os.cpu_count() or 1, len(args.seeds))
    print(f"training {len(args.seeds)} seed(s) x {args.steps} steps, {workers} at once, into {args.out}", flush=True)
    if workers == 1:
        done = (run_seed(args.settings, seed, args.out, record) for seed in args.seeds)
        for summary in done:
            _report(summary)
        return 0
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no PyTorch state forked
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = [pool.submit(run_seed, args.settings, seed, args.out, record) for seed in args.seeds]
        for future in concurrent.futures.as_completed(futures):
            _report(future.result())
    return 0


def _report(summary: dict[str, Any]) -> None:
    print(f"seed {summary['seed']}: {summary['steps']} steps in {summary['wall']:.0f} s ({summary['rate']:.0f} "
          f"steps/s), last mean episode reward {summary['reward']:.2f} -> {summary['folder']}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
