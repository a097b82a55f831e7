"""Several live tables and their people at once on this machine: three tables of two people each, served by one
server over real TCP, played by robot people who answer their views with swaps. Every match ends, every page gets
every message of its seat in order, and every input is recorded; the test prints the load the server held (tables,
people, messages a second) and how long messages took from the server to the pages (no timed assertion: these
machines are shared)."""

from __future__ import annotations

import numpy as np

from kemps_sim.serve import LiveTable
from kemps_sim.serve.app import Room
from kemps_sim.study import load_sessions
from tests.robot import Robot, Served

TABLES, HUMANS, FACTOR = 3, (0, 1), 0.01
#: A short match: two points win it.
RULES = {"preset": "standard", "scoring": "points", "target_points": 2}


def test_several_tables_and_people_at_once(tmp_path):
    tables = [LiveTable(RULES, ["collector"] * 4, remote=list(HUMANS), seed=20 + n, factor=FACTOR,
                        data=tmp_path, rate=1000) for n in range(TABLES)]
    tokens = {f"t{n}s{seat}": (n, seat) for n in range(TABLES) for seat in HUMANS}
    served = Served(Room(tables, tokens=tokens))
    rng = np.random.default_rng(3)

    def answer(message: dict):
        if message["type"] != "view" or not message["playing"] or not message["middle"] or rng.random() > 0.3:
            return None
        return 0.01, 0.01, {"kind": "swap", "give": [message["hand"][0]], "take": [message["middle"][-1]]}

    robots = {token: Robot(served.url(token), answer) for token in tokens}
    threads = [robot.start() for robot in robots.values()]
    for thread in threads:
        thread.join(300)
    results = [table.join(timeout=60) for table in tables]
    served.close()
    assert all(result is not None and result.end_reason == "match_over" for result in results)
    for robot in robots.values():  # every message of the seat, in order, ending with the match's end
        ids = [message["id"] for _, message in robot.received]
        assert ids == list(range(len(ids))) and robot.received[-1][1]["type"] == "over"
    data = load_sessions(tmp_path)
    assert sorted(data["sessions"]["status"]) == ["finished"] * TABLES * len(HUMANS)
    assert len(data["inputs"]) == sum(len(robot.answers) for robot in robots.values())
    # the load held: messages delivered, and their way from the server to the page
    started = {table.writer.session: table.started_at for table in tables}
    draws = data["draws"]
    sent_at = {(row.session, row.participant, row.message): started[row.session] + row.server_time
               for row in draws.itertuples()}
    participants = {(table.writer.session, seat): pid for table in tables
                    for seat, pid in table.writer.participants.items()}
    delays = []
    for token, robot in robots.items():
        number, seat = tokens[token]
        session = tables[number].writer.session
        for arrived, message in robot.received:
            key = (session, participants[session, seat], message["id"])
            if key in sent_at:
                delays.append(arrived - sent_at[key])
    span = max(a for robot in robots.values() for a, _ in robot.received) - min(
        a for robot in robots.values() for a, _ in robot.received)
    delays = np.array(delays)
    print(f"\nload: {TABLES} tables, {len(robots)} people, {len(delays)} messages in {span:.1f} s "
          f"({len(delays) / span:.0f} a second, {TABLES / FACTOR:.0f}x real time in all); server to page: median "
          f"{1000 * np.median(delays):.1f} ms, p95 {1000 * np.quantile(delays, 0.95):.1f} ms")
    assert len(delays) == len(draws) and (delays > 0).all()
