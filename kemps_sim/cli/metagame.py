"""``kemps-sim metagame DIR [DIR ...]``: which mixture of strategies survives a tournament, and how sure that is.

Each folder is a finished tournament (``kemps-sim tournament``, Kemps or Krepet, team strategies by their names).
The command builds the payoff matrix from the paired units, splits it by variant (the tournament's swept parameters
other than the lineup, and the folder when several are given), and prints per variant its structure, Nash
averaging, α-Rank and the replicator dynamics with bootstrap intervals, then the variants side by side. An
adaptive round robin also says how many matches it played against a full round robin of the same confidence.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kemps_sim.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

    from kemps_sim.metagame.analysis import MetagameAnalysis

#: The payoff measures the command offers (kemps_sim.metagame.payoffs.MEASURES, named here so that parsing the
#: command line does not import pandas).
MEASURE_NAMES = ("win", "rounds_won", "points", "letters", "cards_left")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``metagame`` sub-command."""
    p = sub.add_parser("metagame", help="which mixture of strategies survives a tournament: Nash, α-Rank, replicator",
                       description="Analyse finished tournaments as a meta-game: the payoff matrix with standard "
                                   "errors from the paired deals, its transitive and cyclic parts, Nash averaging "
                                   "(the maximum-entropy equilibrium), α-Rank and the replicator dynamics, each with "
                                   "a bootstrap over the deals; per variant (a swept rule or several folders).")
    p.add_argument("folders", nargs="+", metavar="DIR", help="tournament results folders")
    p.add_argument("--measure", choices=MEASURE_NAMES, default="win",
                   help="the payoff: win (win share minus 1/2, the default), rounds_won, points or letters (Kemps "
                        "under that scoring), cards_left (Krepet)")
    p.add_argument("--by", action="append", default=None, metavar="COLUMN",
                   help="split into variants by this column of the pairs table (repeatable; default: every swept "
                        "parameter but the lineup, and the folder when several are given)")
    p.add_argument("--alpha", type=float, default=None, help="α-Rank's selection intensity (default 100)")
    p.add_argument("--population", type=int, default=None, help="α-Rank's population size (default 50)")
    p.add_argument("--start", default=None, metavar="W1,W2,...",
                   help="the replicator's starting mixture, one weight per strategy in name order (default: alike)")
    p.add_argument("--resamples", type=int, default=500, help="bootstrap resamples (default 500)")
    p.add_argument("--seed", type=int, default=0, help="the bootstrap's seed (default 0)")
    p.add_argument("--confidence", type=float, default=0.95, metavar="LEVEL",
                   help="confidence level of the intervals (default 0.95)")
    p.add_argument("--output", default=None, metavar="DIR",
                   help="where the CSV tables go (default: the first folder)")
    p.add_argument("--plots", default=None, metavar="DIR",
                   help="also draw the payoff matrix ordered by Nash rating, the response graph, α-Rank masses over "
                        "α and replicator trajectories on a simplex, per variant, into DIR")
    p.add_argument("--simplex", default=None, metavar="A,B,C",
                   help="the three strategies of the simplex figure (default: the three best by Nash rating)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Analyse the folders and print the report; write the tables (and figures)."""
    options = _options(args)
    pairs, params, levels = _load(args.folders)
    if args.simplex is not None:
        _check_simplex(args.simplex, pairs)
    from kemps_sim.metagame.analysis import analyse_variants, variant_columns, variant_table
    from kemps_sim.metagame.report import metagame_text, variants_text

    by = args.by if args.by is not None else variant_columns(pairs, params)
    analyses = analyse_variants(pairs, by, levels, **options)
    for folder in args.folders:
        saved = _savings(folder)
        if saved is not None:
            played, full = saved
            print(f"{folder}: adaptive round robin, {played} matches played; a full round robin with the same "
                  f"confidence in every pairing plays {full} ({1 - played / full:.0%} saved)\n")
    for analysis in analyses.values():
        print(metagame_text(analysis) + "\n")
    if len(analyses) > 1:
        print(variants_text(analyses) + "\n")
    output = Path(args.output if args.output is not None else args.folders[0])
    output.mkdir(parents=True, exist_ok=True)
    written = [output / "metagame_strategies.csv", output / "metagame_payoffs.csv", output / "metagame_alpha.csv"]
    variant_table(analyses).to_csv(written[0], index=False)
    _payoffs_long(analyses).to_csv(written[1], index=False)
    _alpha_long(analyses).to_csv(written[2], index=False)
    print("tables written: " + ", ".join(str(path) for path in written))
    if args.plots is not None:
        for path in _figures(analyses, args.plots, args.simplex):
            print(f"wrote {path}")
    return 0


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The analysis options from the arguments, each checked with a one-line error."""
    if args.resamples < 2:
        raise ConfigError(f"--resamples {args.resamples}: must be a whole number >= 2")
    if args.seed < 0:
        raise ConfigError(f"--seed {args.seed}: must be a whole number >= 0")
    if not 0.0 < args.confidence < 1.0:
        raise ConfigError(f"--confidence {args.confidence}: must be between 0 and 1 (exclusive), e.g. 0.95")
    if args.plots is not None and Path(args.plots).exists() and not Path(args.plots).is_dir():
        raise ConfigError(f"--plots {args.plots!r}: exists and is not a folder")
    if args.simplex is not None and args.plots is None:
        raise ConfigError(f"--simplex {args.simplex!r}: draws a figure, so it needs --plots DIR")
    options: dict[str, Any] = {"measure": args.measure, "resamples": args.resamples, "seed": args.seed,
                               "confidence": args.confidence}
    if args.alpha is not None:
        if not args.alpha > 0:
            raise ConfigError(f"--alpha {args.alpha}: must be a positive number, e.g. 100")
        options["alpha"] = args.alpha
    if args.population is not None:
        if args.population < 2:
            raise ConfigError(f"--population {args.population}: must be a whole number >= 2")
        options["population"] = args.population
    if args.start is not None:
        try:
            options["start"] = [float(part) for part in args.start.split(",")]
        except ValueError:
            raise ConfigError(f"--start {args.start!r}: must be weights separated by commas, e.g. 0.5,0.3,0.2") \
                from None
    return options


def _load(folders: list[str]) -> tuple[pd.DataFrame, list[str], dict[str, list[Any]]]:
    """Every folder's pairs table with its strategies named (a team tournament's names), stacked with a ``folder``
    column when there are several; the swept parameters of them all, and the levels of each listed axis (and the
    folders) in the order given, which the variants follow."""
    import pandas as pd

    from kemps_sim.sweep import load_results
    from kemps_sim.sweep.teams import label_pairs, strategy_labels

    names = [Path(folder).name or str(folder) for folder in folders]
    if len(set(names)) < len(names):
        names = [str(folder) for folder in folders]
    if len(set(names)) < len(names):
        raise ConfigError(f"folders {folders}: each folder may be given once")
    parts, params, levels = [], [], {"folder": names}
    for folder, name in zip(folders, names, strict=True):
        if not Path(folder).is_dir():
            raise ConfigError(f"folder {folder!r}: no such folder; give a tournament's results folder")
        results = load_results(folder, tables=["pairs"])
        if "pairs" not in results.tables or results.tables["pairs"].empty:
            raise ConfigError(f"folder {folder!r}: holds no matches; run the tournament first")
        part = label_pairs(results.tables["pairs"], strategy_labels(folder))
        if len(folders) > 1:
            part = part.assign(folder=name)
        parts.append(part)
        params += [p for p in results.params if p not in params]
        for axis, listed in ((results.manifest.get("spec") or {}).get("axes") or {}).items():
            if isinstance(listed, list):
                levels[axis] = levels.get(axis, []) + [v for v in listed if v not in levels.get(axis, [])]
    return pd.concat(parts, ignore_index=True), params, levels


def _savings(folder: str) -> tuple[int, int] | None:
    """An adaptive round robin's matches played and a full round robin's, from the folder's manifest."""
    from kemps_sim.sweep.adaptive import recorded_savings
    from kemps_sim.sweep.store import ResultStore

    manifest = ResultStore(folder).manifest()
    return recorded_savings(manifest) if manifest else None


