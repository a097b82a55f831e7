"""Readable matplotlib figures of matches, sweeps and tournaments.

Every plot function takes tidy tables (pandas, as made by :mod:`kemps_sim.records`, :mod:`kemps_sim.stats` and
:mod:`kemps_sim.ratings`) or a match result, draws on the ``ax`` it is given (or on a new figure), and returns the
Axes; the few that make a whole figure say so. Axes carry units, colours come from the colour-blind-safe
Okabe–Ito palette (:mod:`.style`), and styling is applied per call, never to matplotlib's global settings.
Importing this package does not import ``matplotlib.pyplot``, so it never commits to a GUI backend.

- :func:`metric_vs_param`: a statistic against a swept parameter, with confidence bands (or, for a sampled
  design, a scatter of cells with a binned trend); :func:`metric_facets`: the same as small multiples;
- :func:`call_accuracy_plot`: call precision and the fate of fours of a kind per variant;
  :func:`call_accuracy_facets`: one panel of variants per value of another column;
- :func:`round_timeline`, :func:`timeline_figure`, :func:`save_timeline`: one round on a time line;
- :func:`head_to_head_plot`, :func:`ratings_plot`, :func:`tournament_figures`: tournament results;
- :func:`sensitivity_plot`: Sobol' or Morris indices of a sensitivity sweep;
- :func:`round_length_plot`, :func:`call_delay_plot`: distributions of times; :func:`round_length_facets`,
  :func:`call_delay_facets`: as small multiples;
- :func:`standard_figures`: the PNG files of a sweep, laid out for its design; :func:`draw_standard_figures`:
  the same figures as objects.

Figures stay readable on real sweeps: groups with nothing to draw are left out (no artist, no legend entry, no
colour used up), more than six groups put the legend outside the axes, a numeric grouping column with many values
becomes a colour scale with a colour bar, long or many category names are wrapped or rotated, numbers in labels
keep three significant digits, and intervals are drawn wherever the table has them, with their level in a legend.
"""

from __future__ import annotations

from kemps_sim.plots.accuracy import call_accuracy_facets, call_accuracy_plot
from kemps_sim.plots.distributions import call_delay_facets, call_delay_plot, round_length_facets, round_length_plot
from kemps_sim.plots.params import metric_facets, metric_vs_param
from kemps_sim.plots.ratings import head_to_head_plot, ratings_plot, tournament_figures
from kemps_sim.plots.sensitivity import sensitivity_plot
from kemps_sim.plots.standard import draw_standard_figures, standard_figures
from kemps_sim.plots.timeline import hand_history, round_timeline, save_timeline, timeline_figure

__all__ = [
    "call_accuracy_facets",
    "call_accuracy_plot",
    "call_delay_facets",
    "call_delay_plot",
    "draw_standard_figures",
    "hand_history",
    "head_to_head_plot",
    "metric_facets",
    "metric_vs_param",
    "ratings_plot",
    "round_length_facets",
    "round_length_plot",
    "round_timeline",
    "save_timeline",
    "sensitivity_plot",
    "standard_figures",
    "timeline_figure",
    "tournament_figures",
]
