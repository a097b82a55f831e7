"""``kemps-sim tournament --plots DIR``: the ratings with their intervals and the head-to-head matrix as PNG files.

The tournaments are hand-made tables (no agent plays a match): twelve entrants, one of which won every match and
one of which lost every match, so the figures must show one-sided intervals. Checks are on what was drawn
(arrows, labels, order, texts per cell) and on the files written; the figures themselves were looked at by eye
when this was written (see the tournament section of the README).
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer
from matplotlib.text import Annotation

import kemps_sim.cli.tournament as tournament_cli
from kemps_sim import ConfigError
from kemps_sim.cli import main
from kemps_sim.plots.ratings import head_to_head_plot, ratings_plot, tournament_figures
from kemps_sim.ratings import bradley_terry, head_to_head, head_to_head_counts

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
#: Twelve entrants, as a user would name them: built-ins and built-ins with parameters.
TWELVE = ["random", "naive", "collector", "feeder", "camouflage", "watcher", "bluffer", "cautious", "eager",
          "collector(caution=1.5)", "watcher(threshold=0.9)", "feeder(min_evidence=2)"]
STRENGTH = dict(zip(TWELVE, [-3.0, -0.8, 9.0, 0.1, 0.0, 0.8, 0.3, 0.6, -0.5, 0.4, -0.1, -0.3], strict=True))


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def twelve_entrants(per_seating: int = 3, seed: int = 12) -> pd.DataFrame:
    """A round robin of :data:`TWELVE`: ``collector`` wins every match, ``random`` loses every one, the rest are
    drawn from a Bradley-Terry model with a fixed seed (and one match ends in a shared win)."""
    rng = np.random.default_rng(seed)
    rows = []
    for a in TWELVE:
        for b in TWELVE:
            if a == b:
                continue
            for _ in range(per_seating):
                if "collector" in (a, b) or "random" in (a, b):
                    score = float(a == "collector" or b == "random")
                else:
                    score = float(rng.random() < 1.0 / (1.0 + math.exp(-(STRENGTH[a] - STRENGTH[b]))))
                rows.append((a, b, score))
    frame = pd.DataFrame(rows, columns=["first", "second", "score"])
    frame.loc[(frame["first"] == "bluffer") & (frame["second"] == "feeder"), "score"] = [1.0, 0.5, 0.0]
    frame.insert(0, "seed", range(len(frame)))
    return frame


def as_pairs(outcomes: pd.DataFrame) -> pd.DataFrame:
    """The stacked records pairs table of those outcomes (two rows per match), as ``load_results`` gives it."""
    rows = []
    for seed, first, second, score in outcomes[["seed", "first", "second", "score"]].itertuples(index=False):
        for pair, agents, share in ((0, first, score), (1, second, 1.0 - score)):
            rows.append({"seed": seed, "pair": pair, "agents": agents, "won": share > 0, "win_share": share})
    return pd.DataFrame(rows)


def is_png(path, min_bytes: int) -> bool:
    return path.is_file() and path.read_bytes()[:8] == PNG_MAGIC and path.stat().st_size > min_bytes


def png_size(path) -> tuple[int, int]:
    """(width, height) in pixels, from the PNG header."""
    header = path.read_bytes()[16:24]
    return int.from_bytes(header[:4], "big"), int.from_bytes(header[4:], "big")


def test_tournament_plots_writes_both_figures_for_twelve_entrants(tmp_path, monkeypatch, capsys):
    # The command line as a user types it; the sweep is replaced by the hand-made table of its results.
    folder = tmp_path / "tournament"
    folder.mkdir()
    done = SimpleNamespace(folder=str(folder), already_done=0, ran=396, planned=396, executor="serial", failures=0,
                           interrupted=False)
    monkeypatch.setattr(tournament_cli, "run_sweep", lambda spec, **kwargs: done)
    monkeypatch.setattr(tournament_cli, "load_results", lambda folder, tables: {"pairs": as_pairs(twelve_entrants())})
    figures = tmp_path / "figures"
    assert main(["tournament", *TWELVE, "--matches", "3", "--serial", "--no-progress", "--output", str(folder),
                 "--plots", str(figures)]) == 0
    text = capsys.readouterr().out
    assert f"wrote {figures / 'ratings.png'}" in text and f"wrote {figures / 'head_to_head.png'}" in text
    assert "95% profile-likelihood intervals" in text and "upper only" in text and "lower only" in text
    ratings, matrix = figures / "ratings.png", figures / "head_to_head.png"
    assert is_png(ratings, 40_000) and is_png(matrix, 80_000)
    # The figures grow with the number of entrants: compare with a four-entrant tournament.
    few = twelve_entrants()
    few = few[few["first"].isin(TWELVE[:4]) & few["second"].isin(TWELVE[:4])]
    small = tournament_figures(bradley_terry(few), head_to_head(few), tmp_path / "few",
                               counts=head_to_head_counts(few))
    assert png_size(ratings)[1] > 1.8 * png_size(small[0])[1]
    assert png_size(matrix)[0] > 1.8 * png_size(small[1])[0] and png_size(matrix)[1] > 1.8 * png_size(small[1])[1]
    written = pd.read_csv(folder / "ratings.csv")
    assert written.set_index("strategy").loc["random", "ci_low"] == -math.inf
    assert written.set_index("strategy").loc["collector", "ci_high"] == math.inf


def test_the_cli_refuses_a_bad_confidence_or_plots_path_before_running(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tournament_cli, "run_sweep", lambda *a, **k: pytest.fail("the sweep must not start"))
    assert main(["tournament", "collector", "random", "--confidence", "95", "--output", str(tmp_path / "t")]) == 2
    file = tmp_path / "file.png"
    file.write_bytes(b"")
    assert main(["tournament", "collector", "random", "--plots", str(file), "--output", str(tmp_path / "t")]) == 2
    err = capsys.readouterr().err
    assert "--confidence 95.0: must be between 0 and 1" in err and "is not a folder" in err


def test_ratings_plot_draws_one_sided_intervals_as_labelled_arrows():
    fit = bradley_terry(twelve_entrants())
    ax = ratings_plot(fit)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[-1] == "collector (n=66)" and labels[0] == "random (n=66)"  # best on top, worst at the bottom
    (bars,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars.lines[0].get_xdata()) == 10  # the two-sided ten; the sweepers have no finite estimate
    arrows = [a for a in ax.texts if isinstance(a, Annotation) and a.arrow_patch is not None]
    assert len(arrows) == 2
    heads = sorted(a.xy[0] for a in arrows)
    assert heads == [0.0, 1.0]  # to the left and to the right edge of the axes
    texts = [t.get_text() for t in ax.texts if t.get_text()]
    by = fit.set_index("strategy")
    assert f"≤ {by.loc['random', 'ci_high']:+.2f}, no lower bound" in texts
    assert f"≥ {by.loc['collector', 'ci_low']:+.2f}, no upper bound" in texts
    low, high = ax.get_xlim()
    finite = fit[["ci_low", "ci_high"]].to_numpy()
    finite = finite[np.isfinite(finite)]
    assert low < finite.min() and high > finite.max()
    assert "95%" in ax.get_title() and "profile-likelihood" in ax.get_title()
    assert "reference-group mean 0" in ax.get_xlabel()  # the sweepers are not in the reference group
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("one-sided 95% interval" in t for t in legend)


def test_head_to_head_plot_follows_the_rating_order_and_shows_counts():
    outcomes = twelve_entrants()
    fit = bradley_terry(outcomes)
    order = list(fit["strategy"])
    ax = head_to_head_plot(head_to_head(outcomes), counts=head_to_head_counts(outcomes), order=order)
    rows = [t.get_text().replace("\n", " ") for t in ax.get_yticklabels()]
    columns = [t.get_text().replace("\n", " ") for t in ax.get_xticklabels()]
    assert rows == columns == order
    assert all(t.get_rotation() == 45 for t in ax.get_xticklabels())
    cells = [t.get_text() for t in ax.texts]
    assert len(cells) == 12 * 11 and all(t.endswith("\nn=6") for t in cells)
    first_row = {round(t.get_position()[0]): t.get_text() for t in ax.texts if round(t.get_position()[1]) == 0}
    assert order[0] == "collector" and all(v.startswith("1.00") for v in first_row.values())
    with pytest.raises(ConfigError, match="once each"):
        head_to_head_plot(head_to_head(outcomes), order=order[:-1])
