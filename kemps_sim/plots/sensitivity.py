"""Sensitivity indices as a figure: which parameters move a metric, alone and with the others.

For a Sobol' table (:func:`kemps_sim.sweep.sensitivity.sobol_indices`) each parameter gets two bars, its first-order
index (the share of the metric's variance it causes alone) and its total-order index (alone and in interaction),
each with the bootstrap half-width at the table's confidence level. For a Morris table
(:func:`~kemps_sim.sweep.sensitivity.morris_indices`) each parameter gets one bar, mu* (the mean absolute effect of
moving it over its whole range), with its half-width, and a marker for sigma (how much that effect depends on the
others).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from kemps_sim.errors import ConfigError
from kemps_sim.plots import style

if TYPE_CHECKING:
    from matplotlib.axes import Axes


@style.styled
def sensitivity_plot(indices: pd.DataFrame, ax: Axes | None = None, *, title: str | None = None,
                     legend: bool = True) -> Axes:
    """Horizontal bars of Sobol' (S1, ST) or Morris (mu*) indices per parameter, with their intervals.

    Parameters are named as every figure names them (:func:`kemps_sim.plots.style.param_label`). The legend goes
    under the x label; ``legend=False`` leaves it out (for a grid of panels sharing one).
    """
    style.require(indices, "sensitivity_plot", ["parameter"])
    sobol = {"S1", "ST"} <= set(indices.columns)
    if not sobol and "mu_star" not in indices.columns:
        raise ConfigError("sensitivity_plot: the table has neither S1/ST (Sobol') nor mu_star (Morris) columns; "
                          "give the result of sobol_indices or morris_indices")
    names = style.param_labels([str(p) for p in indices["parameter"]])
    ax = style.axes_or_new(ax, (7.0, 1.9 + 0.55 * len(names)))
    y = np.arange(len(names))
    level = indices.attrs.get("confidence", indices["confidence"].iloc[0] if "confidence" in indices else 0.95)
    if sobol:
        for offset, (column, label, colour) in enumerate((("S1", "first order (alone)", style.color(0)),
                                                          ("ST", "total order (with interactions)",
                                                           style.color(1)))):
            values = indices[column].to_numpy(float)
            half = indices[f"{column}_conf"].to_numpy(float)
            ax.barh(y + (offset - 0.5) * 0.38, values, height=0.36, color=colour, label=label,
                    xerr=half, error_kw={"ecolor": style.INK, "capsize": 3, "lw": 1})
        ax.set_xlabel("share of the metric's variance")
        ax.axvline(0.0, color=style.GREY, lw=0.8)
    else:
        values = indices["mu_star"].to_numpy(float)
        ax.barh(y, values, height=0.5, color=style.color(0), label="mu*: mean absolute effect over the range",
                xerr=indices["mu_star_conf"].to_numpy(float), error_kw={"ecolor": style.INK, "capsize": 3, "lw": 1})
        if "sigma" in indices:
            ax.plot(indices["sigma"].to_numpy(float), y, "D", color=style.color(2), ms=6,
                    label="sigma: how much the effect depends on the others")
        ax.set_xlabel("effect on the metric over each parameter's range")
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    metric = indices.attrs.get("metric", "")
    ax.set_title(title if title is not None else f"Sensitivity of {metric}" if metric else "Sensitivity")
    # Under the x label, in points rather than a share of the axes' height (which would put it off a short figure
    # or far below a tall one); side by side only when two entries fit across the axes.
    if not legend:
        return ax
    handles = ax.get_legend_handles_labels()[0]
    across = sum(len(h.get_label()) for h in handles) * style.CHAR_INCHES + 1.0
    width = ax.get_position().width * ax.figure.get_figwidth()
    style.legend_below(ax, handles, ncols=2 if across <= width else 1, title=f"whiskers: {level:.0%} interval")
    return ax
