"""The sensitivity indices of a ``sobol`` or ``morris`` sweep's folder as ``kemps-sim report --sensitivity``
gives them: the table (:func:`sensitivity_table`, from :mod:`kemps_sim.sweep.sensitivity`) and its text, with
what the indices mean and, when the sample is too small for them to mean anything, why (:func:`format_sensitivity`).
"""

from __future__ import annotations

import textwrap
import warnings
from typing import TYPE_CHECKING

from kemps_sim.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

    from kemps_sim.sweep import SweepResults

SENSITIVITY_CSV = "sensitivity.csv"
SENSITIVITY_PNG = "sensitivity.png"


def sensitivity_table(results: SweepResults, metric: str, confidence: float) -> pd.DataFrame:
    """Sobol' (S1, ST) or Morris (mu*, sigma) indices of ``metric`` for a sensitivity sweep's folder."""
    from kemps_sim.sweep.sensitivity import SensitivityWarning, morris_indices, sobol_indices

    spec = results.spec()
    if spec.design not in ("sobol", "morris"):
        raise ConfigError(f"--sensitivity {metric}: the sweep's design is {spec.design!r}; indices need a sweep "
                          "with design = 'sobol' or 'morris'")
    analyse = sobol_indices if spec.design == "sobol" else morris_indices
    with warnings.catch_warnings():  # the report prints the indices' problems under them (format_sensitivity)
        warnings.simplefilter("ignore", SensitivityWarning)
        return analyse(results, spec, metric=metric, confidence=confidence)


def format_sensitivity(indices: pd.DataFrame) -> str:
    """The indices as a text table, with what they mean and the interval's level."""
    level = f"{100 * indices.attrs.get('confidence', 0.95):g}%"
    metric = indices.attrs.get("metric", "")
    if "ST" in indices:
        shown = indices[["parameter", "S1", "S1_conf", "ST", "ST_conf"]]
        note = (f"Sobol' indices of {metric}: S1 the share of its variance a parameter causes alone, ST alone and "
                f"with the others; *_conf the half-width of the {level} bootstrap interval.")
    else:
        shown = indices[["parameter", "mu_star", "mu_star_conf", "mu", "sigma"]]
        note = (f"Morris screening of {metric}: mu* the mean absolute effect of a parameter over its range, sigma "
                f"how much that effect depends on the others; mu_star_conf the half-width of the {level} "
                "bootstrap interval.")
    points = indices.attrs.get("points")
    tail = f" {points} sample points." if points else ""
    text = shown.to_string(index=False, float_format=lambda v: f"{v:.3f}") + "\n" + textwrap.fill(note + tail, 100)
    problems = [*indices.attrs.get("problems", ()), *filter(None, [indices.attrs.get("suggestion")])]
    if problems:
        text += "\nwarning: these indices do not mean anything yet:" + "".join(
            "\n" + textwrap.fill(line, 100, initial_indent="  ", subsequent_indent="    ") for line in problems)
    return text
