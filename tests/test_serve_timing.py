"""The timing chain of a live table, measured with a robot person of known latencies over real TCP: it reacts to
a card arriving in the middle after a reaction it chose and clicks the card after a reach it chose, stamping each
click on its own clock (a page's clock, with an origin of its own). The reaction and reach times the study's trials
give back from the recorded tables (the same path `kemps-sim calibrate` takes) are within 10 ms of the chosen ones
at the 95th percentile. Also printed: the same times measured on the server's clock (when the stimulus left and the
click arrived) less the page's, which is the network's and the server's delay (the message's way out and the
click's way back) that the page's stamps leave out."""

from __future__ import annotations

import numpy as np

from kemps_sim.serve import LiveTable
from kemps_sim.serve.app import Room
from kemps_sim.study import load_sessions
from kemps_sim.study.trials import swap_trials
from tests.robot import Robot, Served

#: Trials the robot makes before the table is stopped.
TRIALS = 30


def test_recorded_reaction_and_reach_times_are_the_robots_within_10_ms(tmp_path):
    table = LiveTable("standard", ["collector"] * 4, remote=[0], seed=11, factor=1.0, data=tmp_path, rate=1000)
    served = Served(Room(table, tokens={"tok": 0}))
    rng = np.random.default_rng(11)
    before: dict[int, list[int]] = {}

    def answer(message: dict):
        if message["type"] != "view" or not message["playing"] or len(robot.answers) >= TRIALS:
            return None
        new = [card for card in message["middle"] if card not in before.get(message["round"], [])]
        before[message["round"]] = message["middle"]
        if not new:
            return None
        reaction, reach = rng.uniform(0.15, 0.4), rng.uniform(0.1, 0.3)
        return reaction, reach, {"kind": "swap", "give": [message["hand"][0]], "take": [new[0]]}

    robot = Robot(served.url("tok"), answer)
    thread = robot.start()
    while len(robot.answers) < TRIALS and thread.is_alive():
        thread.join(0.1)
    thread.join(0.5)  # the last swap reaches the seat's next look before the table stops
    table.stop()
    thread.join(20)
    served.close()
    assert len(robot.answers) == TRIALS
    tables = load_sessions(tmp_path)
    trials = swap_trials(tables, keep_excluded=True)
    # each of the robot's swaps is one trial, linked to the view it answered
    assert len(trials) == TRIALS and list(trials["stimulus_message"]) == [a["message"] for a in robot.answers]
    chosen_reaction = np.array([a["reaction"] for a in robot.answers])
    chosen_reach = np.array([a["reach"] for a in robot.answers])
    reaction_error = np.abs(trials["reaction"].to_numpy() - chosen_reaction)
    reach_error = np.abs(trials["reach"].to_numpy() - chosen_reach)
    # the server's view of the same reactions: the view sent to the swap received
    draws = tables["draws"].set_index("message")
    inputs = tables["inputs"].sort_values("input")
    server_total = inputs["server_time"].to_numpy() - draws.loc[trials["stimulus_message"], "server_time"].to_numpy()
    page_total = np.array([a["pressed"] - a["drawn"] for a in robot.answers])
    transport = server_total - page_total  # the message's way out and the click's way back
    print(f"\ntiming over {TRIALS} trials, p95 |recorded - chosen|: reaction "
          f"{1000 * np.quantile(reaction_error, .95):.2f} ms, reach {1000 * np.quantile(reach_error, .95):.2f} ms; "
          f"the server's clock adds the way out and back: median {1000 * np.median(transport):.1f} ms, p95 "
          f"{1000 * np.quantile(transport, .95):.1f} ms (a message that came while the robot was busy waited in its "
          "queue)")
    assert np.quantile(reaction_error, 0.95) <= 0.010 and np.quantile(reach_error, 0.95) <= 0.010
    assert np.all(transport > 0)  # the page answered after the server sent: the clocks are told apart right
