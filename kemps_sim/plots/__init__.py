"""Readable matplotlib figures of matches, sweeps and tournaments.

Every plot function takes tidy tables (pandas, as made by :mod:`kemps_sim.records`, :mod:`kemps_sim.stats` and
:mod:`kemps_sim.ratings`) or a match result, draws on the ``ax`` it is given (or on a new figure), and returns the
Axes; the few that make a whole figure say so. Axes carry units, colours come from the colour-blind-safe
Okabe–Ito palette (:mod:`.style`), and styling is applied per call, never to matplotlib's global settings.
Importing this package does not import ``matplotlib.pyplot``, so it never commits to a GUI backend.

- :func:`metric_vs_param`: a statistic against a swept parameter, with confidence bands;
- :func:`call_accuracy_plot`: call precision and the fate of fours of a kind per variant;
- :func:`round_timeline`, :func:`timeline_figure`, :func:`save_timeline`: one round on a time line;
- :func:`head_to_head_plot`, :func:`ratings_plot`: tournament results;
- :func:`round_length_plot`, :func:`call_delay_plot`: distributions of times;
- :func:`standard_figures`: the PNG files of a sweep.
"""

from __future__ import annotations

from kemps_sim.plots.accuracy import call_accuracy_plot
from kemps_sim.plots.distributions import call_delay_plot, round_length_plot
from kemps_sim.plots.params import metric_vs_param
from kemps_sim.plots.ratings import head_to_head_plot, ratings_plot
from kemps_sim.plots.standard import standard_figures
from kemps_sim.plots.timeline import hand_history, round_timeline, save_timeline, timeline_figure

__all__ = [
    "call_accuracy_plot",
    "call_delay_plot",
    "hand_history",
    "head_to_head_plot",
    "metric_vs_param",
    "ratings_plot",
    "round_length_plot",
    "round_timeline",
    "save_timeline",
    "standard_figures",
    "timeline_figure",
]