def _payoffs_long(analyses: dict[str, MetagameAnalysis]) -> pd.DataFrame:
    """One row per variant and pairing: the payoff, its standard error and its units."""
    import pandas as pd

    return pd.concat([analysis.table.pairings().assign(variant=label) for label, analysis in analyses.items()],
                     ignore_index=True)


def _alpha_long(analyses: dict[str, MetagameAnalysis]) -> pd.DataFrame:
    """One row per variant, α and strategy: α-Rank's mass."""
    import pandas as pd

    return pd.concat([analysis.alpha_masses.stack().rename("mass").reset_index().assign(variant=label)
                      for label, analysis in analyses.items()], ignore_index=True)


def _figures(analyses: dict[str, MetagameAnalysis], folder: str, simplex: str | None) -> list[Path]:
    """Every variant's figures, file names starting with the variant's number when there are several."""
    import pandas as pd

    from kemps_sim.metagame.replicator import replicator
    from kemps_sim.plots.metagame import metagame_figures

    written = []
    for number, analysis in enumerate(analyses.values()):
        ratings = pd.Series(analysis.nash.ratings, index=list(analysis.strategies))
        three = _simplex_strategies(analysis, simplex, ratings)
        paths = None
        if three is not None:
            sub = analysis.table.frame().loc[three, three]
            starts = [(1 / 3, 1 / 3, 1 / 3), (0.6, 0.2, 0.2), (0.2, 0.6, 0.2), (0.2, 0.2, 0.6)]
            paths = (three, [replicator(sub, start, time=float(analysis.trajectory.index[-1])).to_numpy()
                             for start in starts])
        prefix = f"variant{number}_" if len(analyses) > 1 else ""
        errors = pd.DataFrame(analysis.table.standard_errors, index=list(analysis.strategies),
                              columns=list(analysis.strategies))
        counts = pd.DataFrame(analysis.table.counts, index=list(analysis.strategies),
                              columns=list(analysis.strategies))
        written += metagame_figures(analysis.table.frame(), ratings, folder, errors=errors, counts=counts,
                                    masses=analysis.alpha_masses, trajectories=paths, prefix=prefix)
    return written


def _simplex_strategies(analysis: MetagameAnalysis, simplex: str | None, ratings: pd.Series) -> list[str] | None:
    """The simplex figure's three strategies: as given (when this variant played them all), or the three best by
    Nash rating (None with fewer than three)."""
    if simplex is None:
        best = ratings.sort_values(ascending=False, kind="stable").index.tolist()
        return best[:3] if len(best) >= 3 else None
    three = [part.strip() for part in simplex.split(",")]
    return three if set(three) <= set(analysis.strategies) else None


def _check_simplex(simplex: str, pairs: pd.DataFrame) -> None:
    """A one-line error unless ``--simplex`` names three different strategies of the tournament."""
    three = [part.strip() for part in simplex.split(",")]
    played = sorted({str(name) for name in pairs["agents"]})
    if len(three) != 3 or len(set(three)) != 3 or not set(three) <= set(played):
        raise ConfigError(f"--simplex {simplex!r}: must name three different strategies of the tournament, from "
                          f"{', '.join(played)}")
