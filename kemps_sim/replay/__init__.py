"""A match you can watch: a self-contained HTML replay page (:func:`write_html`), and the data it plays."""

from kemps_sim.replay.data import replay_data
from kemps_sim.replay.page import page_html, write_html

__all__ = ["page_html", "replay_data", "write_html"]
