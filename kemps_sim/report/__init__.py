"""Reports of a results folder, as a library: what ``kemps-sim report`` and ``kemps-sim sweep`` print, worked out
here so that the command line only parses and prints.

- :func:`summarise`: the summary table of a folder (:class:`Summary`), written as CSV, with the lines under it;
- :func:`compare_text` and :func:`answer_text`: the difference between two groups, and the answer to the question
  of a spec's ``[compare]`` table (:mod:`kemps_sim.report.comparison`);
- :func:`sensitivity_table` and :func:`format_sensitivity`: the indices of a Sobol' or Morris sweep;
- :func:`load_folder` and :func:`with_scoring`: a folder's results, and its tables with each row's scoring rule.

Importing it loads no pandas; reading a folder does.
"""

from __future__ import annotations

from kemps_sim.report.comparison import answer_text, compare_text, comparison_text, spec_question, tables_for
from kemps_sim.report.folder import cell_scorings, check_by, game_of, grouping, load_folder, with_scoring
from kemps_sim.report.sensitivity import SENSITIVITY_CSV, SENSITIVITY_PNG, format_sensitivity, sensitivity_table
from kemps_sim.report.summary import SUMMARY_CSV, Summary, summarise, summary_csv_name

__all__ = ["SENSITIVITY_CSV", "SENSITIVITY_PNG", "SUMMARY_CSV", "Summary", "answer_text", "cell_scorings",
           "check_by", "compare_text", "comparison_text", "format_sensitivity", "game_of", "grouping", "load_folder",
           "sensitivity_table", "spec_question", "summarise", "summary_csv_name", "tables_for", "with_scoring"]
