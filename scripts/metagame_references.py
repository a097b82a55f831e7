"""Write the reference values that tests/test_metagame_solvers.py checks kemps_sim.metagame against.

The references come from independent implementations: OpenSpiel's α-Rank (``open_spiel.python.egt.alpharank``,
single population, both its local and its population selection models, and its infinite-α model with a tiny
noise), and nashpy's support enumeration (Nash equilibria) and replicator dynamics. They are computed for a few
fixed matrices (rock-paper-scissors, a biased rock-paper-scissors, a random antisymmetric 4x4 from a fixed seed, a
transitive game, and a random 4x4 that is not antisymmetric), which the JSON stores next to the values together
with the libraries' versions.

Neither library is a kemps-sim dependency, and this script does not import kemps_sim, so run it with the Python of
a separate environment::

    python3 -m venv /tmp/refvenv && /tmp/refvenv/bin/pip install open_spiel nashpy matplotlib
    /tmp/refvenv/bin/python scripts/metagame_references.py            # writes tests/metagame_references.json

(OpenSpiel's α-Rank module imports matplotlib for its plots.) The grid of α stops where OpenSpiel's closed form
overflows (``exp(m u)`` beyond 1e308); kemps-sim itself is checked at larger α against closed forms in the tests.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import metadata
from pathlib import Path

try:
    import nashpy
    import numpy as np
    from open_spiel.python.egt import alpharank
except ImportError as error:  # one clear line, not a traceback
    sys.exit(f"metagame_references.py needs open_spiel, nashpy and matplotlib (pip install open_spiel nashpy "
             f"matplotlib, in a separate environment): {error}")

POPULATION = 50
SEED = 20240612  # a seed whose antisymmetric 4x4 has a mixed equilibrium (support of 3)
#: α values per selection model, each below the point where OpenSpiel's formula overflows on these matrices
ALPHAS = {"local": [0.01, 0.5, 2.0, 10.0], "population": [0.01, 0.5, 2.0, 5.0]}
#: the noise of OpenSpiel's infinite-α chain; its masses are within about n·ε of the ε → 0 limit
INFINITE_ALPHA_EPSILON = 1e-9
REPLICATOR_TIMES = np.linspace(0.0, 10.0, 21)


def matrices() -> dict[str, np.ndarray]:
    """The fixed payoff matrices the references are computed on."""
    rng = np.random.default_rng(SEED)
    upper = np.triu(rng.uniform(-0.5, 0.5, (4, 4)), 1)
    strengths = np.array([0.1, 0.4, -0.2, 0.25])
    return {
        "rps": np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]),
        "biased_rps": np.array([[0.0, -0.1, 0.3], [0.1, 0.0, -0.2], [-0.3, 0.2, 0.0]]),
        "random_antisymmetric": upper - upper.T,
        "transitive": strengths[:, None] - strengths[None, :],
        "random_general": rng.uniform(-0.5, 0.5, (4, 4)),
    }


def alpha_rank_references(games: dict[str, np.ndarray]) -> list[dict]:
    """OpenSpiel's stationary distribution for every matrix, α and selection model."""
    rows = []
    for name, matrix in games.items():
        for selection, alphas in ALPHAS.items():
            for alpha in alphas:
                _, _, pi, _, _ = alpharank.compute([matrix], m=POPULATION, alpha=alpha,
                                                   use_local_selection_model=selection == "local")
                rows.append({"matrix": name, "selection": selection, "alpha": alpha, "population": POPULATION,
                             "masses": np.asarray(pi, dtype=float).tolist()})
    return rows


def infinite_alpha_references(games: dict[str, np.ndarray]) -> list[dict]:
    """OpenSpiel's infinite-α masses at a tiny noise, for the matrices without ties between strategies."""
    rows = []
    for name, matrix in games.items():
        gaps = matrix - matrix.T
        if np.any(gaps[~np.eye(len(matrix), dtype=bool)] == 0.0):
            continue  # OpenSpiel gives a tie 1/2 where the α → ∞ limit of the finite chain gives 1/m
        _, _, pi, _, _ = alpharank.compute([matrix], use_inf_alpha=True, inf_alpha_eps=INFINITE_ALPHA_EPSILON)
        rows.append({"matrix": name, "epsilon": INFINITE_ALPHA_EPSILON, "masses": np.asarray(pi).tolist()})
    return rows


def nash_references(games: dict[str, np.ndarray]) -> list[dict]:
    """Every equilibrium nashpy's support enumeration finds for the zero-sum game of each matrix (row strategy)."""
    rows = []
    for name, matrix in games.items():
        game = nashpy.Game(matrix, -matrix)
        equilibria = [np.asarray(row, dtype=float).tolist() for row, _ in game.support_enumeration()]
        rows.append({"matrix": name, "row_equilibria": equilibria})
    return rows


def replicator_references(games: dict[str, np.ndarray]) -> list[dict]:
    """nashpy's replicator trajectory (scipy's odeint at its default tolerances) from a fixed interior start."""
    rows = []
    for name, matrix in games.items():
        n = len(matrix)
        start = np.arange(1, n + 1, dtype=float) / (n * (n + 1) / 2)
        path = nashpy.Game(matrix).replicator_dynamics(y0=start, timepoints=REPLICATOR_TIMES)
        rows.append({"matrix": name, "start": start.tolist(), "times": REPLICATOR_TIMES.tolist(),
                     "trajectory": np.asarray(path).tolist()})
    return rows


def main() -> None:
    """Compute every reference and write the JSON (``tests/metagame_references.json`` unless told)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parent.parent / "tests" / "metagame_references.json"
    parser.add_argument("--out", type=Path, default=default, help="where to write the JSON")
    out = parser.parse_args().out
    games = matrices()
    document = {
        "written_by": "scripts/metagame_references.py",
        "libraries": {name: metadata.version(name) for name in ("open_spiel", "nashpy", "numpy", "scipy")},
        "matrices": {name: matrix.tolist() for name, matrix in games.items()},
        "alpha_rank": alpha_rank_references(games),
        "alpha_rank_infinite": infinite_alpha_references(games),
        "nash": nash_references(games),
        "replicator": replicator_references(games),
    }
    out.write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {out}: {len(document['alpha_rank'])} α-Rank, {len(document['alpha_rank_infinite'])} infinite-α, "
          f"{len(document['nash'])} Nash and {len(document['replicator'])} replicator references "
          f"({', '.join(f'{k} {v}' for k, v in document['libraries'].items())})")


if __name__ == "__main__":
    main()
